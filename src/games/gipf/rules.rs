//! The rule clauses: pushing, finding rows, removing runs, and the removal order after a push.
//!
//! A row needs its owner's decision when its run meets another row's run (which to take) or
//! holds a GIPF-piece (which GIPF-pieces stay); every other row goes at once.

use super::geometry::{
    segment_index, LINES, LINE_MASKS, LINE_TABLE, PUSH_LINES, PUSH_TABLE, SEGMENT_TABLE, SPOTS,
};
use super::grid::{has_four, to_grid};
use super::Gipf;
use crate::game::Side;

/// A row of four or more pieces of one colour, with the run its removal takes.
#[derive(Copy, Clone, Debug)]
pub struct Row {
    /// The segment the removal run covers (row plus extensions).
    pub run: u8,
    /// The removal run's spots.
    pub run_mask: u64,
}

/// The rows of one colour on the board; at most one per line.
#[derive(Copy, Clone, Debug)]
pub struct Rows {
    items: [Row; LINES],
    len: usize,
}

impl Rows {
    fn new() -> Rows {
        Rows {
            items: [Row {
                run: 0,
                run_mask: 0,
            }; LINES],
            len: 0,
        }
    }

    /// The rows found.
    pub fn as_slice(&self) -> &[Row] {
        &self.items[..self.len]
    }

    /// Whether row `i`'s run shares a spot with another row's run: then its owner must choose.
    fn is_contested(&self, i: usize) -> bool {
        let rows = self.as_slice();
        rows.iter()
            .enumerate()
            .any(|(j, other)| j != i && other.run_mask & rows[i].run_mask != 0)
    }
}

/// Whether the pieces `own` hold four in a row.
fn owns_row(own: u64) -> bool {
    has_four(to_grid(own))
}

impl Gipf {
    /// The bits of every piece on the board.
    pub(crate) fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// A push is legal if the line from its entry spot to the far edge has an empty spot.
    pub(crate) fn push_is_legal(&self, push: usize) -> bool {
        self.occupied() & PUSH_LINES[push] != PUSH_LINES[push]
    }

    /// Takes a piece (two for a GIPF-piece) from `side`'s reserve and pushes it in: every
    /// piece from the entry spot up to the first empty spot moves one spot along the line.
    pub(crate) fn apply_push(&mut self, push: usize, side: Side, gipf_piece: bool) {
        let line = &PUSH_TABLE[push].line;
        let occupied = self.occupied();
        let cells = &line.cells[..line.len as usize];
        let Some(gap) = cells.iter().position(|&c| occupied & (1 << c) == 0) else {
            return;
        };
        for i in (0..gap).rev() {
            let (from, to) = (1u64 << cells[i], 1u64 << cells[i + 1]);
            for colour in &mut self.pieces {
                if *colour & from != 0 {
                    *colour ^= from | to;
                }
            }
            if self.gipf & from != 0 {
                self.gipf ^= from | to;
            }
        }
        let entry = 1 << cells[0];
        self.pieces[side.index()] |= entry;
        if gipf_piece {
            self.gipf |= entry;
            self.reserve[side.index()] -= 2;
        } else {
            self.reserve[side.index()] -= 1;
        }
    }

    /// Whether `side` has four of its pieces in a row anywhere (the quick test before any work).
    pub(crate) fn has_row(&self, side: Side) -> bool {
        owns_row(self.pieces[side.index()])
    }

