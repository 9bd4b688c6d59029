//! Trains the backgammon network by self-play and writes its weights:
//! `backgammon-train [--games N] [--seed N] [--out FILE] [--hidden N] [--alpha X] [--lambda X]
//! [--from FILE]` (defaults: 100000 games, seed 1, `src/games/backgammon/neural.weights`, 80
//! hidden units, 0.1, 0, random weights). `--from` is a weight file to go on training (its
//! hidden size wins). Every 5000 games it saves the weights and plays a 200-pair duplicate
//! match against pubeval at 1 ply, printing points per game.

use clap::Parser;
use std::path::PathBuf;
use tabula::arena::backgammon_duplicate::{duplicate_match, Player};
use tabula::games::backgammon::nn::{train, train_from, Net, TrainConfig};
use tabula::util::rng::Rng;

/// Trains the backgammon network by self-play (TD) and writes its weights (docs/backgammon.md).
#[derive(Parser, Debug)]
#[command(name = "backgammon-train")]
struct Args {
    /// Self-play games
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    games: u32,
    /// Seed of the initial weights and the dice
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Where the weights are written (every 5000 games and at the end)
    #[arg(
        long,
        value_name = "FILE",
        default_value = "src/games/backgammon/neural.weights"
    )]
    out: PathBuf,
    /// Hidden units (a --from file keeps its own)
    #[arg(long, value_name = "N", default_value_t = 80)]
    hidden: usize,
    /// Learning rate
    #[arg(long, value_name = "X", default_value_t = 0.1)]
    alpha: f32,
    /// Trace decay: 0 for TD(0)
    #[arg(long, value_name = "X", default_value_t = 0.0)]
    lambda: f32,
    /// A weight file to go on training instead of random weights
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
}

impl Args {
    fn config(&self) -> TrainConfig {
        TrainConfig {
            games: self.games,
            hidden: self.hidden,
            alpha: self.alpha,
            lambda: self.lambda,
            seed: self.seed,
        }
    }
}

fn main() {
    let args = Args::parse();
    let (config, out) = (args.config(), &args.out);
    let started = std::time::Instant::now();
    let progress = |done: u32, net: &Net| {
        if done.is_multiple_of(5000) {
            let _ = std::fs::write(out, net.to_text());
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
    let net = match &args.from {
        None => train(config, progress),
        Some(from) => {
            let Some(net) = std::fs::read_to_string(from)
                .ok()
                .and_then(|t| Net::from_text(&t))
            else {
                eprintln!("cannot read a network from {}", from.display());
                std::process::exit(1);
            };
            train_from(net, config, &mut Rng::new(args.seed), progress)
        }
    };
    if let Err(e) = std::fs::write(out, net.to_text()) {
        eprintln!("cannot write {}: {e}", out.display());
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("backgammon-train").chain(line.split_whitespace()))
    }

    /// The two runs of docs/backgammon.md that made the shipped network, whose old positional
    /// spelling was `400000 1 /tmp/a.weights 128 0.1 0` and
    /// `150000 5 src/games/backgammon/neural.weights 128 0.03 0 /tmp/a.weights`.
    #[test]
    fn the_documented_runs_keep_their_values() {
        let first = parse(
            "--games 400000 --seed 1 --out /tmp/a.weights --hidden 128 --alpha 0.1 --lambda 0",
        )
        .expect("parses");
        let c = first.config();
        assert_eq!((c.games, c.seed, c.hidden), (400_000, 1, 128));
        assert_eq!((c.alpha, c.lambda), (0.1, 0.0));
        assert_eq!((first.out, first.from), ("/tmp/a.weights".into(), None));
        let second = parse(
            "--games 150000 --seed 5 --out src/games/backgammon/neural.weights --hidden 128 \
             --alpha 0.03 --lambda 0 --from /tmp/a.weights",
        )
        .expect("parses");
        let c = second.config();
        assert_eq!((c.games, c.seed, c.hidden), (150_000, 5, 128));
        assert_eq!((c.alpha, c.lambda), (0.03, 0.0));
        assert_eq!(
            second.out,
            PathBuf::from("src/games/backgammon/neural.weights")
        );
        assert_eq!(second.from, Some(PathBuf::from("/tmp/a.weights")));
    }

    #[test]
    fn the_defaults() {
        let args = parse("").expect("parses");
        let c = args.config();
        assert_eq!(
            (c.games, c.seed, c.hidden, c.alpha, c.lambda),
            (100_000, 1, 80, 0.1, 0.0)
        );
        assert_eq!(
            args.out,
            PathBuf::from("src/games/backgammon/neural.weights")
        );
        assert_eq!(args.from, None);
    }

    #[test]
    fn mistakes_are_usage_errors() {
        // The old positional spelling is refused rather than read as something else.
        for line in [
            "400000 1 /tmp/a.weights",
            "--games many",
            "--alpha",
            "--hidden -1",
        ] {
            let error = parse(line).expect_err(line);
            assert_eq!(error.exit_code(), 2, "{line}: {error}");
        }
    }
}
