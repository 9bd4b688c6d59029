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
//! both hands, which end of an open leaf's range the mover gets and, when the no-capture
//! rule is on, the quiet-ply counter. Nothing in the key depends on the root, so one table
//! serves every proof under the same tables and draw rules (`proof_table.rs`).
//!
//! The same search tells the moves that keep a position's proven value
//! ([`value_keeping_moves`]): the engine's search then chooses among those only.
//!
//! Where the placement tables (`placement_table.rs`) are loaded, they answer first: their
//! value is exact under the pure rules, and their draws are draws under any draw rules, so
//! `solve` is one probe and the value-keeping moves are those whose positions keep the
//! tables' value; the proof search is left for the results the draw rules may cut.

use super::proof_table::{kept, Entry, ProofTable};
use super::tablebase::{TbResult, SYMMETRY};
use super::{eval, Morris, Move};
use crate::game::{Game, Proven, Solution};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Nodes between two looks at the clock and the stop flag (about 2 ms).
const CHECK_EVERY: u64 = 1024;

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

/// The proof search of one run (one bound).
struct Prover<'a> {
    table: &'a mut ProofTable,
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
/// `flying` setting), or `deadline` or `stop` came first (another proof holding the kept
/// table until the deadline too). The kept table carries what it proves to later proofs.
pub(super) fn prove(pos: &Morris, deadline: Option<Instant>, stop: &AtomicBool) -> Option<Bounds> {
    if !applies(pos) {
        return None;
    }
    let mut table = kept(pos, deadline)?;
    let mut prover = Prover::new(&mut table, true, deadline, stop);
    let (low, best) = prover.root(pos, true)?;
    let (mut nodes, open) = (prover.nodes, prover.uncertain);
    let high = if open {
        let mut optimist = Prover::new(&mut table, false, deadline, stop);
        let high = optimist.root(pos, true).map(|(high, _)| high);
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
    if let Some(value) = layer_value(pos).filter(|&v| v == 0 || pure_rules(pos)) {
        let keeping = keeping_by_layers(pos).flatten().unwrap_or_default();
        return Some(Solution {
            value: Some(proven(value)),
            best: keeping.first().copied(),
            nodes: 1,
        });
    }
    let Some(bounds) = prove(pos, deadline, stop) else {
        return Some(Solution {
            value: None,
            best: None,
            nodes: 0,
        });
    };
    let value = (bounds.low == bounds.high).then_some(proven(bounds.low));
    Some(Solution {
        value,
        best: value.and(bounds.best),
        nodes: bounds.nodes,
    })
}

/// A value of -1, 0 or 1 as a proven result (without a distance: the placement proofs and
/// tables know the result, not how fast it comes).
fn proven(value: i8) -> Proven {
    match value {
        1 => Proven::Win(0),
        0 => Proven::Draw,
        _ => Proven::Loss(0),
    }
}

/// The pure-rules value of a position with pieces in hand from the placement tables, if
/// they hold it.
fn layer_value(pos: &Morris) -> Option<i8> {
    pos.options.tables?.get()?.placing_value(pos)
}

/// Whether the game has no draw rule: then the placement tables' values are its values. With
/// draw rules only their draws are sure (the rules turn results into draws, never a draw
/// into a result).
fn pure_rules(pos: &Morris) -> bool {
    pos.options.nocapture == 0 && pos.options.repetition == 0
}

/// The moves keeping the placement tables' pure-rules value of `pos`: `Some(None)` when it
/// is a loss (every move keeps it), `None` when the tables do not hold the position and
/// its children. Under draw rules these moves keep at least a draw wherever the pure rules
/// give one (a draw rule never turns a draw into a loss), and a pure win where there is one.
fn keeping_by_layers(pos: &Morris) -> Option<Option<Vec<Move>>> {
    let tables = pos.options.tables?.get()?;
    let value = tables.placing_value(pos)?;
    if value == -1 {
        return Some(None);
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut keep = Vec::new();
    for mv in moves {
        let mut child = pos.clone();
        child.play(mv);
        if -tables.pure_value(&child)? == value {
            keep.push(mv);
        }
    }
    Some(Some(keep))
}

/// Work allowed for [`value_keeping_moves`] at one position without a deadline: about
/// 30 ms.
const KEEPING_NODES: u64 = 30_000;
/// Pieces in both hands at most where [`value_keeping_moves`] tries without a deadline: with
/// more, the budget rarely suffices and would be spent for nothing.
const KEEPING_HANDS: u8 = 6;

/// Legal moves that keep the value the root's side is proven to get at least (its value
/// when every leaf is known exactly), the first of them the proof's own: `None` when that
/// value is not proven in time, when it is a loss (every move keeps it), or where [`prove`]
/// does not apply. Without a deadline a fresh table and a fixed number of positions make the
/// answer the same every time (`go depth`, `go nodes`). With one, the work is bounded by it
/// and `stop`, the kept table carries it from move to move, and the moves found by then are
/// answered; when the root's value is not proven by half the time, the rest goes to
/// [`moves_not_lost`].
pub(super) fn value_keeping_moves(
    pos: &Morris,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Option<Vec<Move>> {
    let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
    if !applies(pos) || pos.outcome().is_some() || out_of_time {
        return None;
    }
    if let Some(keep) = keeping_by_layers(pos) {
        return keep;
    }
    if !ends_in_tables(pos) {
        return None;
    }
    let (mut fresh, mut shared);
    let table: &mut ProofTable = if deadline.is_some() {
        shared = kept(pos, deadline)?;
        &mut shared
    } else if pos.hand[0] + pos.hand[1] <= KEEPING_HANDS {
        fresh = ProofTable::for_position(pos);
        &mut fresh
    } else {
        return None;
    };
    let halfway = deadline.map(|d| {
        let now = Instant::now();
        now + d.saturating_duration_since(now) / 2
    });
    let mut prover = Prover::new(table, true, halfway, stop);
    if deadline.is_none() {
        prover.node_limit = KEEPING_NODES;
    }
    // The lower bound only: a move keeps what the root is sure of when it keeps it with
    // every open leaf at the root's worse end, whatever the better end would give.
    let Some((low, first)) = prover.root(pos, false) else {
        let table = prover.table;
        return deadline.and_then(|d| moves_not_lost(pos, table, d, stop));
    };
    if low == -1 {
        return None;
    }
    prover.deadline = deadline;
    let mut keep = vec![first?];
    for (mv, child) in prover.children(pos) {
        if keep[0] == mv {
            continue;
        }
        // A null window: does the opponent get at most -low after this move?
        let value = -prover.search(&child, -low, 1 - low, false);
        if prover.gave_up {
            break;
        }
        if value >= low {
            keep.push(mv);
        }
    }
    log::debug!(
        "value-keeping moves: {} of value {low}, {} nodes",
        keep.len(),
        prover.nodes
    );
    Some(keep)
}

/// The legal moves not proven to lose by `deadline`, when some are (and not all): the
/// proof that the opponent wins after each move, likeliest best first, with every open leaf
/// at the root side's better end (a loss even so is a loss).
pub(super) fn moves_not_lost(
    pos: &Morris,
    table: &mut ProofTable,
    deadline: Instant,
    stop: &AtomicBool,
) -> Option<Vec<Move>> {
    let mut prover = Prover::new(table, false, Some(deadline), stop);
    let children = prover.children(pos);
    let mut lost = Vec::new();
    for (mv, child) in &children {
        // A null window: does the opponent get at least a win after this move?
        if prover.search(child, 0, 1, false) == 1 && !prover.gave_up {
            lost.push(*mv);
        }
        if prover.gave_up {
            break;
        }
    }
    log::debug!(
        "moves not lost: {} of {} proven lost, {} nodes",
        lost.len(),
        children.len(),
        prover.nodes
    );
    let rest: Vec<Move> = children
        .into_iter()
        .map(|(mv, _)| mv)
        .filter(|mv| !lost.contains(mv))
        .collect();
    (!lost.is_empty() && !rest.is_empty()).then_some(rest)
}

/// Whether [`prove`] can run: pieces in hand, and tables loaded for this `flying` setting.
fn applies(pos: &Morris) -> bool {
    let tables = pos.options.tables.and_then(|t| t.get());
    pos.hand != [0, 0] && tables.is_some_and(|t| t.moving.flying() == pos.options.flying)
}

/// Whether the tables hold the material placement ends in when no man is taken. Without it
/// nearly every leaf is open (a set of the small tables only, say), the proofs of a move
/// rarely conclude, and the time is better left to the search.
fn ends_in_tables(pos: &Morris) -> bool {
    let men = |side: usize| pos.board[side].count_ones() + u32::from(pos.hand[side]);
    let tables = pos.options.tables.and_then(|t| t.get());
    tables.is_some_and(|t| t.moving.table(men(0), men(1)).is_some())
}

impl<'a> Prover<'a> {
    fn new(
        table: &'a mut ProofTable,
        pessimistic: bool,
        deadline: Option<Instant>,
        stop: &'a AtomicBool,
    ) -> Prover<'a> {
        Prover {
            table,
            pessimistic,
            uncertain: false,
            nodes: 0,
            deadline,
            stop,
            node_limit: u64::MAX,
            gave_up: false,
        }
    }

    /// The root's bound and a move that reaches it; `None` when the run gave up. `report`:
    /// a line per root move at the `info` log level (a long `solve`), else at `debug`.
    fn root(&mut self, pos: &Morris, report: bool) -> Option<(i8, Option<Move>)> {
        let root_side = true;
        let mut best = (-2, None);
        for (mv, child) in self.children(pos) {
            let value = -self.search(&child, -1, -best.0.max(-1), !root_side);
            if self.gave_up {
                return None;
            }
            // A long proof says how far it is (RUST_LOG=info). After the first move, one that
            // does not beat the best is searched only far enough to show it does not.
            let level = if report {
                log::Level::Info
            } else {
                log::Level::Debug
            };
            log::log!(
                level,
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
        if let Some(value) = layer_value(pos).filter(|&v| v == 0 || pure_rules(pos)) {
            return value;
        }
        // The mover gets the low end of open leaves when it is the side this run is
        // pessimistic for.
        let low_end = root_side == self.pessimistic;
        let key = position_key(pos);
        let mut narrowed_open = false;
        if let Some(e) = key.and_then(|k| self.known(k, low_end)) {
            let settled = if e.low >= beta || e.low == e.high {
                Some(e.low)
            } else {
                (e.high <= alpha).then_some(e.high)
            };
            if let Some(value) = settled {
                self.uncertain |= e.open;
                return value;
            }
            narrowed_open = e.open && (e.low > alpha || e.high < beta);
            alpha = alpha.max(e.low);
            beta = beta.min(e.high);
        }
        let (alpha_in, beta_in) = (alpha, beta);
        let children = self.children(pos);
        // A child already known to refute the window saves searching the ones before it.
        if pos.hand[0] + pos.hand[1] >= 3 {
            for (_, child) in &children {
                let known = position_key(child).and_then(|k| self.known(k, !low_end));
                if let Some(e) = known.filter(|e| -e.high >= beta) {
                    self.uncertain |= e.open;
                    return -e.high;
                }
            }
        }
        // Whether this subtree rests on an open leaf, apart from what came before it.
        let before = std::mem::take(&mut self.uncertain);
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
        let open = self.uncertain || narrowed_open;
        self.uncertain |= before || narrowed_open;
        if let Some(k) = key {
            let (low, high) = if best >= beta_in {
                (best, 1)
            } else if best <= alpha_in {
                (-1, best)
            } else {
                (best, best)
            };
            // Bounds no open leaf went into hold for either end of the ranges: they are
            // stored once for both runs.
            let k = if open { with_end(k, low_end) } else { k };
            self.table
                .store(k, low, high, pos.hand[0] + pos.hand[1], open);
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

    /// The bounds stored for the position of `key` when its mover gets the low end of open
    /// leaves (`low_end`) or the high end: those of that run's own, else those that hold for
    /// both.
    fn known(&self, key: u64, low_end: bool) -> Option<Entry> {
        let own = self.table.get(with_end(key, low_end));
        own.or_else(|| self.table.get(key).filter(|e| !e.open))
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
        .and_then(|t| t.moving.probe(pos.board[me], pos.board[1 - me]));
    match probed {
        Some(TbResult::Win(_)) => (0, 1),
        Some(TbResult::Loss(_)) => (-1, 0),
        Some(TbResult::Draw) => (0, 0),
        None => (-1, 1),
    }
}

/// The transposition key: the canonical image of (mover's pieces, other pieces), both hands
/// and, under the no-capture rule, the quiet plies (`None` when they do not fit in 7 bits).
/// Its top bit is clear: [`with_end`] sets it for the bounds that rest on open leaves.
fn position_key(pos: &Morris) -> Option<u64> {
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
            | quiet << 56,
    )
}

/// The key of bounds resting on open leaves, where it matters which end of their ranges the
/// mover got. A run where the mover gets the high end uses the position's own key (the
/// top bit clear, shared with the bounds that hold for both); the low end sets the top bit.
fn with_end(key: u64, low_end: bool) -> u64 {
    key | u64::from(low_end) << 63
}
