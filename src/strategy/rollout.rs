//! Rollouts: a position's value estimated by playing it out many times with a quick policy
//! (each player takes the move whose position evaluates best for it), as backgammon players
//! ask of a bot. The first two chance events of a trial are stratified (trial t takes the
//! (t mod 36)-th and (t / 36 mod 36)-th slice of the events' probabilities), so every 36
//! trials see each first roll in its exact proportion and 1296 each pair of first rolls: the
//! usual variance reduction of backgammon rollouts. Trials depend only on the seed and their
//! number, and are summed in order, so the result is the same with any number of threads.
//!
//! With [`RolloutLimits::luck`] each trial's value is also corrected by its luck, as GNU
//! Backgammon's rollouts do: at every chance event the policy's move is found for each event
//! that could have happened, and the luck of the event that did is its value (the evaluation
//! after the policy's move) less the probability-weighted mean over all of them. The luck
//! has mean zero whatever the evaluation, so the corrected mean is unbiased, and a good
//! evaluation takes most of the dice's noise out of it; each chance event then costs as many
//! move choices as it has outcomes.

use crate::game::best_play::{best_play, seen_by, Judge};
use crate::game::{Chance, Complete, Outcome, Side};
use crate::util::rng::Rng;
use crate::util::threads::try_spawn_scoped;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Slices per stratified chance event (a backgammon roll has probability k/36).
const STRATA: u64 = 36;
/// Trials shared out among the threads at a time: whole strata of the first two rolls.
const BLOCK: u64 = STRATA * 4;
/// Time between progress reports.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);
/// A trial that reaches this many plies without an end is valued by the evaluation.
pub const MAX_TRIAL_PLIES: u32 = 1000;

/// What a rollout is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RolloutLimits {
    /// Trials to play.
    pub trials: u64,
    /// Moves after which a trial stops and takes the evaluation (0: play to the end).
    pub plies: u32,
    /// Seeds the dice of every trial.
    pub seed: u64,
    /// Threads sharing the trials.
    pub threads: usize,
    /// Luck-based variance reduction: each trial's value less the luck of its chance events.
    pub luck: bool,
}

/// Results of the trials so far, from the root's side to move's view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RolloutStats {
    /// Trials played.
    pub trials: u64,
    /// Sum and sum of squares of the trials' values (evaluation units), exact.
    sum: i128,
    sum_squares: i128,
    /// Finished trials won and lost with at least 1, 2 and 3 points (index 0, 1, 2).
    pub wins: [u64; 3],
    /// See `wins`.
    pub losses: [u64; 3],
    /// Finished trials drawn.
    pub draws: u64,
    /// Trials cut off by the ply limit (valued by the evaluation).
    pub unfinished: u64,
}

impl RolloutStats {
    /// The mean value (evaluation units: thousandths of a point in backgammon).
    pub fn mean(&self) -> f64 {
        self.sum as f64 / self.trials.max(1) as f64
    }

    /// The standard error of the mean.
    pub fn standard_error(&self) -> f64 {
        if self.trials < 2 {
            return 0.0;
        }
        let n = i128::from(self.trials);
        let spread = (n * self.sum_squares - self.sum * self.sum) as f64;
        let variance = spread / (n * (n - 1)) as f64;
        (variance.max(0.0) / n as f64).sqrt()
    }

    fn add(&mut self, trial: &Trial) {
        self.trials += 1;
        self.sum += i128::from(trial.value);
        self.sum_squares += i128::from(trial.value) * i128::from(trial.value);
        let (tally, points) = match trial.end {
            End::Cut => return self.unfinished += 1,
            End::Drawn => return self.draws += 1,
            End::Won(points) => (&mut self.wins, points),
            End::Lost(points) => (&mut self.losses, points),
        };
        for (index, count) in tally.iter_mut().enumerate() {
            *count += (points > index as u32) as u64;
        }
    }
}

/// One trial's value (the root's side to move's view) and how it ended.
struct Trial {
    value: i64,
    end: End,
}

impl Trial {
    /// The trial with its value corrected by the luck it had.
    fn less(self, luck: i64) -> Trial {
        Trial {
            value: self.value - luck,
            ..self
        }
    }
}

/// How a trial ended, for the root's side to move: won or lost with so many points, drawn,
/// or cut off by the ply limit.
enum End {
    Won(u32),
    Lost(u32),
    Drawn,
    Cut,
}

