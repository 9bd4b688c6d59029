//! The engine binary through its protocol: transcripts, the conformance and property
//! batteries of every game, limits, responsiveness, option pairs and the command lines.
//!
//! One crate of modules (one link of the library for all of them, not one per file).

#[path = "../common/mod.rs"]
mod common;

mod bench_signature;
mod cli;
mod conformance;
mod fault_injection;
mod multipv_threads;
mod node_limits;
mod option_matrix;
mod placement_solve;
mod properties;
mod protocol_examples;
mod resource_limits;
mod responsiveness;
mod table_loading;
mod transcripts;
