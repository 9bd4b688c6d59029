//! Cascades (William Chang, 2001): two players race stones down a hexagonal trapezoid.
//!
//! Rules (shared/rules/bombardment-and-cascades.es.txt, second game; shared/spec/notation.md):
//! - Board: rows `a` (top) downwards; row `r` (1-based) has `width + r - 1` cells, numbered from
//!   1 on the left. Cell (r,c) touches (r,c-1) and (r,c+1) beside it and (r+1,c), (r+1,c+1)
//!   below it. The default 8x8 board has 92 cells and a 15-cell bottom row.
//! - Start: the top row is full and alternating, a1 black, a2 white, ...; White moves first.
//! - A move is `pass`, one stone (`c3`) or two stones (`c3,c4`). Each stone goes on an empty
//!   cell beside or below a stone of its colour (`adjacency=below`: below only); the second
//!   stone may rely on the first. White's first move (ply 1) places at most one stone.
//! - A two-stone move is one move whatever the order: it is listed once, in the byte-smallest
//!   order that is legal stone by stone, and every legal order is accepted as input.
//! - The game ends when a player holds more than half of the bottom row (that player wins,
//!   reason `majority`), or after two passes in a row (more bottom cells wins, equal is a draw;
//!   reason `two-passes`).
//!
//! Options: `width=8 rows=8 adjacency=side-below` (width and rows 2..=16; `adjacency=below` is
//! the designer's original rule).
//!
//! Position string: the rows from the top, `/`-separated, one character per cell (`w`, `b`,
//! `.` empty), then the side to move (`w`/`b`), the number of passes just played in a row
//! (`0`, `1`, `2` = the game ended on two passes) and `first` while White's one-stone first
//! move is still to come (`-` after it). Start of 3x3: `bwb/..../..... w 0 first`.

pub mod board;
mod eval;
mod laws;
mod movegen;
mod notation;
pub mod prove;
mod race;
pub mod solver;
#[cfg(test)]
mod tests;
mod zobrist;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::game::{
    Dice, Exact, Formats, Game, GameError, GameOption, Harness, Hints, Laws, OptionKind, Outcome,
    Proven, Side, Solution,
};
use board::{Adjacency, Cell, Geometry, Rows, MAX_SIDE};

/// One Cascades move; two-stone moves are stored in their canonical order, so that the
/// derived equality compares moves rather than spellings.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place nothing.
    Pass,
    /// Place one stone.
    One(Cell),
    /// Place two stones, the first one first (the second may rely on it).
    Two(Cell, Cell),
}

/// A Cascades position: the stones, the side to move and the two flags the rules look at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cascades {
    geometry: Geometry,
    /// Stones per side, indexed by [`Side::index`].
    stones: [Rows; 2],
    side: Side,
    /// Passes played in a row just before this position (2 ends the game).
    passes: u8,
    /// White's first move (at most one stone) is still to come.
    first_move: bool,
    hash: u64,
}

// Rules
impl Cascades {
    /// The board shape and adjacency rule.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The stones of `side`.
    pub fn stones(&self, side: Side) -> &Rows {
        &self.stones[side.index()]
    }

    /// Every stone of both colours.
    pub fn occupied(&self) -> Rows {
        board::union(&self.stones[0], &self.stones[1])
    }

    /// The empty cells the side to move may put a stone on.
    pub fn targets(&self) -> Rows {
        self.geometry
            .targets(&self.stones[self.side.index()], &self.occupied())
    }

    /// Whether only one stone may be placed: White's first move of the game.
    pub fn is_first_move(&self) -> bool {
        self.first_move
    }

    /// Bottom-row cells held by `side`.
    pub fn bottom_count(&self, side: Side) -> u32 {
        self.stones[side.index()][self.geometry.bottom()].count_ones()
    }

    /// Whether `side` holds more than half of the bottom row, which wins at once.
    fn has_majority(&self, side: Side) -> bool {
        2 * self.bottom_count(side) as usize > self.geometry.bottom_len()
    }

    /// Puts a stone of the side to move on `cell`, keeping the hash in step.
    fn place(&mut self, cell: Cell) {
        cell.set(&mut self.stones[self.side.index()]);
        self.hash ^= zobrist::stone(self.side, cell);
    }

