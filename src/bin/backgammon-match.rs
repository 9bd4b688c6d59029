//! Duplicate-dice backgammon match between built-in players:
//! `backgammon-match [PAIRS] [SEED] [A] [B]`, players `heuristic` or `neural` (1 ply),
//! `heuristic2` or `neural2` (the engine's expectimax search, depth 2), `pubeval1` (1 ply with
//! pubeval as evaluation) or `pubeval` (Tesauro's player). Prints A's points per game.

use tabula::games::backgammon::matchplay::{duplicate_match, Player};
use tabula::games::backgammon::EvalKind;

fn player(name: &str) -> Option<Player> {
    match name {
        "heuristic" => Some(Player::OnePly(EvalKind::Heuristic)),
        "pubeval1" => Some(Player::OnePly(EvalKind::Pubeval)),
        "pubeval" => Some(Player::Pubeval),
        "neural" => Some(Player::OnePly(EvalKind::Neural)),
        "neural2" => Some(Player::Search(EvalKind::Neural, 2)),
        "heuristic2" => Some(Player::Search(EvalKind::Heuristic, 2)),
        _ => None,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_owned());
    let (Ok(pairs), Ok(seed), Some(a), Some(b)) = (
        arg(0, "1000").parse::<u32>(),
        arg(1, "1").parse::<u64>(),
        player(&arg(2, "heuristic")),
        player(&arg(3, "pubeval")),
    ) else {
        eprintln!("usage: backgammon-match [PAIRS] [SEED] [A] [B] (heuristic, heuristic2, neural, neural2, pubeval1, pubeval)");
        std::process::exit(2);
    };
    let r = duplicate_match(a, b, pairs, seed);
    println!(
        "games {} ppg {:+.3} +- {:.3} (95%)",
        r.games, r.ppg, r.margin
    );
}
