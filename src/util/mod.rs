//! Small shared helpers.

pub mod book_text;
pub mod cli;
pub mod rng;
pub mod threads;