/// Plays `limits.trials` trials from `root`, calling `progress` about once a second; `stop`
/// ends it after the trials under way. Returns the statistics of the trials played.
pub fn rollout<G: Complete>(
    root: &G,
    limits: &RolloutLimits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&RolloutStats),
) -> RolloutStats {
    let mut stats = RolloutStats::default();
    let mut reported = Instant::now();
    let mut first = 0;
    while first < limits.trials && !stop.load(Ordering::Relaxed) {
        let count = BLOCK.min(limits.trials - first);
        let trials = play_block(root, limits, first, count, stop);
        for trial in &trials {
            stats.add(trial);
        }
        first += trials.len() as u64;
        if (trials.len() as u64) < count {
            break;
        }
        if reported.elapsed() >= PROGRESS_EVERY && first < limits.trials {
            progress(&stats);
            reported = Instant::now();
        }
    }
    stats
}

/// Trials `first..first + count` on `threads` threads, in trial order; fewer when stopped.
fn play_block<G: Complete>(
    root: &G,
    limits: &RolloutLimits,
    first: u64,
    count: u64,
    stop: &AtomicBool,
) -> Vec<Trial> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(u64, Trial)>> = Mutex::new(Vec::with_capacity(count as usize));
    let work = || loop {
        let index = next.fetch_add(1, Ordering::Relaxed) as u64;
        if index >= count || stop.load(Ordering::Relaxed) {
            break;
        }
        let trial = play_trial(root, limits, first + index);
        done.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((index, trial));
    };
    std::thread::scope(|scope| {
        for _ in 1..limits.threads.clamp(1, crate::search::MAX_THREADS) {
            // A thread the system cannot start is one fewer: this one plays every trial left.
            let _ = try_spawn_scoped(scope, work);
        }
        work();
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|&(index, _)| index);
    // A stopped block keeps only its unbroken run of trials from the start.
    let run = done
        .iter()
        .enumerate()
        .take_while(|&(i, &(index, _))| i as u64 == index)
        .count();
    done.truncate(run);
    done.into_iter().map(|(_, trial)| trial).collect()
}

