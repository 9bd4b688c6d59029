//! The search of dice games for `go` once the roll is known, as strong backgammon programs do
//! it (the registry chooses it for backgammon): every
//! play scored at 1 ply (the evaluation of the position it leaves), then the best few
//! candidates scored at 2 plies (the average over the opponent's 21 rolls of the position left
//! by the opponent's best 1-ply reply), then the best two or three of those at 3 plies (the
//! opponent's best 1-ply reply to each roll valued at 2 plies). The 1-ply pass filters the
//! candidates, so the 2-ply pass costs a few thousand evaluations; a 3-ply candidate costs
//! about 21 times a 2-ply one, so under a clock the 3-ply pass takes only as many candidates
//! as the time left should allow, judged from how long the 2-ply pass took.

use super::{Budget, Info, Limits, Score, SearchResult};
use crate::game::{Chance, Complete};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// At most this many plays go on to the 2-ply pass.
pub const CANDIDATES: usize = 8;
/// Plays more than this far (thousandths of a point) below the best 1-ply play are dropped.
pub const MARGIN: i32 = 160;
/// At most this many plays go on to the 3-ply pass.
pub const DEEP_CANDIDATES: usize = 3;
/// Plays more than this far below the best 2-ply play do not go on to the 3-ply pass.
pub const DEEP_MARGIN: i32 = 100;

/// The search for a position whose roll is known (`rolled`: the game says so; backgammon's
/// checker play, not a pending double); `None` for every other position, and for
/// `go depth N` with N >= 4, which run the generic search.
/// Depth 1 is the 1-ply pass alone, depth 2 the 1- and 2-ply passes; every other limit runs
/// all three, a pass cut short by `stop`, the clock or the node limit leaving the choice of
/// the pass before it (a 3-ply pass that finished two candidates or more keeps its choice
/// among them).
pub fn search<G: Complete>(
    root: &G,
    rolled: bool,
    limits: &Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info),
) -> Option<SearchResult<G::Move>> {
    if !rolled || root.outcome().is_some() {
        return None;
    }
    let max_depth = limits.depth.unwrap_or(3);
    if max_depth >= 4 {
        return None;
    }
    let start = limits.received.unwrap_or_else(Instant::now);
    let mut walk = Walk {
        stop,
        hard: Budget::new(limits, start).hard(),
        node_limit: limits.nodes,
        nodes: 0,
        chance: Vec::new(),
        moves: Vec::new(),
    };
    let mut plays = Vec::new();
    root.legal_moves(&mut plays);
    if limits.root_moves.is_some() {
        plays.retain(|&mv| limits.allows(&root.format_move(mv)));
    }
    let mut scored: Vec<(i32, G::Move)> = plays
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
    let Some(&(best_1ply, _)) = scored.first() else {
        return Some(result);
    };
    // Plays chosen by another value than the evaluation (backgammon's pubeval under the cube)
    // report the evaluation of the position each leaves: that is the equity the decisions
    // before the roll compare.
    let equity = |score: i32, mv: G::Move| {
        if root.choice_value().is_none() {
            return score;
        }
        let child = after(root, mv);
        match child.outcome() {
            Some(outcome) => -child.terminal_value(&outcome).unwrap_or(0),
            None => -child.evaluate(),
        }
    };
    // One `info` line for the best play of a pass; with `MultiPV` N, the N best, ranked.
    let multipv = limits.multipv.max(1);
    let mut report_pass = |depth: u32, ranked: &[(i32, G::Move)], nodes: u64| -> Info {
        let time_ms = start.elapsed().as_millis() as u64;
        let lines: Vec<Info> = ranked
            .iter()
            .take(multipv)
            .enumerate()
            .map(|(line, &(score, mv))| Info {
                depth,
                score: Score::Cp(equity(score, mv)),
                nodes,
                time_ms,
                pv: vec![root.format_move(mv)],
                multipv: (multipv > 1).then_some(line as u32 + 1),
            })
            .collect();
        lines.iter().for_each(&mut *report);
        lines
            .into_iter()
            .next()
            .expect("a pass ranks at least one play")
    };
    result.info = Some(report_pass(1, &scored, walk.nodes));
    let candidates: Vec<G::Move> = scored
        .iter()
        .take_while(|&&(score, _)| score >= best_1ply - MARGIN)
        .take(CANDIDATES)
        .map(|&(_, mv)| mv)
        .collect();
    if max_depth < 2 || candidates.len() < 2 {
        result.nodes = walk.nodes;
        return Some(result);
    }
    let two_ply_start = Instant::now();
    let mut scored = Vec::with_capacity(candidates.len());
    for &mv in &candidates {
        let Some(value) = walk.two_ply(&after(root, mv)) else {
            break;
        };
        scored.push((-value, mv));
    }
    if walk.aborted() {
        result.nodes = walk.nodes;
        return Some(result);
    }
    let per_candidate = two_ply_start.elapsed() / candidates.len() as u32;
    scored.sort_by_key(|&(score, _)| -score);
    let (best_2ply, best_mv) = scored[0];
    result.info = Some(report_pass(2, &scored, walk.nodes));
    result.best = Some(best_mv);
    // A 3-ply candidate costs about 21 2-ply ones (one per opposing roll); under a clock,
    // only as many as should finish in time.
    let affordable = match walk.hard {
        None => DEEP_CANDIDATES,
        Some(hard) => {
            let left = hard.saturating_duration_since(Instant::now());
            (left.as_secs_f64() / (22.0 * per_candidate.as_secs_f64()).max(1e-9)) as usize
        }
    };
    let deep: Vec<G::Move> = scored
        .iter()
        .take_while(|&&(score, _)| score >= best_2ply - DEEP_MARGIN)
        .take(DEEP_CANDIDATES.min(affordable))
        .map(|&(_, mv)| mv)
        .collect();
    if max_depth >= 3 && deep.len() > 1 {
        let mut finished: Vec<(i32, G::Move)> = Vec::with_capacity(deep.len());
        for &mv in &deep {
            let Some(value) = walk.three_ply(&after(root, mv)) else {
                break;
            };
            finished.push((-value, mv));
        }
        // Cut short after two candidates or more, the pass still compared the best 2-ply
        // plays at 3 plies (the 2-ply choice among them): its choice between those stands.
        // Stable: of equal scores the better 2-ply play stays first.
        finished.sort_by_key(|&(score, _)| -score);
        if finished.len() >= 2 {
            result.info = Some(report_pass(3, &finished, walk.nodes));
            result.best = Some(finished[0].1);
        }
    }
    result.nodes = walk.nodes;
    Some(result)
}

