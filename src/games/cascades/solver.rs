//! An exact proof search: negamax alpha-beta over the game-theoretic values win (+1),
//! draw (0) and loss (-1), with a transposition table of proven bounds and best moves.
//!
//! The game is finite (stones only accumulate and two passes end it), so the search runs every
//! line to its end. Two shortcuts keep it small: a side that can reach a bottom-row majority
//! with this move has won (no need to list its moves), and the table's best move is tried
//! first. Positions are keyed by their 64-bit Zobrist hash; a collision could in principle
//! corrupt a proof, at odds of about `nodes * entries / 2^64`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::board::{self, Rows, MAX_SIDE};
use super::{eval, Cascades, Move};
use crate::game::{Game, Hints, Proven, Side};

/// The proven value of a position and how much work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// +1 the side to move wins, 0 draw, -1 it loses (with best play on both sides).
    pub value: i8,
    /// A move that achieves the value (`None` when the game is already over).
    pub best: Option<Move>,
    /// Positions searched.
    pub nodes: u64,
}

/// One table slot: proven bounds on a position's value and the move that last proved one.
#[derive(Copy, Clone)]
struct Slot {
    key: u64,
    lower: i8,
    upper: i8,
    /// log2 of the nodes its proof took: bigger proofs are kept in preference.
    work: u8,
    best: Option<Move>,
}

const EMPTY: Slot = Slot {
    key: 0,
    lower: -1,
    upper: 1,
    work: 0,
    best: None,
};

/// Buckets of two: the first slot keeps the costliest proof, the second the latest.
const TABLE_BUCKETS: usize = 1 << 20;

/// The search state: the table outlives one call, so later proofs reuse earlier ones.
pub struct Solver<'a> {
    table: Vec<[Slot; 2]>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Set from another thread (the protocol's `stop`) to give up at once.
    stop: Option<&'a AtomicBool>,
    aborted: bool,
    buffers: Vec<Vec<Move>>,
}

