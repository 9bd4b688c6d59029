//! `solve` while pieces are still in hand: a win/draw/loss proof search over the rest of the
//! placement phase, with the endgame tables as exact leaves where placement ends (Gasser's
//! method: an alpha-beta search of the placement phase over a database of the moving phase).
//!
//! Values are -1, 0, 1 for the side to move. Some leaves are only known within bounds: a
//! table missing (anything), or a table win or loss the draw rules might cut short (a win
//! becomes at worst a draw). The proof then runs twice, once with each leaf at the end of its
//! range that is worse for the root's side (a lower bound on the root's value) and once at
//! the better end (an upper bound); the value is proven when the two meet, and the second run
//! is skipped when the first met no such leaf.
//!
//! Transpositions are shared through a table keyed by the exact position up to the 16 board
//! symmetries and the colours: the mover's and the other side's pieces (canonical image),
//! both hands and, when the no-capture rule is on, the quiet-ply counter.
//!
//! The same search, within a fixed amount of work, tells the moves that keep a position's
//! value ([`value_keeping_moves`]): the engine's search then chooses among those only.

use super::tablebase::{TbResult, SYMMETRY};
use super::{eval, Morris, Move};
use crate::game::{Game, Proven, Solution};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Slots of the transposition table at most: 2^27 entries of 16 bytes, 2 GiB, for the start
/// (2^(12 + pieces in hand) below that: small proofs stay cheap to set up). The start's
/// proof visits 13 million positions.
const TABLE_BITS: u32 = 27;
/// Entries looked at per probe; the one with the least placement left below it is replaced.
const BUCKET: usize = 4;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 4096;

/// What one proof found: the root's value (lower and upper bound), a move keeping the lower
/// bound, and the positions visited.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The worst value the root's side can be held to.
    pub low: i8,
    /// The best value it can reach.
    pub high: i8,
    /// A move that keeps `low` (none when the root has no move or `low` is a loss).
    pub best: Option<Move>,
    /// Positions visited over both runs.
    pub nodes: u64,
}

/// A stored position's bounds. Stored positions have pieces in hand, so their key is never
/// 0, which marks an empty entry.
#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    low: i8,
    high: i8,
    /// Pieces in hand below this position (how much work the entry saves).
    depth: u8,
}

/// The proof search of one run (one bound).
struct Prover<'a> {
    entries: Vec<Entry>,
    /// True: leaves count at the root side's worse end (a lower bound); false: the better end.
    pessimistic: bool,
    /// True once a leaf known only within bounds was used.
    uncertain: bool,
    nodes: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    /// Positions after which the run gives up.
    node_limit: u64,
    gave_up: bool,
}

/// Proves the value of a position with pieces in hand from the attached tables; `None` when
/// the position has no pieces in hand, no tables are loaded (or they are for the other
/// `flying` setting), or `deadline` or `stop` came first.
pub(super) fn prove(pos: &Morris, deadline: Option<Instant>, stop: &AtomicBool) -> Option<Bounds> {
    if !applies(pos) {
        return None;
    }
    let mut prover = Prover::new(table_for(pos), true, deadline, stop);
    let (low, best) = prover.root(pos)?;
    let mut nodes = prover.nodes;
    let high = if prover.uncertain {
        let mut entries = prover.entries;
        entries.fill(Entry::default());
        let mut optimist = Prover::new(entries, false, deadline, stop);
        let high = optimist.root(pos).map(|(high, _)| high);
        nodes += optimist.nodes;
        high?
    } else {
        low
    };
    Some(Bounds {
        low,
        high,
        best,
        nodes,
    })
}

