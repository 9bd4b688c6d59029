//! The contract every game implements.
//!
//! A game is a position type implementing [`Game`]: the rules (legal moves, playing a move,
//! the outcome), the notation (move tokens and position strings, as fixed in
//! `shared/spec/notation.md`), a static evaluation for the search, and optionally a chance
//! step (dice). Everything outside `src/games/<name>/` talks to games through this trait,
//! or through the string-level [`crate::registry::AnyGame`] adapter built on it.

use std::fmt::{self, Debug};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// One of the two players. White (p1) moves first in every game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first player (UGI `p1`).
    White,
    /// The second player (UGI `p2`).
    Black,
}

impl Side {
    /// The other player.
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The lower-case name used in protocol output (`white`, `black`).
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Points won: 1, except backgammon gammons (2) and backgammons (3); 0 for a draw.
    pub points: u32,
    /// Why the game ended, one hyphenated word (`far-rank`, `no-pieces`, `repetition`, ...).
    pub reason: &'static str,
}

impl Outcome {
    /// A one-point win for `winner`.
    pub fn win(winner: Side, reason: &'static str) -> Outcome {
        Outcome {
            winner: Some(winner),
            points: 1,
            reason,
        }
    }

    /// A draw.
    pub fn draw(reason: &'static str) -> Outcome {
        Outcome {
            winner: None,
            points: 0,
            reason,
        }
    }
}

/// Errors a user can cause. `Display` is lower-case without a trailing period; the protocol
/// prints it after `error `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// `newgame NAME` with a name no game has.
    UnknownGame(String),
    /// A `key=value` game option that is unknown or out of range.
    BadOption(String),
    /// A position string that does not describe a valid position.
    BadPosition(String),
    /// A token that is not a move of this game at all (syntax).
    BadMove {
        /// The token as given.
        token: String,
        /// What was expected.
        reason: String,
    },
    /// A well-formed move that is not legal in this position.
    IllegalMove {
        /// The token as given.
        token: String,
        /// Which rule it breaks.
        reason: String,
    },
    /// The game is over: there is nothing to play.
    GameOver,
    /// The command needs something this game does not have (`dice` in Bombardment).
    Unsupported(&'static str),
}

impl GameError {
    /// Shorthand for [`GameError::IllegalMove`].
    pub fn illegal(token: &str, reason: impl Into<String>) -> GameError {
        GameError::IllegalMove {
            token: token.to_owned(),
            reason: reason.into(),
        }
    }

    /// Shorthand for [`GameError::BadMove`].
    pub fn bad_move(token: &str, reason: impl Into<String>) -> GameError {
        GameError::BadMove {
            token: token.to_owned(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::UnknownGame(name) => write!(f, "unknown game: {name}"),
            GameError::BadOption(what) => write!(f, "bad option: {what}"),
            GameError::BadPosition(what) => write!(f, "bad position: {what}"),
            GameError::BadMove { token, reason } => write!(f, "bad move {token}: {reason}"),
            GameError::IllegalMove { token, reason } => {
                write!(f, "illegal move {token}: {reason}")
            }
            GameError::GameOver => write!(f, "the game is over"),
            GameError::Unsupported(what) => write!(f, "{what} is not part of this game"),
        }
    }
}

impl std::error::Error for GameError {}

/// A chance event (a dice roll) and its probability.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Chance {
    /// The game's own number for the event (backgammon: one of the 21 rolls).
    pub event: u32,
    /// Its probability; the events of one node sum to 1.
    pub probability: f64,
}

/// A game-theoretic value known exactly, from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proven {
    /// The side to move wins in this many plies with best play.
    Win(u32),
    /// The side to move loses in this many plies with best play.
    Loss(u32),
    /// Best play draws.
    Draw,
}

/// What a game's own solver found (see [`Game::solve`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The exact value for the side to move, or `None` when the solver gave up.
    pub value: Option<Proven>,
    /// A move that keeps that value (`None` when the game is over or the value is unknown).
    pub best: Option<M>,
    /// Positions the solver visited.
    pub nodes: u64,
}