/// The position after `mv`.
fn after<G: Complete>(pos: &G, mv: G::Move) -> G {
    let mut child = pos.clone();
    child.play(mv);
    child
}

/// The state of one search: limits, counters and reused buffers.
struct Walk<'a, G: Complete> {
    stop: &'a AtomicBool,
    hard: Option<Instant>,
    node_limit: Option<u64>,
    nodes: u64,
    chance: Vec<Chance>,
    moves: Vec<G::Move>,
}

impl<G: Complete> Walk<'_, G> {
    /// The value of `pos` for its side to move: exact when the game is over, else the
    /// evaluation. Counts one node.
    fn static_value(&mut self, pos: &G) -> i32 {
        self.nodes += 1;
        match pos.outcome() {
            Some(outcome) => pos.terminal_value(&outcome).unwrap_or(0),
            None => pos.choice_value().unwrap_or_else(|| pos.evaluate()),
        }
    }

    /// Whether the search must stop now.
    fn aborted(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.hard.is_some_and(|hard| Instant::now() >= hard)
            || self.node_limit.is_some_and(|limit| self.nodes > limit)
    }

    /// The value of `pos` (before the roll) for its side to move: each roll weighted by its
    /// chance, the mover then playing its best 1-ply reply, valued at 2 plies. `None` when
    /// cut short.
    fn three_ply(&mut self, pos: &G) -> Option<i32> {
        if pos.outcome().is_some() {
            return Some(self.static_value(pos));
        }
        let mut events = Vec::new();
        pos.chance_events(&mut events);
        let mut total = 0.0;
        for event in &events {
            let mut rolled = pos.clone();
            rolled.apply_chance(event.event);
            let mut moves = Vec::new();
            rolled.legal_moves(&mut moves);
            let reply = moves
                .iter()
                .map(|&mv| (self.static_value(&after(&rolled, mv)), mv))
                .min_by_key(|&(value, _)| value)
                .map(|(_, mv)| mv)?;
            total += event.probability * -self.two_ply(&after(&rolled, reply))? as f64;
        }
        Some(total.round() as i32)
    }

    /// The value of `pos` (before the roll) for its side to move: each roll weighted by its
    /// chance, the mover then playing its best 1-ply reply. `None` when cut short.
    fn two_ply(&mut self, pos: &G) -> Option<i32> {
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