/// `solve` by [`prove`]: the proven value (without a distance: the search proves the result,
/// not how fast it comes), or an unknown value when the bounds do not meet.
pub(super) fn solve(
    pos: &Morris,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Option<Solution<Move>> {
    if !applies(pos) || pos.outcome().is_some() {
        return None;
    }
    let Some(bounds) = prove(pos, deadline, stop) else {
        return Some(Solution {
            value: None,
            best: None,
            nodes: 0,
        });
    };
    let value = (bounds.low == bounds.high).then_some(match bounds.low {
        1 => Proven::Win(0),
        0 => Proven::Draw,
        _ => Proven::Loss(0),
    });
    Some(Solution {
        value,
        best: value.and(bounds.best),
        nodes: bounds.nodes,
    })
}

/// Work allowed for [`value_keeping_moves`] at one position: about 30 ms.
const KEEPING_NODES: u64 = 30_000;
/// Pieces in both hands at most where [`value_keeping_moves`] tries: with more, the budget
/// rarely suffices and would be spent for nothing.
const KEEPING_HANDS: u8 = 6;

/// The legal moves that keep the position's proven value, when every move's value is proven
/// within [`KEEPING_NODES`] positions; `None` when one is not, when every move loses, or where
/// [`prove`] does not apply.
pub(super) fn value_keeping_moves(pos: &Morris) -> Option<Vec<Move>> {
    if !applies(pos) || pos.outcome().is_some() || pos.hand[0] + pos.hand[1] > KEEPING_HANDS {
        return None;
    }
    let stop = AtomicBool::new(false);
    // One run for every child: the same root side (the opponent) and the same end of open
    // leaves, so its transpositions serve them all.
    let mut prover = Prover::new(table_for(pos), true, None, &stop);
    prover.node_limit = KEEPING_NODES;
    let mut values = Vec::new();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    for mv in moves {
        let mut child = pos.clone();
        child.play(mv);
        let value = -prover.search(&child, -1, 1, true);
        if prover.gave_up || prover.uncertain {
            return None;
        }
        values.push((mv, value));
    }
    log::debug!("value-keeping moves: {} nodes", prover.nodes);
    let best = values.iter().map(|&(_, value)| value).max()?;
    (best > -1).then(|| {
        values
            .into_iter()
            .filter(|&(_, value)| value == best)
            .map(|(mv, _)| mv)
            .collect()
    })
}

/// An empty transposition table sized for the pieces in hand at `pos`.
fn table_for(pos: &Morris) -> Vec<Entry> {
    let bits = (12 + u32::from(pos.hand[0] + pos.hand[1])).min(TABLE_BITS);
    vec![Entry::default(); 1 << bits]
}

/// Whether [`prove`] can run: pieces in hand, and tables loaded for this `flying` setting.
fn applies(pos: &Morris) -> bool {
    let tables = pos.options.tables.and_then(|t| t.get());
    pos.hand != [0, 0] && tables.is_some_and(|t| t.flying() == pos.options.flying)
}

impl<'a> Prover<'a> {
    fn new(
        entries: Vec<Entry>,
        pessimistic: bool,
        deadline: Option<Instant>,
        stop: &'a AtomicBool,
    ) -> Prover<'a> {
        Prover {
            entries,
            pessimistic,
            uncertain: false,
            nodes: 0,
            deadline,
            stop,
            node_limit: u64::MAX,
            gave_up: false,
        }
    }

    /// The root's bound and a move that reaches it; `None` when the run gave up.
    fn root(&mut self, pos: &Morris) -> Option<(i8, Option<Move>)> {
        let root_side = true;
        let mut best = (-2, None);
        for (mv, child) in self.children(pos) {
            let value = -self.search(&child, -1, -best.0.max(-1), !root_side);
            if self.gave_up {
                return None;
            }
            // A long proof says how far it is (RUST_LOG=info). After the first move, one that
            // does not beat the best is searched only far enough to show it does not.
            log::info!(
                "placement proof ({} run): {} -> {}{value}, {} nodes",
                if self.pessimistic { "lower" } else { "upper" },
                pos.format_move(mv),
                if best.0 > -2 && value <= best.0 {
                    "at most "
                } else {
                    ""
                },
                self.nodes
            );
            if value > best.0 {
                best = (value, Some(mv));
                if value == 1 {
                    break;
                }
            }
        }
        Some((best.0.max(-1), best.1))
    }

    /// The value of `pos` for its side to move within (`alpha`, `beta`), fail-soft;
    /// `root_side` tells whether that side is the root's.
    fn search(&mut self, pos: &Morris, mut alpha: i8, mut beta: i8, root_side: bool) -> i8 {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            self.gave_up = true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY)
            && (self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.gave_up = true;
        }
        if self.gave_up {
            return 0;
        }
        if let Some(outcome) = pos.outcome() {
            return match outcome.winner {
                None => 0,
                Some(w) if w == pos.side => 1,
                Some(_) => -1,
            };
        }
        if pos.hand == [0, 0] {
            return self.leaf(pos, root_side);
        }
        let key = position_key(pos, root_side);
        if let Some(e) = key.and_then(|k| self.known(k)) {
            if e.low >= beta || e.low == e.high {
                return e.low;
            }
            if e.high <= alpha {
                return e.high;
            }
            alpha = alpha.max(e.low);
            beta = beta.min(e.high);
        }
        let (alpha_in, beta_in) = (alpha, beta);
        let children = self.children(pos);
        // A child already known to refute the window saves searching the ones before it.
        if pos.hand[0] + pos.hand[1] >= 3 {
            for (_, child) in &children {
                if let Some(e) = position_key(child, !root_side).and_then(|k| self.known(k)) {
                    if -e.high >= beta {
                        return -e.high;
                    }
                }
            }
        }
        let mut best = -2;
        for (_, child) in children {
            let value = -self.search(&child, -beta, -alpha, !root_side);
            if self.gave_up {
                return 0;
            }
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        if let Some(k) = key {
            let (low, high) = if best >= beta_in {
                (best, 1)
            } else if best <= alpha_in {
                (-1, best)
            } else {
                (best, best)
            };
            self.store(k, low, high, pos.hand[0] + pos.hand[1]);
        }
        best
    }

    /// A position where placement is over: its table value, at the end of its range this
    /// run asks for.
    fn leaf(&mut self, pos: &Morris, root_side: bool) -> i8 {
        let (low, high) = leaf_range(pos);
        if low != high {
            self.uncertain = true;
        }
        if root_side == self.pessimistic {
            low
        } else {
            high
        }
    }

    /// The legal moves with the positions they lead to, likeliest best first: a capture or
    /// a block before the rest (the engine's own ordering hint), and among those the moves
    /// that leave the opponent the worst static evaluation.
    fn children(&self, pos: &Morris) -> Vec<(Move, Morris)> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        // The children of the last placement are table probes: not worth an evaluation.
        let leaves = pos.hand[0] + pos.hand[1] == 1;
        let mut scored: Vec<(i32, Move, Morris)> = moves
            .into_iter()
            .map(|mv| {
                let mut child = pos.clone();
                child.play(mv);
                let mut score = eval::move_order_hint(pos, mv);
                if !leaves {
                    score -= child.evaluate();
                }
                (score, mv, child)
            })
            .collect();
        scored.sort_by_key(|&(score, _, _)| -score);
        scored
            .into_iter()
            .map(|(_, mv, child)| (mv, child))
            .collect()
    }

    /// The entry of `key`, if the table holds it.
    fn known(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.find(key)?];
        (e.key == key).then_some(e)
    }

    /// The slot of `key`: its own entry, or the one to replace.
    fn find(&self, key: u64) -> Option<usize> {
        let mask = self.entries.len() - 1;
        let start = (mix(key) as usize) & mask & !(BUCKET - 1);
        let bucket = start..start + BUCKET;
        bucket
            .clone()
            .find(|&i| self.entries[i].key == key)
            .or_else(|| bucket.min_by_key(|&i| (self.entries[i].key != 0, self.entries[i].depth)))
    }

    fn store(&mut self, key: u64, low: i8, high: i8, depth: u8) {
        if let Some(i) = self.find(key) {
            let e = &mut self.entries[i];
            if e.key == key {
                e.low = e.low.max(low);
                e.high = e.high.min(high);
            } else {
                *e = Entry {
                    key,
                    low,
                    high,
                    depth,
                };
            }
        }
    }
}

