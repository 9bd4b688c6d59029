//! `bench`: fixed-depth searches from fixed positions of every game, for a speed figure
//! (nodes/s) and a node-count signature that changes only when search, evaluation or move
//! generation do (`scripts/bench-compare.sh` compares two builds by it).

use crate::registry::{AnyGame, GAMES};
use crate::search::Limits;
use crate::util::rng::Rng;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The depth each game is searched to: about a second of search per game on one core.
/// A game not listed here is searched to [`OTHER_DEPTH`].
const DEPTHS: [(&str, u32); 5] = [
    ("backgammon", 2),
    ("bombardment", 8),
    ("cascades", 5),
    ("gipf", 7),
    ("morris", 8),
];

/// The depth for a game missing from [`DEPTHS`].
const OTHER_DEPTH: u32 = 4;

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
/// depth; `node_cap` (from `bench N`) also stops each search after about that many nodes.
pub fn run(node_cap: Option<u64>, seed: u64) -> BenchReport {
    let mut report = BenchReport {
        lines: Vec::new(),
        nodes: 0,
        time_ms: 0,
    };
    let stop = AtomicBool::new(false);
    for entry in GAMES {
        let depth = DEPTHS
            .iter()
            .find(|(name, _)| *name == entry.name)
            .map_or(OTHER_DEPTH, |&(_, depth)| depth);
        let limits = Limits {
            depth: Some(depth),
            nodes: node_cap,
            ..Limits::default()
        };
        // One-time set-up (backgammon's network and bear-off database) is not the search.
        if let Ok(game) = (entry.new)(&[], 1) {
            game.evaluate();
        }
        let (mut game_nodes, start) = (0u64, Instant::now());
        for plies in OPENINGS {
            let Ok(mut game) = (entry.new)(&[], 16) else {
                continue;
            };
            let mut rng = Rng::new(seed ^ plies as u64);
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
