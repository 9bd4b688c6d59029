//! Bombardment (Chris Huntoon, 2003): Breakthrough's set-up, but a piece may also explode.
//!
//! Rules (shared/rules/bombardment-and-cascades.es.txt, "misiles"): each side starts on its two
//! home rows of a square board. On a turn a player either steps one piece straight or
//! diagonally forward onto an empty square, or detonates one of its pieces, removing it and
//! every piece (of either colour) on the 8 squares around it. A player wins by reaching the
//! far rank, or when the opponent has no pieces left; if a detonation empties the board the
//! game is a draw.
//!
//! Notation (shared/spec/notation.md): steps `e2e3`, detonations `xe2`. Position string: the
//! ranks from the top, `/`-separated, `w`/`b` for pieces and digits for runs of empty squares,
//! then the side to move: `bbbbbbbb/bbbbbbbb/8/8/8/8/wwwwwwww/wwwwwwww w`.
//!
//! Options: `size=N` (5..=16, default 8).

mod bits;
mod eval;
mod geometry;
mod laws;
mod notation;
#[cfg(test)]
mod tests;
mod zobrist;

use crate::game::{
    find_equal, resolve_move, Build, Dice, Exact, Formats, Game, GameError, GameOption, Harness,
    Hints, Laws, OptionKind, Outcome, Side,
};
use bits::{Bits, U256};
use geometry::Geometry;

/// The `newgame` name (one name for every board width).
pub const NAME: &str = "bombardment";

/// The game options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Squares per side, 5..=16.
    pub size: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { size: 8 }
    }
}

/// One turn: a step or a detonation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece steps from the first square to the second.
    Step(u8, u8),
    /// The piece on this square explodes.
    Detonate(u8),
}

/// A Bombardment position on a board whose squares fit in `B`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bombardment<B: Bits> {
    geometry: Geometry<B>,
    pieces: [B; 2],
    side: Side,
    hash: u64,
}

/// Builds a game with `builder` (the registry's), choosing the narrowest bitboard that holds
/// the board.
pub fn build<T: Build>(pairs: &[(&str, &str)], builder: T) -> Result<T::Output, GameError> {
    let options = parse_options(pairs)?;
    Ok(match options.size {
        0..=8 => builder.build::<Bombardment<u64>>(options),
        9..=11 => builder.build::<Bombardment<u128>>(options),
        _ => builder.build::<Bombardment<U256>>(options),
    })
}

fn parse_options(pairs: &[(&str, &str)]) -> Result<Options, GameError> {
    let mut options = Options::default();
    for &(key, value) in pairs {
        match key {
            "size" => {
                options.size = value
                    .parse()
                    .ok()
                    .filter(|size| (5..=16).contains(size))
                    .ok_or_else(|| GameError::BadOption(format!("size={value}: expected 5..16")))?;
            }
            _ => {
                return Err(GameError::BadOption(format!(
                    "{key}: bombardment has only size"
                )))
            }
        }
    }
    Ok(options)
}

// Rules
impl<B: Bits> Bombardment<B> {
    fn empty(geometry: Geometry<B>, side: Side) -> Self {
        Bombardment {
            geometry,
            pieces: [B::ZERO; 2],
            side,
            hash: zobrist::side_key(side),
        }
    }

    fn occupied(&self) -> B {
        self.pieces[0] | self.pieces[1]
    }

    fn put(&mut self, side: Side, square: u32) {
        self.pieces[side.index()] |= B::bit(square);
        self.hash ^= zobrist::piece_key(side, square);
    }

    fn take(&mut self, side: Side, square: u32) {
        self.pieces[side.index()] &= !B::bit(square);
        self.hash ^= zobrist::piece_key(side, square);
    }

    /// The side's step targets: (straight, towards file a, towards the last file).
    fn step_targets(&self, side: Side) -> (B, B, B) {
        let empty = !self.occupied();
        let (straight, left, right) = self
            .geometry
            .steps(self.pieces[side.index()], side == Side::White);
        (straight & empty, left & empty, right & empty)
    }

    /// The square a step to `target` came from, for each direction of [`Self::step_targets`].
    fn step_origin(&self, target: u32, direction: usize) -> u32 {
        let n = self.geometry.size;
        match (self.side, direction) {
            (Side::White, 0) => target - n,
            (Side::White, 1) => target - (n - 1),
            (Side::White, _) => target - (n + 1),
            (Side::Black, 0) => target + n,
            (Side::Black, 1) => target + n + 1,
            (Side::Black, _) => target + n - 1,
        }
    }

    /// True if `side` has a piece on its goal rank.
    fn reached_far_rank(&self, side: Side) -> bool {
        let goal = match side {
            Side::White => self.geometry.top_rank,
            Side::Black => self.geometry.bottom_rank,
        };
        !(self.pieces[side.index()] & goal).is_empty()
    }
}

impl<B: Bits> Game for Bombardment<B> {
    type Move = Move;
    type Options = Options;

