//! Two searches built on the main one: the decision a player takes before the dice fall
//! (backgammon's `double`, weighed against rolling), and `solve`, which deepens until the
//! search proves a result.

use super::{Budget, Info, Limits, Score, Searcher, Table, MATE, MAX_PLY};
use crate::game::{Chance, Complete, Proven};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What a player at a chance node chose.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PreChance<M> {
    /// Let the dice fall.
    Roll,
    /// Act first (one of [`crate::game::Dice::pre_chance_moves`]).
    Move(M),
}

/// Weighs every pre-chance move of `root` against rolling, one depth after the other within
/// `limits`, each child searched by `searcher`; the choice of the deepest depth searched
/// completely wins. Reports each depth.
pub fn decide_before_chance<G: Complete>(
    root: &G,
    searcher: &dyn Searcher<G>,
    limits: &Limits,
    table: &Table,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info),
) -> (PreChance<G::Move>, u64) {
    let start = limits.received.unwrap_or_else(Instant::now);
    let budget = Budget::new(limits, start);
    let mut moves = Vec::new();
    root.pre_chance_moves(&mut moves);
    let mut events: Vec<Chance> = Vec::new();
    root.chance_events(&mut events);
    let mut choice = PreChance::Roll;
    let mut nodes = 0;
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32)
        .clamp(1, MAX_PLY as u32);
    'deepen: for depth in 1..=max_depth {
        let mut probe = Probe {
            searcher,
            table,
            stop,
            hard: budget.hard(),
            node_limit: limits.nodes,
            nodes: &mut nodes,
        };
        let mut roll_value = 0.0;
        for chance in &events {
            let mut child = root.clone();
            child.apply_chance(chance.event);
            let Some(value) = probe.value_for(root, &child, depth) else {
                break 'deepen;
            };
            roll_value += chance.probability * f64::from(value);
        }
        let mut best = (roll_value.round() as i32, PreChance::Roll);
        for &mv in &moves {
            let mut child = root.clone();
            child.play(mv);
            // The opponent's answer (take or drop) is a ply the roll has not, so one more
            // ply brings both to the same number of checker plays.
            let Some(value) = probe.value_for(root, &child, depth + 1) else {
                break 'deepen;
            };
            if value > best.0 {
                best = (value, PreChance::Move(mv));
            }
        }
        choice = best.1;
        let pv = match choice {
            PreChance::Roll => vec!["roll".to_owned()],
            PreChance::Move(mv) => vec![root.format_move(mv)],
        };
        report(&Info {
            depth,
            score: Score::from_internal(best.0),
            nodes,
            time_ms: start.elapsed().as_millis() as u64,
            pv,
            multipv: None,
        });
        if !limits.infinite && budget.soft().is_some_and(|soft| Instant::now() >= soft) {
            break;
        }
    }
    limits.hold_answer(stop);
    (choice, nodes)
}

/// Fixed-depth searches of children, sharing one deadline and node budget.
struct Probe<'a, G: Complete> {
    searcher: &'a dyn Searcher<G>,
    table: &'a Table,
    stop: &'a AtomicBool,
    hard: Option<Instant>,
    node_limit: Option<u64>,
    nodes: &'a mut u64,
}

impl<G: Complete> Probe<'_, G> {
    /// The value of `child` to the player to move at `parent`, from a complete search of
    /// `depth` plies; `None` when time, nodes or `stop` cut the search short.
    fn value_for(&mut self, parent: &G, child: &G, depth: u32) -> Option<i32> {
        let sign = if child.side_to_move() == parent.side_to_move() {
            1
        } else {
            -1
        };
        if let Some(outcome) = child.outcome() {
            let value = child
                .terminal_value(&outcome)
                .unwrap_or(match outcome.winner {
                    None => 0,
                    Some(w) if w == child.side_to_move() => MATE,
                    Some(_) => -MATE,
                });
            return Some(sign * value);
        }
        let now = Instant::now();
        if self.stop.load(Ordering::Relaxed) || self.hard.is_some_and(|h| now >= h) {
            return None;
        }
        let nodes_left = match self.node_limit {
            Some(limit) if *self.nodes >= limit => return None,
            Some(limit) => Some(limit - *self.nodes),
            None => None,
        };
        let limits = Limits {
            depth: Some(depth),
            nodes: nodes_left,
            movetime: self
                .hard
                .map(|h| h.saturating_duration_since(now).as_millis() as i64),
            ..Limits::default()
        };
        let result = self
            .searcher
            .search(child, &limits, self.table, self.stop, &mut |_| {});
        *self.nodes += result.nodes;
        let info = result.info?;
        let complete = info.depth == depth || matches!(info.score, Score::Mate(_));
        let finished_in_time = !self.stop.load(Ordering::Relaxed)
            && self.hard.is_none_or(|h| Instant::now() < h)
            && self.node_limit.is_none_or(|limit| *self.nodes <= limit);
        (complete && finished_in_time).then(|| sign * internal(info.score))
    }
}

/// A reported score back on the internal scale (mate distances as plies from the root).
fn internal(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(moves) if moves > 0 => MATE - (2 * moves - 1),
        Score::Mate(moves) => -(MATE - 2 * moves.abs()),
    }
}

/// What `solve` found with the generic search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenericSolution<M> {
    /// The proven value, if the search proved one.
    pub value: Option<Proven>,
    /// The best move of the last complete iteration.
    pub best: Option<M>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Deepens until the search proves a win or a loss (a mate score at a depth that rules out a
/// faster one),
/// or `limits` or `stop` end it. Draws are never proven this way.
pub fn solve_by_search<G: Complete>(
    root: &G,
    searcher: &dyn Searcher<G>,
    limits: &Limits,
    table: &Table,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info),
) -> GenericSolution<G::Move> {
    let result = searcher.search(root, limits, table, stop, report);
    let value = result.info.as_ref().and_then(|info| match info.score {
        // Mate scores come only from finished games (or a game's own proven values), so
        // any mate score is a proof, if not always of the fastest result.
        Score::Mate(moves) => {
            let plies = (MATE - internal(info.score).abs()) as u32;
            Some(if moves > 0 {
                Proven::Win(plies)
            } else {
                Proven::Loss(plies)
            })
        }
        _ => None,
    });
    GenericSolution {
        best: value.and(result.best),
        value,
        nodes: result.nodes,
    }
}
