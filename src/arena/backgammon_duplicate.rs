//! Duplicate-dice matches between simple players (for measuring evaluations against pubeval).
//!
//! Each dice sequence is played twice with the colours swapped, so luck cancels out; the
//! result is points per game for the first player with a 95% interval over the pairs.

use crate::game::best_play::{best_play, GameValue};
use crate::game::{Game, Side};
use crate::games::backgammon::nn::Net;
use crate::games::backgammon::{pubeval, Backgammon, EvalKind, Move, Options};
use crate::search::{Budget, Limits, Searcher, Table};
use crate::strategy::backgammon::Lookahead;
use crate::util::rng::Rng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// A player that picks a play once the roll is known.
#[derive(Copy, Clone, Debug)]
pub enum Player {
    /// Tesauro's pubeval, as he specified it (race weights chosen before the play).
    Pubeval,
    /// One ply: the play whose resulting position evaluates best with this evaluation.
    OnePly(EvalKind),
    /// One ply with a given network (checkpoints while training).
    Net(&'static Net),
    /// The engine's search (`go depth N`) to a fixed depth.
    Search(EvalKind, u32),
    /// The engine at its default level: `go movetime 100` (the arena's default) with the
    /// default `MoveOverhead` of 10 ms, exactly as the protocol runs it.
    Engine,
}

/// The limits of the engine's default level (see [`Player::Engine`]).
pub fn default_limits() -> Limits {
    Limits {
        movetime: Some(100),
        overhead: 10,
        ..Limits::default()
    }
}

impl Player {
    /// The chosen play of `pos` (dice set, game not over).
    pub fn choose(self, pos: &Backgammon) -> Option<Move> {
        match self {
            Player::Pubeval => pubeval::choose(pos),
            Player::OnePly(kind) => one_ply(pos, kind),
            Player::Net(net) => net.choose(pos, &mut Vec::new()),
            Player::Search(kind, depth) => {
                let limits = Limits {
                    depth: Some(depth),
                    ..Limits::default()
                };
                engine_search(pos, kind, &limits)
            }
            Player::Engine => engine_search(pos, EvalKind::Neural, &default_limits()),
        }
    }
}

/// Searches made by [`Player::Engine`] and [`Player::Search`] in this process.
pub static SEARCHES: AtomicU64 = AtomicU64::new(0);
/// Those of them that ran into their time limit (the 2-ply pass then falls back to 1 ply).
pub static TIMED_OUT: AtomicU64 = AtomicU64::new(0);

/// The engine's search of `pos` with evaluation `kind` within `limits`.
fn engine_search(pos: &Backgammon, kind: EvalKind, limits: &Limits) -> Option<Move> {
    let mut root = pos.clone();
    root.set_eval_kind(kind);
    let table = Table::new(1);
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let searcher = Lookahead;
    let best = searcher
        .search(&root, limits, &table, &stop, &mut |_| {})
        .best;
    SEARCHES.fetch_add(1, Ordering::Relaxed);
    let hard = Budget::new(limits, start).hard();
    if hard.is_some_and(|hard| Instant::now() >= hard) {
        TIMED_OUT.fetch_add(1, Ordering::Relaxed);
    }
    best
}

/// The play whose result evaluation `kind` values most (results score exactly).
fn one_ply(pos: &Backgammon, kind: EvalKind) -> Option<Move> {
    let mut root = pos.clone();
    root.set_eval_kind(kind);
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    best_play(&root, &moves, &mut GameValue).map(|(index, _)| moves[index])
}

/// Plays one game, `white` against `black`, with dice from `rng`; returns white's points.
pub fn play_game(white: Player, black: Player, rng: &mut Rng) -> i32 {
    let mut pos = Backgammon::start(&Options::default());
    loop {
        if let Some(o) = pos.outcome() {
            let points = o.points as i32;
            return if o.winner == Some(Side::White) {
                points
            } else {
                -points
            };
        }
        let roll = pos.random_roll(rng);
        pos.set_dice(roll);
        let player = if pos.side_to_move() == Side::White {
            white
        } else {
            black
        };
        let Some(mv) = player.choose(&pos) else {
            return 0;
        };
        pos.play(mv);
    }
}

/// The outcome of a duplicate match.
#[derive(Copy, Clone, Debug)]
pub struct MatchResult {
    /// Games played (twice the pairs).
    pub games: u32,
    /// Mean points per game for the first player.
    pub ppg: f64,
    /// Half-width of the 95% interval of `ppg`.
    pub margin: f64,
}

/// The mean of the two games of pair `pair`: `a` as white then as black, same dice.
fn play_pair(a: Player, b: Player, pair: u32, seed: u64) -> f64 {
    let seed = seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let first = play_game(a, b, &mut Rng::new(seed));
    let second = -play_game(b, a, &mut Rng::new(seed));
    (first + second) as f64 / 2.0
}

/// `pairs` dice sequences, each played with `a` as white then as black.
pub fn duplicate_match(a: Player, b: Player, pairs: u32, seed: u64) -> MatchResult {
    summarize(&pair_results(a, b, 0..pairs, seed, 1))
}

/// The mean points of `a` in each pair of `pairs` (in order), spread over `threads`
/// threads; the dice of a pair depend only on `seed` and its number.
pub fn pair_results(
    a: Player,
    b: Player,
    pairs: std::ops::Range<u32>,
    seed: u64,
    threads: u32,
) -> Vec<f64> {
    let threads = threads.max(1) as usize;
    let numbers: Vec<u32> = pairs.collect();
    let mut results = vec![0.0; numbers.len()];
    std::thread::scope(|scope| {
        for (chunk, out) in numbers
            .chunks(numbers.len().div_ceil(threads).max(1))
            .zip(results.chunks_mut(numbers.len().div_ceil(threads).max(1)))
        {
            scope.spawn(move || {
                for (&pair, r) in chunk.iter().zip(out) {
                    *r = play_pair(a, b, pair, seed);
                }
            });
        }
    });
    results
}

/// Points per game and its 95% interval from the pairs' mean points; the interval is NaN
/// (printed `NaN`) with fewer than two pairs, which have no spread to measure.
pub fn summarize(sums: &[f64]) -> MatchResult {
    let n = sums.len().max(1) as f64;
    let mean = sums.iter().sum::<f64>() / n;
    let margin = if sums.len() < 2 {
        f64::NAN
    } else {
        let var = sums.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
        1.96 * (var / n).sqrt()
    };
    MatchResult {
        games: sums.len() as u32 * 2,
        ppg: mean,
        margin,
    }
}

#[cfg(test)]
mod tests {
    use super::summarize;

    #[test]
    fn the_interval_is_that_of_the_pairs_and_unknown_for_one() {
        // Pairs worth +1 and -1: mean 0, sample variance 2, so the margin is 1.96 x sqrt(2/2).
        let two = summarize(&[1.0, -1.0]);
        assert_eq!((two.games, two.ppg), (4, 0.0));
        assert!((two.margin - 1.96).abs() < 1e-12);
        let one = summarize(&[0.5]);
        assert_eq!(one.ppg, 0.5);
        assert!(
            one.margin.is_nan(),
            "one pair has no spread: {}",
            one.margin
        );
    }
}
