//! The search of dice games for `go` once the roll is known, as strong backgammon programs do
//! it: every
//! play scored at 1 ply (the evaluation of the position it leaves), then the best few
//! candidates scored at 2 plies (the average over the opponent's 21 rolls of the position left
//! by the opponent's best 1-ply reply), then the best two or three of those at 3 plies (the
//! opponent's best 1-ply reply to each roll valued at 2 plies). The 1-ply pass filters the
//! candidates, so the 2-ply pass costs a few thousand evaluations; a 3-ply candidate costs
//! about 21 times a 2-ply one, so under a clock the 3-ply pass takes only as many candidates
//! as the time left should allow, judged from how long the 2-ply pass took. Time left after
//! them is used: the next 2-ply candidates in order go on to 3 plies, as many at a time as
//! should finish (judged from the 3-ply candidates so far), and the best 3-ply value wins.
//!
//! With `Threads N` the 2- and 3-ply passes share their work out among N threads, one roll
//! of one candidate at a time; the values are summed in the same order as with one thread, so
//! the choice does not depend on the number of threads, only on how far the clock lets it go.

use super::CubeGame;
use crate::game::best_play::{best_play, seen_by, Judge};
use crate::game::{Chance, Outcome, Side};
use crate::search::{Budget, Info, Limits, Score, SearchResult};
use crate::util::threads::try_spawn_scoped;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// At most this many plays go on to the 2-ply pass.
pub const CANDIDATES: usize = 8;
/// At most this many plays go on to the 2-ply pass of a search for a position's value
/// ([`Limits::value_depth`], the cube decisions' searches), which needs the best play's value,
/// not its choice among close ones. Replayed on 4,195 cube decisions judged by GNU
/// Backgammon's 2-ply (docs/backgammon.md), 4 lost 0.4% more than 8 and 2 lost 3% more, and
/// 4 made depth 2 of a decision before the roll a third faster.
pub const VALUE_CANDIDATES: usize = 4;
/// Plays more than this far below the best 1-ply play are dropped, in points of equity
/// normalized to the stake ([`CubeGame::equity_unit`]): with the cube at 4 the same share of
/// the stake as at 1, in a match the same money equivalent at every score.
pub const MARGIN: f64 = 0.16;
/// At most this many plays go on to the 3-ply pass.
pub const DEEP_CANDIDATES: usize = 3;
/// Plays more than this far below the best 2-ply play do not go on to the 3-ply pass, in the
/// unit of [`MARGIN`].
pub const DEEP_MARGIN: f64 = 0.10;

