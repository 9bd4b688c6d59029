//! Endgame tablebases for the moving and flying phases (no pieces in hand), built by
//! retrograde analysis in passes of increasing distance.
//!
//! A table holds every position with `m` pieces for the side to move and `o` for the other
//! (colours do not matter: the rules are the same for both), one byte each: 0 = draw, else
//! `plies + 1`, where `plies` is the distance to the end with best play (odd: the side to move
//! wins; even: it loses). Distances count plies to a capture that leaves fewer than 3 pieces
//! or to a blocked position. The draw rules (repetition, no-capture counter) are not part of
//! the tables: a position is a draw when neither side can force a win.
//!
//! Pass `d` resolves exactly the positions at distance `d`: a win if some move reaches a loss
//! at `d - 1`, a loss if every move reaches a win for the opponent (all at most `d - 1`).
//! Captures lead into the smaller table `(o - 1, m)`, built first. On disk only one position
//! of each class of the 16 board symmetries (the 8 of the square times swapping the inner and
//! outer ring) is stored; loading expands the table again.

use super::board::{
    in_mill_at, pieces_in_mills, points, Points, ADJACENT, ALL_POINTS, POINT_NAMES,
};
use super::{Morris, Move};
use crate::game::Game;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Binomial coefficients C(n, k) for n, k <= 24.
const BINOMIAL: [[u64; 25]; 25] = {
    let mut c = [[0u64; 25]; 25];
    let mut n = 0;
    while n < 25 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
};

/// The colex rank of a set among the sets of its size (Gosper order).
fn rank(set: Points) -> u64 {
    points(set)
        .enumerate()
        .map(|(i, p)| BINOMIAL[p][i + 1])
        .sum()
}

/// Every set of `k` points, in rank order.
fn sets_of(k: u32) -> impl Iterator<Item = Points> {
    let mut next = if k == 0 { None } else { Some((1u32 << k) - 1) };
    std::iter::from_fn(move || {
        let set = next?;
        // Gosper's hack: the next larger number with the same popcount.
        let low = set & set.wrapping_neg();
        let ripple = set + low;
        let following = (((ripple ^ set) >> 2) / low) | ripple;
        next = (following <= ALL_POINTS).then_some(following);
        Some(set)
    })
}

