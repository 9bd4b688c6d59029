//! The decisions around the doubling cube, built on the checker-play searches: the one a
//! player takes before the dice fall (`double`, weighed against rolling), and the answer to
//! a double (`take`, `drop`, `beaver`).

use super::CubeGame;
use crate::game::best_play::{best_play, GameValue};
use crate::game::Chance;
use crate::search::{Budget, Info, Limits, Score, Searcher, Table, MATE, MAX_PLY, PROVEN};
use crate::strategy::Chosen;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Moves with their values.
type Valued<M> = Vec<(M, i32)>;

/// What [`decide_before_chance`] chose, and the values it chose from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision<M> {
    /// The choice of the deepest depth searched completely (`Roll` when none was).
    pub choice: Chosen<M>,
    /// Nodes searched.
    pub nodes: u64,
    /// The values of that depth, if one was searched completely.
    pub weighed: Option<Weighed<M>>,
}

/// The values behind a decision at a chance node, all from the side to move's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weighed<M> {
    /// The depth they come from.
    pub depth: u32,
    /// Letting the dice fall: the average of the searches of every roll.
    pub roll: i32,
    /// Each pre-chance move with the answers to it (the opponent's, backgammon's take and
    /// drop), each searched alone, in the order of their generation; the move is worth the
    /// answer whoever moves there picks (the opponent: our worst).
    pub moves: Vec<(M, Valued<M>)>,
}

/// Weighs every pre-chance move of `root` against rolling, one depth after the other within
/// `limits`, each child searched by `searcher`; the choice of the deepest depth searched
/// completely wins (a move only when it is worth more than rolling by more than the game's
/// [`CubeGame::pre_chance_margin`]; with several, the one that does so by most).
/// Every search starts from [`CubeGame::for_cube_decision`]. Reports each depth.
pub fn decide_before_chance<G: CubeGame>(
    root: &G,
    searcher: &dyn Searcher<G>,
    limits: &Limits,
    table: &Table,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info),
) -> Decision<G::Move> {
    let root = &root.for_cube_decision();
    let (start, budget, max_depth) = deepening(root, limits);
    let mut moves = Vec::new();
    root.pre_chance_moves(&mut moves);
    let mut events: Vec<Chance> = Vec::new();
    root.chance_events(&mut events);
    let mut decision = Decision {
        choice: Chosen::Roll,
        nodes: 0,
        weighed: None,
    };
    'deepen: for depth in 1..=max_depth {
        let mut probe = Probe::new(searcher, table, stop, &budget, limits, &mut decision.nodes);
        let mut roll_value = 0.0;
        for chance in &events {
            let mut child = root.clone();
            child.apply_chance(chance.event);
            let Some(value) = probe.value_for(root, &child, depth) else {
                break 'deepen;
            };
            roll_value += chance.probability * f64::from(value);
        }
        let roll = roll_value.round() as i32;
        // (value less the margin it must beat rolling by, value, choice)
        let mut best = (roll, roll, Chosen::Roll);
        let mut weighed = Weighed {
            depth,
            roll,
            moves: Vec::new(),
        };
        // Each move's value: the answer it gets.
        let mut values = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let mut child = root.clone();
            child.play(mv);
            // The opponent's answer (take or drop) is a ply the roll has not, so one more
            // ply brings both to the same number of checker plays. Each answer is searched
            // alone, so that all their values are known, not only the best one's.
            let Some(answers) = probe.answers_for(root, &child, depth + 1) else {
                break 'deepen;
            };
            // Whoever moves at the child picks its answer: the opponent the worst for us (the
            // first of equal ones).
            let picked = if view(root, &child) < 0 {
                answers.iter().min_by_key(|&&(_, value)| value)
            } else {
                answers
                    .iter()
                    .min_by_key(|&&(_, value)| std::cmp::Reverse(value))
            };
            let (answer, value) = match picked {
                Some(&(answer, value)) => (Some(answer), value),
                None => match probe.value_for(root, &child, depth + 1) {
                    Some(value) => (None, value),
                    None => break 'deepen,
                },
            };
            values.push(value);
            let margin = root.pre_chance_margin(mv, answer);
            let above = i64::from(value) - i64::from(margin);
            if above > i64::from(best.0) {
                best = (
                    above.clamp(i32::MIN.into(), i32::MAX.into()) as i32,
                    value,
                    Chosen::Move(mv),
                );
            }
            weighed.moves.push((mv, answers));
        }
        decision.choice = best.2;
        // `MultiPV`: the choice first, then the other options by their value.
        let mut lines = vec![(best.2, best.1)];
        if limits.multipv > 1 {
            let mut others = vec![(Chosen::Roll, roll)];
            others.extend(
                moves
                    .iter()
                    .zip(&values)
                    .map(|(&mv, &v)| (Chosen::Move(mv), v)),
            );
            others.retain(|&(choice, _)| choice != best.2);
            others.sort_by_key(|&(_, value)| std::cmp::Reverse(value));
            lines.extend(others);
            lines.truncate(limits.multipv);
        }
        decision.weighed = Some(weighed);
        for (k, &(choice, value)) in lines.iter().enumerate() {
            let pv = match choice {
                Chosen::Roll => vec!["roll".to_owned()],
                Chosen::Move(mv) => vec![root.format_move(mv)],
            };
            report(&Info {
                depth,
                score: Score::from_internal(value),
                nodes: decision.nodes,
                time_ms: start.elapsed().as_millis() as u64,
                pv,
                multipv: (limits.multipv > 1).then_some(k as u32 + 1),
            });
        }
        if !limits.infinite && budget.soft().is_some_and(|soft| Instant::now() >= soft) {
            break;
        }
    }
    decision
}

