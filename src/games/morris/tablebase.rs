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
//! Only one position of each class of the 16 board symmetries (the 8 of the square times
//! swapping the inner and outer ring) has a slot: the canonical one, the least of its images
//! (mover set first, see [`Symmetry::canonical`]). Slots come in rows, one row per mover set
//! that is least among its images, and a row holds every placement of the `o` other pieces on
//! the `24 - m` free points, ranked among those points: a slot's index is arithmetic, and only
//! the rows of mover sets that some symmetry fixes hold slots of non-canonical positions
//! (unused, stored as draws: 24 % more slots than classes at 3v3, 6 % at 5v5, 3 % over the
//! whole set 3v3..9v9). Probing maps a position to its canonical image first, so a table is
//! the same bytes in memory and on disk.
//!
//! Captures lead into the smaller table `(o - 1, m)`, built first; they are the "exits" of a
//! table. Positions are resolved in order of distance: the lost ones (blocked, or every move
//! reaching a win for the opponent, counted down per position) pass a win at `d + 1` to each
//! predecessor found by un-moving; wins through a capture enter at their own distance.
//!
//! Counting down per class needs care: un-moving from the canonical position of a class finds
//! a predecessor class as often as that class's own canonical position has moves into it,
//! times |stabilizer of the child| / |stabilizer of the parent| (count the pairs of a symmetry
//! and a move both ways). So each move of a position counts the child's stabilizer size into
//! the counter, and each predecessor found subtracts the parent's stabilizer size: the counter
//! reaches zero exactly when every move has been answered.

use super::board::{in_mill_at, pieces_in_mills, points, Points, ADJACENT, ALL_POINTS};
use super::symmetry::{classes, rank, sets_of, Symmetry, BINOMIAL};
use super::{Morris, Move};
use crate::game::Game;
use std::sync::{LazyLock, OnceLock};

/// The symmetries' lookup tables, shared by every table.
pub(super) static SYMMETRY: LazyLock<Symmetry> = LazyLock::new(Symmetry::new);

/// The rows of the tables whose side to move has `m` pieces: the mover sets that are least
/// among their images, in rank order, and the row of each mover set by rank.
pub(super) struct Rows {
    /// The least mover sets, one per row.
    pub(super) movers: Vec<Points>,
    /// The row of each mover set (by colex rank), `u32::MAX` for sets that are not least.
    row_of: Vec<u32>,
}

/// The rows for `m` pieces to move, computed once per process.
pub(super) fn rows(m: u32) -> &'static Rows {
    static ROWS: [OnceLock<Rows>; 10] = [const { OnceLock::new() }; 10];
    ROWS[m as usize].get_or_init(|| {
        let mut movers = Vec::new();
        let mut row_of = vec![u32::MAX; BINOMIAL[24][m as usize] as usize];
        for (r, set) in sets_of(m).enumerate() {
            if (0..16).all(|s| SYMMETRY.apply(s, set) >= set) {
                row_of[r] = movers.len() as u32;
                movers.push(set);
            }
        }
        Rows { movers, row_of }
    })
}

/// The colex rank of `set` among the sets of its size on the points not in `taken`.
fn rank_among_free(set: Points, taken: Points) -> u64 {
    let free = ALL_POINTS & !taken;
    points(set)
        .enumerate()
        .map(|(i, p)| BINOMIAL[(free & ((1 << p) - 1)).count_ones() as usize][i + 1])
        .sum()
}

/// The set of `k` points among those not in `taken` with colex rank `r` (inverse of
/// [`rank_among_free`]).
fn unrank_among_free(mut r: u64, k: u32, taken: Points) -> Points {
    // A fixed array: the builder unranks every position it resolves.
    let mut free = [0usize; 24];
    let mut c = 0;
    for p in points(ALL_POINTS & !taken) {
        free[c] = p;
        c += 1;
    }
    let mut set = 0;
    for j in (1..=k as usize).rev() {
        c -= 1;
        while BINOMIAL[c][j] > r {
            c -= 1;
        }
        r -= BINOMIAL[c][j];
        set |= 1 << free[c];
    }
    set
}

/// One table: `mover` pieces to move against `other` pieces.
pub struct Table {
    pub(super) mover: u32,
    pub(super) other: u32,
    pub(super) values: Vec<u8>,
}

impl Table {
    /// The number of slots of table `mover`v`other`: rows times placements of the other side.
    pub fn slots(mover: u32, other: u32) -> u64 {
        rows(mover).movers.len() as u64 * BINOMIAL[24 - mover as usize][other as usize]
    }

    /// A table of draws (all zero), or `None` when the memory cannot be had.
    pub(super) fn zeroed(mover: u32, other: u32) -> Option<Table> {
        let mut values = Vec::new();
        let size = Table::slots(mover, other) as usize;
        values.try_reserve_exact(size).ok()?;
        values.resize(size, 0);
        Some(Table {
            mover,
            other,
            values,
        })
    }

    /// The slot of a canonical position.
    pub(super) fn slot_of(&self, mover: Points, other: Points) -> usize {
        let row = rows(self.mover).row_of[rank(mover) as usize] as u64;
        let stride = BINOMIAL[24 - self.mover as usize][self.other as usize];
        (row * stride + rank_among_free(other, mover)) as usize
    }

