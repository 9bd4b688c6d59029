//! Iterative-deepening principal-variation search with a transposition table, killer
//! moves, late-move reductions and (where the game offers a pass) null-move pruning; chance
//! nodes are averaged over their events (expectimax).

use super::tt::{Bound, Entry, Table};
use super::{Budget, Info, Limits, Score, MATE, MAX_PLY, PROVEN};
use crate::game::{Chance, Complete, Outcome, Proven};
use crate::util::rng::Rng;
use crate::util::threads::try_spawn_scoped;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

/// Plies of tactical moves followed past the horizon.
const QUIESCENCE_PLIES: u32 = 6;
/// Moves before this index in the ordered list are never reduced.
const LATE_MOVE: usize = 4;
/// Null-move pruning: plies taken off the search after a pass, beyond the pass itself.
const NULL_REDUCTION: i32 = 2;
/// From this depth a pass takes one ply more off.
const NULL_DEEP: i32 = 7;
/// The least depth where a pass is tried (below it the saving is too small to pay for it).
const NULL_MIN_DEPTH: i32 = 3;
/// The clock and `stop` are looked at once per this many nodes (a power of two). At 1024,
/// backgammon's slow nodes (a network evaluation each) overran `go movetime` by about 9 ms
/// (`scripts/movetime.py`); reading the clock costs a few tens of nanoseconds.
const CHECK_INTERVAL: u64 = 256;

/// What a search returns.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the root has no legal move.
    pub best: Option<M>,
    /// The last completed iteration's report, if any completed.
    pub info: Option<Info>,
    /// Every node visited, completed iterations or not.
    pub nodes: u64,
}

/// The alpha-beta search ([`super::AlphaBeta`]): searches `root` within `limits`, reporting
/// each finished iteration of the main thread to `report` (one line per `MultiPV` line).
/// `stop` ends the search as soon as it is seen; the best move found so far is returned.
///
/// With `limits.threads` above 1 this is Lazy SMP: helper threads run their own iterative
/// deepening on the same root, sharing only the transposition table (lock-free) and the node
/// count; the main thread alone decides, reports and ends the search. Helpers start at
/// the main thread's depth or one ahead, so they fill the table where it will look next.
pub fn search<G: Complete>(
    root: &G,
    limits: &Limits,
    table: &Table,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info),
) -> SearchResult<G::Move> {
    let start = limits.received.unwrap_or_else(Instant::now);
    let shared = Shared {
        table,
        stop,
        budget: Budget::new(limits, start),
        node_limit: limits.nodes,
        nodes: AtomicU64::new(0),
        done: AtomicBool::new(false),
        main_depth: AtomicU32::new(1),
    };
    let mut root_moves = Vec::new();
    root.legal_moves(&mut root_moves);
    limits.keep_root_moves(&mut root_moves);
    // A timed search gives the game's proof half of the time it plans to think; the
    // search proper has the rest, among the moves the proof keeps if it finished.
    let proof_deadline = shared.budget.soft().map(|soft| {
        let now = Instant::now();
        now + soft.saturating_duration_since(now) / 2
    });
    if let Some(keep) = root.value_keeping_moves(proof_deadline, stop) {
        // `searchmoves` first: an arbiter's restriction stands even where it gives value away.
        if root_moves.iter().any(|mv| keep.contains(mv)) {
            root_moves.retain(|mv| keep.contains(mv));
        }
    }
    // The first of equally scored root moves is kept: a seeded order among moves of equal
    // hint picks at random where neither the search nor the game prefers one.
    if let Some(seed) = limits.variety {
        Rng::new(seed ^ root.hash()).shuffle(&mut root_moves);
    }
    if let Some(mv) = book_move(root, &root_moves, limits) {
        return SearchResult {
            best: Some(mv),
            info: None,
            nodes: 0,
        };
    }
    root_moves.sort_by_key(|&mv| -root.move_order_hint(mv));
    if root_moves.is_empty() {
        return SearchResult {
            best: None,
            info: None,
            nodes: 0,
        };
    }
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32)
        .clamp(1, MAX_PLY as u32);
    let helpers = limits.threads.clamp(1, MAX_THREADS) - 1;
    std::thread::scope(|scope| {
        for helper in 1..=helpers {
            let (shared, moves) = (&shared, root_moves.clone());
            let work = move || helper_iterations(root, moves, max_depth, helper, shared);
            // A helper the system cannot start is one fewer: the main thread searches anyway.
            let _ = try_spawn_scoped(scope, work);
        }
        let result = main_iterations(root, root_moves, max_depth, limits, &shared, start, report);
        shared.done.store(true, Ordering::Relaxed);
        result
    })
}

