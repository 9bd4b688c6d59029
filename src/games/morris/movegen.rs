//! Move generation and the rule clauses it is made of: phases, mills, captures, blocking.

use super::board::{in_mill_at, pieces_in_mills, points, Points, ADJACENT, ALL_POINTS};
use super::lines::mills_and_open;
use super::{Morris, Move, NO_POINT};
use crate::game::Side;

/// What a player does on its turn, decided by its pieces in hand and on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Pieces in hand: put one on an empty point.
    Placing,
    /// Slide a piece to an adjacent empty point.
    Moving,
    /// With `flying=true`, three pieces on the board and none in hand: move to any empty point.
    Flying,
}

/// The largest number of moves any position has (3 flying pieces x 21 empty points x 9
/// captures bounds it), so generation can fill a fixed array.
pub const MAX_MOVES: usize = 600;

/// A fixed-capacity move list, so perft and search allocate nothing per node.
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::placement(0); MAX_MOVES],
            len: 0,
        }
    }

    /// The moves added so far.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

// Rule clauses

impl Morris {
    /// The phase `side` plays in.
    pub fn phase(&self, side: Side) -> Phase {
        let i = side.index();
        if self.hand[i] > 0 {
            Phase::Placing
        } else if self.options.flying && self.board[i].count_ones() == 3 {
            Phase::Flying
        } else {
            Phase::Moving
        }
    }

    /// Pieces on the board and in hand: below 3, `side` has lost.
    pub fn piece_count(&self, side: Side) -> u32 {
        self.board[side.index()].count_ones() + u32::from(self.hand[side.index()])
    }

    /// The empty points.
    pub fn empty(&self) -> Points {
        ALL_POINTS & !(self.board[0] | self.board[1])
    }

    /// The points a piece of `side` on `from` may go to in its current phase.
    pub fn destinations(&self, side: Side, from: usize) -> Points {
        match self.phase(side) {
            Phase::Placing => 0,
            Phase::Moving => ADJACENT[from] & self.empty(),
            Phase::Flying => self.empty(),
        }
    }

    /// True when `side` has no legal move ("si no puede hacerlo, ha perdido el juego").
    pub fn is_blocked(&self, side: Side) -> bool {
        let empty = self.empty();
        match self.phase(side) {
            Phase::Placing | Phase::Flying => empty == 0,
            Phase::Moving => points(self.board[side.index()]).all(|p| ADJACENT[p] & empty == 0),
        }
    }

    /// The opponent pieces a mill closed by `side` may take: those outside mills, or any
    /// piece when every one stands in a mill.
    pub fn capturable(&self, side: Side) -> Points {
        let theirs = self.board[side.opponent().index()];
        let free = theirs & !pieces_in_mills(theirs);
        if free != 0 {
            free
        } else {
            theirs
        }
    }

    /// The mover's pieces after `mv` (without its capture).
    pub fn own_after(&self, mv: Move) -> Points {
        let mut own = self.board[self.side.index()];
        if mv.from != NO_POINT {
            own &= !(1 << mv.from);
        }
        own | (1 << mv.to)
    }

    /// True when the piece arriving on `mv.to` completes a mill of the mover.
    pub fn closes_mill(&self, mv: Move) -> bool {
        in_mill_at(self.own_after(mv), mv.to as usize)
    }

    // Generation

    /// Calls `emit` with every legal move once, ignoring whether the game is over.
    pub fn for_each_move(&self, emit: impl FnMut(Move)) {
        self.moves_landing_on(ALL_POINTS, false, emit);
    }

    /// Calls `emit` with every legal move that closes a mill, in the order of
    /// [`Morris::for_each_move`]: only points that already hold two of the mover's men on a
    /// line can be the landing point of one.
    pub fn for_each_mill_close(&self, emit: impl FnMut(Move)) {
        let own = self.board[self.side.index()];
        let (_, targets) = mills_and_open(own, self.empty());
        if self.capturable(self.side) != 0 && targets != 0 {
            self.moves_landing_on(targets, true, emit);
        }
    }

    /// The legal moves whose piece lands on `targets` (only the mill closes when
    /// `closes_only`), in generation order: by origin, then landing point, then capture.
    fn moves_landing_on(&self, targets: Points, closes_only: bool, mut emit: impl FnMut(Move)) {
        let side = self.side;
        let capturable = self.capturable(side);
        let mut with_captures = |mv: Move| {
            if capturable != 0 && self.closes_mill(mv) {
                for c in points(capturable) {
                    emit(Move {
                        capture: c as u8,
                        ..mv
                    });
                }
            } else if !closes_only {
                emit(mv);
            }
        };
        match self.phase(side) {
            Phase::Placing => {
                for to in points(self.empty() & targets) {
                    with_captures(Move::placement(to));
                }
            }
            Phase::Moving | Phase::Flying => {
                for from in points(self.board[side.index()]) {
                    for to in points(self.destinations(side, from) & targets) {
                        with_captures(Move::step(from, to));
                    }
                }
            }
        }
    }

    /// Appends every legal move into a fixed list (empty when the game is over).
    pub fn generate(&self, list: &mut MoveList) {
        if self.outcome_now().is_none() {
            self.for_each_move(|mv| list.push(mv));
        }
    }

    /// The number of legal moves, without building them: a mill close counts once per
    /// capturable piece.
    pub fn count_moves(&self) -> u64 {
        if self.outcome_now().is_some() {
            return 0;
        }
        let side = self.side;
        let captures = u64::from(self.capturable(side).count_ones()).max(1);
        let mut count = 0;
        let mut add = |mv: Move| count += if self.closes_mill(mv) { captures } else { 1 };
        match self.phase(side) {
            Phase::Placing => points(self.empty()).for_each(|to| add(Move::placement(to))),
            Phase::Moving | Phase::Flying => {
                for from in points(self.board[side.index()]) {
                    for to in points(self.destinations(side, from)) {
                        add(Move::step(from, to));
                    }
                }
            }
        }
        count
    }
}
