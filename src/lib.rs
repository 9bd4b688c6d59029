//! Tabula: one engine, one line protocol (a superset of UGI), five board games.
//!
//! The binary (`src/main.rs`) only wires stdin/stdout to [`protocol::run`]. Games implement
//! [`game::Game`] in `src/games/<name>/` and are listed once in [`registry::GAMES`].

pub mod arena;
pub mod bench;
pub mod game;
pub mod games;
pub mod protocol;
pub mod registry;
pub mod search;
pub mod strategy;
pub mod transcript;
pub mod util;