/// Threads a search may use: `Threads`' maximum.
pub const MAX_THREADS: usize = 256;

/// What the threads of one search share.
struct Shared<'a> {
    table: &'a Table,
    stop: &'a AtomicBool,
    budget: Budget,
    node_limit: Option<u64>,
    /// Nodes of every thread, added in batches at each limit check.
    nodes: AtomicU64,
    /// Set when the main thread has finished: helpers stop.
    done: AtomicBool,
    /// The depth the main thread is searching.
    main_depth: AtomicU32,
}

/// The main thread's iterative deepening: decides, reports, and says when to stop.
fn main_iterations<G: Complete>(
    root: &G,
    mut root_moves: Vec<G::Move>,
    max_depth: u32,
    limits: &Limits,
    shared: &Shared<'_>,
    start: Instant,
    report: &mut dyn FnMut(&Info),
) -> SearchResult<G::Move> {
    let mut searcher = Searcher::new(shared);
    let mut result = SearchResult {
        best: root_moves.first().copied(),
        info: None,
        nodes: 0,
    };
    let root_value = root.proven_value();
    let odd_only = root.odd_depths_only();
    let lines = limits.multipv.clamp(1, root_moves.len());
    // The lines of the last depth reported, for a depth that is cut short.
    let mut previous = Vec::new();
    for depth in 1..=max_depth {
        if odd_only && depth % 2 == 0 && depth < max_depth {
            continue;
        }
        shared.main_depth.store(depth, Ordering::Relaxed);
        // Line k is the best of the root moves left after the first k lines' moves.
        let mut found = Vec::with_capacity(lines);
        for line in 0..lines {
            let (score, best) = searcher.root(root, &mut root_moves[line..], depth as i32);
            if searcher.aborted {
                break;
            }
            found.push((score, best, searcher.principal_variation(root)));
        }
        if found.is_empty() {
            // A partial iteration still searched the previous best first; keep a better move.
            if result.info.is_none() {
                result.best = searcher.partial_best.or(result.best);
            }
            break;
        }
        // A depth cut short after some lines still reports them all, as UCI engines do: the
        // lines it finished, then those of the depth before for the other moves, best first.
        if found.len() < lines {
            let taken: Vec<Option<G::Move>> = found.iter().map(|line| line.1).collect();
            let rest: Vec<_> = previous
                .iter()
                .filter(|line: &&(i32, Option<G::Move>, Vec<String>)| !taken.contains(&line.1))
                .take(lines - found.len())
                .cloned()
                .collect();
            found.extend(rest);
        }
        previous.clone_from(&found);
        let nodes = searcher.total_nodes();
        let time_ms = start.elapsed().as_millis() as u64;
        for (line, (score, _, pv)) in found.iter().enumerate() {
            let info = Info {
                depth,
                score: Score::from_internal(*score),
                nodes,
                time_ms,
                pv: pv.clone(),
                multipv: (limits.multipv > 1).then_some(line as u32 + 1),
            };
            report(&info);
            if line == 0 {
                result.info = Some(info);
            }
        }
        let (score, best, _) = found[0];
        result.best = best;
        if searcher.aborted {
            break;
        }
        // A root whose value is known (an endgame table) is done once a move keeps that
        // value: deeper iterations cannot change it, and a drawn root would never end early.
        let proven = matches!(Score::from_internal(score), Score::Mate(m) if (m.unsigned_abs() * 2) <= depth)
            || root_value.is_some_and(|value| proven_score(value, 0) == score);
        let out_of_time = shared
            .budget
            .soft()
            .is_some_and(|soft| Instant::now() >= soft);
        // The node count is looked at every `CHECK_INTERVAL` nodes, so an iteration may end a
        // little past the limit: the next one must not start.
        let out_of_nodes = limits
            .nodes
            .is_some_and(|limit| searcher.total_nodes() >= limit);
        let mate_in = match Score::from_internal(score) {
            Score::Mate(m) => Some(m),
            Score::Cp(_) => None,
        };
        if limits.mate_found(mate_in)
            || !limits.infinite
                && (proven
                    || out_of_time
                    || out_of_nodes
                    || root_moves.len() == 1 && limits.depth.is_none())
        {
            break;
        }
    }
    result.nodes = searcher.total_nodes();
    result
}

