//! What tests and tools need to know of a game beyond its rules: invariants, the `bench`
//! depth, and rules read from position strings alone. Generic tests and tools take these from
//! the registry, so they never name a game.

use super::Game;

/// Rules a test checks from the public position strings and move tokens alone. Write them
/// apart from the game's own code (parsing the strings afresh, never calling the game's
/// internals), so that they check the game rather than repeat it. `None` where the string
/// alone cannot tell.
#[derive(Copy, Clone)]
pub struct Laws {
    /// The pieces of White and Black the rules keep track of (on the board, in hand, in
    /// reserve: whatever the game's conservation rules count).
    pub pieces: fn(fen: &str) -> Option<[i64; 2]>,
    /// What [`Laws::pieces`] must be after `token` is played from `before`, by the rules.
    pub pieces_after: fn(before: &str, token: &str) -> Option<[i64; 2]>,
    /// `Some(true)` when the rules say the game is over, `Some(false)` when they say it goes
    /// on, `None` when the string alone cannot tell (history-dependent draws, blocked men).
    pub over: fn(fen: &str) -> Option<bool>,
    /// Invariants of one position (a conserved total, counts in range); `Err` says which broke.
    pub position: fn(fen: &str) -> Result<(), String>,
    /// Invariants of one move from `before` to `after` (counters that never go down).
    pub step: fn(before: &str, after: &str) -> Result<(), String>,
}

impl Laws {
    /// Checks nothing: the default of a game that states no laws (the meta-test refuses it
    /// for registered games).
    pub const NONE: Laws = Laws {
        pieces: |_| None,
        pieces_after: |_, _| None,
        over: |_| None,
        position: |_| Ok(()),
        step: |_, _| Ok(()),
    };
}

/// Hooks for tests and tools. Defaults: no extra invariant, `bench` depth 4, no laws.
pub trait Harness: Game {
    /// The depth `bench` searches this game to: about a second of search on one core.
    const BENCH_DEPTH: u32 = 4;

    /// Debug-only invariants of the position's internals, checked by tests after every move.
    fn is_consistent(&self) -> bool {
        true
    }

    /// The rules tests check from position strings (see [`Laws`]).
    fn laws() -> Laws {
        Laws::NONE
    }
}