/// The value range of a position with no pieces in hand, for its side to move: exact from
/// the tables under the draw rules, a win the draw rules may cut to a draw (0..1), a loss
/// they may cut to a draw (-1..0), or anything when its table is missing.
fn leaf_range(pos: &Morris) -> (i8, i8) {
    if let Some(value) = pos.table_value() {
        let v = match value {
            Proven::Win(_) => 1,
            Proven::Draw => 0,
            Proven::Loss(_) => -1,
        };
        return (v, v);
    }
    let me = pos.side.index();
    let probed = pos
        .options
        .tables
        .and_then(|t| t.get())
        .and_then(|t| t.probe(pos.board[me], pos.board[1 - me]));
    match probed {
        Some(TbResult::Win(_)) => (0, 1),
        Some(TbResult::Loss(_)) => (-1, 0),
        Some(TbResult::Draw) => (0, 0),
        None => (-1, 1),
    }
}

/// The transposition key: the canonical image of (mover's pieces, other pieces), both hands,
/// whether the mover is the root's side (which end of an open leaf's range counts) and, under
/// the no-capture rule, the quiet plies (`None` when they do not fit in 7 bits).
fn position_key(pos: &Morris, root_side: bool) -> Option<u64> {
    let me = pos.side.index();
    let (mover, other) = SYMMETRY.canonical(pos.board[me], pos.board[1 - me]);
    let quiet = if pos.options.nocapture > 0 {
        u64::from(pos.quiet_plies)
    } else {
        0
    };
    (quiet < 128).then_some(
        u64::from(mover)
            | u64::from(other) << 24
            | u64::from(pos.hand[me]) << 48
            | u64::from(pos.hand[1 - me]) << 52
            | quiet << 56
            | u64::from(root_side) << 63,
    )
}

/// A 64-bit finaliser (splitmix64) spreading keys over the table.
fn mix(key: u64) -> u64 {
    let mut z = key.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
