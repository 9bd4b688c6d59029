//! `bench`: fixed-depth searches from fixed positions of every game, for a speed figure
//! (nodes/s) and a node-count signature that changes only when search, evaluation or move
//! generation do (`scripts/bench-compare.sh` compares two builds by it).

use crate::registry::{AnyGame, GAMES};
use crate::search::Limits;
use crate::util::rng::Rng;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The seed of the random openings: fixed, so the node counts are a signature of the build
/// alone (the `Seed` option does not change them).
const OPENING_SEED: u64 = 0;

/// Plies of seeded random play before each bench position (0 = the start).
const OPENINGS: [usize; 3] = [0, 6, 14];

/// What a bench run measured.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// One line per game: `GAME depth D nodes N time MS nps X`.
    pub lines: Vec<String>,
    /// Total nodes searched.
    pub nodes: u64,
    /// Total milliseconds.
    pub time_ms: u64,
}

/// Plays `plies` seeded random moves (rolling dice when needed) from the start.
fn opening(game: &mut dyn AnyGame, plies: usize, rng: &mut Rng) {
    for _ in 0..plies {
        if game.awaits_chance() && game.roll(rng).is_err() {
            return;
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            return;
        }
        let pick = &moves[rng.below(moves.len() as u64) as usize];
        if game.play(pick).is_err() {
            return;
        }
    }
    if game.awaits_chance() {
        let _ = game.roll(rng);
    }
}

/// Searches fixed positions of every game (default options, 16 MiB table) to the game's bench
/// depth ([`crate::game::Harness::BENCH_DEPTH`]); `node_cap` (from `bench N`) also stops each
/// search after about that many nodes.
pub fn run(node_cap: Option<u64>) -> BenchReport {
    let mut report = BenchReport {
        lines: Vec::new(),
        nodes: 0,
        time_ms: 0,
    };
    let stop = AtomicBool::new(false);
    for entry in GAMES {
        let Ok(probe) = (entry.new)(&[], 1) else {
            continue;
        };
        let depth = probe.bench_depth();
        // One-time set-up (backgammon's network and bear-off database) is not the search.
        probe.evaluate();
        let limits = Limits {
            depth: Some(depth),
            nodes: node_cap,
            ..Limits::default()
        };
        let (mut game_nodes, start) = (0u64, Instant::now());
        for plies in OPENINGS {
            let Ok(mut game) = (entry.new)(&[], 16) else {
                continue;
            };
            let mut rng = Rng::new(OPENING_SEED ^ plies as u64);
            opening(game.as_mut(), plies, &mut rng);
            if game.outcome().is_some() {
                continue;
            }
            game_nodes += game.search(&limits, &stop, &mut |_| {}).nodes;
        }
        let ms = start.elapsed().as_millis() as u64;
        report.lines.push(format!(
            "{} depth {depth} nodes {game_nodes} time {ms} nps {}",
            entry.name,
            game_nodes * 1000 / ms.max(1)
        ));
        report.nodes += game_nodes;
        report.time_ms += ms;
    }
    report
}
