//! The rule clauses: pushing, finding rows, removing runs, and the removal order after a push.

use super::geometry::{
    segment_index, LINES, LINE_TABLE, PUSH_TABLE, SEGMENT_TABLE, SPOTS, WINDOW_MASKS,
};
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
    pub fn is_contested(&self, i: usize) -> bool {
        let rows = self.as_slice();
        rows.iter()
            .enumerate()
            .any(|(j, other)| j != i && other.run_mask & rows[i].run_mask != 0)
    }
}

impl Gipf {
    /// The bits of every piece on the board.
    pub(crate) fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// A push is legal if the line from its entry spot to the far edge has an empty spot.
    pub(crate) fn push_is_legal(&self, push: usize) -> bool {
        let line = &PUSH_TABLE[push].line;
        let occupied = self.occupied();
        line.cells[..line.len as usize]
            .iter()
            .any(|&c| occupied & (1 << c) == 0)
    }

    /// Takes a piece from `side`'s reserve and pushes it in: every piece from the entry spot up
    /// to the first empty spot moves one spot along the line.
    pub(crate) fn apply_push(&mut self, push: usize, side: Side) {
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
        }
        self.pieces[side.index()] |= 1 << cells[0];
        self.reserve[side.index()] -= 1;
    }

    /// Whether `side` has four of its pieces in a row anywhere (the quick test before any work).
    pub(crate) fn has_row(&self, side: Side) -> bool {
        let own = self.pieces[side.index()];
        WINDOW_MASKS.iter().any(|w| own & w == *w)
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

    /// Removes a removal run for `owner`: its own pieces go back to its reserve, the opposing
    /// pieces are captured.
    pub(crate) fn remove_run(&mut self, owner: Side, run_mask: u64) {
        let own = self.pieces[owner.index()] & run_mask;
        let theirs = self.pieces[owner.opponent().index()] & run_mask;
        self.reserve[owner.index()] += own.count_ones() as u8;
        self.captured[owner.index()] += theirs.count_ones() as u8;
        self.pieces[0] &= !run_mask;
        self.pieces[1] &= !run_mask;
    }

    /// Removes every row of `side` whose run meets no other row's run (no choice needed) and
    /// returns the rows left, all contested. Removing an uncontested run touches no other run,
    /// so one pass suffices.
    pub(crate) fn remove_uncontested(&mut self, side: Side) -> Rows {
        let rows = self.rows(side);
        if rows.len == 0 {
            return rows;
        }
        let mut left = Rows::new();
        for (i, row) in rows.as_slice().iter().enumerate() {
            if rows.is_contested(i) {
                left.items[left.len] = *row;
                left.len += 1;
            } else {
                self.remove_run(side, row.run_mask);
            }
        }
        left
    }

    /// Removes the chosen run `run` of `side` if it is the run of one of `side`'s contested
    /// rows; says whether it was.
    pub(crate) fn remove_chosen(&mut self, side: Side, run: usize) -> bool {
        let contested = self.remove_uncontested(side);
        if contested.as_slice().iter().any(|r| r.run as usize == run) {
            self.remove_run(side, SEGMENT_TABLE[run].mask);
            true
        } else {
            false
        }
    }

    /// The end of a turn: the mover's rows are gone; the opponent's rows that need no choice
    /// are removed now, the contested ones wait for its next move.
    pub(crate) fn finish_turn(&mut self, mover: Side) {
        self.remove_uncontested(mover.opponent());
        self.to_move = mover.opponent();
    }

    /// Whether every piece stands on a spot (dots are never occupied).
    pub(crate) fn pieces_on_spots(&self) -> bool {
        self.occupied() & !SPOTS == 0 && self.pieces[0] & self.pieces[1] == 0
    }
}
