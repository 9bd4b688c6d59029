//! Trains the backgammon network by self-play and writes its weights:
//! `backgammon-train [GAMES] [SEED] [OUT] [HIDDEN] [ALPHA] [LAMBDA] [FROM]` (defaults: 100000,
//! 1, `src/games/backgammon/neural.weights`, 80, 0.1, 0, random weights). `FROM` is a weight
//! file to go on training (its hidden size wins). Every 5000 games it saves the weights and
//! plays a 200-pair duplicate match against pubeval at 1 ply, printing points per game.

use tabula::arena::backgammon_duplicate::{duplicate_match, Player};
use tabula::games::backgammon::nn::{train, train_from, Net, TrainConfig};
use tabula::util::rng::Rng;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_owned());
    let parsed = (
        arg(0, "100000").parse(),
        arg(1, "1").parse(),
        arg(3, "80").parse(),
        arg(4, "0.1").parse(),
        arg(5, "0").parse(),
    );
    let (Ok(games), Ok(seed), Ok(hidden), Ok(alpha), Ok(lambda)) = parsed else {
        eprintln!("usage: backgammon-train [GAMES] [SEED] [OUT] [HIDDEN] [ALPHA] [LAMBDA] [FROM]");
        std::process::exit(2);
    };
    let out = arg(2, "src/games/backgammon/neural.weights");
    let config = TrainConfig {
        games,
        hidden,
        alpha,
        lambda,
        seed,
    };
    let started = std::time::Instant::now();
    let progress = |done: u32, net: &Net| {
        if done.is_multiple_of(5000) {
            let _ = std::fs::write(&out, net.to_text());
            let frozen: &'static _ = Box::leak(Box::new(net.clone()));
            let r = duplicate_match(Player::Net(frozen), Player::Pubeval, 200, 7);
            println!(
                "games {done} time {:.0}s vs pubeval {:+.3} +- {:.3}",
                started.elapsed().as_secs_f64(),
                r.ppg,
                r.margin
            );
        }
    };
    let net = match args.get(6) {
        None => train(config, progress),
        Some(from) => {
            let Some(net) = std::fs::read_to_string(from)
                .ok()
                .and_then(|t| Net::from_text(&t))
            else {
                eprintln!("cannot read a network from {from}");
                std::process::exit(1);
            };
            train_from(net, config, &mut Rng::new(seed), progress)
        }
    };
    if let Err(e) = std::fs::write(&out, net.to_text()) {
        eprintln!("cannot write {out}: {e}");
        std::process::exit(1);
    }
}
