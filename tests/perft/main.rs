//! Perft of every game, checked against references that share no code with the engine's
//! move generators (one module a game: `tests/architecture.rs` requires it).
//!
//! One crate of modules (one link of the library for all of them, not one per file).

mod backgammon;
mod bombardment;
mod breakthrough;
mod cascades;
mod gipf;
mod morris;
mod nim;
