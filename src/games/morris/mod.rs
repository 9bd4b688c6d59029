//! Nine Men's Morris (`newgame morris`).
//!
//! Rules (shared/rules/nine-mens-morris.es.txt, names and tokens from shared/spec/notation.md):
//! - 24 points; each player has 9 pieces in hand, White moves first. While a player has pieces
//!   in hand it places one on an empty point ([`Phase::Placing`]); afterwards it slides a piece
//!   to an adjacent empty point ([`Phase::Moving`]). With `flying=true` a player with exactly 3
//!   pieces on the board and none in hand may move a piece to any empty point ([`Phase::Flying`]).
//! - A placement or move that completes a line of three (a mill; one or two at once) takes
//!   exactly one opposing piece. A piece standing in a mill may be taken only when every
//!   opposing piece stands in a mill. When the opponent has no piece on the board the mill
//!   takes nothing.
//! - A player with fewer than 3 pieces (board + hand) loses; a player to move with no legal move
//!   loses. These losses are checked before the draws below.
//! - Draw when the same position (board, side to move, pieces in hand) occurs for the
//!   `repetition`-th time (default 3; the starting position of the record counts), or when
//!   `nocapture` plies in a row (default 100, placements included) pass without a capture.
//!   0 turns either rule off.
//!
//! Moves: placement `d2`, step or fly `d2d3`, with the capture suffix `xa1` (`d2xa1`,
//! `d2d3xa1`). Position string: the seven ranks from 7 down to 1, each listing its points
//! from file a to g (`W` white, `B` black, `.` empty), separated by `/`, then the side to move
//! (`w`/`b`), White's and Black's pieces in hand, and the plies since the last capture:
//! `.../.../.../....../.../.../... w 9 9 0` is the start.

mod board;
pub mod book;
pub mod eval;
#[cfg(test)]
mod eval_tests;
mod history;
mod laws;
mod lines;
mod movegen;
mod notation;
mod placement;
pub mod placement_table;
#[cfg(test)]
mod placement_table_tests;
#[cfg(test)]
mod placement_tests;
mod proof_table;
mod symmetry;
pub mod tablebase;
#[cfg(test)]
mod tablebase_tests;
mod tablefile;
pub mod tables;
#[cfg(test)]
mod tests;

pub use movegen::{MoveList, Phase};

use crate::game::{
    Dice, Exact, Formats, Game, GameError, GameOption, Harness, Hints, Laws, OptionKind, Outcome,
    Proven, Side, Solution,
};
use board::{BLACK_TO_MOVE_KEY, HAND_KEYS, PIECE_KEYS, QUIET_KEY};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Marks "no point": the `from` of a placement, the `capture` of a move without one.
pub const NO_POINT: u8 = u8::MAX;

/// One turn: a placement (`from == NO_POINT`) or a step/fly, with an optional capture.
/// Points are indices into the byte-ordered point list (a1 = 0 ... g7 = 23).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece comes from, or [`NO_POINT`] for a placement.
    pub from: u8,
    /// Where the piece lands.
    pub to: u8,
    /// The opposing piece taken, or [`NO_POINT`].
    pub capture: u8,
}

impl Move {
    /// A placement on `to` without a capture.
    pub fn placement(to: usize) -> Move {
        Move {
            from: NO_POINT,
            to: to as u8,
            capture: NO_POINT,
        }
    }

    /// A step or fly from `from` to `to` without a capture.
    pub fn step(from: usize, to: usize) -> Move {
        Move {
            from: from as u8,
            to: to as u8,
            capture: NO_POINT,
        }
    }

    /// True when the move takes a piece.
    pub fn is_capture(self) -> bool {
        self.capture != NO_POINT
    }
}

/// The `newgame morris` options (notation.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Whether a player reduced to 3 pieces (none in hand) may fly.
    pub flying: bool,
    /// The occurrence of a position that draws (0: no repetition rule).
    pub repetition: u32,
    /// Plies without a capture that draw (0: no such rule).
    pub nocapture: u32,
    /// Endgame tables attached with the `TablebasePath` engine option (not a `newgame`
    /// option): `proven_value` and `solve` read them.
    pub tables: Option<tables::Tables>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            flying: false,
            repetition: 3,
            nocapture: 100,
            tables: None,
        }
    }
}

/// Upper bound for the `nocapture` option.
pub const MAX_NOCAPTURE: u32 = 10_000;