/// The search for a position whose roll is known (`rolled`: the game says so; backgammon's
/// checker play, not a pending double); `None` for every other position, and for
/// `go depth N` with N >= 4, which run the generic search.
/// Depth 1 is the 1-ply pass alone, depth 2 the 1- and 2-ply passes; every other limit runs
/// all three, a pass cut short by `stop`, the clock or the node limit leaving the choice of
/// the pass before it (a 3-ply pass that finished two candidates or more keeps its choice
/// among them). Only a clock (`movetime`, a game clock) widens the 3-ply pass beyond the
/// best few 2-ply plays, so `go depth 3` and node limits give the same choice every time.
pub fn search<G: CubeGame>(
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
    let shared = Shared {
        stop,
        hard: Budget::new(limits, start).hard(),
        node_limit: limits.nodes,
        nodes: AtomicU64::new(0),
    };
    let threads = limits.threads.max(1);
    let mut walk = Walk::new(&shared);
    let mut plays = Vec::new();
    root.legal_moves(&mut plays);
    limits.keep_root_moves(&mut plays);
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
    let unit = root.equity_unit();
    let margin = |points: f64| (points * unit).round() as i32;
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
    result.info = Some(report_pass(1, &scored, shared.nodes()));
    let candidates: Vec<G::Move> = scored
        .iter()
        .take_while(|&&(score, _)| score >= best_1ply - margin(MARGIN))
        .take(if limits.value_depth {
            VALUE_CANDIDATES
        } else {
            CANDIDATES
        })
        .map(|&(_, mv)| mv)
        .collect();
    // One candidate compares nothing, unless its deeper value is what is asked for.
    if max_depth < 2 || candidates.len() < 2 && !limits.value_depth {
        result.nodes = shared.nodes();
        return Some(result);
    }
    let two_ply_start = Instant::now();
    let values = pass(&shared, threads, root, &candidates, Walk::two_ply_roll);
    if values.iter().any(Option::is_none) || shared.aborted() {
        result.nodes = shared.nodes();
        return Some(result);
    }
    let mut scored: Vec<(i32, G::Move)> = values
        .iter()
        .zip(&candidates)
        .map(|(value, &mv)| (-value.expect("checked above"), mv))
        .collect();
    let per_candidate = two_ply_start.elapsed() / candidates.len() as u32;
    scored.sort_by_key(|&(score, _)| -score);
    let (best_2ply, best_mv) = scored[0];
    result.info = Some(report_pass(2, &scored, shared.nodes()));
    result.best = Some(best_mv);
    // A 3-ply candidate costs about 21 2-ply ones (one per opposing roll); under a clock,
    // only as many as should finish in time.
    let mut per_deep = per_candidate * 22;
    let affordable = |per_deep: Duration| match shared.hard {
        None => DEEP_CANDIDATES,
        Some(hard) => {
            let left = hard.saturating_duration_since(Instant::now());
            (left.as_secs_f64() / per_deep.as_secs_f64().max(1e-9)) as usize
        }
    };
    let deep = scored
        .iter()
        .take_while(|&&(score, _)| score >= best_2ply - margin(DEEP_MARGIN))
        .take(DEEP_CANDIDATES.min(affordable(per_deep)))
        .count();
    if max_depth >= 3 {
        // The 3-ply candidates are always the first of the 2-ply ranking: the best few, then,
        // under a clock with time left, the next ones in order as many at a time as should
        // finish (the time one took so far telling), until all have been or the time is up.
        let mut finished: Vec<(i32, G::Move)> = Vec::new();
        // A value at 3 plies needs one candidate's; a choice needs two to compare.
        let least = if limits.value_depth { 1 } else { 2 };
        let mut batch = if deep >= least { deep } else { 0 };
        loop {
            if batch > 0 {
                let moves: Vec<G::Move> = scored[finished.len()..finished.len() + batch]
                    .iter()
                    .map(|&(_, mv)| mv)
                    .collect();
                let batch_start = Instant::now();
                let values = pass(&shared, threads, root, &moves, Walk::three_ply_roll);
                let done: Vec<(i32, G::Move)> = values
                    .iter()
                    .zip(&moves)
                    .map_while(|(value, &mv)| value.map(|value| (-value, mv)))
                    .collect();
                if !done.is_empty() {
                    per_deep = batch_start.elapsed() / done.len() as u32;
                }
                let complete = done.len() == batch;
                finished.extend(done);
                if !complete {
                    break;
                }
            }
            let left = scored.len() - finished.len();
            batch = match shared.hard {
                Some(_) if left > 0 => affordable(per_deep).min(left),
                _ => 0,
            };
            if batch == 0 || finished.len() + batch < least {
                break;
            }
        }
        // Cut short after two candidates or more, the pass still compared the best 2-ply
        // plays at 3 plies (the 2-ply choice among them): its choice between those stands.
        // Stable: of equal scores the better 2-ply play stays first.
        finished.sort_by_key(|&(score, _)| -score);
        if finished.len() >= least {
            result.info = Some(report_pass(3, &finished, shared.nodes()));
            result.best = Some(finished[0].1);
        }
    }
    result.nodes = shared.nodes();
    Some(result)
}

/// The position after `mv`.
fn after<G: CubeGame>(pos: &G, mv: G::Move) -> G {
    let mut child = pos.clone();
    child.play(mv);
    child
}

/// What the threads of one search share: its limits and the node count.
struct Shared<'a> {
    stop: &'a AtomicBool,
    hard: Option<Instant>,
    node_limit: Option<u64>,
    nodes: AtomicU64,
}

impl Shared<'_> {
    /// Whether the search must stop now.
    fn aborted(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.hard.is_some_and(|hard| Instant::now() >= hard)
            || self.node_limit.is_some_and(|limit| self.nodes() > limit)
    }

    fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// The values (before the roll, for the side to move) of the positions `candidates` leave,