    /// The position of a slot (canonical unless its row's mover set has symmetries).
    pub(super) fn position_at(&self, slot: usize) -> (Points, Points) {
        let stride = BINOMIAL[24 - self.mover as usize][self.other as usize];
        let mover = rows(self.mover).movers[slot / stride as usize];
        let other = unrank_among_free(slot as u64 % stride, self.other, mover);
        (mover, other)
    }

    /// The stored byte (0 draw, else plies + 1) for any position of this table.
    pub fn value(&self, mover: Points, other: Points) -> u8 {
        let (m, o) = SYMMETRY.canonical(mover, other);
        self.values[self.slot_of(m, o)]
    }

    /// The number of classes of positions of table `mover`v`other` under the 16 symmetries
    /// (Burnside's count): its canonical positions, one slot each.
    pub fn classes(mover: u32, other: u32) -> u64 {
        classes(mover, other)
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

/// Marks a slot whose result has been passed on to its predecessors (or that holds no
/// canonical position).
const DONE: u16 = u16::MAX;

/// How far the build of a pair has come (for progress lines).
#[derive(Copy, Clone, Debug)]
pub enum Step {
    /// Seeding: `done` of `of` slots classified by their captures and moves.
    Seeding { done: u64, of: u64 },
    /// Resolving the positions at distance `level`; `pending` results wait for their level.
    Level { level: u32, pending: u64 },
}

/// The captures of a position, summarised for the side to move.
#[derive(Default)]
struct Exits {
    has_moves: bool,
    /// The moves inside the pair, each weighted by its child's stabilizer size.
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

    /// What the captures of a position lead to (they leave the pair being built), and the
    /// weighted count of the non-capture moves that stay inside it.
    fn exits(&self, mover: Points, other: Points) -> Exits {
        let mut exits = Exits::default();
        let pair = (other.count_ones(), mover.count_ones());
        exits.has_moves = self.for_each_child(mover, other, |child| {
            let value = match child {
                Child::Won => 1,
                Child::Position(cm, co, cmover, cother) if (cm, co) == pair => {
                    exits.internal += SYMMETRY.canonical_with_stabilizer(cmover, cother).2;
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
        self.build_pair_with(m, o, &mut |_| {})
            .expect("memory for the tables being built")
    }

    /// [`Tablebase::build_pair`], telling `progress` how far it has come; an error when the
    /// memory for the tables (3 bytes a slot while building) cannot be had.
    pub fn build_pair_with(
        &mut self,
        m: u32,
        o: u32,
        progress: &mut dyn FnMut(Step),
    ) -> Result<u32, String> {
        let counts = if m == o {
            vec![(m, o)]
        } else {
            vec![(m, o), (o, m)]
        };
        let no_memory = |(a, b): (u32, u32)| {
            format!(
                "no memory for table {a}v{b} ({} slots, 3 bytes each while building)",
                Table::slots(a, b)
            )
        };
        let mut tables = Vec::new();
        let mut counters: Vec<Vec<u16>> = Vec::new();
        for &c in &counts {
            tables.push(Table::zeroed(c.0, c.1).ok_or_else(|| no_memory(c))?);
            let mut counter = Vec::new();
            let size = Table::slots(c.0, c.1) as usize;
            counter.try_reserve_exact(size).map_err(|_| no_memory(c))?;
            counter.resize(size, DONE);
            counters.push(counter);
        }
        let table_of = |mover: Points| usize::from(m != o && mover.count_ones() != m);
        let total: u64 = counts.iter().map(|&(a, b)| Table::slots(a, b)).sum();
        let mut seeded = 0;
        // Results waiting for their level's pass (set, but not yet passed on).
        let mut pending = 0u64;
        for (t, &(a, b)) in counts.iter().enumerate() {
            let stride = BINOMIAL[24 - a as usize][b as usize] as usize;
            for (row, &mover) in rows(a).movers.iter().enumerate() {
                let stabilizer: Vec<usize> = (1..16)
                    .filter(|&s| SYMMETRY.apply(s, mover) == mover)
                    .collect();
                let free: Vec<usize> = points(ALL_POINTS & !mover).collect();
                for (j, compact) in sets_of_width(b, free.len() as u32).enumerate() {
                    let other = points(compact).fold(0, |acc, i| acc | 1 << free[i]);
                    if !SYMMETRY.is_least(&stabilizer, other) {
                        continue;
                    }
                    let i = row * stride + j;
                    let exits = self.exits(mover, other);
                    counters[t][i] = exits.internal as u16;
                    if !exits.has_moves {
                        tables[t].values[i] = 1;
                        pending += 1;
                    } else if let Some(w) = exits.best_win {
                        tables[t].values[i] = w as u8 + 1;
                        pending += 1;
                    } else if exits.internal == 0 && !exits.draw {
                        tables[t].values[i] = exits.worst_loss as u8 + 1;
                        pending += 1;
                    }
                }
                seeded += stride as u64;
                if row % 64 == 0 {
                    progress(Step::Seeding {
                        done: seeded,
                        of: total,
                    });
                }
            }
        }
        let mut longest = 0;
        let mut d = 0usize;
        while pending > 0 && d < 254 {
            progress(Step::Level {
                level: d as u32,
                pending,
            });
            let lost = d.is_multiple_of(2);
            for t in 0..tables.len() {
                for i in 0..tables[t].values.len() {
                    if usize::from(tables[t].values[i]) != d + 1 || counters[t][i] == DONE {
                        continue;
                    }
                    counters[t][i] = DONE;
                    pending -= 1;
                    longest = d as u32;
                    let (mover, other) = tables[t].position_at(i);
                    // Predecessors: the other side made a non-capture move into this position.
                    let empty = ALL_POINTS & !(mover | other);
                    let fly = self.flying && other.count_ones() == 3;
                    let pt = table_of(other);
                    for to in points(other).filter(|&to| !in_mill_at(other, to)) {
                        let sources = if fly { empty } else { ADJACENT[to] & empty };
                        for from in points(sources) {
                            let parent = (other & !(1 << to)) | (1 << from);
                            let (pm, po, weight) =
                                SYMMETRY.canonical_with_stabilizer(parent, mover);
                            let pi = tables[pt].slot_of(pm, po);
                            if counters[pt][pi] == DONE {
                                continue;
                            }
                            let value = tables[pt].values[pi];
                            if lost {
                                // A win at d + 1, unless a capture already wins as fast.
                                if value == 0 || usize::from(value) > d + 2 {
                                    pending += u64::from(value == 0);
                                    tables[pt].values[pi] = d as u8 + 2;
                                }
                                continue;
                            }
                            if value != 0 {
                                continue;
                            }
                            counters[pt][pi] -= weight as u16;
                            if counters[pt][pi] == 0 {
                                let exits = self.exits(pm, po);
                                if exits.best_win.is_none() && !exits.draw {
                                    let loss = exits.worst_loss.max(d as u32 + 1);
                                    tables[pt].values[pi] = loss as u8 + 1;
                                    pending += 1;
                                }
                            }
                        }
                    }
                }
            }
            d += 1;
        }
        for table in tables {
            let s = slot(table.mover, table.other);
            self.tables[s] = Some(table);
        }
        Ok(longest)
    }

    /// Builds every missing table with at most `max` pieces a side and `max_total` pieces in
    /// all, smallest first; `report` gets each built pair's counts and longest distance.
    pub fn build_up_to(&mut self, max: u32, max_total: u32, mut report: impl FnMut(u32, u32, u32)) {
        for (m, o) in pairs(max, max_total) {
            if self.table(m, o).is_some() && self.table(o, m).is_some() {
                continue;
            }
            let longest = self.build_pair(m, o);
            report(m, o, longest);
        }
    }
}

/// The pairs (m, o), m <= o, with at most `max` pieces a side and `max_total` in all, in the
/// order they can be built (smallest total first).
pub fn pairs(max: u32, max_total: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for total in 6..=max_total.min(2 * max) {
        for m in 3..=max {
            if total >= m && (m..=max).contains(&(total - m)) {
                out.push((m, total - m));
            }
        }
    }
    out
}

/// Every set of `k` of the first `n` indices, in colex order (as [`sets_of`] on 24 points).
fn sets_of_width(k: u32, n: u32) -> impl Iterator<Item = u32> {
    let limit = (1u32 << n) - 1;
    sets_of(k).take_while(move |&s| s <= limit)
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
    /// the fastest win, else a draw, else the slowest loss; among moves of the same result,
    /// the one leaving the opponent the most replies that lose ground
    /// ([`Tablebase::mistakes`]). `None` when a table is missing.
    pub fn best_move(&self, pos: &Morris) -> Option<(Move, TbResult)> {
        self.probe_position(pos)?;
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        // The best so far, with its child's mistakes once a tie has needed them.
        let mut best: Option<(Move, TbResult, Morris, Option<usize>)> = None;
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            let result = self.probe_position(&child)?.before();
            let mut mistakes = None;
            let better = match &mut best {
                None => true,
                Some((_, b, _, _)) if result.preference() != b.preference() => {
                    result.preference() > b.preference()
                }
                Some((_, _, best_child, best_mistakes)) => {
                    let theirs = match *best_mistakes {
                        Some(n) => n,
                        None => *best_mistakes.insert(self.mistakes(best_child)?),
                    };
                    let ours = self.mistakes(&child)?;
                    mistakes = Some(ours);
                    ours > theirs
                }
            };
            if better {
                best = Some((mv, result, child, mistakes));
            }
        }
        best.map(|(mv, result, _, _)| (mv, result))
    }

    /// The replies of the side to move that lose ground: those whose result for it is worse
    /// than the position's own (a win given up, a draw turned into a loss, a slower win or a
    /// faster loss). `None` when a table is missing.
    pub fn mistakes(&self, pos: &Morris) -> Option<usize> {
        let value = self.probe_position(pos)?.preference();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut count = 0;
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            count += usize::from(self.probe_position(&child)?.before().preference() < value);
        }
        Some(count)
    }
}