    /// Every row of `side`, each with its removal run: the row extended on both sides over
    /// pieces of either colour up to the first empty spot or the edge.
    pub(crate) fn rows(&self, side: Side) -> Rows {
        let mut rows = Rows::new();
        if !self.has_row(side) {
            return rows;
        }
        let own = self.pieces[side.index()];
        let occupied = self.occupied();
        for (l, line) in LINE_TABLE.iter().enumerate() {
            // A line with fewer than four of `side`'s pieces holds no row: skip the walk.
            if (own & LINE_MASKS[l]).count_ones() < 4 {
                continue;
            }
            let cells = &line.cells[..line.len as usize];
            let owned = |i: usize| own & (1 << cells[i]) != 0;
            let filled = |i: usize| occupied & (1 << cells[i]) != 0;
            let mut i = 0;
            while i < cells.len() {
                let start = i;
                while i < cells.len() && owned(i) {
                    i += 1;
                }
                if i - start >= 4 {
                    let (mut a, mut b) = (start, i - 1);
                    while a > 0 && filled(a - 1) {
                        a -= 1;
                    }
                    while b + 1 < cells.len() && filled(b + 1) {
                        b += 1;
                    }
                    let run = segment_index(l, a, b);
                    rows.items[rows.len] = Row {
                        run: run as u8,
                        run_mask: SEGMENT_TABLE[run].mask,
                    };
                    rows.len += 1;
                    break;
                }
                i += 1;
            }
        }
        rows
    }

    /// Removes a removal run for `owner`, except the GIPF-pieces on `keep`: its own pieces go
    /// back to its reserve, the opposing pieces are captured; a GIPF-piece counts two.
    pub(crate) fn remove_run(&mut self, owner: Side, run_mask: u64, keep: u64) {
        let taken = run_mask & !keep;
        let own = self.pieces[owner.index()] & taken;
        let theirs = self.pieces[owner.opponent().index()] & taken;
        let doubled = |bits: u64| (bits.count_ones() + (bits & self.gipf).count_ones()) as u8;
        self.reserve[owner.index()] += doubled(own);
        self.captured[owner.index()] += doubled(theirs);
        self.pieces[0] &= !taken;
        self.pieces[1] &= !taken;
        self.gipf &= !taken;
    }

    /// Whether `side` may keep the GIPF-pieces `keep` of a run it removes: only GIPF-pieces
    /// of that run, and not four of its own in a row (the row must be broken, or it would be
    /// due again at once).
    pub(crate) fn keep_is_allowed(&self, side: Side, run_mask: u64, keep: u64) -> bool {
        let kept_own = keep & self.pieces[side.index()];
        keep & !(run_mask & self.gipf) == 0 && !owns_row(kept_own)
    }

    /// Removes every row of `side` that needs no decision (its run meets no other row's run
    /// and holds no GIPF-piece) and returns the rows left. Removing such a run touches no
    /// other run, so one pass suffices.
    pub(crate) fn remove_free(&mut self, side: Side) -> Rows {
        let rows = self.rows(side);
        if rows.len == 0 {
            return rows;
        }
        let mut left = Rows::new();
        for (i, row) in rows.as_slice().iter().enumerate() {
            if rows.is_contested(i) || row.run_mask & self.gipf != 0 {
                left.items[left.len] = *row;
                left.len += 1;
            } else {
                self.remove_run(side, row.run_mask, 0);
            }
        }
        left
    }

    /// Removes every row of `side` that needs no decision, when `side` has a row at all (the
    /// quick test spares the row scan in the common case).
    pub(crate) fn clear_free(&mut self, side: Side) {
        if self.has_row(side) {
            self.remove_free(side);
        }
    }

    /// Removes the chosen run `run` of `side`, keeping the GIPF-pieces on `keep`, if it is the
    /// run of one of `side`'s rows that need a decision and the keep is allowed; says whether
    /// it was.
    pub(crate) fn remove_chosen(&mut self, side: Side, run: usize, keep: u64) -> bool {
        let due = self.remove_free(side);
        let mask = SEGMENT_TABLE[run].mask;
        if due.as_slice().iter().any(|r| r.run as usize == run)
            && self.keep_is_allowed(side, mask, keep)
        {
            self.remove_run(side, mask, keep);
            true
        } else {
            false
        }
    }

    /// The end of a turn: the mover's rows are gone; the opponent's rows that need no
    /// decision are removed now, the others wait for its next move.
    pub(crate) fn finish_turn(&mut self, mover: Side) {
        self.clear_free(mover.opponent());
        self.to_move = mover.opponent();
    }

    /// Whether every piece stands on a spot (dots are never occupied).
    pub(crate) fn pieces_on_spots(&self) -> bool {
        self.occupied() & !SPOTS == 0 && self.pieces[0] & self.pieces[1] == 0
    }
}
