//! Trains the backgammon network by self-play and writes its weights:
//! `backgammon-train [--games N] [--seed N] [--out FILE] [--hidden N] [--alpha X] [--lambda X]
//! [--from FILE]` (defaults: 100000 games, seed 1, `src/games/backgammon/neural.weights`, 80
//! hidden units, 0.1, 0, random weights). `--from` is a weight file to go on training (its
//! hidden size wins). Every 5000 games it saves the weights and plays a 200-pair duplicate
//! match against pubeval at 1 ply, printing points per game.
//!
//! Distributed training (`scripts/cluster/`) splits this in two: `--play-to FILE` only plays
//! `--games` games with the `--from` network and writes them (a worker), `--learn-from
//! FILE...` learns from such games instead of playing (the learner) and writes `--out`.

mod td;

use clap::{CommandFactory, Parser};
use std::path::{Path, PathBuf};
use tabula::arena::backgammon_duplicate::{duplicate_match, Player};
use tabula::games::backgammon::nn::{Net, MAX_HIDDEN};
use tabula::games::backgammon::Roll;
use tabula::util::cli::{check_writable, exit_on_closed_output, positive, unit_interval};
use tabula::util::rng::Rng;
use td::{learn_from, self_play, train, train_from, TrainConfig, Turn};

/// Trains the backgammon network by self-play (TD) and writes its weights (docs/backgammon.md).
#[derive(Parser, Debug)]
#[command(name = "backgammon-train")]
struct Args {
    /// Self-play games (0: only write the initial weights, as the cluster's self-play starts;
    /// with --play-to at least 1)
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
    #[arg(long, value_name = "N", default_value_t = 80, value_parser = clap::value_parser!(u16).range(1..=MAX_HIDDEN as i64))]
    hidden: u16,
    /// Learning rate
    #[arg(long, value_name = "X", default_value_t = 0.1, value_parser = positive)]
    alpha: f64,
    /// Trace decay: 0 for TD(0)
    #[arg(long, value_name = "X", default_value_t = 0.0, value_parser = unit_interval)]
    lambda: f64,
    /// A weight file to go on training instead of random weights
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Only play the games with the --from network and write them here (no training)
    #[arg(
        long,
        value_name = "FILE",
        requires = "from",
        conflicts_with = "learn_from"
    )]
    play_to: Option<PathBuf>,
    /// Learn from these recorded games instead of playing (written by --play-to)
    #[arg(long, value_name = "FILE", num_args = 1..)]
    learn_from: Vec<PathBuf>,
}

impl Args {
    fn config(&self) -> TrainConfig {
        TrainConfig {
            games: self.games,
            hidden: self.hidden.into(),
            alpha: self.alpha as f32,
            lambda: self.lambda as f32,
            seed: self.seed,
        }
    }
}

/// A recorded game as one line: `HL:I` per turn, the roll (high die first) and the index of
/// the play in legal-move order.
fn game_text(turns: &[Turn]) -> String {
    let words: Vec<String> = turns
        .iter()
        .map(|(roll, play)| format!("{}{}:{play}", roll.hi, roll.lo))
        .collect();
    words.join(" ") + "\n"
}

/// Reads a line of [`game_text`].
fn parse_game(line: &str) -> Option<Vec<Turn>> {
    line.split_whitespace()
        .map(|word| {
            let (roll, play) = word.split_once(':')?;
            let event: u32 = roll.parse().ok()?;
            Some((
                Roll::new((event / 10) as u8, (event % 10) as u8)?,
                play.parse().ok()?,
            ))
        })
        .collect()
}

/// Exits with a message (status 1): a file that cannot be read or written.
fn fail(message: String) -> ! {
    eprintln!("backgammon-train: {message}");
    std::process::exit(1);
}

fn read_net(path: &Path) -> Net {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| Net::from_text(&t))
        .unwrap_or_else(|| fail(format!("cannot read a network from {}", path.display())))
}

/// `--play-to`: the games of a worker, with dice from `--seed`.
fn play_to(args: &Args, path: &Path, from: &Path) {
    let net = read_net(from);
    let mut rng = Rng::new(args.seed);
    let text: String = (0..args.games)
        .map(|_| game_text(&self_play(&net, &mut rng)))
        .collect();
    if let Err(e) = std::fs::write(path, text) {
        fail(format!("cannot write {}: {e}", path.display()));
    }
}

/// `--learn-from`: the learner's step over the games of these files, in order.
fn learn(args: &Args) -> Net {
    let mut games = Vec::new();
    for path in &args.learn_from {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", path.display())));
        for (number, line) in text.lines().enumerate() {
            let game = parse_game(line).unwrap_or_else(|| {
                fail(format!(
                    "{}:{}: not a recorded game",
                    path.display(),
                    number + 1
                ))
            });
            games.push(game);
        }
    }
    let net = match &args.from {
        Some(from) => read_net(from),
        None => Net::new(args.hidden.into(), &mut Rng::new(args.seed)),
    };
    learn_from(net, &args.config(), &games).unwrap_or_else(|e| fail(e))
}

fn main() {
    exit_on_closed_output();
    let args = Args::parse();
    if args.play_to.is_some() && args.games == 0 {
        Args::command()
            .error(
                clap::error::ErrorKind::ValueValidation,
                "--play-to with --games 0 would record no game",
            )
            .exit();
    }
    // A long run must not find out at its end that it cannot save what it made.
    let written = args.play_to.as_ref().unwrap_or(&args.out);
    if let Err(message) = check_writable(written) {
        fail(message);
    }
    if let (Some(path), Some(from)) = (&args.play_to, &args.from) {
        return play_to(&args, path, from);
    }
    if !args.learn_from.is_empty() {
        let net = learn(&args);
        if let Err(e) = std::fs::write(&args.out, net.to_text()) {
            fail(format!("cannot write {}: {e}", args.out.display()));
        }
        return;
    }
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
        Some(from) => train_from(read_net(from), config, &mut Rng::new(args.seed), progress),
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
        assert_eq!((args.play_to, args.learn_from.len()), (None, 0));
    }

    #[test]
    fn the_distributed_spellings() {
        let worker = parse("--play-to g.txt --from w --games 50 --seed 9").expect("parses");
        assert_eq!(worker.play_to, Some(PathBuf::from("g.txt")));
        let learner = parse("--learn-from a b --from w --out w2").expect("parses");
        assert_eq!(
            learner.learn_from,
            vec![PathBuf::from("a"), PathBuf::from("b")]
        );
        assert!(parse("--play-to g.txt").is_err(), "a worker needs --from");
        assert!(parse("--play-to g --from w --learn-from a").is_err());
    }

    #[test]
    fn recorded_games_read_back() {
        let turns = vec![
            (Roll::new(1, 3).expect("a roll"), 4),
            (Roll::new(6, 6).expect("a roll"), 0),
        ];
        let line = game_text(&turns);
        assert_eq!(line, "31:4 66:0\n");
        assert_eq!(parse_game(&line), Some(turns));
        for bad in ["31", "71:0", "31:x", "3a:1"] {
            assert_eq!(parse_game(bad), None, "{bad}");
        }
    }

    #[test]
    fn mistakes_are_usage_errors() {
        // The old positional spelling is refused rather than read as something else.
        for line in [
            "400000 1 /tmp/a.weights",
            "--games many",
            "--alpha",
            "--hidden -1",
            "--hidden 0",
            "--hidden 257",
            "--alpha 0",
            "--alpha nan",
            "--lambda 1.5",
        ] {
            let error = parse(line).expect_err(line);
            assert_eq!(error.exit_code(), 2, "{line}: {error}");
        }
    }
}