/// each the chance-weighted sum of `per_roll` over its rolls; `None` for a candidate cut
/// short. The rolls of all candidates are shared out among `threads` threads in candidate
/// order, so with a clock the first candidates finish first, as with one thread.
fn pass<'s, G: CubeGame>(
    shared: &'s Shared<'s>,
    threads: usize,
    root: &G,
    candidates: &[G::Move],
    per_roll: fn(&mut Walk<'s, G>, &G) -> Option<i32>,
) -> Vec<Option<i32>> {
    let mut values: Vec<Option<i32>> = vec![None; candidates.len()];
    // (candidate, position before the roll, the roll)
    let mut tasks: Vec<(usize, G, Chance)> = Vec::new();
    let mut walk = Walk::new(shared);
    for (index, &mv) in candidates.iter().enumerate() {
        let pos = after(root, mv);
        if pos.outcome().is_some() {
            values[index] = Some(walk.static_value(&pos));
            continue;
        }
        let mut events = Vec::new();
        pos.chance_events(&mut events);
        tasks.extend(events.into_iter().map(|event| (index, pos.clone(), event)));
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut walk = Walk::new(shared);
        let mut done = Vec::new();
        loop {
            let task = next.fetch_add(1, Ordering::Relaxed);
            let Some((_, pos, event)) = tasks.get(task) else {
                break;
            };
            if shared.aborted() {
                break;
            }
            let mut rolled = pos.clone();
            rolled.apply_chance(event.event);
            match per_roll(&mut walk, &rolled) {
                Some(value) => done.push((task, value)),
                None => break,
            }
        }
        done
    };
    let mut results: Vec<Option<i32>> = vec![None; tasks.len()];
    let finished: Vec<(usize, i32)> = if threads <= 1 || tasks.len() < 2 {
        work()
    } else {
        std::thread::scope(|scope| {
            // This thread works too, so the tasks are done even when no other could start.
            let handles: Vec<_> = (1..threads.min(tasks.len()))
                .filter_map(|_| try_spawn_scoped(scope, work))
                .collect();
            let mut done = work();
            for handle in handles {
                done.extend(handle.join().expect("a lookahead thread panicked"));
            }
            done
        })
    };
    for (task, value) in finished {
        results[task] = Some(value);
    }
    // Summed in task order, whichever thread finished which roll.
    let mut totals: Vec<Option<f64>> = vec![Some(0.0); candidates.len()];
    for ((index, _, event), result) in tasks.iter().zip(&results) {
        totals[*index] = match (totals[*index], result) {
            (Some(total), Some(value)) => Some(total + event.probability * *value as f64),
            _ => None,
        };
    }
    for (index, total) in totals.into_iter().enumerate() {
        if values[index].is_none() {
            values[index] = total.map(|total| total.round() as i32);
        }
    }
    values
}

/// A 1-ply reply is valued by [`Walk::static_value`] of the position it leaves (a node
/// each), for the replying side.
impl<G: CubeGame> Judge<G> for Walk<'_, G> {
    type Worth = i32;

    fn position(&mut self, pos: &G, side: Side) -> i32 {
        seen_by(pos, side, self.static_value(pos))
    }

    fn result(&mut self, pos: &G, _: &Outcome, side: Side) -> i32 {
        self.position(pos, side)
    }

    fn rank(worth: &i32) -> f64 {
        f64::from(*worth)
    }
}

/// One thread's walk: the shared limits and its reused buffers.
struct Walk<'a, G: CubeGame> {
    shared: &'a Shared<'a>,
    chance: Vec<Chance>,
    moves: Vec<G::Move>,
}

impl<'a, G: CubeGame> Walk<'a, G> {
    fn new(shared: &'a Shared<'a>) -> Walk<'a, G> {
        Walk {
            shared,
            chance: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// The value of `pos` for its side to move: exact when the game is over, else the
    /// evaluation. Counts one node.
    fn static_value(&mut self, pos: &G) -> i32 {
        self.shared.nodes.fetch_add(1, Ordering::Relaxed);
        match pos.outcome() {
            Some(outcome) => pos.terminal_value(&outcome).unwrap_or(0),
            None => pos.choice_value().unwrap_or_else(|| pos.evaluate()),
        }
    }

    /// One roll of a 3-ply value: the roller's best 1-ply reply, valued at 2 plies, for the
    /// side that moved before the roll. `None` when cut short.
    fn three_ply_roll(&mut self, rolled: &G) -> Option<i32> {
        let mut moves = Vec::new();
        rolled.legal_moves(&mut moves);
        let (reply, _) = best_play(rolled, &moves, self)?;
        Some(-self.two_ply(&after(rolled, moves[reply]))?)
    }

    /// One roll of a 2-ply value: the roller's best 1-ply reply, for the roller.
    fn two_ply_roll(&mut self, rolled: &G) -> Option<i32> {
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        rolled.legal_moves(&mut moves);
        let best = best_play(rolled, &moves, self).map_or(0, |(_, value)| value);
        self.moves = moves;
        Some(best)
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
            if self.shared.aborted() {
                return None;
            }
            let mut rolled = pos.clone();
            rolled.apply_chance(event.event);
            total += event.probability * self.two_ply_roll(&rolled)? as f64;
        }
        self.chance = events;
        Some(total.round() as i32)
    }
}
