//! Duplicate-dice backgammon match between built-in players:
//! `backgammon-match [PAIRS] [SEED] [A] [B] [THREADS] [WEIGHTS]`, players `engine` (the engine's default level,
//! `go movetime 100`), `heuristic` or `neural` (1 ply), `heuristic2` or `neural2` (the
//! engine's search, `go depth 2`), `neural3` (`go depth 3`), `pubeval1` (1 ply with pubeval as evaluation) or `pubeval`
//! (Tesauro's player); THREADS (default 1) games at once. Prints A's points per game and, for
//! search players, how many searches ran into their time limit. `WEIGHTS` (optional): a weight
//! file for `eval=neural` instead of the shipped one.

use std::sync::atomic::Ordering;
use tabula::arena::backgammon_duplicate::{pair_results, summarize, Player, SEARCHES, TIMED_OUT};
use tabula::games::backgammon::nn::{self, Net};
use tabula::games::backgammon::EvalKind;

fn player(name: &str) -> Option<Player> {
    match name {
        "heuristic" => Some(Player::OnePly(EvalKind::Heuristic)),
        "pubeval1" => Some(Player::OnePly(EvalKind::Pubeval)),
        "pubeval" => Some(Player::Pubeval),
        "neural" => Some(Player::OnePly(EvalKind::Neural)),
        "neural2" => Some(Player::Search(EvalKind::Neural, 2)),
        "neural3" => Some(Player::Search(EvalKind::Neural, 3)),
        "heuristic2" => Some(Player::Search(EvalKind::Heuristic, 2)),
        "engine" => Some(Player::Engine),
        _ => None,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_owned());
    let (Ok(pairs), Ok(seed), Some(a), Some(b), Ok(threads)) = (
        arg(0, "1000").parse::<u32>(),
        arg(1, "1").parse::<u64>(),
        player(&arg(2, "heuristic")),
        player(&arg(3, "pubeval")),
        arg(4, "1").parse::<u32>(),
    ) else {
        eprintln!("usage: backgammon-match [PAIRS] [SEED] [A] [B] [THREADS] [WEIGHTS] (players: engine, heuristic, heuristic2, neural, neural2, neural3, pubeval1, pubeval)");
        std::process::exit(2);
    };
    if let Some(file) = args.get(5) {
        let Some(net) = std::fs::read_to_string(file)
            .ok()
            .and_then(|t| Net::from_text(&t))
        else {
            eprintln!("cannot read a network from {file}");
            std::process::exit(1);
        };
        nn::install(net);
    }
    let started = std::time::Instant::now();
    let mut sums = Vec::new();
    // Chunks of 100 pairs, with a running total, so a long match shows where it stands.
    while (sums.len() as u32) < pairs {
        let from = sums.len() as u32;
        let to = (from + 100).min(pairs);
        sums.extend(pair_results(a, b, from..to, seed, threads));
        let r = summarize(&sums);
        println!(
            "games {} ppg {:+.3} +- {:.3} (95%) searches {} timed out {} time {:.0}s",
            r.games,
            r.ppg,
            r.margin,
            SEARCHES.load(Ordering::Relaxed),
            TIMED_OUT.load(Ordering::Relaxed),
            started.elapsed().as_secs_f64()
        );
    }
}