    const NAME: &'static str = NAME;
    const OPTIONS: &'static [GameOption] = &[GameOption {
        key: "size",
        kind: OptionKind::Number {
            min: 5,
            max: 16,
            zero: false,
            menu: &[],
        },
        default: "8",
        doc: "the board's side in squares",
        needs: &[],
    }];

    fn parse_options(pairs: &[(&str, &str)]) -> Result<Options, GameError> {
        let options = parse_options(pairs)?;
        if options.size * options.size > B::CAPACITY {
            return Err(GameError::BadOption(format!(
                "size={} does not fit this board type",
                options.size
            )));
        }
        Ok(options)
    }

    fn format_options(options: &Options) -> String {
        format!("size={}", options.size)
    }

    fn start(options: &Options) -> Self {
        let geometry = Geometry::new(options.size);
        let mut position = Self::empty(geometry, Side::White);
        let n = options.size;
        for square in 0..2 * n {
            position.put(Side::White, square);
            position.put(Side::Black, n * n - 1 - square);
        }
        position
    }

    fn from_fen(fen: &str, options: &Options) -> Result<Self, GameError> {
        notation::parse_fen(fen, Geometry::new(options.size))
    }

    fn to_fen(&self) -> String {
        notation::format_fen(self)
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.outcome().is_some() {
            return;
        }
        let (straight, left, right) = self.step_targets(self.side);
        for (direction, targets) in [straight, left, right].into_iter().enumerate() {
            for target in targets.squares() {
                out.push(Move::Step(
                    self.step_origin(target, direction) as u8,
                    target as u8,
                ));
            }
        }
        for square in self.pieces[self.side.index()].squares() {
            out.push(Move::Detonate(square as u8));
        }
    }

    fn play(&mut self, mv: Move) {
        let side = self.side;
        match mv {
            Move::Step(from, to) => {
                self.take(side, from as u32);
                self.put(side, to as u32);
            }
            Move::Detonate(square) => {
                let blast = self.geometry.blast(square as u32);
                for owner in [Side::White, Side::Black] {
                    for victim in (self.pieces[owner.index()] & blast).squares() {
                        self.take(owner, victim);
                    }
                }
            }
        }
        self.side = side.opponent();
        self.hash ^= zobrist::side_key(Side::White) ^ zobrist::side_key(Side::Black);
    }

    fn outcome(&self) -> Option<Outcome> {
        let [white, black] = self.pieces;
        if self.reached_far_rank(Side::White) {
            Some(Outcome::win(Side::White, "far-rank"))
        } else if self.reached_far_rank(Side::Black) {
            Some(Outcome::win(Side::Black, "far-rank"))
        } else if white.is_empty() && black.is_empty() {
            Some(Outcome::draw("board-empty"))
        } else if white.is_empty() {
            Some(Outcome::win(Side::Black, "no-pieces"))
        } else if black.is_empty() {
            Some(Outcome::win(Side::White, "no-pieces"))
        } else {
            None
        }
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(&self.geometry, mv)
    }

    fn parse_move(&self, token: &str) -> Result<Move, GameError> {
        let written = notation::read_move(&self.geometry, token);
        resolve_move(self, token, written, find_equal, |&mv| {
            notation::why_illegal(self, mv).map(|reason| GameError::illegal(token, reason))
        })
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

    /// Counted with popcounts: each step target and each piece (a detonation) is a move.
    fn count_moves(&self) -> u64 {
        if self.outcome().is_some() {
            return 0;
        }
        let (straight, left, right) = self.step_targets(self.side);
        (straight.count() + left.count() + right.count() + self.pieces[self.side.index()].count())
            as u64
    }
}

impl<B: Bits> Hints for Bombardment<B> {
    fn move_order_hint(&self, mv: Move) -> i32 {
        eval::move_order_hint(self, mv)
    }

    /// Detonations that take at least one enemy piece, and steps onto the goal rank.
    fn tactical_moves(&self, out: &mut Vec<Move>) {
        let side = self.side;
        let theirs = self.pieces[side.opponent().index()];
        for square in self.pieces[side.index()].squares() {
            if !(self.geometry.blast(square) & theirs).is_empty() {
                out.push(Move::Detonate(square as u8));
            }
        }
        let goal = if side == Side::White {
            self.geometry.top_rank
        } else {
            self.geometry.bottom_rank
        };
        let (straight, left, right) = self.step_targets(side);
        for (direction, targets) in [straight, left, right].into_iter().enumerate() {
            for target in (targets & goal).squares() {
                out.push(Move::Step(
                    self.step_origin(target, direction) as u8,
                    target as u8,
                ));
            }
        }
    }
}

impl<B: Bits> Dice for Bombardment<B> {}

impl<B: Bits> Formats for Bombardment<B> {}

impl<B: Bits> Exact for Bombardment<B> {}

impl<B: Bits> Harness for Bombardment<B> {
    const BENCH_DEPTH: u32 = 8;

    fn laws() -> Laws {
        laws::LAWS
    }

    fn is_consistent(&self) -> bool {
        let [white, black] = self.pieces;
        let mut hash = zobrist::side_key(self.side);
        for (side, set) in [(Side::White, white), (Side::Black, black)] {
            hash = set
                .squares()
                .fold(hash, |h, sq| h ^ zobrist::piece_key(side, sq));
        }
        (white & black).is_empty()
            && (self.occupied() & !self.geometry.all).is_empty()
            && hash == self.hash
    }
}
