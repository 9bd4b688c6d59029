//! A plain fixed-depth alpha-beta (negamax) with iterative deepening, a transposition table
//! and a short capture-only quiescence, using the rules of the library and nothing of the
//! engine's search.

use super::eval::{evaluate, Kind};
use super::geometry::Geometry;
use tabula::game::Game;
use tabula::games::morris::{Morris, Move};
use tabula::util::rng::Rng;

const WIN: i32 = 1_000_000;
const TABLE_BITS: u32 = 20;
const QUIESCENCE: u32 = 4;

#[derive(Copy, Clone, Default)]
struct Slot {
    key: u64,
    depth: i8,
    /// 0 exact, 1 lower bound, 2 upper bound.
    bound: u8,
    score: i32,
    best: Option<Move>,
}

/// The search state kept between moves of one game.
pub struct Searcher {
    geometry: Geometry,
    table: Vec<Slot>,
    /// Cut-off counts by (from, to), `from` 24 for a placement: the history heuristic.
    history: Vec<[u32; 24]>,
    /// Nodes of the last search.
    pub nodes: u64,
    /// The evaluation at the leaves.
    pub eval: Kind,
}

impl Searcher {
    /// An empty table.
    pub fn new() -> Searcher {
        Searcher {
            geometry: Geometry::new(),
            table: vec![Slot::default(); 1 << TABLE_BITS],
            history: vec![[0; 24]; 25],
            nodes: 0,
            eval: Kind::Full,
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|s| *s = Slot::default());
        self.history.iter_mut().for_each(|h| *h = [0; 24]);
    }

    /// The best move at `depth` plies and its score; `None` when the game is over.
    /// With a `seed`, the root moves are tried in an order drawn from it (and the position),
    /// so that of equally scored moves a different one may be chosen: games differ.
    pub fn best_move(&mut self, root: &Morris, depth: u32, seed: u64) -> Option<(Move, i32)> {
        self.nodes = 0;
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        if seed != 0 {
            Rng::new(seed ^ root.hash()).shuffle(&mut moves);
        }
        let mut best = (*moves.first()?, 0);
        for d in 1..=depth as i32 {
            let mut alpha = -WIN - 1;
            if let Some(i) = moves.iter().position(|&m| m == best.0) {
                moves[..=i].rotate_right(1);
            }
            for &mv in &moves {
                let mut child = root.clone();
                child.play(mv);
                let score = self.pvs(&child, d - 1, 1, alpha, WIN + 1, alpha == -WIN - 1);
                if score > alpha {
                    alpha = score;
                    best = (mv, score);
                }
            }
        }
        Some(best)
    }

    fn negamax(&mut self, pos: &Morris, depth: i32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if let Some(outcome) = pos.outcome() {
            return match outcome.winner {
                None => 0,
                Some(w) if w == pos.side_to_move() => WIN - ply,
                Some(_) => ply - WIN,
            };
        }
        if depth <= 0 {
            return self.quiescence(pos, ply, alpha, beta, QUIESCENCE);
        }
        let key = pos.hash();
        let slot = self.table[(key >> (64 - TABLE_BITS)) as usize];
        let mut first = None;
        if slot.key == key {
            first = slot.best;
            if slot.depth as i32 >= depth
                && (slot.bound == 0
                    || (slot.bound == 1 && slot.score >= beta)
                    || (slot.bound == 2 && slot.score <= alpha))
            {
                return slot.score;
            }
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        // The table's move, then captures, then by cut-offs so far.
        moves.sort_by_cached_key(|&m| {
            if Some(m) == first {
                (0, 0)
            } else if m.is_capture() {
                (1, 0)
            } else {
                (2, u32::MAX - self.history[from_index(m)][m.to as usize])
            }
        });
        let start_alpha = alpha;
        let mut best = (-WIN - 1, None);
        for (i, mv) in moves.into_iter().enumerate() {
            let mut child = pos.clone();
            child.play(mv);
            let score = self.pvs(&child, depth - 1, ply + 1, alpha, beta, i == 0);
            if score > best.0 {
                best = (score, Some(mv));
                alpha = alpha.max(score);
                if score >= beta {
                    self.history[from_index(mv)][mv.to as usize] += (depth * depth) as u32;
                    break;
                }
            }
        }
        let bound = if best.0 >= beta {
            1
        } else if best.0 > start_alpha {
            0
        } else {
            2
        };
        // Win scores depend on the ply; keep only evaluations in the table.
        if best.0.abs() < WIN - 1000 {
            self.table[(key >> (64 - TABLE_BITS)) as usize] = Slot {
                key,
                depth: depth as i8,
                bound,
                score: best.0,
                best: best.1,
            };
        }
        best.0
    }

    /// The child's value for the parent: the first move with the full window, later ones
    /// with a null window first and again fully only when they beat `alpha`.
    fn pvs(
        &mut self,
        child: &Morris,
        depth: i32,
        ply: i32,
        alpha: i32,
        beta: i32,
        first: bool,
    ) -> i32 {
        if !first {
            let probe = -self.negamax(child, depth, ply, -alpha - 1, -alpha);
            if probe <= alpha || probe >= beta {
                return probe;
            }
        }
        -self.negamax(child, depth, ply, -beta, -alpha)
    }

    fn quiescence(&mut self, pos: &Morris, ply: i32, mut alpha: i32, beta: i32, left: u32) -> i32 {
        let stand = evaluate(&self.geometry, pos, self.eval);
        if stand >= beta || left == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut best = stand;
        for mv in moves.into_iter().filter(|m| m.is_capture()) {
            let mut child = pos.clone();
            child.play(mv);
            self.nodes += 1;
            let score = match child.outcome() {
                Some(o) if o.winner.is_some() => WIN - ply - 1,
                Some(_) => 0,
                None => -self.quiescence(&child, ply + 1, -beta, -alpha, left - 1),
            };
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        best
    }
}

/// The history row of a move: its origin, or 24 for a placement.
fn from_index(mv: Move) -> usize {
    (mv.from as usize).min(24)
}