/// The start of the clock, the time budget and the deepest depth of an iterative deepening
/// within `limits` (the game's [`CubeGame::cube_depth`] at `root` unless `limits` names one).
fn deepening<G: CubeGame>(root: &G, limits: &Limits) -> (Instant, Budget, u32) {
    let start = limits.received.unwrap_or_else(Instant::now);
    let max_depth = limits
        .depth
        .unwrap_or_else(|| root.cube_depth())
        .clamp(1, MAX_PLY as u32);
    (start, Budget::new(limits, start), max_depth)
}

/// What [`decide_answer`] chose, and the values it chose from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer<M> {
    /// The best answer of the deepest depth searched completely (`None` when none was).
    pub best: Option<M>,
    /// Nodes searched.
    pub nodes: u64,
    /// Every answer with its value to the side to move, of that depth (`searchmoves` limits
    /// the choice, not what the cube analysis line shows).
    pub values: Valued<M>,
}

/// Answers a pre-chance move (backgammon's double: take, drop or beaver), one depth after
/// the other within `limits`: each answer valued alone as [`decide_before_chance`] values
/// the answers it expects, the best of the deepest depth searched completely chosen among
/// those allowed (`searchmoves`; the first of equal ones). Depth `D` sees the answer and
/// `D - 1` checker plays, as `go depth D` always did. Every search starts from
/// [`CubeGame::for_cube_decision`]. Reports each depth, one line per answer with `MultiPV`
/// above 1.
pub fn decide_answer<G: CubeGame>(
    root: &G,
    searcher: &dyn Searcher<G>,
    limits: &Limits,
    table: &Table,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info),
) -> Answer<G::Move> {
    let root = &root.for_cube_decision();
    let (start, budget, max_depth) = deepening(root, limits);
    let mut answer = Answer {
        best: None,
        nodes: 0,
        values: Vec::new(),
    };
    for depth in 1..=max_depth {
        let mut probe = Probe::new(searcher, table, stop, &budget, limits, &mut answer.nodes);
        let Some(values) = probe.answers_for(root, root, depth) else {
            break;
        };
        let mut ranked = values.clone();
        limits.keep_root_moves(&mut ranked);
        if ranked.is_empty() {
            break;
        }
        // Stable: the first of equal answers stays first.
        ranked.sort_by_key(|&(_, value)| std::cmp::Reverse(value));
        answer.best = Some(ranked[0].0);
        answer.values = values;
        let lines = if limits.multipv > 1 {
            limits.multipv.min(ranked.len())
        } else {
            1
        };
        for (i, &(mv, value)) in ranked.iter().take(lines).enumerate() {
            report(&Info {
                depth,
                score: Score::from_internal(value),
                nodes: answer.nodes,
                time_ms: start.elapsed().as_millis() as u64,
                pv: vec![root.format_move(mv)],
                multipv: (limits.multipv > 1).then_some(i as u32 + 1),
            });
        }
        let proven = ranked.iter().all(|&(_, value)| value.abs() > PROVEN);
        if proven || !limits.infinite && budget.soft().is_some_and(|soft| Instant::now() >= soft) {
            break;
        }
    }
    if answer.best.is_none() {
        // Not even depth 1 finished (a clock at its floor, `movetime 0`, an early `stop`):
        // still a legal answer, as every other `go` gives.
        answer.best = quick_answer(root, limits);
    }
    answer
}

/// The allowed answer whose position evaluates best for the side to move (a finished game
/// by its result), the first of equal ones: what a search that completed no depth plays.
fn quick_answer<G: CubeGame>(root: &G, limits: &Limits) -> Option<G::Move> {
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    limits.keep_root_moves(&mut moves);
    best_play(root, &moves, &mut GameValue).map(|(index, _)| moves[index])
}

