//! Endgame tablebases for the moving and flying phases (no pieces in hand), built by
//! retrograde analysis.
//!
//! A table holds every position with `m` pieces for the side to move and `o` for the other
//! (colours do not matter: the rules are the same for both), one byte each: 0 = draw, else
//! `plies + 1`, where `plies` is the distance to the end with best play (odd: the side to move
//! wins; even: it loses). Distances count plies to a capture that leaves fewer than 3 pieces
//! or to a blocked position. The draw rules (repetition, no-capture counter) are not part of
//! the tables: a position is a draw when neither side can force a win.
//!
//! Captures lead into the smaller table `(o - 1, m)`, built first; they are the "exits" of a
//! table. Positions are resolved in order of distance: the lost ones (blocked, or every move
//! reaching a win for the opponent, counted down per position) pass a win at `d + 1` to each
//! predecessor found by un-moving; wins through a capture enter at their own distance. On disk
//! only one position of each class of the 16 board symmetries (the 8 of the square times
//! swapping the inner and outer ring) is stored (`tablefile.rs`); loading expands the table.

use super::board::{in_mill_at, pieces_in_mills, points, Points, ADJACENT, ALL_POINTS};
use super::symmetry::{rank, sets_of, BINOMIAL};
use super::{Morris, Move};
use crate::game::Game;

/// One table: `mover` pieces to move against `other` pieces.
pub struct Table {
    pub(super) mover: u32,
    pub(super) other: u32,
    pub(super) values: Vec<u8>,
}

impl Table {
    pub(super) fn index(&self, mover: Points, other: Points) -> usize {
        (rank(mover) * BINOMIAL[24][self.other as usize] + rank(other)) as usize
    }

    /// The stored byte (0 draw, else plies + 1) for a position of this table.
    pub fn value(&self, mover: Points, other: Points) -> u8 {
        self.values[self.index(mover, other)]
    }

    /// The number of legal positions it describes.
    pub fn positions(&self) -> u64 {
        BINOMIAL[24][self.mover as usize] * BINOMIAL[24 - self.mover as usize][self.other as usize]
    }
}

/// The result of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TbResult {
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

/// Decodes a table byte.
pub fn decode(value: u8) -> TbResult {
    match value {
        0 => TbResult::Draw,
        v if (v - 1) % 2 == 1 => TbResult::Win(u32::from(v - 1)),
        v => TbResult::Loss(u32::from(v - 1)),
    }
}

/// A set of tables for one `flying` setting, indexed by piece counts 3..=9.
pub struct Tablebase {
    pub(super) flying: bool,
    pub(super) tables: Vec<Option<Table>>,
}

/// Where table `mover`v`other` sits in [`Tablebase::tables`].
pub(super) fn slot(mover: u32, other: u32) -> usize {
    (mover as usize) * 10 + other as usize
}

/// Marks a position whose result has been passed on to its predecessors.
const DONE: u8 = u8::MAX;

/// The captures of a position, summarised for the side to move.
#[derive(Default)]
struct Exits {
    has_moves: bool,
    internal: u32,
    best_win: Option<u32>,
    worst_loss: u32,
    draw: bool,
}

/// What one step of the side to move leads to.
enum Child {
    /// A position of table (other, mover) or (other - 1, mover), as (mover, other) sets.
    Position(u32, u32, Points, Points),
    /// The capture leaves the opponent with 2 pieces: an immediate win.
    Won,
}

impl Tablebase {
    /// An empty tablebase.
    pub fn new(flying: bool) -> Tablebase {
        Tablebase {
            flying,
            tables: (0..100).map(|_| None).collect(),
        }
    }

    /// The table for these counts, if built or loaded.
    pub fn table(&self, mover: u32, other: u32) -> Option<&Table> {
        self.tables.get(slot(mover, other))?.as_ref()
    }

    /// Looks up a position (side to move's pieces, the other side's), if its table is present.
    pub fn probe(&self, mover: Points, other: Points) -> Option<TbResult> {
        let table = self.table(mover.count_ones(), other.count_ones())?;
        Some(decode(table.value(mover, other)))
    }