/// One game's rules, notation and evaluation. Implementations live in `src/games/<name>/`.
///
/// Positions are copy-make: the search clones a position and calls [`Game::play`] on the
/// clone, so a position should be cheap to clone. A position carries everything its rules
/// need, including any history a draw rule looks at (repetitions).
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// One whole turn, exactly one protocol token (`e2e3`, `c3,c4`, `d2xa1`, `31:8/5,6/5`).
    type Move: Copy + Eq + Debug + Send + Sync + 'static;
    /// The `newgame NAME key=value ...` options.
    type Options: Clone + Debug + Default + Send + Sync + 'static;

    /// The name used by `newgame` and the `Game` option (notation.md).
    const NAME: &'static str;

    /// Parses `key=value` options; keys not given keep their defaults.
    fn parse_options(pairs: &[(&str, &str)]) -> Result<Self::Options, GameError>;
    /// The options as `key=value` tokens, every key, in a fixed order.
    fn format_options(options: &Self::Options) -> String;

    /// The start position.
    fn start(options: &Self::Options) -> Self;
    /// Parses a position string as printed by [`Game::to_fen`].
    fn from_fen(fen: &str, options: &Self::Options) -> Result<Self, GameError>;
    /// The position string; `from_fen(to_fen(p))` gives `p` back (history aside).
    fn to_fen(&self) -> String;

    /// The player to move (at a chance node: the player who will move after the roll).
    fn side_to_move(&self) -> Side;
    /// Appends every legal move once. Empty exactly when [`Game::outcome`] is `Some`.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Plays a move that came from [`Game::legal_moves`] of this position.
    fn play(&mut self, mv: Self::Move);
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The canonical spelling of a legal move of this position.
    fn format_move(&self, mv: Self::Move) -> String;
    /// Resolves any accepted spelling to a legal move, or says why it is not one:
    /// [`GameError::BadMove`] for syntax, [`GameError::IllegalMove`] with the broken rule.
    fn parse_move(&self, token: &str) -> Result<Self::Move, GameError>;

    /// Static evaluation in centipawn-like units from the side to move's point of view.
    fn evaluate(&self) -> i32;
    /// A hash of everything that decides the future of the game (Zobrist style).
    fn hash(&self) -> u64;
    /// A human-readable board for the `d` command, one string per line, no trailing spaces.
    fn board_lines(&self) -> Vec<String>;

    /// A cheap score to try promising moves first (higher first). Default: no preference.
    fn move_order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// True when the evaluation favours the side to move so much that searches ending on
    /// the opponent's move (odd depths) and on the mover's own (even depths) disagree: the
    /// iterative deepening then completes odd depths only (and the depth `go depth N` asks
    /// for), so that the move played never swings with how deep the clock allowed. Default:
    /// every depth.
    fn odd_depths_only(&self) -> bool {
        false
    }

    /// Moves that change the material balance at once (captures, detonations, mills), which
    /// the search follows past its horizon so it never stops in the middle of an exchange.
    /// Default: none (the search then stops at the horizon).
    fn tactical_moves(&self, _out: &mut Vec<Self::Move>) {}

    /// The exact value of this position when it is known without search (an endgame table,
    /// a solved small game). The search trusts it and plays for the fastest win. Default: none.
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

    /// Position formats this game reads and writes besides its own position string, by
    /// lower-case name (backgammon: `xgid`, `gnubgid`); used by `position NAME TEXT` and
    /// `fen NAME`. Default: none.
    fn formats() -> &'static [&'static str] {
        &[]
    }
    /// Parses a position written in `format`, one of [`Game::formats`].
    fn from_format(
        _format: &str,
        _text: &str,
        _options: &Self::Options,
    ) -> Result<Self, GameError> {
        Err(GameError::Unsupported("this position format"))
    }
    /// Writes this position in `format`, one of [`Game::formats`].
    fn to_format(&self, _format: &str) -> Option<String> {
        None
    }

    /// A search of the game's own for `go` at this position, used instead of the generic
    /// one (backgammon: a few candidate plays looked at through every roll). `None` (the
    /// default): the generic search runs.
    fn own_search(
        &self,
        _limits: &crate::search::Limits,
        _stop: &AtomicBool,
        _report: &mut dyn FnMut(&crate::search::Info),
    ) -> Option<crate::search::SearchResult<Self::Move>> {
        None
    }

    /// At a chance node: the moves a player may make instead of letting the dice fall
    /// (backgammon's `double`). `go` there weighs each of them against rolling and answers
    /// the best one, or `roll`. Default: none, and `go` at a chance node is an error.
    fn pre_chance_moves(&self, _out: &mut Vec<Self::Move>) {}

    /// Counts move sequences of length `depth` (notation.md's perft). Games may override
    /// this with bulk counting; the result must not change.
    fn perft(&self, depth: u32) -> u64 {
        generic_perft(self, depth)
    }

    /// The chance events waiting at this position (the 21 rolls before a backgammon turn);
    /// empty when a player is to decide, which is always for deterministic games.
    fn chance_events(&self, _out: &mut Vec<Chance>) {}
    /// Fixes the outcome of the pending chance event (one of [`Game::chance_events`]).
    fn apply_chance(&mut self, _event: u32) {}
    /// Parses a chance token (`dice 31`) into an event of this position.
    fn parse_chance(&self, _token: &str) -> Result<u32, GameError> {
        Err(GameError::Unsupported("dice"))
    }
    /// Spells a chance event as [`Game::parse_chance`] reads it.
    fn format_chance(&self, event: u32) -> String {
        event.to_string()
    }

    /// The value of a finished game for the side to move, in [`Game::evaluate`] units, for
    /// games whose search averages over dice and so must weigh results against evaluations.
    /// `None` (the default) scores a finished game as a proven win or loss.
    fn terminal_value(&self, _outcome: &Outcome) -> Option<i32> {
        None
    }

    /// Debug-only invariants, checked by tests after every move.
    fn is_consistent(&self) -> bool {
        true
    }
}

/// The plain copy-make perft every game starts from; terminal positions add nothing beyond
/// depth 0, as notation.md defines.
pub fn generic_perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            child.perft(depth - 1)
        })
        .sum()
}
