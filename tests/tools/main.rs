//! The tool binaries and the arena library: matches and shards, the sparring partners,
//! tuning, book walks, the web board, the tools' arguments and the Morris tables' checkpoints.
//!
//! One crate of modules (one link of the library for all of them, not one per file).

#[path = "../common/mod.rs"]
mod common;

mod arena;
mod arena_shards;
mod book_walk;
mod gipf_sparring;
mod morris_sparring;
mod morris_tb;
mod morris_tune;
mod sparring;
mod tool_arguments;
mod web_board;