/// A Nine Men's Morris position with the history its draw rules need.
#[derive(Clone, Debug)]
pub struct Morris {
    /// Pieces of White and Black on the board.
    board: [board::Points; 2],
    /// Pieces still to be placed.
    hand: [u8; 2],
    side: Side,
    /// Plies since the last capture (or the start).
    quiet_plies: u32,
    /// Zobrist key of board, side to move and hands: what makes positions "the same".
    key: u64,
    /// Keys of the earlier positions since the last placement or capture (neither can be
    /// undone, so no earlier position can recur), oldest first. Kept only when the
    /// repetition rule is on.
    history: history::History,
    options: Options,
}

impl Morris {
    /// An empty-history position from its parts; the caller has validated them.
    fn from_parts(
        board: [board::Points; 2],
        hand: [u8; 2],
        side: Side,
        quiet_plies: u32,
        options: Options,
    ) -> Morris {
        let mut key = if side == Side::Black {
            BLACK_TO_MOVE_KEY
        } else {
            0
        };
        for s in 0..2 {
            key ^= HAND_KEYS[s][hand[s] as usize];
            for p in board::points(board[s]) {
                key ^= PIECE_KEYS[s][p];
            }
        }
        Morris {
            board,
            hand,
            side,
            quiet_plies,
            key,
            history: history::History::default(),
            options,
        }
    }

    /// The options this position is played under.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The pieces of `side` on the board.
    pub fn pieces(&self, side: Side) -> board::Points {
        self.board[side.index()]
    }

    /// The pieces `side` still has to place.
    pub fn in_hand(&self, side: Side) -> u8 {
        self.hand[side.index()]
    }

    /// Plies since the last capture.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// The key that identifies the position for the repetition rule.
    pub fn position_key(&self) -> u64 {
        self.key
    }

    /// How many times the current position has occurred, this time included.
    pub fn occurrences(&self) -> u32 {
        // Only positions with the same side to move can match: every other entry.
        let earlier = self
            .history
            .newest_first()
            .skip(1)
            .step_by(2)
            .filter(|&&k| k == self.key)
            .count();
        earlier as u32 + 1
    }

    /// The outcome, checked in rule order: too few pieces, blocked, then the draws.
    fn outcome_now(&self) -> Option<Outcome> {
        let me = self.side;
        if self.piece_count(me) < 3 {
            return Some(Outcome::win(me.opponent(), "too-few-pieces"));
        }
        if self.is_blocked(me) {
            return Some(Outcome::win(me.opponent(), "blocked"));
        }
        let rules = &self.options;
        if rules.nocapture > 0 && self.quiet_plies >= rules.nocapture {
            return Some(Outcome::draw("no-capture"));
        }
        if rules.repetition > 0 && self.occurrences() >= rules.repetition {
            return Some(Outcome::draw("repetition"));
        }
        None
    }

    fn toggle_piece(&mut self, side: usize, point: u8) {
        self.board[side] ^= 1 << point;
        self.key ^= PIECE_KEYS[side][point as usize];
    }

    /// Plays a legal move: moves or places the piece, takes the capture, updates the
    /// counters and the repetition history.
    fn play_move(&mut self, mv: Move) {
        let me = self.side.index();
        let before = self.key;
        let placement = mv.from == NO_POINT;
        if placement {
            let h = self.hand[me] as usize;
            self.key ^= HAND_KEYS[me][h] ^ HAND_KEYS[me][h - 1];
            self.hand[me] -= 1;
        } else {
            self.toggle_piece(me, mv.from);
        }
        self.toggle_piece(me, mv.to);
        if mv.is_capture() {
            self.toggle_piece(1 - me, mv.capture);
            self.quiet_plies = 0;
        } else {
            self.quiet_plies = self.quiet_plies.saturating_add(1);
        }
        self.side = self.side.opponent();
        self.key ^= BLACK_TO_MOVE_KEY;
        if placement || mv.is_capture() {
            self.history.clear();
        } else if self.options.repetition > 0 {
            self.history.push(before);
        }
        debug_assert!(self.is_consistent(), "{self:?}");
    }
}

impl Game for Morris {
    type Move = Move;
    type Options = Options;

