//! The optional parts of a game. Every item has a default that fits a plain deterministic
//! game, so such a game implements each part with an empty `impl` block and reads no further.

use super::{Chance, Game, GameError, Outcome, Proven, Solution};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What a game can tell the search to make it faster or steadier. Defaults: no preference.
pub trait Hints: Game {
    /// A cheap score to try promising moves first (higher first).
    fn move_order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// True when this position's scores are `1000 (2 P - 1)` of the side to move's chance P
    /// of winning what is played for (a backgammon match: the match), so that `info` lines
    /// can give the chance itself. Default: scores are only an evaluation.
    fn scores_are_chances(&self) -> bool {
        false
    }

    /// Moves that change the material balance at once (captures, detonations, mills), which
    /// the search follows past its horizon so it never stops in the middle of an exchange.
    /// Default: none (the search then stops at the horizon).
    fn tactical_moves(&self, _out: &mut Vec<Self::Move>) {}

    /// True when the evaluation favours the side to move so much that searches ending on
    /// the opponent's move (odd depths) and on the mover's own (even depths) disagree: the
    /// iterative deepening then completes odd depths only (and the depth `go depth N` asks
    /// for), so that the move played never swings with how deep the clock allowed. Default:
    /// every depth.
    fn odd_depths_only(&self) -> bool {
        false
    }

    /// The most plies the search may take off a late quiet move at this position (late-move
    /// reductions). A game lowers it where a quiet move can hide a threat the reduced search
    /// would miss (0 = never reduce here). Default: 2, the search's own largest reduction.
    fn max_reduction(&self) -> i32 {
        2
    }

    /// The move the game's own opening book plays here, if the book holds this position.
    /// The search answers it without searching, and only for timed searches with the
    /// `OwnBook` engine option on (`go depth`/`go nodes` stay reproducible searches).
    /// Default: no book.
    fn book_move(&self) -> Option<Self::Move> {
        None
    }

    /// Moves that keep the value the game's own solver proves for this position (at least
    /// one, maybe not all), or, when it proves none in time, the moves it has not proven to
    /// lose: the search then chooses among these only, so a proven draw is never played
    /// into a loss, nor a proven win into less. A timed search gives a
    /// `deadline` (the proof may then use and keep work from earlier proofs); without one
    /// the work is a fixed amount, so `go depth` and `go nodes` stay reproducible. `stop`
    /// ends the proof. Default: none (every move).
    fn value_keeping_moves(
        &self,
        _deadline: Option<Instant>,
        _stop: &AtomicBool,
    ) -> Option<Vec<Self::Move>> {
        None
    }

    /// True when the side to move faces a forced decision that should not use up a ply of
    /// the search's depth (GIPF: a row of its own waits for its choice of which to remove):
    /// the search looks one ply further below such a position. Default: never.
    fn extends(&self) -> bool {
        false
    }

    /// The position after the side to move passes, where a pass is a fair test of a
    /// position's strength (null-move pruning: a position that still beats the search's
    /// bound after handing the opponent a free move is cut after a shallower search). Only
    /// where having the move always helps; never where a side may be forced to weaken itself
    /// (zugzwang). Default: never.
    fn null_move(&self) -> Option<Self> {
        None
    }
}

/// A chance step (dice): positions where the next event is random rather than chosen.
/// Defaults: a deterministic game, with no chance node ever.
pub trait Dice: Game {
    /// The chance events waiting at this position (the 21 rolls before a backgammon turn);
    /// empty when a player is to decide.
    fn chance_events(&self, _out: &mut Vec<Chance>) {}
    /// Fixes the outcome of the pending chance event (one of [`Dice::chance_events`]).
    fn apply_chance(&mut self, _event: u32) {}
    /// Parses a chance token (`dice 31`) into an event of this position.
    fn parse_chance(&self, _token: &str) -> Result<u32, GameError> {
        Err(GameError::Unsupported("dice"))
    }
    /// Spells a chance event as [`Dice::parse_chance`] reads it.
    fn format_chance(&self, event: u32) -> String {
        event.to_string()
    }

    /// The value of a finished game for the side to move, in [`Game::evaluate`] units, for
    /// games whose search averages over dice and so must weigh results against evaluations.
    /// `None` (the default) scores a finished game as a proven win or loss.
    fn terminal_value(&self, _outcome: &Outcome) -> Option<i32> {
        None
    }
}

/// Position formats a game reads and writes besides its own position string.
/// Default: none.
pub trait Formats: Game {
    /// The formats by lower-case name (backgammon: `xgid`, `gnubgid`); used by
    /// `position NAME TEXT` and `fen NAME`.
    fn formats() -> &'static [&'static str] {
        &[]
    }
    /// Parses a position written in `format`, one of [`Formats::formats`].
    fn from_format(
        _format: &str,
        _text: &str,
        _options: &Self::Options,
    ) -> Result<Self, GameError> {
        Err(GameError::Unsupported("this position format"))
    }
    /// Writes this position in `format`, one of [`Formats::formats`].
    fn to_format(&self, _format: &str) -> Option<String> {
        None
    }
}

/// Exact values: endgame tables and solvers of the game's own. Default: none.
pub trait Exact: Game {
    /// True when [`Exact::proven_value`] may run a proof search of its own (thousands of
    /// positions): the search then looks at its clock and `stop` after every call, so that
    /// a run of proofs at its leaves cannot carry it past its time.
    const PROOFS_TAKE_TIME: bool = false;

    /// The exact value of this position when it is known without search (an endgame table,
    /// a solved small game). The search trusts it and plays for the fastest win.
    fn proven_value(&self) -> Option<Proven> {
        None
    }

    /// Proves the exact value of this position with a solver of the game's own (a proof
    /// search, endgame tables), giving up at `deadline` or as soon as `stop` is set.
    /// `None` (the default): the game has no solver, and the protocol's `solve` runs the
    /// generic search until it proves a result.
    fn solve(
        &self,
        _deadline: Option<Instant>,
        _stop: &AtomicBool,
    ) -> Option<Solution<Self::Move>> {
        None
    }

    /// Points the game at its endgame tables in `dir` (the `TablebasePath` engine option;
    /// `None`: use none) by changing `options`; the game decides which files it needs.
    /// Returns a note for an `info string` line, or `None` when the game has no tables and
    /// left `options` alone (the default). Tables may load on a background thread, which
    /// calls `loaded` with a second note when they are ready.
    fn attach_tablebases(
        _options: &mut Self::Options,
        _dir: Option<&Path>,
        _loaded: Box<dyn FnOnce(String) + Send>,
    ) -> Option<String> {
        None
    }

    /// True while tables attached to `options` are still loading in the background
    /// (`isready` waits for them, as UCI asks after a tablebase path is set). Default: never.
    fn tablebases_loading(_options: &Self::Options) -> bool {
        false
    }
}
