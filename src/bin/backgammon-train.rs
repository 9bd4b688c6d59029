//! Trains the backgammon network by self-play TD(lambda) and writes its weights:
//! `backgammon-train [GAMES] [SEED] [OUT]` (defaults: 100000, 1,
//! `src/games/backgammon/neural.weights`). Every 5000 games it saves the weights and plays a
//! 200-pair duplicate match against pubeval, printing points per game.

use tabula::games::backgammon::matchplay::{duplicate_match, Player};
use tabula::games::backgammon::nn::{train, TrainConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or(default.to_owned());
    let (Ok(games), Ok(seed)) = (arg(0, "100000").parse(), arg(1, "1").parse()) else {
        eprintln!("usage: backgammon-train [GAMES] [SEED] [OUT]");
        std::process::exit(2);
    };
    let out = arg(2, "src/games/backgammon/neural.weights");
    let config = TrainConfig {
        games,
        hidden: 40,
        alpha: 0.1,
        lambda: 0.7,
        seed,
    };
    let started = std::time::Instant::now();
    let net = train(config, |done, net| {
        if done % 5000 == 0 {
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
    });
    if let Err(e) = std::fs::write(&out, net.to_text()) {
        eprintln!("cannot write {out}: {e}");
        std::process::exit(1);
    }
}
