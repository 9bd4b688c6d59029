//! A plain fixed-depth negamax alpha-beta with iterative deepening (whose only use is move
//! ordering: each iteration tries the previous best move first) and a small transposition
//! table, using the rules of the library and nothing of the engine's search.

use super::eval::{evaluate, inner_spots};
use tabula::game::Game;
use tabula::games::gipf::{Gipf, Move};

const WIN: i32 = 1_000_000;
/// 2^16 slots (a few megabytes): plenty for the few hundred thousand nodes of depths 4-6.
const TABLE_BITS: u32 = 16;

#[derive(Copy, Clone, Default)]
struct Slot {
    key: u64,
    depth: i8,
    bound: Bound,
    score: i32,
    best: Option<Move>,
}

/// What a stored score says about the position's value.
#[derive(Copy, Clone, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
}

/// The search state kept between moves of one game.
pub struct Searcher {
    inner: u64,
    table: Vec<Slot>,
    /// Nodes of the last search.
    pub nodes: u64,
}

impl Searcher {
    /// An empty table.
    pub fn new() -> Searcher {
        Searcher {
            inner: inner_spots(),
            table: vec![Slot::default(); 1 << TABLE_BITS],
            nodes: 0,
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|s| *s = Slot::default());
    }

    /// The best move at `depth` plies and its score; `None` when the game is over.
    pub fn best_move(&mut self, root: &Gipf, depth: u32) -> Option<(Move, i32)> {
        self.nodes = 0;
        if root.outcome().is_some() {
            return None;
        }
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        let mut best = (*moves.first()?, 0);
        for d in 1..=depth as i32 {
            if let Some(i) = moves.iter().position(|&m| m == best.0) {
                moves[..=i].rotate_right(1);
            }
            let mut alpha = -WIN - 1;
            for &mv in &moves {
                let mut child = *root;
                child.play(mv);
                let score = -self.negamax(&child, d - 1, 1, -WIN - 1, -alpha);
                if score > alpha {
                    alpha = score;
                    best = (mv, score);
                }
            }
        }
        Some(best)
    }

    fn negamax(&mut self, pos: &Gipf, depth: i32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if let Some(outcome) = pos.outcome() {
            return match outcome.winner {
                None => 0,
                Some(w) if w == pos.side_to_move() => WIN - ply,
                Some(_) => ply - WIN,
            };
        }
        if depth <= 0 {
            return evaluate(self.inner, pos, pos.side_to_move());
        }
        let key = pos.hash();
        let index = (key >> (64 - TABLE_BITS)) as usize;
        let slot = self.table[index];
        let mut first = None;
        if slot.key == key {
            first = slot.best;
            let fits = match slot.bound {
                Bound::Exact => true,
                Bound::Lower => slot.score >= beta,
                Bound::Upper => slot.score <= alpha,
            };
            if slot.depth as i32 >= depth && fits {
                return slot.score;
            }
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            // Not reached by the rules as they stand (a push always finds a gap); scored
            // rather than taken for a loss.
            return evaluate(self.inner, pos, pos.side_to_move());
        }
        if let Some(i) = first.and_then(|f| moves.iter().position(|&m| m == f)) {
            moves[..=i].rotate_right(1);
        }
        let start_alpha = alpha;
        let mut best = (-WIN - 1, None);
        for mv in moves {
            let mut child = *pos;
            child.play(mv);
            let score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
            if score > best.0 {
                best = (score, Some(mv));
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        let bound = if best.0 >= beta {
            Bound::Lower
        } else if best.0 > start_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Win scores depend on the ply; keep only evaluations in the table.
        if best.0.abs() < WIN - 1000 {
            self.table[index] = Slot {
                key,
                depth: depth as i8,
                bound,
                score: best.0,
                best: best.1,
            };
        }
        best.0
    }
}