    fn set_passes(&mut self, passes: u8) {
        self.hash ^= zobrist::passes(self.passes) ^ zobrist::passes(passes);
        self.passes = passes;
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = zobrist::geometry(self.geometry) ^ zobrist::passes(self.passes);
        if self.side == Side::Black {
            hash ^= zobrist::BLACK_TO_MOVE;
        }
        if self.first_move {
            hash ^= zobrist::FIRST_MOVE;
        }
        for side in [Side::White, Side::Black] {
            board::for_each_cell(&self.stones[side.index()], |cell| {
                hash ^= zobrist::stone(side, cell)
            });
        }
        hash
    }

    /// The hash of the left-right mirror image, which has the same value for the side to
    /// move: (r,c) goes to (r, width+r-1-c), which keeps every adjacency. With an even width
    /// the mirror also swaps the top row's colours, so the colours and the side to move swap
    /// too. Only for positions past White's first move.
    pub fn mirrored_hash(&self) -> u64 {
        let swap = self.geometry.width.is_multiple_of(2);
        let mut hash = zobrist::geometry(self.geometry) ^ zobrist::passes(self.passes);
        if (self.side == Side::Black) != swap {
            hash ^= zobrist::BLACK_TO_MOVE;
        }
        for side in [Side::White, Side::Black] {
            let image_side = if swap { side.opponent() } else { side };
            board::for_each_cell(&self.stones[side.index()], |cell| {
                let row_len = self.geometry.row_len(cell.row as usize);
                let image = Cell::new(cell.row as usize, row_len - 1 - cell.col as usize);
                hash ^= zobrist::stone(image_side, image)
            });
        }
        hash
    }
}

impl Game for Cascades {
    type Move = Move;
    type Options = Geometry;

    const NAME: &'static str = "cascades";
    const OPTIONS: &'static [GameOption] = &[
        GameOption {
            key: "width",
            kind: SIZES,
            default: "8",
            doc: "cells on the top row",
            needs: &[],
        },
        GameOption {
            key: "rows",
            kind: SIZES,
            default: "8",
            doc: "rows of the board",
            needs: &[],
        },
        GameOption {
            key: "adjacency",
            kind: OptionKind::Choice(&["side-below", "below"]),
            default: "side-below",
            doc: "where a stone may grow: beside or below a stone of its colour, or below only",
            needs: &[],
        },
    ];

    fn parse_options(pairs: &[(&str, &str)]) -> Result<Geometry, GameError> {
        let mut geometry = Geometry::default();
        for &(key, value) in pairs {
            match key {
                "width" => geometry.width = parse_size(key, value)?,
                "rows" => geometry.rows = parse_size(key, value)?,
                "adjacency" => {
                    geometry.adjacency = match value {
                        "side-below" => Adjacency::SideBelow,
                        "below" => Adjacency::Below,
                        _ => {
                            return Err(GameError::BadOption(format!(
                                "adjacency={value} (expected side-below or below)"
                            )))
                        }
                    }
                }
                _ => {
                    return Err(GameError::BadOption(format!(
                        "{key} (cascades knows width, rows, adjacency)"
                    )))
                }
            }
        }
        Ok(geometry)
    }

    fn format_options(options: &Geometry) -> String {
        format!(
            "width={} rows={} adjacency={}",
            options.width,
            options.rows,
            options.adjacency.name()
        )
    }

    fn start(options: &Geometry) -> Cascades {
        let mut stones = [[0u32; MAX_SIDE]; 2];
        let top = options.top_row();
        stones[0][0] = top[0];
        stones[1][0] = top[1];
        let mut position = Cascades {
            geometry: *options,
            stones,
            side: Side::White,
            passes: 0,
            first_move: true,
            hash: 0,
        };
        position.hash = position.compute_hash();
        position
    }

    fn from_fen(fen: &str, options: &Geometry) -> Result<Cascades, GameError> {
        notation::parse_fen(fen, *options)
    }

    fn to_fen(&self) -> String {
        notation::format_fen(self)
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.for_each_move(|mv| out.push(mv));
    }

    fn play(&mut self, mv: Move) {
        match mv {
            Move::Pass => self.set_passes(self.passes + 1),
            Move::One(cell) => {
                self.place(cell);
                self.set_passes(0);
            }
            Move::Two(first, second) => {
                self.place(first);
                self.place(second);
                self.set_passes(0);
            }
        }
        if self.first_move {
            self.first_move = false;
            self.hash ^= zobrist::FIRST_MOVE;
        }
        self.side = self.side.opponent();
        self.hash ^= zobrist::BLACK_TO_MOVE;
        debug_assert!(self.is_consistent());
    }

    fn outcome(&self) -> Option<Outcome> {
        for side in [Side::White, Side::Black] {
            if self.has_majority(side) {
                return Some(Outcome::win(side, "majority"));
            }
        }
        if self.passes >= 2 {
            let (white, black) = (
                self.bottom_count(Side::White),
                self.bottom_count(Side::Black),
            );
            return Some(match white.cmp(&black) {
                std::cmp::Ordering::Greater => Outcome::win(Side::White, "two-passes"),
                std::cmp::Ordering::Less => Outcome::win(Side::Black, "two-passes"),
                std::cmp::Ordering::Equal => Outcome::draw("two-passes"),
            });
        }
        None
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
        self.hash
    }

    fn board_lines(&self) -> Vec<String> {
        notation::board_lines(self)
    }

    fn count_moves(&self) -> u64 {
        Cascades::count_moves(self)
    }
}