/// A helper thread's iterative deepening: fills the shared table until the main thread is
/// done, at the main thread's depth or (odd helpers) one ahead of it.
fn helper_iterations<G: Complete>(
    root: &G,
    mut root_moves: Vec<G::Move>,
    max_depth: u32,
    helper: usize,
    shared: &Shared<'_>,
) {
    let mut searcher = Searcher::new(shared);
    // Different threads try the root moves in different orders after the first.
    let len = root_moves.len();
    if len > 2 {
        root_moves[1..].rotate_left(helper % (len - 1));
    }
    let odd_only = root.odd_depths_only();
    let mut next = 1;
    loop {
        // Never behind the main thread (its table entries cover the shallower depths
        // already); odd helpers one depth ahead of it.
        let main = shared.main_depth.load(Ordering::Relaxed);
        let mut depth = next.max(main + (helper % 2) as u32);
        if odd_only && depth % 2 == 0 {
            depth += 1;
        }
        if depth > max_depth {
            break;
        }
        searcher.root(root, &mut root_moves, depth as i32);
        if searcher.aborted {
            break;
        }
        next = depth + 1;
    }
    searcher.flush_nodes();
}

struct Searcher<'a, G: Complete> {
    shared: &'a Shared<'a>,
    /// Nodes of this thread.
    nodes: u64,
    /// Of those, the nodes already added to the shared count.
    flushed: u64,
    aborted: bool,
    /// The best root move of an iteration cut short, if it got one.
    partial_best: Option<G::Move>,
    killers: Vec<[Option<G::Move>; 2]>,
    pv: Vec<Vec<G::Move>>,
    buffers: Vec<Vec<G::Move>>,
    scored: Vec<Vec<(i32, G::Move)>>,
    chance: Vec<Chance>,
    /// Whether the move into the node at each ply was a pass: never two in a row.
    after_null: Vec<bool>,
}

impl<'a, G: Complete> Searcher<'a, G> {
    fn new(shared: &'a Shared<'a>) -> Searcher<'a, G> {
        Searcher {
            shared,
            nodes: 0,
            flushed: 0,
            aborted: false,
            partial_best: None,
            killers: vec![[None; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 2],
            buffers: vec![Vec::new(); MAX_PLY + 1],
            scored: vec![Vec::new(); MAX_PLY + 1],
            chance: Vec::new(),
            after_null: vec![false; MAX_PLY + 2],
        }
    }