    fn for_each_child(
        &self,
        mover: Points,
        other: Points,
        mut visit: impl FnMut(Child) -> bool,
    ) -> bool {
        let empty = ALL_POINTS & !(mover | other);
        let m = mover.count_ones();
        let o = other.count_ones();
        let fly = self.flying && m == 3;
        let free = other & !pieces_in_mills(other);
        let capturable = if free != 0 { free } else { other };
        let mut any = false;
        for from in points(mover) {
            let targets = if fly { empty } else { ADJACENT[from] & empty };
            for to in points(targets) {
                any = true;
                let after = (mover & !(1 << from)) | (1 << to);
                if in_mill_at(after, to) {
                    for c in points(capturable) {
                        let child = if o == 3 {
                            Child::Won
                        } else {
                            Child::Position(o - 1, m, other & !(1 << c), after)
                        };
                        if !visit(child) {
                            return any;
                        }
                    }
                } else if !visit(Child::Position(o, m, other, after)) {
                    return any;
                }
            }
        }
        any
    }

    /// What the captures of a position lead to (they leave the pair being built), and how
    /// many non-capture moves stay inside it.
    fn exits(&self, mover: Points, other: Points) -> Exits {
        let mut exits = Exits::default();
        let pair = (other.count_ones(), mover.count_ones());
        exits.has_moves = self.for_each_child(mover, other, |child| {
            let value = match child {
                Child::Won => 1,
                Child::Position(cm, co, _, _) if (cm, co) == pair => {
                    exits.internal += 1;
                    return true;
                }
                Child::Position(cm, co, cmover, cother) => {
                    self.table(cm, co).map_or(0, |t| t.value(cmover, cother))
                }
            };
            match decode(value) {
                TbResult::Draw => exits.draw = true,
                TbResult::Loss(p) => {
                    exits.best_win = Some(exits.best_win.map_or(p + 1, |w: u32| w.min(p + 1)))
                }
                TbResult::Win(p) => exits.worst_loss = exits.worst_loss.max(p + 1),
            }
            true
        });
        exits
    }

    /// The tables that captures from the pair (m, o) and (o, m) lead into, which
    /// [`Tablebase::build_pair`] needs: `(o - 1)v m` and `(m - 1)v o`, when 3 pieces are left.
    pub fn captures_into(m: u32, o: u32) -> Vec<(u32, u32)> {
        let mut needed = vec![(o - 1, m), (m - 1, o)];
        needed.retain(|&(a, _)| a >= 3);
        needed.dedup();
        needed
    }

    /// Builds the tables (m, o) and (o, m) together by retrograde analysis; the smaller
    /// tables their captures lead into must be present. Returns the longest distance found.
    pub fn build_pair(&mut self, m: u32, o: u32) -> u32 {
        let counts = if m == o {
            vec![(m, o)]
        } else {
            vec![(m, o), (o, m)]
        };
        let size =
            |&(a, b): &(u32, u32)| (BINOMIAL[24][a as usize] * BINOMIAL[24][b as usize]) as usize;
        let mut tables: Vec<Table> = counts
            .iter()
            .map(|c| Table {
                mover: c.0,
                other: c.1,
                values: vec![0; size(c)],
            })
            .collect();
        // Unresolved non-capture moves per position; DONE once its result has been passed on.
        let mut counters: Vec<Vec<u8>> = counts.iter().map(|c| vec![0; size(c)]).collect();
        let mut queues: Vec<Vec<(usize, Points, Points)>> = vec![Vec::new(); 256];
        let table_of = |mover: Points, other: Points| {
            counts
                .iter()
                .position(|&c| c == (mover.count_ones(), other.count_ones()))
                .unwrap_or(0)
        };
        for (t, &(a, b)) in counts.iter().enumerate() {
            for mover in sets_of(a) {
                for other in sets_of(b).filter(|&s| s & mover == 0) {
                    let i = tables[t].index(mover, other);
                    let exits = self.exits(mover, other);
                    counters[t][i] = exits.internal as u8;
                    if !exits.has_moves {
                        tables[t].values[i] = 1;
                        queues[0].push((t, mover, other));
                    } else if let Some(w) = exits.best_win {
                        queues[w as usize].push((t, mover, other));
                    } else if exits.internal == 0 && !exits.draw {
                        tables[t].values[i] = exits.worst_loss as u8 + 1;
                        queues[exits.worst_loss as usize].push((t, mover, other));
                    }
                }
            }
        }
        let mut longest = 0;
        for d in 0..254usize {
            for (t, mover, other) in std::mem::take(&mut queues[d]) {
                let i = tables[t].index(mover, other);
                if counters[t][i] == DONE {
                    continue;
                }
                if tables[t].values[i] == 0 {
                    tables[t].values[i] = d as u8 + 1; // a win through a capture
                } else if usize::from(tables[t].values[i]) != d + 1 {
                    continue;
                }
                counters[t][i] = DONE;
                longest = d as u32;
                let lost = d % 2 == 0;
                // Predecessors: the other side made a non-capture move into this position.
                let empty = ALL_POINTS & !(mover | other);
                let fly = self.flying && other.count_ones() == 3;
                let pt = table_of(other, mover);
                for to in points(other).filter(|&to| !in_mill_at(other, to)) {
                    let sources = if fly { empty } else { ADJACENT[to] & empty };
                    for from in points(sources) {
                        let parent = (other & !(1 << to)) | (1 << from);
                        let pi = tables[pt].index(parent, mover);
                        if tables[pt].values[pi] != 0 {
                            continue;
                        }
                        if lost {
                            tables[pt].values[pi] = d as u8 + 2;
                            queues[d + 1].push((pt, parent, mover));
                            continue;
                        }
                        counters[pt][pi] -= 1;
                        if counters[pt][pi] == 0 {
                            let exits = self.exits(parent, mover);
                            if exits.best_win.is_none() && !exits.draw {
                                let loss = exits.worst_loss.max(d as u32 + 1) as usize;
                                tables[pt].values[pi] = loss as u8 + 1;
                                queues[loss].push((pt, parent, mover));
                            }
                        }
                    }
                }
            }
        }
        for table in tables {
            let s = slot(table.mover, table.other);
            self.tables[s] = Some(table);
        }
        longest
    }

