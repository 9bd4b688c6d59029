//! Speed of the backgammon network, for docs/backgammon.md ("Evaluator speed"). Ignored by
//! default (it times, it does not check): run with
//! `cargo test --release --test strength backgammon_speed:: -- --ignored --nocapture`.

use std::time::Instant;
use tabula::game::{Dice, Game, Side};
use tabula::games::backgammon::board::highest_point;
use tabula::games::backgammon::{nn, Backgammon, Options};
use tabula::util::rng::Rng;

/// Positions with the dice not yet rolled from seeded random games, skipping finished games
/// and races with every checker home (those are looked up in the bear-off database, not
/// evaluated by the network).
fn positions(count: usize) -> Vec<Backgammon> {
    let mut rng = Rng::new(15);
    let mut out = Vec::with_capacity(count);
    let mut moves = Vec::new();
    while out.len() < count {
        let mut pos = Backgammon::start(&Options::default());
        while pos.outcome().is_none() && out.len() < count {
            let mut events = Vec::new();
            pos.chance_events(&mut events);
            let event = events[rng.below(events.len() as u64) as usize].event;
            pos.apply_chance(event);
            moves.clear();
            pos.legal_moves(&mut moves);
            pos.play(moves[rng.below(moves.len() as u64) as usize]);
            let outside = |side: Side| highest_point(pos.checkers(side)) > 6;
            if pos.outcome().is_none() && (outside(Side::White) || outside(Side::Black)) {
                out.push(pos.clone());
            }
        }
    }
    out
}

/// Network evaluations (inputs and forward pass) per second over 20,000 positions.
#[test]
#[ignore]
fn network_evaluations_per_second() {
    let positions = positions(20_000);
    nn::shipped();
    let mut best = f64::INFINITY;
    let mut sum = 0i64;
    for _ in 0..5 {
        let start = Instant::now();
        for pos in &positions {
            sum += i64::from(nn::evaluate(pos));
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "backgammon network: {} positions, best of 5: {:.3} s, {:.0} evaluations/s (checksum {sum})",
        positions.len(),
        best,
        positions.len() as f64 / best
    );
}

/// Plays generated per second by `legal_moves` (what the search uses; perft counts its last
/// ply instead) over the 21 rolls of 5,000 positions.
#[test]
#[ignore]
fn generated_plays_per_second() {
    let positions = positions(5_000);
    let mut moves = Vec::new();
    let mut best = f64::INFINITY;
    let mut plays = 0;
    for _ in 0..3 {
        plays = 0;
        let start = Instant::now();
        for pos in &positions {
            for event in (1..=6).flat_map(|hi| (1..=hi).map(move |lo| hi * 10 + lo)) {
                let mut rolled = pos.clone();
                rolled.apply_chance(event);
                moves.clear();
                rolled.legal_moves(&mut moves);
                plays += moves.len();
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "backgammon legal_moves: {plays} plays in {best:.3} s (best of 3), {:.0} plays/s",
        plays as f64 / best
    );
}
