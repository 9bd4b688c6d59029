//! The one place that lists every game, and the strategy each is played with; and the
//! string-level adapter ([`AnyGame`]) the protocol drives them through.

mod adapter;

use crate::game::{Game, GameError};
use crate::games::{backgammon, bombardment, breakthrough, cascades, gipf, morris, nim};
use crate::strategy;
pub use crate::strategy::{RolloutLimits, RolloutStats};
pub use adapter::{AnyGame, Found, Slot, SlotBuilder};
use std::sync::Arc;

/// Builds a game at its start position from `key=value` options and a `Hash` size in MiB.
pub type Constructor = fn(&[(&str, &str)], usize) -> Result<Box<dyn AnyGame>, GameError>;

/// A registered game: its `newgame` name and how to build it from `key=value` options.
pub struct Entry {
    /// The name used by `newgame` and the `Game` option.
    pub name: &'static str,
    /// Builds a new game at its start position with the given options and `Hash` size.
    pub new: Constructor,
}

/// Every game the engine plays, by name. Adding a game adds one line here: a game searched by
/// alpha-beta is `Entry { name: G::NAME, new: Slot::<G>::boxed }`.
pub const GAMES: &[Entry] = &[
    Entry {
        name: backgammon::Backgammon::NAME,
        new: |pairs, hash| {
            Slot::<backgammon::Backgammon>::boxed_with(
                pairs,
                hash,
                Arc::new(strategy::backgammon::Lookahead),
            )
        },
    },
    Entry {
        name: bombardment::NAME,
        new: |pairs, hash_mib| bombardment::build(pairs, SlotBuilder { hash_mib }),
    },
    Entry {
        name: breakthrough::Breakthrough::NAME,
        new: Slot::<breakthrough::Breakthrough>::boxed,
    },
    Entry {
        name: cascades::Cascades::NAME,
        new: Slot::<cascades::Cascades>::boxed,
    },
    Entry {
        name: gipf::Gipf::NAME,
        new: Slot::<gipf::Gipf>::boxed,
    },
    Entry {
        name: morris::Morris::NAME,
        new: Slot::<morris::Morris>::boxed,
    },
    Entry {
        name: nim::Nim::NAME,
        new: Slot::<nim::Nim>::boxed,
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
    // Refused rather than "the last one wins", as a position string's fields are.
    for (i, (key, _)) in options.iter().enumerate() {
        if options[..i].iter().any(|(earlier, _)| earlier == key) {
            return Err(GameError::BadOption(format!("{key} given twice")));
        }
    }
    (entry.new)(options, hash_mib)
}