impl Hints for Cascades {
    fn move_order_hint(&self, mv: Move) -> i32 {
        eval::move_order_hint(self, mv)
    }

    /// The race evaluation gives the side to move the contested bottom cells and the tie in
    /// turns, a swing of some 4 000 between consecutive depths. At `movetime 100` against
    /// `go depth 1` from the start (`Variety`), odd depths only scored 83, 87 and 88 / 100,
    /// every depth 74 and 75, even depths only 67 (docs/cascades.md, "Odd depths").
    fn odd_depths_only(&self) -> bool {
        true
    }

    fn tactical_moves(&self, out: &mut Vec<Move>) {
        self.for_each_bottom_move(|mv| out.push(mv));
    }
}

impl Dice for Cascades {}

impl Formats for Cascades {}

impl Exact for Cascades {
    const PROOFS_TAKE_TIME: bool = true;

    fn proven_value(&self) -> Option<Proven> {
        if self.outcome().is_some() {
            return None;
        }
        // Taking a bottom-row majority ends the game at once.
        if self.can_win_now() {
            return Some(Proven::Win(1));
        }
        solver::endgame_value(self)
    }

    /// The proof search of [`solver`]; it knows the value but not the distance to the end,
    /// so wins and losses carry 0 plies. Running out of time still answers (value `None`)
    /// rather than falling back to the generic search.
    fn solve(&self, deadline: Option<Instant>, stop: &AtomicBool) -> Option<Solution<Move>> {
        let mut solver = solver::Solver::new(u64::MAX, deadline).until_stopped(stop);
        let proof = solver.solve(self);
        Some(match proof {
            None => Solution {
                value: None,
                best: None,
                nodes: solver.nodes(),
            },
            Some(proof) => Solution {
                value: Some(match proof.value {
                    1 => Proven::Win(0),
                    0 => Proven::Draw,
                    _ => Proven::Loss(0),
                }),
                best: proof.best,
                nodes: proof.nodes,
            },
        })
    }
}

impl Harness for Cascades {
    const BENCH_DEPTH: u32 = 5;

    fn laws() -> Laws {
        laws::LAWS
    }

    fn is_consistent(&self) -> bool {
        let g = self.geometry;
        let clash = (0..MAX_SIDE).any(|r| self.stones[0][r] & self.stones[1][r] != 0);
        let off_board =
            (0..MAX_SIDE).any(|r| (self.stones[0][r] | self.stones[1][r]) & !g.full_row(r) != 0);
        let first_ok = !self.first_move || (self.side == Side::White && self.passes == 0);
        !clash && !off_board && first_ok && self.passes <= 2 && self.hash == self.compute_hash()
    }
}

/// The values of `width` and `rows`; the web board's menu offers a few (its browser test
/// plays each).
const SIZES: OptionKind = OptionKind::Number {
    min: 2,
    max: 16,
    zero: false,
    menu: &[3, 4, 5, 6, 7, 8, 10, 12],
};

fn parse_size(key: &str, value: &str) -> Result<u8, GameError> {
    match value.parse::<u8>() {
        Ok(n) if (2..=16).contains(&n) => Ok(n),
        _ => Err(GameError::BadOption(format!(
            "{key}={value} (expected a number from 2 to 16)"
        ))),
    }
}
