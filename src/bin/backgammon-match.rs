//! Duplicate-dice backgammon match between built-in players:
//! `backgammon-match [PAIRS] [SEED] [A] [B] [THREADS] [WEIGHTS] [OTHER]`, players `engine` (the engine's default level,
//! `go movetime 100`), `heuristic` or `neural` (1 ply), `heuristic2` or `neural2` (the
//! engine's search, `go depth 2`), `neural3` (`go depth 3`), `pubeval1` (1 ply with pubeval as evaluation) or `pubeval`
//! (Tesauro's player); THREADS (default 1) games at once. PAIRS is 1 to 10^9 and THREADS at
//! least 1 (0 of either would play nothing: a usage error). Prints A's points per game and, for
//! search players, how many searches ran into their time limit. `WEIGHTS` (optional): a weight
//! file for `eval=neural` instead of the shipped one; `OTHER` (optional): the weight file of
//! player `other` (1 ply), to play two networks head to head. With `--mat FILE [--length N]`
//! it plays one N-point match (default 5) between A (White) and B instead, and writes it to
//! FILE as a match file (`.mat`, the Jellyfish format GNU Backgammon imports).

use clap::{Parser, ValueEnum};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use tabula::arena::backgammon_duplicate::{pair_results, summarize, Player, SEARCHES, TIMED_OUT};
use tabula::game::{Game, Side};
use tabula::games::backgammon::matfile::{self, Action, GameRecord, MatchRecord, Scoreboard};
use tabula::games::backgammon::nn::{self, Net};
use tabula::games::backgammon::EvalKind;
use tabula::util::cli::exit_on_closed_output;
use tabula::util::rng::Rng;

/// The most pairs a match may have: the game count, twice this, stays within a `u32`.
const MAX_PAIRS: u32 = 1_000_000_000;

/// Plays a duplicate-dice backgammon match between two built-in players (docs/backgammon.md)
/// and prints A's points per game every 100 pairs.
#[derive(Parser, Debug)]
#[command(name = "backgammon-match")]
struct Args {
    /// Pairs of games (each dice sequence played twice, colours swapped), 1 to 1000000000
    #[arg(value_name = "PAIRS", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(1..=MAX_PAIRS as i64))]
    pairs: u32,
    /// Seed of the dice
    #[arg(value_name = "SEED", default_value_t = 1)]
    seed: u64,
    /// The first player, whose points are counted
    #[arg(value_name = "A", value_enum, default_value_t = Name::Heuristic)]
    a: Name,
    /// Its opponent
    #[arg(value_name = "B", value_enum, default_value_t = Name::Pubeval)]
    b: Name,
    /// Games played at once (at least 1)
    #[arg(value_name = "THREADS", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    threads: u32,
    /// A weight file for eval=neural instead of the shipped network
    #[arg(value_name = "WEIGHTS")]
    weights: Option<PathBuf>,
    /// The weight file of player `other`
    #[arg(value_name = "OTHER")]
    other: Option<PathBuf>,
    /// Play one match of --length points, A against B, and write it to FILE (.mat)
    #[arg(long, value_name = "FILE")]
    mat: Option<PathBuf>,
    /// The match length for --mat, 1 to 64
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(1..=64))]
    length: u16,
}

/// The players by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Name {
    /// The engine's default level (`go movetime 100`)
    #[value(name = "engine")]
    Engine,
    /// 1 ply with the heuristic evaluation
    #[value(name = "heuristic")]
    Heuristic,
    /// The engine's search with the heuristic evaluation, `go depth 2`
    #[value(name = "heuristic2")]
    Heuristic2,
    /// 1 ply with the network
    #[value(name = "neural")]
    Neural,
    /// The engine's search, `go depth 2`
    #[value(name = "neural2")]
    Neural2,
    /// The engine's search, `go depth 3`
    #[value(name = "neural3")]
    Neural3,
    /// 1 ply with pubeval as the evaluation
    #[value(name = "pubeval1")]
    Pubeval1,
    /// Tesauro's pubeval player
    #[value(name = "pubeval")]
    Pubeval,
    /// 1 ply with the network of the OTHER weight file
    #[value(name = "other")]
    Other,
}

impl Name {
    /// The player of this name; `other` is the network `other` (none: an error).
    fn player(self, other: Option<&'static Net>) -> Result<Player, String> {
        Ok(match self {
            Name::Other => Player::Net(other.ok_or("player `other` needs an OTHER weight file")?),
            Name::Engine => Player::Engine,
            Name::Heuristic => Player::OnePly(EvalKind::Heuristic),
            Name::Heuristic2 => Player::Search(EvalKind::Heuristic, 2),
            Name::Neural => Player::OnePly(EvalKind::Neural),
            Name::Neural2 => Player::Search(EvalKind::Neural, 2),
            Name::Neural3 => Player::Search(EvalKind::Neural, 3),
            Name::Pubeval1 => Player::OnePly(EvalKind::Pubeval),
            Name::Pubeval => Player::Pubeval,
        })
    }
}

/// Reads a weight file or exits with a message.
fn read_net(file: &Path) -> Net {
    std::fs::read_to_string(file)
        .ok()
        .and_then(|t| Net::from_text(&t))
        .unwrap_or_else(|| {
            eprintln!("cannot read a network from {}", file.display());
            std::process::exit(1);
        })
}

