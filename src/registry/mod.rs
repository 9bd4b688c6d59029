//! The one place that lists every game, and the strategy each is played with; and the
//! string-level adapter ([`AnyGame`]) the protocol drives them through.

mod adapter;
#[cfg(test)]
mod legality_tests;

use crate::game::{check_options, Complete, Game, GameError, GameOption};
use crate::games::{backgammon, bombardment, breakthrough, cascades, gipf, morris, nim};
use crate::strategy;
pub use crate::strategy::{RolloutLimits, RolloutStats};
pub use adapter::{
    AnyCounting, AnyGame, AnyHarness, AnyPosition, AnyThinking, Found, Slot, SlotBuilder,
};
/// Backgammon's plays in UBGI's plain format (`8/5 6/5`), what the UBGI session answers.
pub use backgammon::move_text::to_plain as backgammon_plain_move;
use std::sync::Arc;

/// Builds a game at its start position from `key=value` options and a `Hash` size in MiB.
pub type Constructor = fn(&[(&str, &str)], usize) -> Result<Box<dyn AnyGame>, GameError>;

/// A registered game: its `newgame` name, its declared options and how to build it.
pub struct Entry {
    /// The name used by `newgame` and the `Game` option.
    pub name: &'static str,
    /// Its `key=value` options ([`Game::OPTIONS`]).
    pub options: &'static [GameOption],
    /// Builds a new game at its start position with the given options and `Hash` size; the
    /// options are not checked against [`Entry::options`] first ([`new_game`] does that).
    pub new: Constructor,
}

impl Entry {
    /// A game searched by alpha-beta: its whole registry line.
    pub const fn alpha_beta<G: Complete>() -> Entry {
        Entry::with::<G>(Slot::<G>::boxed)
    }

    /// A game built by `new` (its own searcher, or a position type chosen by its options),
    /// named and declared by `G`.
    pub const fn with<G: Game>(new: Constructor) -> Entry {
        Entry {
            name: G::NAME,
            options: G::OPTIONS,
            new,
        }
    }
}

/// Every game the engine plays, by name. Adding a game adds one line here: a game searched by
/// alpha-beta is `Entry::alpha_beta::<G>()`.
pub const GAMES: &[Entry] = &[
    Entry::with::<backgammon::Backgammon>(|pairs, hash| {
        Slot::<backgammon::Backgammon>::boxed_with(
            pairs,
            hash,
            Arc::new(strategy::backgammon::Lookahead),
        )
    }),
    Entry::with::<bombardment::Bombardment<u64>>(|pairs, hash_mib| {
        bombardment::build(pairs, SlotBuilder { hash_mib })
    }),
    Entry::alpha_beta::<breakthrough::Breakthrough>(),
    Entry::alpha_beta::<cascades::Cascades>(),
    Entry::alpha_beta::<gipf::Gipf>(),
    Entry::alpha_beta::<morris::Morris>(),
    Entry::alpha_beta::<nim::Nim>(),
];

/// Finds a game by name and builds it, its options checked against its declaration first
/// (so every game refuses a bad option in the same words).
pub fn new_game(
    name: &str,
    options: &[(&str, &str)],
    hash_mib: usize,
) -> Result<Box<dyn AnyGame>, GameError> {
    let entry = GAMES
        .iter()
        .find(|entry| entry.name == name)
        .ok_or_else(|| GameError::UnknownGame(name.to_owned()))?;
    check_options(entry.name, entry.options, options)?;
    (entry.new)(options, hash_mib)
}
