//! Playing strength and knowledge: solvers, endgame tables, tactics, opening books,
//! rollouts, variety, and the ignored measurements behind the docs.
//!
//! One crate of modules (one link of the library for all of them, not one per file).

#[path = "../common/mod.rs"]
mod common;

mod backgammon_cube_keith;
mod backgammon_speed;
mod cascades_solver;
mod cascades_strength;
mod gipf_play;
mod morris_tablebase;
mod morris_tactics;
mod opening_books;
mod rollout;
mod variety;
