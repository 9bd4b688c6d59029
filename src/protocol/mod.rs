//! The text protocol: grammar ([`parse`]), typed commands ([`command`]), every printed line
//! ([`response`]), the engine options, the session state machine and the I/O loop ([`run`]).

pub mod command;
pub mod options;
pub mod parse;
pub mod response;
mod run;
pub mod session;

pub use run::{run, LINE_LIMIT};