/// Trial number `number`: plays the root out with the quick policy.
fn play_trial<G: Complete>(root: &G, limits: &RolloutLimits, number: u64) -> Trial {
    let me = root.side_to_move();
    let mut rng = Rng::new(limits.seed ^ number.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let strata = [number % STRATA, number / STRATA % STRATA];
    let mut pos = root.clone();
    let (mut chances, mut moves) = (0, 0);
    let mut events: Vec<Chance> = Vec::new();
    let mut legal = Vec::new();
    let mut luck = 0;
    loop {
        if let Some(outcome) = pos.outcome() {
            return finished(&pos, &outcome, me).less(luck);
        }
        if moves >= MAX_TRIAL_PLIES || limits.plies > 0 && moves >= limits.plies {
            return cut(&pos, me).less(luck);
        }
        events.clear();
        pos.chance_events(&mut events);
        if !events.is_empty() {
            let u = match strata.get(chances) {
                Some(&slice) => (slice as f64 + rng.unit()) / STRATA as f64,
                None => rng.unit(),
            };
            chances += 1;
            let event = Chance::draw(&events, u);
            if limits.luck {
                luck += event_luck(&pos, &events, event, me, &mut legal);
            }
            pos.apply_chance(event);
            continue;
        }
        match policy_move(&pos, &mut legal) {
            Some((mv, _)) => pos.play(mv),
            // No move and no end: nothing more can happen; value it as it stands.
            None => return cut(&pos, me).less(luck),
        }
        moves += 1;
    }
}

/// The policy's move (the one whose position evaluates best for the mover) and its value
/// for the mover; `None` when there is no move.
fn policy_move<G: Complete>(pos: &G, legal: &mut Vec<G::Move>) -> Option<(G::Move, i32)> {
    legal.clear();
    pos.legal_moves(legal);
    best_play(pos, legal, &mut Quick).map(|(index, value)| (legal[index], value))
}

/// The quick policy's judge: the game's evaluation of the position a move leaves, a finished
/// game's too (every game's evaluation of a finished position stands, as it always has in
/// rollouts; backgammon's is the result), turned to the mover's view by whether the side to
/// move changed (a side may move again).
struct Quick;

impl<G: Complete> Judge<G> for Quick {
    type Worth = i32;

    fn position(&mut self, pos: &G, side: Side) -> i32 {
        seen_by(pos, side, pos.evaluate())
    }

    fn result(&mut self, pos: &G, _: &Outcome, side: Side) -> i32 {
        self.position(pos, side)
    }

    fn rank(worth: &i32) -> f64 {
        f64::from(*worth)
    }
}

/// The luck of chance event `event` at `pos` for side `me`: the value after the policy's
/// reply to it less the mean of that over every event.
fn event_luck<G: Complete>(
    pos: &G,
    events: &[Chance],
    event: u32,
    me: Side,
    legal: &mut Vec<G::Move>,
) -> i64 {
    let [luck] = luck(events, event, |chance| {
        let mut next = pos.clone();
        next.apply_chance(chance);
        let mover_value = match policy_move(&next, legal) {
            Some((_, value)) => value,
            None => next.evaluate(),
        };
        [f64::from(seen_by(&next, me, mover_value))]
    });
    luck.round() as i64
}

/// The luck of `happened`, one of `events`: the values that `value` gives after it (one per
/// quantity a caller tracks) less their probability-weighted means over all of `events`. Its
/// mean is zero whatever `value` is, so a rollout corrected by it keeps its expectation and
/// sheds the dice's noise that `value` sees; the one luck correction of rollouts, this
/// module's and the training targets' of `backgammon-deep`.
pub fn luck<const N: usize>(
    events: &[Chance],
    happened: u32,
    mut value: impl FnMut(u32) -> [f64; N],
) -> [f64; N] {
    let (mut mean, mut actual) = ([0.0; N], [0.0; N]);
    for chance in events {
        let values = value(chance.event);
        for (m, v) in mean.iter_mut().zip(values) {
            *m += chance.probability * v;
        }
        if chance.event == happened {
            actual = values;
        }
    }
    std::array::from_fn(|k| actual[k] - mean[k])
}

fn finished<G: Complete>(pos: &G, outcome: &Outcome, me: Side) -> Trial {
    // Games without a value of their own for results count 1000 a point, as backgammon does.
    let mover_value = pos.terminal_value(outcome).unwrap_or(match outcome.winner {
        None => 0,
        Some(w) if w == pos.side_to_move() => 1000 * outcome.points.max(1) as i32,
        Some(_) => -1000 * outcome.points.max(1) as i32,
    }) as i64;
    let value = if pos.side_to_move() == me {
        mover_value
    } else {
        -mover_value
    };
    let points = outcome.points.max(1);
    let end = match outcome.winner {
        None => End::Drawn,
        Some(w) if w == me => End::Won(points),
        Some(_) => End::Lost(points),
    };
    Trial { value, end }
}

/// A trial stopped before the end, valued by the evaluation.
fn cut<G: Complete>(pos: &G, me: Side) -> Trial {
    let value = i64::from(pos.evaluate());
    Trial {
        value: if pos.side_to_move() == me {
            value
        } else {
            -value
        },
        end: End::Cut,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_slice_of_36_picks_a_roll_in_its_exact_proportion() {
        // Backgammon's 21 rolls: doubles 1/36, the others 2/36.
        let mut events = Vec::new();
        for high in 1..=6u32 {
            for low in 1..=high {
                let ways = if high == low { 1.0 } else { 2.0 };
                events.push(Chance {
                    event: high * 10 + low,
                    probability: ways / 36.0,
                });
            }
        }
        for offset in [0.0, 0.5, 0.999] {
            let mut seen = std::collections::HashMap::new();
            for slice in 0..STRATA {
                let u = (slice as f64 + offset) / STRATA as f64;
                *seen.entry(Chance::draw(&events, u)).or_insert(0) += 1;
            }
            for chance in &events {
                let expected = (chance.probability * 36.0).round() as i32;
                assert_eq!(seen[&chance.event], expected, "roll {}", chance.event);
            }
        }
    }

    #[test]
    fn the_standard_error_is_that_of_the_values() {
        let mut stats = RolloutStats::default();
        for value in [1000, -1000, 1000, -1000] {
            stats.add(&Trial {
                value,
                end: End::Cut,
            });
        }
        // Mean 0, sample variance 4/3 x 10^6, so the error is sqrt(10^6 / 3).
        assert_eq!(stats.mean(), 0.0);
        assert!((stats.standard_error() - (1e6f64 / 3.0).sqrt()).abs() < 1e-9);
        assert_eq!(stats.unfinished, 4);
    }
}
