//! The contract every game implements.
//!
//! A game is a position type implementing [`Game`]: the rules (legal moves, playing a move,
//! the outcome), the notation (move tokens and position strings, as fixed in
//! `shared/spec/notation.md`) and a static evaluation for the search. Optional parts, each a
//! trait of its own with defaults for every item ([`parts`], [`harness`]): search hints, a
//! chance step (dice), other position formats, exact values (solvers, endgame tables), and
//! what tests and tools need to know. This module imports nothing from the rest of the crate:
//! games sit at the bottom of the layers (protocol -> registry -> search -> game).

pub mod best_play;
mod harness;
mod legality;
mod options;
mod parts;

pub use harness::{Harness, Laws};
pub use legality::{find_equal, resolve_move, NOT_LEGAL};
pub use options::{check_options, GameOption, OptionKind};
pub use parts::{Dice, Exact, Formats, Hints};

use std::fmt::{self, Debug};

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
    /// A move of a `position ... moves` list failed: its place in the list (from 1) and why.
    InMoveList {
        /// 1 for the first move of the list.
        index: usize,
        /// Why that move failed.
        error: Box<GameError>,
    },
    /// `position NAME ...` or `fen NAME` with a format the game does not have.
    NoSuchFormat {
        /// The game's name.
        game: &'static str,
        /// The format asked for.
        format: String,
        /// The formats it has, `fen` first.
        known: Vec<&'static str>,
    },
    /// The position exists but cannot be written in this format (a format's own limits).
    CannotWrite(String),
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
            GameError::InMoveList { index, error } => {
                write!(f, "{error} (move {index} of the list)")
            }
            GameError::NoSuchFormat {
                game,
                format,
                known,
            } => write!(
                f,
                "{game} has no position format {format} (its formats: {})",
                known.join(", ")
            ),
            GameError::CannotWrite(format) => {
                write!(f, "this position cannot be written as {format}")
            }
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

impl Chance {
    /// The event whose slice of the cumulative probabilities holds `u` (in [0, 1)): how
    /// every roll is drawn, at random (`u` uniform) or stratified (`u` in a given slice).
    pub fn draw(events: &[Chance], u: f64) -> u32 {
        // Sums of k/36 in floating point land a hair off k/36: a slice that starts exactly at
        // a boundary must still open the next event's share.
        const ROUNDING: f64 = 1e-12;
        let mut cumulative = 0.0;
        for chance in events {
            cumulative += chance.probability;
            if u < cumulative - ROUNDING {
                return chance.event;
            }
        }
        events.last().map_or(0, |chance| chance.event)
    }
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

/// What a game's own solver found (see [`Exact::solve`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The exact value for the side to move, or `None` when the solver gave up.
    pub value: Option<Proven>,
    /// A move that keeps that value (`None` when the game is over or the value is unknown).
    pub best: Option<M>,
    /// Positions the solver visited.
    pub nodes: u64,
}

impl<M> Solution<M> {
    /// The same solution with its move turned into another form (its spelling).
    pub fn map<N>(self, f: impl FnOnce(M) -> N) -> Solution<N> {
        Solution {
            value: self.value,
            best: self.best.map(f),
            nodes: self.nodes,
        }
    }
}

/// One game's rules and notation: what every game implements. Implementations live in
/// `src/games/<name>/`; the optional parts ([`Hints`], [`Dice`], [`Formats`], [`Exact`],
/// [`Harness`]) have a default for every item, so a simple game implements each with an empty
/// `impl` block (see `src/games/nim/`, the template).
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
    /// Every `newgame` option, in [`Game::format_options`]'s order: the one statement of
    /// them that the protocol, `help` and the web board read (a test checks the parser
    /// against it).
    const OPTIONS: &'static [GameOption];

    /// Parses `key=value` options; keys not given keep their defaults. The registry has
    /// already checked the pairs against [`Game::OPTIONS`] ([`check_options`]).
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
    /// Games read the text for its syntax and look it up among [`Game::legal_moves`]
    /// ([`resolve_move`]), so that the generator alone decides what is legal.
    fn parse_move(&self, token: &str) -> Result<Self::Move, GameError>;

    /// Static evaluation in centipawn-like units from the side to move's point of view.
    fn evaluate(&self) -> i32;
    /// A hash of everything that decides the future of the game (Zobrist style).
    fn hash(&self) -> u64;
    /// A human-readable board for the `d` command, one string per line, no trailing spaces.
    fn board_lines(&self) -> Vec<String>;

    /// How many legal moves there are: all perft needs at its last ply. A game counts them
    /// without listing them where that is faster (bulk counting); the count must equal
    /// [`Game::legal_moves`]'s length, 0 once the game is over. Default: lists them.
    fn count_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.len() as u64
    }

    /// Counts move sequences of length `depth` (notation.md's perft): copy-make, one reused
    /// move list per ply, [`Game::count_moves`] at the last ply. A game supplies its count,
    /// not a perft of its own.
    fn perft(&self, depth: u32) -> u64 {
        let mut lists = vec![Vec::new(); depth.saturating_sub(1) as usize];
        perft_with(self, depth, &mut lists)
    }
}

/// A game with all its parts, as the search and the protocol adapter take it. Every type
/// implementing the six traits is one.
pub trait Complete: Game + Hints + Dice + Formats + Exact + Harness {}

impl<G: Game + Hints + Dice + Formats + Exact + Harness> Complete for G {}

/// Lets a game choose among several position types for one set of options (Bombardment's
/// bitboard widths) without knowing what is built around them: the registry passes a builder,
/// the game calls [`Build::build`] with the type it chose.
pub trait Build {
    /// What is built (the registry's adapter).
    type Output;
    /// Builds around position type `G` with `options`.
    fn build<G: Complete>(self, options: G::Options) -> Self::Output;
}

/// [`Game::perft`] with `lists[0]` for this ply's moves and the rest for the plies below;
/// terminal positions add nothing beyond depth 0, as notation.md defines.
fn perft_with<G: Game>(pos: &G, depth: u32, lists: &mut [Vec<G::Move>]) -> u64 {
    if depth <= 1 {
        return if depth == 0 { 1 } else { pos.count_moves() };
    }
    let Some((moves, below)) = lists.split_first_mut() else {
        return 0;
    };
    moves.clear();
    pos.legal_moves(moves);
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = pos.clone();
        child.play(mv);
        total += perft_with(&child, depth - 1, below);
    }
    total
}
