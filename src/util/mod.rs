//! Small shared helpers.

pub mod board_text;
pub mod book_text;
pub mod child;
pub mod cli;
pub mod rng;
pub mod threads;