    /// Searches every root move; moves the best to the front for the next iteration.
    fn root(&mut self, root: &G, moves: &mut [G::Move], depth: i32) -> (i32, Option<G::Move>) {
        let (mut alpha, beta) = (-MATE - 1, MATE + 1);
        let mut best = None;
        self.partial_best = None;
        for i in 0..moves.len() {
            let mut child = root.clone();
            child.play(moves[i]);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, 1, -beta, -alpha)
            } else {
                let probe = -self.negamax(&child, depth - 1, 1, -alpha - 1, -alpha);
                if probe > alpha && !self.aborted {
                    -self.negamax(&child, depth - 1, 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            if score > alpha {
                alpha = score;
                best = Some(moves[i]);
                self.partial_best = best;
                self.update_pv(0, moves[i]);
                moves[..=i].rotate_right(1);
            }
        }
        (alpha, best)
    }

    fn negamax(&mut self, pos: &G, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        if self.nodes & (CHECK_INTERVAL - 1) == 0 {
            self.check_limits();
        }
        if self.aborted {
            return 0;
        }
        if let Some(outcome) = pos.outcome() {
            return terminal_score(pos, &outcome, ply);
        }
        let proven = pos.proven_value();
        if G::PROOFS_TAKE_TIME {
            self.check_limits();
            if self.aborted {
                return 0;
            }
        }
        if let Some(proven) = proven {
            return proven_score(proven, ply);
        }
        // A forced decision is not a ply of lookahead: look past it (the bound keeps a chain
        // of them inside the ply limit).
        let depth = if ply + depth.max(0) as usize + 1 < MAX_PLY && pos.extends() {
            depth + 1
        } else {
            depth
        };
        self.chance.clear();
        pos.chance_events(&mut self.chance);
        let chance_node = !self.chance.is_empty();
        if depth <= 0 || ply >= MAX_PLY {
            return if chance_node || ply >= MAX_PLY {
                pos.evaluate()
            } else {
                self.quiescence(pos, ply, alpha, beta, QUIESCENCE_PLIES)
            };
        }
        if chance_node {
            return self.expectation(pos, depth, ply);
        }

        let key = pos.hash();
        let mut tt_best = None;
        if let Some(entry) = self.shared.table.probe(key) {
            tt_best = entry.best;
            let score = from_table(entry.score, ply);
            if entry.depth as i32 >= depth
                && match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                }
            {
                return score;
            }
        }

        if let Some(score) = self.null_move_cut(pos, depth, ply, alpha, beta) {
            return score;
        }

        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.legal_moves(&mut moves);
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        // The table's move goes first whatever the scores; when it cuts off, as it mostly
        // does, scoring the other moves would be wasted, so they are scored only after it.
        let tt_index = tt_best.filter(|&index| index < moves.len());
        let tt_move = tt_index.map(|index| moves[index]);

        let original_alpha = alpha;
        let mut best_score = -MATE - 1;
        let mut best_move = None;
        let mut best_index = None;
        let killers = self.killers[ply];
        for i in 0..moves.len() {
            let mv = match (i, tt_index) {
                (0, Some(index)) => moves[index],
                _ => {
                    if scored.is_empty() {
                        self.score_moves(pos, &moves, tt_index, ply, &mut scored);
                        // The table's move has the highest score: where picking would put it.
                        if let Some(index) = tt_index {
                            scored.swap(0, index);
                        }
                    }
                    pick_next(&mut scored, i)
                }
            };
            let mut child = pos.clone();
            child.play(mv);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                // Late moves of a well-ordered list rarely matter: look at them less deeply
                // first, and fully only when they seem to beat the best so far.
                let quiet = Some(mv) != tt_move && !killers.contains(&Some(mv));
                let reduction = if depth >= 3 && i >= LATE_MOVE && quiet {
                    (1 + (i >= 4 * LATE_MOVE) as i32).min(pos.max_reduction().max(0))
                } else {
                    0
                };
                let mut probe =
                    -self.negamax(&child, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
                if reduction > 0 && probe > alpha && !self.aborted {
                    probe = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if probe > alpha && probe < beta && !self.aborted {
                    -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                best_index = Some(i);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                }
                if score >= beta {
                    self.remember_killer(ply, mv);
                    break;
                }
            }
        }
        // The move's place in the generated list, not in the ordered one.
        let best = best_move.and_then(|mv| match (best_index, tt_index) {
            (Some(0), Some(index)) => Some(index),
            _ => moves.iter().position(|&m| m == mv),
        });
        self.buffers[ply] = moves;
        self.scored[ply] = scored;
        if self.aborted {
            return 0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.table.store(Entry {
            key,
            best,
            score: to_table(best_score, ply),
            depth: depth as i16,
            bound,
        });
        best_score
    }

    /// Null-move pruning, outside the principal variation: when the side to move stays at or
    /// above `beta` even after passing (searched shallower), its real moves will too. The
    /// bound, not a mate score, is returned: a pass proves no mate.
    fn null_move_cut(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        if beta - alpha != 1
            || depth < NULL_MIN_DEPTH
            || self.after_null[ply]
            || beta.abs() >= PROVEN
            || ply + 2 >= MAX_PLY
        {
            return None;
        }
        let passed = pos.null_move()?;
        if pos.evaluate() < beta {
            return None;
        }
        let reduction = NULL_REDUCTION + i32::from(depth >= NULL_DEEP);
        self.after_null[ply + 1] = true;
        let score = -self.negamax(&passed, depth - 1 - reduction, ply + 1, -beta, -beta + 1);
        self.after_null[ply + 1] = false;
        (score >= beta && !self.aborted).then_some(beta)
    }

    /// Follows only tactical moves past the horizon; the side to move may also stand pat.
    fn quiescence(&mut self, pos: &G, ply: usize, mut alpha: i32, beta: i32, budget: u32) -> i32 {
        let stand = pos.evaluate();
        if stand >= beta || budget == 0 || ply >= MAX_PLY {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.tactical_moves(&mut moves);
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        scored.extend(moves.iter().map(|&mv| (pos.move_order_hint(mv), mv)));
        let mut best = stand;
        for i in 0..scored.len() {
            let mv = pick_next(&mut scored, i);
            let mut child = pos.clone();
            child.play(mv);
            self.nodes += 1;
            if self.nodes & (CHECK_INTERVAL - 1) == 0 {
                self.check_limits();
            }
            let score = match child.outcome() {
                Some(outcome) => -terminal_score(&child, &outcome, ply + 1),
                None => -self.quiescence(&child, ply + 1, -beta, -alpha, budget - 1),
            };
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        self.scored[ply] = scored;
        best
    }

    /// The probability-weighted value of a chance node; the roll is not a ply.
    fn expectation(&mut self, pos: &G, depth: i32, ply: usize) -> i32 {
        let events = std::mem::take(&mut self.chance);
        let mut total = 0.0;
        for event in &events {
            let mut child = pos.clone();
            child.apply_chance(event.event);
            total +=
                event.probability * self.negamax(&child, depth, ply, -MATE - 1, MATE + 1) as f64;
            if self.aborted {
                return 0;
            }
        }
        self.chance = events;
        // A line through a chance node is not a principal variation the mover controls.
        self.pv[ply].clear();
        total.round() as i32
    }

    /// Scores moves for ordering: the table's move (at `tt_index`), then killers, then the
    /// game's hint. The hints are taken first and the few special moves marked after, so most
    /// moves are never compared with the table's move and the killers.
    fn score_moves(
        &self,
        pos: &G,
        moves: &[G::Move],
        tt_index: Option<usize>,
        ply: usize,
        out: &mut Vec<(i32, G::Move)>,
    ) {
        out.clear();
        out.extend(
            moves
                .iter()
                .map(|&mv| (pos.move_order_hint(mv).min(i32::MAX - 3), mv)),
        );
        // In reverse order of rank, so a move that is both the table's and a killer ends with
        // the table's score.
        let [first, second] = self.killers[ply];
        for (killer, score) in [(second, i32::MAX - 2), (first, i32::MAX - 1)] {
            if let Some(killer) = killer {
                if let Some(index) = moves.iter().position(|&mv| mv == killer) {
                    out[index].0 = score;
                }
            }
        }
        if let Some(index) = tt_index {
            out[index].0 = i32::MAX;
        }
    }

    fn remember_killer(&mut self, ply: usize, mv: G::Move) {
        let slot = &mut self.killers[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// The best line: the collected PV, continued through the table where a cut-off ended it.
    fn principal_variation(&self, root: &G) -> Vec<String> {
        let mut pos = root.clone();
        let mut line = Vec::new();
        for &mv in &self.pv[0] {
            line.push(pos.format_move(mv));
            pos.play(mv);
        }
        let mut legal = Vec::new();
        while line.len() < MAX_PLY && pos.outcome().is_none() {
            let Some(index) = self.shared.table.probe(pos.hash()).and_then(|e| e.best) else {
                break;
            };
            legal.clear();
            pos.legal_moves(&mut legal);
            let Some(&mv) = legal.get(index) else {
                break;
            };
            line.push(pos.format_move(mv));
            pos.play(mv);
        }
        line
    }

    /// Adds this thread's new nodes to the shared count.
    fn flush_nodes(&mut self) {
        let new = self.nodes - self.flushed;
        self.shared.nodes.fetch_add(new, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Nodes of every thread so far (exact for this thread, batched for the others).
    fn total_nodes(&mut self) -> u64 {
        self.flush_nodes();
        self.shared.nodes.load(Ordering::Relaxed)
    }

    fn check_limits(&mut self) {
        let shared = self.shared;
        let out_of_time = shared
            .budget
            .hard()
            .is_some_and(|hard| Instant::now() >= hard);
        let out_of_nodes = shared
            .node_limit
            .is_some_and(|limit| self.total_nodes() >= limit);
        if out_of_time
            || out_of_nodes
            || shared.stop.load(Ordering::Relaxed)
            || shared.done.load(Ordering::Relaxed)
        {
            self.aborted = true;
        }
    }
}

/// The game's book move when the book may answer: `OwnBook` on, a timed search that asks for
/// nothing else (fixed depths and node counts stay reproducible; `mate`, `MultiPV` and
/// `infinite` want a search's report), and the move allowed by `searchmoves`.
fn book_move<G: Complete>(root: &G, root_moves: &[G::Move], limits: &Limits) -> Option<G::Move> {
    let timed = limits.movetime.is_some() || limits.time_left.is_some();
    let other_limit = limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.mate.is_some()
        || limits.infinite
        || limits.multipv > 1;
    if !limits.own_book || !timed || other_limit {
        return None;
    }
    root.book_move().filter(|mv| root_moves.contains(mv))
}

/// Moves the best-scored remaining move to `index` and returns it: a lazy selection sort,
/// since a cut-off usually comes before the list is exhausted.
fn pick_next<M: Copy>(scored: &mut [(i32, M)], index: usize) -> M {
    let rest = &scored[index..];
    let (mut best, mut best_score) = (0, rest[0].0);
    for (j, &(score, _)) in rest.iter().enumerate().skip(1) {
        if score > best_score {
            (best, best_score) = (j, score);
        }
    }
    scored.swap(index, index + best);
    scored[index].1
}

/// A finished game's score for the side to move: proven results prefer the shortest win.
fn terminal_score<G: Complete>(pos: &G, outcome: &Outcome, ply: usize) -> i32 {
    if let Some(value) = pos.terminal_value(outcome) {
        return value;
    }
    match outcome.winner {
        None => 0,
        Some(winner) if winner == pos.side_to_move() => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    }
}

/// A known exact value as a search score, counted in plies from the root.
fn proven_score(proven: Proven, ply: usize) -> i32 {
    match proven {
        Proven::Draw => 0,
        Proven::Win(plies) => MATE - (ply as i32 + plies.min(900) as i32),
        Proven::Loss(plies) => -(MATE - (ply as i32 + plies.min(900) as i32)),
    }
}

/// Mate scores are stored relative to the node, so they stay right at another ply.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > PROVEN {
        score + ply as i32
    } else if score < -(PROVEN) {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > PROVEN {
        score - ply as i32
    } else if score < -(PROVEN) {
        score + ply as i32
    } else {
        score
    }
}
