//! An exact proof search: negamax alpha-beta over the game-theoretic values win (+1),
//! draw (0) and loss (-1), with a transposition table of proven bounds.
//!
//! The game is finite (stones only accumulate and two passes end it), so the search runs every
//! line to its end. Positions are keyed by their 64-bit Zobrist hash; a collision could in
//! principle corrupt a proof, at odds of about `entries² / 2^65`.

use std::collections::HashMap;
use std::time::Instant;

use super::{Cascades, Move};
use crate::game::{Game, Side};

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

/// Proven bounds on a position's value.
#[derive(Copy, Clone)]
struct Bounds {
    lower: i8,
    upper: i8,
}

/// The search state: the table outlives one call, so later proofs reuse earlier ones.
pub struct Solver {
    table: HashMap<u64, Bounds>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

impl Solver {
    /// A solver that gives up after `node_limit` positions or at `deadline`.
    pub fn new(node_limit: u64, deadline: Option<Instant>) -> Solver {
        Solver {
            table: HashMap::new(),
            nodes: 0,
            node_limit,
            deadline,
            aborted: false,
        }
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
        let mut moves = ordered_moves(position);
        let mut best = (-2i8, None);
        let mut alpha = -1;
        for mv in moves.drain(..) {
            let mut child = position.clone();
            child.play(mv);
            let value = -self.search(&child, -1, -alpha);
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

    fn search(&mut self, position: &Cascades, mut alpha: i8, mut beta: i8) -> i8 {
        self.nodes += 1;
        if let Some(outcome) = position.outcome() {
            return value_for(outcome.winner, position.side_to_move());
        }
        if self.nodes.is_multiple_of(4096) && self.out_of_budget() {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let key = position.hash();
        if let Some(bounds) = self.table.get(&key) {
            if bounds.lower >= beta || bounds.lower == bounds.upper {
                return bounds.lower;
            }
            if bounds.upper <= alpha {
                return bounds.upper;
            }
            alpha = alpha.max(bounds.lower);
            beta = beta.min(bounds.upper);
        }
        let original_alpha = alpha;
        let mut best = -1;
        for mv in ordered_moves(position) {
            let mut child = position.clone();
            child.play(mv);
            let value = -self.search(&child, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        let entry = self.table.entry(key).or_insert(Bounds {
            lower: -1,
            upper: 1,
        });
        if best <= original_alpha {
            entry.upper = entry.upper.min(best);
        }
        if best >= beta {
            entry.lower = entry.lower.max(best);
        }
        if best > original_alpha && best < beta {
            *entry = Bounds {
                lower: best,
                upper: best,
            };
        }
        best
    }

    fn out_of_budget(&self) -> bool {
        self.nodes >= self.node_limit || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// +1, 0 or -1 for `side` given the winner.
fn value_for(winner: Option<Side>, side: Side) -> i8 {
    match winner {
        None => 0,
        Some(w) if w == side => 1,
        Some(_) => -1,
    }
}

/// The legal moves, most promising first.
fn ordered_moves(position: &Cascades) -> Vec<Move> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves.sort_by_cached_key(|&mv| -position.move_order_hint(mv));
    moves
}
