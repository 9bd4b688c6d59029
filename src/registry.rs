//! The one place that lists every game.

pub use crate::any_game::{AnyGame, Found, Slot, Solved};
use crate::game::{Game, GameError};
use crate::games;

/// Builds a game at its start position from `key=value` options and a `Hash` size in MiB.
pub type Constructor = fn(&[(&str, &str)], usize) -> Result<Box<dyn AnyGame>, GameError>;

/// A registered game: its `newgame` name and how to build it from `key=value` options.
pub struct Entry {
    /// The name used by `newgame` and the `Game` option.
    pub name: &'static str,
    /// Builds a new game at its start position with the given options and `Hash` size.
    pub new: Constructor,
}

/// Every game the engine plays. Adding a game adds one line here.
pub const GAMES: &[Entry] = &[
    Entry {
        name: games::backgammon::Backgammon::NAME,
        new: Slot::<games::backgammon::Backgammon>::boxed,
    },
    Entry {
        name: "bombardment",
        new: games::bombardment::new_game,
    },
    Entry {
        name: games::cascades::Cascades::NAME,
        new: Slot::<games::cascades::Cascades>::boxed,
    },
    Entry {
        name: games::gipf::Gipf::NAME,
        new: Slot::<games::gipf::Gipf>::boxed,
    },
    Entry {
        name: games::morris::Morris::NAME,
        new: Slot::<games::morris::Morris>::boxed,
    },
];

/// Finds a game by name and builds it.
pub fn new_game(
    name: &str,
    options: &[(&str, &str)],
    hash_mib: usize,
) -> Result<Box<dyn AnyGame>, GameError> {
    let entry = GAMES
        .iter()
        .find(|entry| entry.name == name)
        .ok_or_else(|| GameError::UnknownGame(name.to_owned()))?;
    (entry.new)(options, hash_mib)
}