impl<'a> Solver<'a> {
    /// A solver that gives up after `node_limit` positions or at `deadline`.
    pub fn new(node_limit: u64, deadline: Option<Instant>) -> Solver<'a> {
        Solver::with_buckets(TABLE_BUCKETS, node_limit, deadline)
    }

    /// The same with a table of `buckets` two-entry buckets (small for quick endgame proofs).
    pub fn with_buckets(buckets: usize, node_limit: u64, deadline: Option<Instant>) -> Solver<'a> {
        Solver {
            table: vec![[EMPTY; 2]; buckets.max(1)],
            nodes: 0,
            node_limit,
            deadline,
            stop: None,
            aborted: false,
            buffers: Vec::new(),
        }
    }

    /// The same solver, also giving up as soon as `stop` is set.
    pub fn until_stopped(self, stop: &'a AtomicBool) -> Solver<'a> {
        Solver {
            stop: Some(stop),
            ..self
        }
    }

    /// Positions searched by the last [`Solver::solve`], finished or not.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Proves the value of `position`, or `None` if the limits ran out first.
    pub fn solve(&mut self, position: &Cascades) -> Option<Proof> {
        self.nodes = 0;
        self.aborted = false;
        if let Some(outcome) = position.outcome() {
            return Some(Proof {
                value: value_for(outcome.winner, position.side_to_move()),
                best: None,
                nodes: 1,
            });
        }
        let mut moves = Vec::new();
        self.order(position, &mut moves, None);
        let mut best = (-2i8, None);
        let mut alpha = -1;
        for mv in moves {
            let mut child = position.clone();
            child.play(mv);
            let value = -self.search(&child, 1, -1, -alpha);
            if self.aborted {
                return None;
            }
            if value > best.0 {
                best = (value, Some(mv));
                alpha = alpha.max(value);
            }
            if value == 1 {
                break;
            }
        }
        Some(Proof {
            value: best.0,
            best: best.1,
            nodes: self.nodes,
        })
    }

    fn search(&mut self, position: &Cascades, ply: usize, mut alpha: i8, mut beta: i8) -> i8 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) && self.out_of_budget() {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if let Some(outcome) = position.outcome() {
            return value_for(outcome.winner, position.side_to_move());
        }
        if position.can_win_now() {
            return 1;
        }
        // A position and its mirror image share one entry (see `mirrored_hash`); a stored
        // move may then be the mirror's, which only costs it its place at the front.
        let key = if position.is_first_move() {
            position.hash()
        } else {
            position.hash().min(position.mirrored_hash())
        };
        let bucket = key as usize % self.table.len();
        let mut tt_move = None;
        if let Some(slot) = self.table[bucket].iter().find(|slot| slot.key == key) {
            if slot.lower >= beta || slot.lower == slot.upper {
                return slot.lower;
            }
            if slot.upper <= alpha {
                return slot.upper;
            }
            alpha = alpha.max(slot.lower);
            beta = beta.min(slot.upper);
            tt_move = slot.best;
        }
        let nodes_before = self.nodes;
        let original = (alpha, beta);
        let mut moves = self
            .buffers
            .get_mut(ply)
            .map(std::mem::take)
            .unwrap_or_default();
        self.order(position, &mut moves, tt_move);
        if ply < EVAL_ORDER_PLIES {
            order_by_evaluation(position, &mut moves, tt_move);
        }
        let mut best = (-1, None);
        for &mv in &moves {
            let mut child = position.clone();
            child.play(mv);
            let value = -self.search(&child, ply + 1, -beta, -alpha);
            if self.aborted {
                break;
            }
            if value > best.0 || best.1.is_none() {
                best = (value, Some(mv));
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        self.buffers[ply] = moves;
        if self.aborted {
            return 0;
        }
        let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
        self.store(key, best.0, original, work, best.1);
        best.0
    }

    /// Records what a search with window `(alpha, beta)` proved about the position `key`.
    fn store(
        &mut self,
        key: u64,
        value: i8,
        (alpha, beta): (i8, i8),
        work: u8,
        best: Option<Move>,
    ) {
        let buckets = self.table.len();
        let bucket = &mut self.table[key as usize % buckets];
        let index = if bucket[0].key == key || work >= bucket[0].work {
            0
        } else {
            1
        };
        let slot = &mut bucket[index];
        if slot.key != key {
            *slot = Slot { key, ..EMPTY };
        }
        if value <= alpha {
            slot.upper = slot.upper.min(value);
        } else if value >= beta {
            slot.lower = slot.lower.max(value);
        } else {
            slot.lower = value;
            slot.upper = value;
        }
        slot.work = slot.work.max(work);
        slot.best = best;
    }

    /// The legal moves, the table's move first, then by [`Game::move_order_hint`].
    fn order(&self, position: &Cascades, moves: &mut Vec<Move>, first: Option<Move>) {
        moves.clear();
        position.legal_moves(moves);
        moves.sort_by_cached_key(|&mv| {
            if Some(mv) == first {
                i32::MIN
            } else {
                -position.move_order_hint(mv)
            }
        });
    }

    fn out_of_budget(&self) -> bool {
        self.nodes >= self.node_limit
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
    }
}

// Endgames for the search

/// Endgames with at most this many empty cells that either side can still reach are proven
/// outright when the search meets them.
const ENDGAME_CELLS: u32 = 10;
/// The node budget of one endgame proof (most take a few hundred).
const ENDGAME_NODES: u64 = 20_000;

/// The exact value of a small endgame for [`Game::proven_value`]: `None` when too many cells
/// are still open or the proof runs over budget. Plies to the end are estimated by the open
/// cells, so that the search still prefers wins with less left to play.
pub fn endgame_value(position: &Cascades) -> Option<Proven> {
    let open = open_cells(position, ENDGAME_CELLS);
    if open > ENDGAME_CELLS {
        return None;
    }
    let proof = Solver::with_buckets(1 << 10, ENDGAME_NODES, None).solve(position)?;
    let plies = open + 1;
    Some(match proof.value {
        1 => Proven::Win(plies),
        0 => Proven::Draw,
        _ => Proven::Loss(plies),
    })
}

/// Empty cells that some side could still fill, whatever the other does; counting stops
/// early once it passes `limit` (the search asks this at every node, and most positions are
/// far above it).
fn open_cells(position: &Cascades, limit: u32) -> u32 {
    let g = position.geometry();
    let occupied = position.occupied();
    let mut open: Rows = [0; MAX_SIDE];
    for side in [Side::White, Side::Black] {
        let mut reached = *position.stones(side);
        let mut fresh_total = 0;
        loop {
            let frontier = g.targets(&reached, &occupied);
            let fresh: Rows = std::array::from_fn(|r| frontier[r] & !reached[r]);
            let count = board::count(&fresh);
            if count == 0 {
                break;
            }
            // Every fresh cell is empty (targets are), so one side alone can pass the limit.
            fresh_total += count;
            if fresh_total > limit {
                return fresh_total;
            }
            reached = board::union(&reached, &fresh);
        }
        let empty_reached: Rows = std::array::from_fn(|r| reached[r] & !occupied[r]);
        open = board::union(&open, &empty_reached);
    }
    board::count(&open)
}

/// Near the root, where subtrees are large, moves are ordered by the evaluation of the
/// position they lead to; deeper down the cheap hint does.
const EVAL_ORDER_PLIES: usize = 6;

/// Sorts `moves` (the table's move kept first) by the opponent's evaluation afterwards,
/// lowest first.
fn order_by_evaluation(position: &Cascades, moves: &mut [Move], first: Option<Move>) {
    let start = usize::from(first.is_some() && moves.first().copied() == first);
    moves[start..].sort_by_cached_key(|&mv| {
        let mut child = position.clone();
        child.play(mv);
        eval::flood_score(&child)
    });
}

/// +1, 0 or -1 for `side` given the winner.
fn value_for(winner: Option<Side>, side: Side) -> i8 {
    match winner {
        None => 0,
        Some(w) if w == side => 1,
        Some(_) => -1,
    }
}