/// Fixed-depth searches of children, sharing one deadline and node budget.
struct Probe<'a, G: CubeGame> {
    searcher: &'a dyn Searcher<G>,
    table: &'a Table,
    stop: &'a AtomicBool,
    hard: Option<Instant>,
    node_limit: Option<u64>,
    /// `Threads`, for each search.
    threads: usize,
    nodes: &'a mut u64,
}

impl<'a, G: CubeGame> Probe<'a, G> {
    /// Searches by `searcher` within `budget`'s deadline and the node limit and `Threads` of
    /// `limits`, counting nodes into `nodes`.
    fn new(
        searcher: &'a dyn Searcher<G>,
        table: &'a Table,
        stop: &'a AtomicBool,
        budget: &Budget,
        limits: &Limits,
        nodes: &'a mut u64,
    ) -> Probe<'a, G> {
        Probe {
            searcher,
            table,
            stop,
            hard: budget.hard(),
            node_limit: limits.nodes,
            threads: limits.threads,
            nodes,
        }
    }

    /// The value of `child` to the player to move at `parent`, from a complete search of
    /// `depth` plies; `None` when time, nodes or `stop` cut the search short.
    fn value_for(&mut self, parent: &G, child: &G, depth: u32) -> Option<i32> {
        Some(view(parent, child) * self.own_value(child, None, depth)?)
    }

    /// The value to the player to move at `parent` of each move of `pos` (`parent` itself,
    /// or the position its move left to the opponent), each searched alone (`searchmoves`)
    /// `depth` plies deep from `pos`; `None` when time, nodes or `stop` cut a search short.
    /// A move that leaves the dice to fall with nobody able to act first (backgammon's take)
    /// is worth the average over the rolls of the searcher's `depth - 1` plies from each
    /// roll, as [`decide_before_chance`] values rolling: the same searches, so that the
    /// searcher's few-candidate passes serve the answer too (the plain search would look at
    /// every play of every roll, too slow to go past one checker play in a timed decision).
    fn answers_for(&mut self, parent: &G, pos: &G, depth: u32) -> Option<Valued<G::Move>> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let sign = view(parent, pos);
        moves
            .into_iter()
            .enumerate()
            .map(|(place, mv)| {
                let mut next = pos.clone();
                next.play(mv);
                let value = if next.outcome().is_some() {
                    view(pos, &next) * self.own_value(&next, None, 0)?
                } else if let Some(events) = plain_chance(&next).filter(|_| depth >= 2) {
                    let mut sum = 0.0;
                    for chance in &events {
                        let mut rolled = next.clone();
                        rolled.apply_chance(chance.event);
                        sum += chance.probability
                            * f64::from(self.value_for(pos, &rolled, depth - 1)?);
                    }
                    sum.round() as i32
                } else {
                    self.own_value(pos, Some(place), depth)?
                };
                Some((mv, sign * value))
            })
            .collect()
    }

    /// The value of `pos` to its side to move (a finished game's result, or a complete
    /// search of `depth` plies, of the move at place `only` of its legal moves alone when
    /// given).
    fn own_value(&mut self, pos: &G, only: Option<usize>, depth: u32) -> Option<i32> {
        if let Some(outcome) = pos.outcome() {
            return Some(
                pos.terminal_value(&outcome)
                    .unwrap_or(match outcome.winner {
                        None => 0,
                        Some(w) if w == pos.side_to_move() => MATE,
                        Some(_) => -MATE,
                    }),
            );
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
            root_moves: only.map(|place| vec![place]),
            value_depth: true,
            threads: self.threads,
            ..Limits::default()
        };
        let result = self
            .searcher
            .search(pos, &limits, self.table, self.stop, &mut |_| {});
        *self.nodes += result.nodes;
        let info = result.info?;
        let complete = info.depth == depth || matches!(info.score, Score::Mate(_));
        let finished_in_time = !self.stop.load(Ordering::Relaxed)
            && self.hard.is_none_or(|h| Instant::now() < h)
            && self.node_limit.is_none_or(|limit| *self.nodes <= limit);
        (complete && finished_in_time).then(|| info.score.to_internal())
    }
}

/// The chance events of `pos` when it waits for them and nobody may act before they fall.
fn plain_chance<G: CubeGame>(pos: &G) -> Option<Vec<Chance>> {
    let mut events = Vec::new();
    pos.chance_events(&mut events);
    let mut first = Vec::new();
    pos.pre_chance_moves(&mut first);
    (!events.is_empty() && first.is_empty()).then_some(events)
}

/// 1 when `child` has the same side to move as `parent`, else -1: turns a value from
/// `child`'s view into `parent`'s.
fn view<G: CubeGame>(parent: &G, child: &G) -> i32 {
    if child.side_to_move() == parent.side_to_move() {
        1
    } else {
        -1
    }
}
