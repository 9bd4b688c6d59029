//! Move generation and the bulk move count.
//!
//! With `T` the cells the mover may use now, the moves are: `pass`; one stone on any cell of
//! `T`; two stones both in `T` (one move per unordered pair); and two stones where the second
//! is only reachable through the first (a cell of `T`, then an empty neighbour of it outside
//! `T`). The last two kinds never overlap, so each move comes out exactly once.

use super::board::{self, Cell, Rows, MAX_SIDE};
use super::{Cascades, Move};
use crate::game::Game;

/// More than the largest board (376 cells) holds.
const MAX_CELLS: usize = 384;

/// The cells of a bitset, in row-major order, without allocating.
struct CellList {
    cells: [Cell; MAX_CELLS],
    len: usize,
}

impl CellList {
    fn of(rows: &Rows) -> CellList {
        let mut list = CellList {
            cells: [Cell::new(0, 0); MAX_CELLS],
            len: 0,
        };
        board::for_each_cell(rows, |cell| {
            list.cells[list.len] = cell;
            list.len += 1;
        });
        list
    }

    fn as_slice(&self) -> &[Cell] {
        &self.cells[..self.len]
    }
}

/// Two stones that are both legal alone, in the byte-smallest order of their names.
pub fn canonical_pair(a: Cell, b: Cell) -> Move {
    if a.name_key() < b.name_key() {
        Move::Two(a, b)
    } else {
        Move::Two(b, a)
    }
}

impl Cascades {
    /// Calls `f` for one stone on each of `cells` and, after White's one-stone first move,
    /// for every pair of them; false when only single stones are legal.
    fn singles_and_pairs(&self, cells: &[Cell], f: &mut impl FnMut(Move)) -> bool {
        for &cell in cells {
            f(Move::One(cell));
        }
        if self.first_move {
            return false;
        }
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                f(canonical_pair(a, b));
            }
        }
        true
    }

    /// Calls `f` once for every legal move (nothing once the game is over).
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        if self.outcome().is_some() {
            return;
        }
        f(Move::Pass);
        let occupied = self.occupied();
        let targets = self
            .geometry
            .targets(&self.stones[self.side.index()], &occupied);
        let list = CellList::of(&targets);
        let cells = list.as_slice();
        if !self.singles_and_pairs(cells, &mut f) {
            return;
        }
        let blocked = board::union(&occupied, &targets);
        for &first in cells {
            let mut opened = self.geometry.neighbours_of(first);
            for r in 0..MAX_SIDE {
                opened[r] &= !blocked[r];
            }
            board::for_each_cell(&opened, |second| f(Move::Two(first, second)));
        }
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_moves(&self) -> u64 {
        if self.outcome().is_some() {
            return 0;
        }
        let g = self.geometry;
        let occupied = self.occupied();
        let targets = g.targets(&self.stones[self.side.index()], &occupied);
        let t = board::count(&targets) as u64;
        if self.first_move {
            return 1 + t;
        }
        // Pairs (first in T, second an empty non-T neighbour of it): each direction from a
        // cell of T gives a distinct first stone, so the counts per direction add up.
        let mut dependent = 0u64;
        let side_rule = g.adjacency == board::Adjacency::SideBelow;
        for r in 0..g.row_count() {
            let open = g.full_row(r) & !occupied[r] & !targets[r];
            if open == 0 {
                continue;
            }
            if side_rule {
                dependent += ((targets[r] << 1) & open).count_ones() as u64;
                dependent += ((targets[r] >> 1) & open).count_ones() as u64;
            }
            if r > 0 {
                dependent += (targets[r - 1] & open).count_ones() as u64;
                dependent += ((targets[r - 1] << 1) & open).count_ones() as u64;
            }
        }
        1 + t + t * t.saturating_sub(1) / 2 + dependent
    }
}

impl Cascades {
    /// Whether the side to move can take a bottom-row majority with this very move, which
    /// wins at once: the most bottom cells one move can add is two cells of `T`, or one of
    /// `T` and a cell beside it, or one cell below a stone placed first.
    pub fn can_win_now(&self) -> bool {
        let g = self.geometry;
        let bottom = g.bottom();
        let occupied = self.occupied();
        let targets = g.targets(&self.stones[self.side.index()], &occupied);
        let open = g.full_row(bottom) & !occupied[bottom];
        let direct = targets[bottom].count_ones();
        let most = if self.first_move {
            direct.min(1)
        } else if direct >= 2 {
            2
        } else if direct == 1 {
            let beside_it = board::beside(targets[bottom]) & open & !targets[bottom];
            if g.adjacency == board::Adjacency::SideBelow && beside_it != 0 {
                2
            } else {
                1
            }
        } else {
            u32::from(board::below(targets[bottom - 1]) & open != 0)
        };
        2 * (self.bottom_count(self.side) + most) as usize > g.bottom_len()
    }
}

impl Cascades {
    /// Calls `f` for every move that puts a stone on the bottom row and nothing higher up,
    /// except a stone that the bottom stone needs: the moves that change the score at once,
    /// which the search follows past its horizon.
    pub fn for_each_bottom_move(&self, mut f: impl FnMut(Move)) {
        if self.outcome().is_some() {
            return;
        }
        let g = self.geometry;
        let bottom = g.bottom();
        let occupied = self.occupied();
        let targets = g.targets(&self.stones[self.side.index()], &occupied);
        let mut on_bottom = [0u32; MAX_SIDE];
        on_bottom[bottom] = targets[bottom];
        let list = CellList::of(&on_bottom);
        let cells = list.as_slice();
        if !self.singles_and_pairs(cells, &mut f) {
            return;
        }
        let blocked = board::union(&occupied, &targets);
        let mut above = [0u32; MAX_SIDE];
        above[bottom - 1] = targets[bottom - 1];
        for &first in cells.iter().chain(CellList::of(&above).as_slice()) {
            let mut opened = self.geometry.neighbours_of(first);
            opened[bottom] &= !blocked[bottom];
            for (r, row) in opened.iter_mut().enumerate() {
                if r != bottom {
                    *row = 0;
                }
            }
            board::for_each_cell(&opened, |second| f(Move::Two(first, second)));
        }
    }
}
