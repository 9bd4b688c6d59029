//! The text protocol: grammar ([`parse`]), typed commands ([`command`]), every printed line
//! ([`response`]), the engine options, the session (dispatch in `session`, the game and
//! options in `setup`, the jobs of the search thread in `searches` and `search_job`, the
//! clock in `clock` and `lag`, read-ahead `stop`s in `read_ahead`), bounded input lines in
//! `lines`, the I/O loop ([`run`]), and
//! the small loop of the sparring partners ([`sparring`]).

mod clock;
pub mod command;
mod lag;
mod lines;
pub mod options;
pub mod parse;
pub mod read_ahead;
pub mod response;
mod run;
mod search_job;
mod searches;
pub mod session;
mod setup;
pub mod sparring;
mod ubgi;
mod words;

pub use lines::LINE_LIMIT;
pub use run::run;
pub use words::{option_pairs, position_from_words};