/// The 16 symmetries as point permutations.
fn symmetries() -> Vec<[usize; 24]> {
    let coords: Vec<(i32, i32)> = (0..24)
        .map(|p| {
            let b = POINT_NAMES[p].as_bytes();
            (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
        })
        .collect();
    let find = |c: (i32, i32)| coords.iter().position(|&q| q == c).unwrap_or(0);
    let swap_rings = |v: i32, ring: i32| match v {
        3 => 3,
        v if v == ring => 2 - ring,
        _ => 4 + ring,
    };
    let mut out = Vec::new();
    for swap in [false, true] {
        for turn in 0..4 {
            for mirror in [false, true] {
                let mut perm = [0; 24];
                for (p, &(x, y)) in coords.iter().enumerate() {
                    let (mut x, mut y) = (x, y);
                    if swap {
                        let ring = x.min(6 - x).min(y.min(6 - y));
                        (x, y) = (swap_rings(x, ring), swap_rings(y, ring));
                    }
                    for _ in 0..turn {
                        (x, y) = (y, 6 - x);
                    }
                    if mirror {
                        x = 6 - x;
                    }
                    perm[p] = find((x, y));
                }
                out.push(perm);
            }
        }
    }
    out
}

/// Applies the symmetries to point sets with per-byte lookups.
struct Symmetry {
    bytes: Vec<[[Points; 256]; 3]>,
}

impl Symmetry {
    fn new() -> Symmetry {
        let bytes = symmetries()
            .iter()
            .map(|perm| {
                let mut t = [[0; 256]; 3];
                for (chunk, table) in t.iter_mut().enumerate() {
                    for (byte, out) in table.iter_mut().enumerate() {
                        *out = points((byte as Points) << (8 * chunk))
                            .fold(0, |acc, p| acc | 1 << perm[p]);
                    }
                }
                t
            })
            .collect();
        Symmetry { bytes }
    }

    fn apply(&self, s: usize, set: Points) -> Points {
        let t = &self.bytes[s];
        t[0][(set & 0xff) as usize] | t[1][(set >> 8 & 0xff) as usize] | t[2][(set >> 16) as usize]
    }

    /// The smallest image of (mover, other) under the 16 symmetries.
    fn canonical(&self, mover: Points, other: Points) -> (Points, Points) {
        (0..16)
            .map(|s| (self.apply(s, mover), self.apply(s, other)))
            .min()
            .unwrap_or((mover, other))
    }
}

/// One table: `mover` pieces to move against `other` pieces.
pub struct Table {
    mover: u32,
    other: u32,
    values: Vec<u8>,
}

impl Table {
    fn index(&self, mover: Points, other: Points) -> usize {
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
    flying: bool,
    tables: Vec<Option<Table>>,
}

fn slot(mover: u32, other: u32) -> usize {
    (mover as usize) * 10 + other as usize
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

    fn child_value(&self, tables: &[&Table; 2], child: &Child) -> u8 {
        match *child {
            Child::Won => 1,
            Child::Position(cm, co, cmover, cother) => {
                let table = tables
                    .iter()
                    .copied()
                    .find(|t| t.mover == cm && t.other == co)
                    .or_else(|| self.table(cm, co));
                table.map_or(0, |t| t.value(cmover, cother))
            }
        }
    }

    /// Builds the tables (m, o) and (o, m) together; the smaller ones they capture into must
    /// be present. Returns the number of passes.
    pub fn build_pair(&mut self, m: u32, o: u32) -> u32 {
        let counts = if m == o {
            vec![(m, o)]
        } else {
            vec![(m, o), (o, m)]
        };
        let mut built: Vec<Table> = counts
            .iter()
            .map(|&(a, b)| Table {
                mover: a,
                other: b,
                values: vec![0; (BINOMIAL[24][a as usize] * BINOMIAL[24][b as usize]) as usize],
            })
            .collect();
        let exit_horizon = self
            .tables
            .iter()
            .flatten()
            .flat_map(|t| t.values.iter().copied().max())
            .max()
            .unwrap_or(0) as u32
            + 2;
        // Blocked positions are lost now (distance 0).
        for t in 0..built.len() {
            let (a, b) = counts[t];
            for mover in sets_of(a) {
                for other in sets_of(b).filter(|&s| s & mover == 0) {
                    if !self.for_each_child(mover, other, |_| false) {
                        let i = built[t].index(mover, other);
                        built[t].values[i] = 1;
                    }
                }
            }
        }
        let mut d = 1;
        loop {
            let mut changed = 0u64;
            for t in 0..built.len() {
                let (a, b) = counts[t];
                let mut updates = Vec::new();
                {
                    let pair: [&Table; 2] = [&built[0], &built[built.len() - 1]];
                    for mover in sets_of(a) {
                        for other in sets_of(b).filter(|&s| s & mover == 0) {
                            let i = pair[t].index(mover, other);
                            if pair[t].values[i] != 0 {
                                continue;
                            }
                            let mut wins = false;
                            let mut all_lost = true;
                            self.for_each_child(mover, other, |child| {
                                let v = self.child_value(&pair, &child);
                                let plies = u32::from(v).wrapping_sub(1);
                                if v != 0 && plies % 2 == 0 && plies + 1 == d {
                                    wins = true;
                                    return false;
                                }
                                if v == 0 || plies % 2 == 0 || plies >= d {
                                    all_lost = false;
                                }
                                true
                            });
                            if wins || all_lost {
                                updates.push((i, d as u8 + 1));
                            }
                        }
                    }
                }
                changed += updates.len() as u64;
                for (i, v) in updates {
                    built[t].values[i] = v;
                }
            }
            if (changed == 0 && d > exit_horizon) || d >= 253 {
                break;
            }
            d += 1;
        }
        for table in built {
            let s = slot(table.mover, table.other);
            self.tables[s] = Some(table);
        }
        d
    }

    /// Builds every table with at most `max` pieces a side (3v3 first).
    pub fn build_up_to(&mut self, max: u32, mut report: impl FnMut(u32, u32, u32)) {
        for total in 6..=2 * max {
            for m in 3..=max {
                let o = total - m;
                if o < m || o > max {
                    continue;
                }
                let passes = self.build_pair(m, o);
                report(m, o, passes);
            }
        }
    }

    fn file_name(dir: &Path, flying: bool, mover: u32, other: u32) -> PathBuf {
        let kind = if flying { "fly" } else { "nofly" };
        dir.join(format!("morris-{kind}-{mover}v{other}.tb"))
    }

    /// Writes each table, one byte per class of symmetric positions (canonical positions in
    /// index order). Returns the bytes written per table.
    pub fn save(&self, dir: &Path) -> std::io::Result<Vec<(u32, u32, u64)>> {
        let symmetry = Symmetry::new();
        let mut sizes = Vec::new();
        for table in self.tables.iter().flatten() {
            let mut bytes = Vec::new();
            for mover in sets_of(table.mover) {
                for other in sets_of(table.other).filter(|&s| s & mover == 0) {
                    if symmetry.canonical(mover, other) == (mover, other) {
                        bytes.push(table.value(mover, other));
                    }
                }
            }
            let path = Tablebase::file_name(dir, self.flying, table.mover, table.other);
            std::fs::File::create(path)?.write_all(&bytes)?;
            sizes.push((table.mover, table.other, bytes.len() as u64));
        }
        Ok(sizes)
    }

    /// Loads the tables with at most `max` pieces a side found in `dir`; missing files are
    /// skipped. Returns how many tables were loaded.
    pub fn load(dir: &Path, flying: bool, max: u32) -> std::io::Result<(Tablebase, usize)> {
        let symmetry = Symmetry::new();
        let mut tb = Tablebase::new(flying);
        let mut loaded = 0;
        for m in 3..=max {
            for o in 3..=max {
                let path = Tablebase::file_name(dir, flying, m, o);
                let Ok(mut file) = std::fs::File::open(&path) else {
                    continue;
                };
                let mut bytes = Vec::new();
                file.read_to_end(&mut bytes)?;
                let mut table = Table {
                    mover: m,
                    other: o,
                    values: vec![0; (BINOMIAL[24][m as usize] * BINOMIAL[24][o as usize]) as usize],
                };
                let mut next = bytes.iter();
                for mover in sets_of(m) {
                    for other in sets_of(o).filter(|&s| s & mover == 0) {
                        if symmetry.canonical(mover, other) == (mover, other) {
                            let Some(&v) = next.next() else {
                                return Err(std::io::Error::other(format!(
                                    "{} is too short",
                                    path.display()
                                )));
                            };
                            let i = table.index(mover, other);
                            table.values[i] = v;
                        }
                    }
                }
                for mover in sets_of(m) {
                    for other in sets_of(o).filter(|&s| s & mover == 0) {
                        let (cm, co) = symmetry.canonical(mover, other);
                        let i = table.index(mover, other);
                        table.values[i] = table.value(cm, co);
                    }
                }
                tb.tables[slot(m, o)] = Some(table);
                loaded += 1;
            }
        }
        Ok((tb, loaded))
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