    const NAME: &'static str = "morris";
    const OPTIONS: &'static [GameOption] = &[
        GameOption {
            key: "flying",
            kind: OptionKind::Choice(&["false", "true"]),
            default: "false",
            doc: "whether a player down to three men may move one to any empty point",
            needs: &[],
        },
        GameOption {
            key: "repetition",
            kind: OptionKind::Number {
                min: 2,
                max: 1000,
                zero: true,
                menu: &[0, 2, 3, 5],
            },
            default: "3",
            doc: "a position seen this many times is a draw (0: never)",
            needs: &[],
        },
        GameOption {
            key: "nocapture",
            kind: OptionKind::Number {
                min: 0,
                max: MAX_NOCAPTURE,
                zero: false,
                menu: &[0, 20, 50, 100, 200],
            },
            default: "100",
            doc: "this many plies in a row without a capture is a draw (0: never)",
            needs: &[],
        },
    ];

    fn parse_options(pairs: &[(&str, &str)]) -> Result<Options, GameError> {
        notation::parse_options(pairs)
    }

    fn format_options(options: &Options) -> String {
        notation::format_options(options)
    }

    fn start(options: &Options) -> Self {
        Morris::from_parts([0, 0], [9, 9], Side::White, 0, *options)
    }

    fn from_fen(fen: &str, options: &Options) -> Result<Self, GameError> {
        notation::parse_fen(fen, options)
    }

    fn to_fen(&self) -> String {
        notation::format_fen(self)
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.outcome_now().is_none() {
            self.for_each_move(|mv| out.push(mv));
        }
    }

    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_now()
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn parse_move(&self, token: &str) -> Result<Move, GameError> {
        notation::parse_move(self, token)
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn hash(&self) -> u64 {
        self.key ^ QUIET_KEY.wrapping_mul(u64::from(self.quiet_plies) + 1)
    }

    fn board_lines(&self) -> Vec<String> {
        notation::board_lines(self)
    }

    fn count_moves(&self) -> u64 {
        Morris::count_moves(self)
    }
}

impl Hints for Morris {
    fn move_order_hint(&self, mv: Move) -> i32 {
        eval::move_order_hint(self, mv)
    }

    /// Mill closes: the search follows them past its horizon, so it never stands pat with a
    /// capture pending on either side.
    fn tactical_moves(&self, out: &mut Vec<Move>) {
        if self.outcome_now().is_none() {
            self.for_each_mill_close(|mv| out.push(mv));
        }
    }

    /// A position the attached tables decide (under the draw rules too) is played from them,
    /// with their choice among equal moves (the one leaving the opponent the most ways to go
    /// wrong, which the search cannot see); otherwise the opening book's move, if any.
    fn book_move(&self) -> Option<Move> {
        if let Some(solution) = self.solve_by_tables() {
            return solution.best;
        }
        book::lookup(self)
    }

    /// While placing, with the tables loaded: the moves that keep the proven value (the rest
    /// of placement searched to the tables, near its end within a fixed budget, in a timed
    /// search at any placement until the deadline).
    fn value_keeping_moves(
        &self,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Option<Vec<Move>> {
        placement::value_keeping_moves(self, deadline, stop)
    }

    /// While placing, a placement is almost never worse than no move at all (zugzwang needs
    /// men that must move), so a pass is a fair test. The passed position keeps both hands: it is
    /// one the rules cannot reach, used only inside the search.
    fn null_move(&self) -> Option<Morris> {
        if self.phase(self.side) != Phase::Placing || self.outcome_now().is_some() {
            return None;
        }
        let mut passed = self.clone();
        passed.side = self.side.opponent();
        passed.key ^= BLACK_TO_MOVE_KEY;
        passed.history.clear();
        Some(passed)
    }
}

impl Dice for Morris {}

impl Formats for Morris {}

impl Exact for Morris {
    fn proven_value(&self) -> Option<Proven> {
        self.table_value()
    }

    /// From the tables in the moving phase; with pieces in hand, a proof search over the rest
    /// of the placement phase with the tables as its leaves.
    fn solve(&self, deadline: Option<Instant>, stop: &AtomicBool) -> Option<Solution<Move>> {
        self.solve_by_tables()
            .or_else(|| placement::solve(self, deadline, stop))
    }

    fn attach_tablebases(
        options: &mut Options,
        dir: Option<&Path>,
        loaded: Box<dyn FnOnce(String) + Send>,
    ) -> Option<String> {
        let Some(dir) = dir else {
            options.tables = None;
            return Some("morris tablebases: none".into());
        };
        let (tables, note) = tables::attach(dir, options.flying, loaded);
        options.tables = tables;
        Some(note)
    }

    fn tablebases_loading(options: &Options) -> bool {
        options.tables.is_some_and(|tables| tables.get().is_none())
    }
}

impl Harness for Morris {
    const BENCH_DEPTH: u32 = 8;

    fn laws() -> Laws {
        laws::LAWS
    }

    fn is_consistent(&self) -> bool {
        let fresh = Morris::from_parts(
            self.board,
            self.hand,
            self.side,
            self.quiet_plies,
            self.options,
        );
        self.board[0] & self.board[1] == 0
            && self.board[0] | self.board[1] <= board::ALL_POINTS
            && (0..2).all(|s| self.board[s].count_ones() + u32::from(self.hand[s]) <= 9)
            && fresh.key == self.key
    }
}