    /// Builds every missing table with at most `max` pieces a side and `max_total` pieces in
    /// all, smallest first; `report` gets each built pair's counts and longest distance.
    pub fn build_up_to(&mut self, max: u32, max_total: u32, mut report: impl FnMut(u32, u32, u32)) {
        for total in 6..=max_total.min(2 * max) {
            for m in 3..=max {
                let o = total - m;
                if o < m || o > max || self.table(m, o).is_some() && self.table(o, m).is_some() {
                    continue;
                }
                let longest = self.build_pair(m, o);
                report(m, o, longest);
            }
        }
    }
}

// Probing from a game position

impl TbResult {
    /// The result one ply earlier, for the player who made the move leading here.
    fn before(self) -> TbResult {
        match self {
            TbResult::Win(n) => TbResult::Loss(n + 1),
            TbResult::Loss(n) => TbResult::Win(n + 1),
            TbResult::Draw => TbResult::Draw,
        }
    }

    /// Orders results for the side to move: quick wins first, slow losses last.
    fn preference(self) -> i64 {
        match self {
            TbResult::Win(n) => 1_000 - i64::from(n),
            TbResult::Draw => 0,
            TbResult::Loss(n) => -1_000 + i64::from(n),
        }
    }
}

impl Tablebase {
    /// The result of a game position in the moving or flying phase, if its table is loaded
    /// and its `flying` setting matches.
    pub fn probe_position(&self, pos: &Morris) -> Option<TbResult> {
        let me = pos.side_to_move();
        if pos.options().flying != self.flying || pos.in_hand(me) + pos.in_hand(me.opponent()) > 0 {
            return None;
        }
        if let Some(outcome) = pos.outcome() {
            return Some(match outcome.winner {
                Some(w) if w == me => TbResult::Win(0),
                Some(_) => TbResult::Loss(0),
                None => TbResult::Draw,
            });
        }
        self.probe(pos.pieces(me), pos.pieces(me.opponent()))
    }

    /// The best move of a position by the tables, with its result for the side to move:
    /// the fastest win, else a draw, else the slowest loss. `None` when a table is missing.
    pub fn best_move(&self, pos: &Morris) -> Option<(Move, TbResult)> {
        self.probe_position(pos)?;
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut best: Option<(Move, TbResult)> = None;
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            let result = self.probe_position(&child)?.before();
            if best.is_none_or(|(_, b)| result.preference() > b.preference()) {
                best = Some((mv, result));
            }
        }
        best
    }
}