fn main() {
    exit_on_closed_output();
    let args = Args::parse();
    let (pairs, seed, threads) = (args.pairs, args.seed, args.threads);
    let other: Option<&'static Net> = args
        .other
        .as_deref()
        .map(|file| &*Box::leak(Box::new(read_net(file))));
    let (a, b) = match (args.a.player(other), args.b.player(other)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Some(file) = &args.weights {
        nn::install(read_net(file));
    }
    if let Some(file) = &args.mat {
        let names = [format!("{:?}", args.a), format!("{:?}", args.b)];
        let written = play_match([a, b], names, args.length, seed).and_then(|record| {
            std::fs::write(file, matfile::write(&record))
                .map(|()| record)
                .map_err(|e| format!("{}: {e}", file.display()))
        });
        match written {
            Ok(record) => println!("{}, written to {}", record.summary(), file.display()),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
        return;
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

/// Plays one `length`-point match (cube not used), `players[0]` White, with dice from `seed`.
fn play_match(
    players: [Player; 2],
    names: [String; 2],
    length: u16,
    seed: u64,
) -> Result<MatchRecord, String> {
    let mut rng = Rng::new(seed);
    let mut board = Scoreboard::default();
    let mut games = Vec::new();
    while !board.over(length) {
        let crawford = board.next_is_crawford(length);
        let opener = if rng.below(2) == 0 {
            Side::White
        } else {
            Side::Black
        };
        let mut pos = matfile::game_start(length, board.score, crawford, opener)?;
        let mut actions = Vec::new();
        let outcome = loop {
            if let Some(outcome) = pos.outcome() {
                break outcome;
            }
            let roll = pos.random_roll(&mut rng);
            pos.set_dice(roll);
            let side = pos.side_to_move();
            let mv = players[side.index()]
                .choose(&pos)
                .ok_or("a player found no move")?;
            actions.push(Action {
                side,
                token: pos.format_move(mv),
            });
            pos.play(mv);
        };
        let winner = outcome.winner.ok_or("a game without a winner")?;
        board.add(winner, outcome.points);
        games.push(GameRecord {
            actions,
            winner,
            points: outcome.points,
        });
    }
    Ok(MatchRecord {
        length,
        names,
        games,
        unfinished: Vec::new(),
        comments: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::util::rng::Rng;

    fn parse(line: &str) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("backgammon-match").chain(line.split_whitespace()))
    }

    #[test]
    fn the_documented_spellings() {
        let args = parse("1000 1 engine pubeval 2").expect("parses");
        assert_eq!((args.pairs, args.seed, args.threads), (1000, 1, 2));
        assert_eq!(
            (args.a, args.b, args.weights),
            (Name::Engine, Name::Pubeval, None)
        );
        let args = parse("5000 5 neural3 pubeval1 1 w.txt").expect("parses");
        assert_eq!((args.pairs, args.seed), (5000, 5));
        assert_eq!((args.a, args.b), (Name::Neural3, Name::Pubeval1));
        assert_eq!(args.weights, Some(PathBuf::from("w.txt")));
        let args = parse("").expect("parses");
        assert_eq!((args.pairs, args.seed, args.threads), (1000, 1, 1));
        assert_eq!((args.a, args.b), (Name::Heuristic, Name::Pubeval));
    }

    #[test]
    fn every_name_is_its_player() {
        let names = [
            ("engine", Player::Engine),
            ("heuristic", Player::OnePly(EvalKind::Heuristic)),
            ("heuristic2", Player::Search(EvalKind::Heuristic, 2)),
            ("neural", Player::OnePly(EvalKind::Neural)),
            ("neural2", Player::Search(EvalKind::Neural, 2)),
            ("neural3", Player::Search(EvalKind::Neural, 3)),
            ("pubeval1", Player::OnePly(EvalKind::Pubeval)),
            ("pubeval", Player::Pubeval),
        ];
        for (name, player) in names {
            let args = parse(&format!("1 1 {name}")).expect(name);
            let chosen = args.a.player(None).expect(name);
            assert_eq!(format!("{chosen:?}"), format!("{player:?}"));
        }
        assert!(
            Name::Other.player(None).is_err(),
            "`other` needs its weights"
        );
        let args = parse("10 3 neural other 1 new.weights old.weights").expect("parses");
        assert_eq!((args.a, args.b), (Name::Neural, Name::Other));
        assert_eq!(args.other, Some(PathBuf::from("old.weights")));
        let net: &'static Net = Box::leak(Box::new(Net::new(2, &mut Rng::new(1))));
        let Ok(Player::Net(chosen)) = Name::Other.player(Some(net)) else {
            panic!("`other` is 1 ply with its network");
        };
        assert!(std::ptr::eq(chosen, net));
    }

    #[test]
    fn mistakes_are_usage_errors() {
        for line in [
            "many",
            "10 1 neural4",
            "10 1 neural pubeval two",
            "--pairs 10",
            "0 1 neural pubeval 1",
            "1000000001",
            "10 1 neural pubeval 0",
            "10 1 neural pubeval -1",
        ] {
            let error = parse(line).expect_err(line);
            assert_eq!(error.exit_code(), 2, "{line}: {error}");
        }
    }
}
