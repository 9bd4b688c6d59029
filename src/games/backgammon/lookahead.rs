//! Backgammon's own search for `go` once the roll is known, as strong programs do it: every
//! play scored at 1 ply (the evaluation of the position it leaves), then the best few
//! candidates scored at 2 plies (the average over the opponent's 21 rolls of the position left
//! by the opponent's best 1-ply reply). The 1-ply pass filters the candidates, so the 2-ply
//! pass costs a few thousand evaluations, about 10 ms: it always fits the arena's usual
//! `movetime 100` with time to spare, so the search stops there instead of starting a deeper
//! pass it could not finish.

use super::movegen::Move;
use super::Backgammon;
use crate::game::{Chance, Game};
use crate::search::{Budget, Info, Limits, Score, SearchResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// At most this many plays go on to the 2-ply pass.
pub const CANDIDATES: usize = 8;
/// Plays more than this far (thousandths of a point) below the best 1-ply play are dropped.
pub const MARGIN: i32 = 160;

/// The search for a position whose roll is known (and no double is pending); `None` for
/// every other position, and for `go depth N` with N >= 3, which run the generic search.
/// Depth 1 is the 1-ply pass alone; every other limit runs both passes, the second cut short
/// (falling back to the 1-ply choice) only by `stop`, the clock or the node limit.
pub fn search(
    root: &Backgammon,
    limits: &Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info),
) -> Option<SearchResult<Move>> {
    if root.dice().is_none() || root.cube().offered || root.outcome().is_some() {
        return None;
    }
    let max_depth = limits.depth.unwrap_or(2);
    if max_depth >= 3 {
        return None;
    }
    let start = limits.received.unwrap_or_else(Instant::now);
    let mut walk = Walk {
        stop,
        hard: Budget::new(limits, start).hard,
        node_limit: limits.nodes,
        nodes: 0,
        chance: Vec::new(),
        moves: Vec::new(),
    };
    let mut plays = Vec::new();
    root.legal_moves(&mut plays);
    let mut scored: Vec<(i32, Move)> = plays
        .iter()
        .map(|&mv| (-walk.static_value(&after(root, mv)), mv))
        .collect();
    // Stable: equal scores keep the move generator's order.
    scored.sort_by_key(|&(score, _)| -score);
    let mut result = SearchResult {
        best: scored.first().map(|&(_, mv)| mv),
        info: None,
        nodes: 0,
    };
    let Some(&(best_1ply, best_mv)) = scored.first() else {
        return Some(result);
    };
    let info = |depth, score, nodes, mv| Info {
        depth,
        score: Score::Cp(score),
        nodes,
        time_ms: start.elapsed().as_millis() as u64,
        pv: vec![root.format_move(mv)],
    };
    let first = info(1, best_1ply, walk.nodes, best_mv);
    report(&first);
    result.info = Some(first);
    let candidates: Vec<Move> = scored
        .iter()
        .take_while(|&&(score, _)| score >= best_1ply - MARGIN)
        .take(CANDIDATES)
        .map(|&(_, mv)| mv)
        .collect();
    if max_depth >= 2 && candidates.len() > 1 {
        let mut best: Option<(i32, Move)> = None;
        for &mv in &candidates {
            let Some(value) = walk.two_ply(&after(root, mv)) else {
                break;
            };
            if best.is_none_or(|(b, _)| -value > b) {
                best = Some((-value, mv));
            }
        }
        if let (false, Some((score, mv))) = (walk.aborted(), best) {
            let second = info(2, score, walk.nodes, mv);
            report(&second);
            result.best = Some(mv);
            result.info = Some(second);
        }
    }
    result.nodes = walk.nodes;
    Some(result)
}

/// The position after `mv`.
fn after(pos: &Backgammon, mv: Move) -> Backgammon {
    let mut child = pos.clone();
    child.play(mv);
    child
}

/// The state of one search: limits, counters and reused buffers.
struct Walk<'a> {
    stop: &'a AtomicBool,
    hard: Option<Instant>,
    node_limit: Option<u64>,
    nodes: u64,
    chance: Vec<Chance>,
    moves: Vec<Move>,
}

impl Walk<'_> {
    /// The value of `pos` for its side to move: exact when the game is over, else the
    /// evaluation. Counts one node.
    fn static_value(&mut self, pos: &Backgammon) -> i32 {
        self.nodes += 1;
        match pos.outcome() {
            Some(outcome) => pos.terminal_value(&outcome).unwrap_or(0),
            None => pos.evaluate(),
        }
    }

    /// Whether the search must stop now.
    fn aborted(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.hard.is_some_and(|hard| Instant::now() >= hard)
            || self.node_limit.is_some_and(|limit| self.nodes > limit)
    }

    /// The value of `pos` (before the roll) for its side to move: each roll weighted by its
    /// chance, the mover then playing its best 1-ply reply. `None` when cut short.
    fn two_ply(&mut self, pos: &Backgammon) -> Option<i32> {
        if pos.outcome().is_some() {
            return Some(self.static_value(pos));
        }
        self.chance.clear();
        pos.chance_events(&mut self.chance);
        let events = std::mem::take(&mut self.chance);
        let mut total = 0.0;
        for event in &events {
            if self.aborted() {
                return None;
            }
            let mut rolled = pos.clone();
            rolled.apply_chance(event.event);
            let mut moves = std::mem::take(&mut self.moves);
            moves.clear();
            rolled.legal_moves(&mut moves);
            let best = moves
                .iter()
                .map(|&mv| -self.static_value(&after(&rolled, mv)))
                .max()
                .unwrap_or(0);
            self.moves = moves;
            total += event.probability * best as f64;
        }
        self.chance = events;
        Some(total.round() as i32)
    }
}
