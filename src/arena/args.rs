//! The `arena` command line, parsed into a [`Config`].

use super::engine::EngineSpec;
use super::openings::Openings;
use super::shard::Shard;
use super::stats::Sprt;
use super::tc::{TimeControl, MAX_MS};
use super::Config;
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use std::path::PathBuf;
use std::time::Duration;

/// The options as written; [`parse`] turns them into a [`Config`].
#[derive(Parser, Debug)]
#[command(
    name = "arena",
    about = "Plays a match between two engines that speak the tabula protocol (docs/arena.md).",
    after_help = "`arena merge FILE...` combines the results files of shards (`arena merge \
                  --help`).\n\nExit status: 0 after the match, 1 when it cannot start (an \
                  engine that does not start or refuses its options) or cannot write its \
                  output, 2 for a bad command line (also an unknown game, game options it \
                  refuses, or an openings file that cannot be read or breaks the rules).",
    // scripts/match.sh puts its own `--tc` and `--seed` before the user's: the last one wins.
    args_override_self = true
)]
struct Args {
    #[arg(long, value_name = "NAME", help = game_help())]
    game: String,
    /// Game options, as after `newgame NAME`: "K=V .."
    #[arg(long, value_name = "K=V ..", default_value = "")]
    game_options: String,
    /// Twice: cmd=PROGRAM ARGS,name=N,option.NAME=VALUE,...,tc=TC (comma separated)
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    engines: Vec<String>,
    /// Games to play; pairs of games share their opening and dice
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = at_least_one)]
    games: usize,
    /// Time control: movetime=MS | depth=N | nodes=N | BASE+INC seconds
    #[arg(long, value_name = "TC", default_value = "movetime=100", value_parser = TimeControl::parse)]
    tc: TimeControl,
    /// Grace in milliseconds beyond each time allowance before a time loss
    #[arg(long, value_name = "MS", default_value_t = 100, value_parser = clap::value_parser!(u64).range(..=MAX_MS))]
    margin: u64,
    // At least 1: with 0 every handshake would fail, and no match could run.
    /// Limit in milliseconds for handshakes, isready and depth/nodes searches
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=MAX_MS))]
    timeout: u64,
    /// Games played at once
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = at_least_one)]
    concurrency: usize,
    /// Fixes openings, dice and the engines' seeds
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// One opening per line: moves in protocol notation
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// Or: each pair starts with N random legal plies
    #[arg(long, value_name = "N")]
    random_plies: Option<usize>,
    /// Adjudicate a draw after N plies (0: never)
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_plies: usize,
    /// Stop when the SPRT decides: [elo0=0,elo1=5,alpha=0.05,beta=0.05] (any key may be left out)
    #[arg(long, value_name = "SPEC", value_parser = Sprt::parse)]
    sprt: Option<Sprt>,
    /// Write every game (headers + `position startpos moves ...`)
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Play only block I of N of the pairs, as in the whole match (merge with `arena merge`)
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Write the results file that `arena merge` combines
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// No line per game, only the summary
    #[arg(long)]
    quiet: bool,
    /// Backgammon: every unit of the match is a whole N-point match (--games of them)
    #[arg(long = "match", value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64),
          conflicts_with_all = ["openings", "random_plies", "record", "shard", "results"])]
    match_length: Option<u16>,
    /// With --match: write each match to DIR/match-NNNN.mat (the match file gnubg imports)
    #[arg(long, value_name = "DIR", requires = "match_length")]
    mat: Option<PathBuf>,
}

/// The `--game` help names the games of the registry, so a new game shows up by itself.
fn game_help() -> String {
    let games: Vec<String> = crate::registry::GAMES
        .iter()
        .map(|g| {
            let options: Vec<String> = g.options.iter().map(|o| o.usage()).collect();
            format!("{} ({})", g.name, options.join(" "))
        })
        .collect();
    format!(
        "Game to play, with the options --game-options takes: {}",
        games.join(", ")
    )
}

/// A count that must be at least 1 (`--games`, `--concurrency`): 0 games is no match, and 0
/// workers would play none of it.
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err("must be at least 1".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// Parses the arguments (without the program name). An openings file is read and checked
/// against the rules of the game here. The error prints itself with `exit()`: the help on
/// stdout with status 0 for `--help`, else the message on stderr with status 2.
pub fn parse(args: &[String]) -> Result<Config, clap::Error> {
    let args =
        Args::try_parse_from(std::iter::once("arena").chain(args.iter().map(String::as_str)))?;
    to_config(args).map_err(|message| Args::command().error(ErrorKind::ValueValidation, message))
}

/// The checks clap cannot make: the engine specs, and the openings against the rules.
fn to_config(args: Args) -> Result<Config, String> {
    let engines = args
        .engines
        .iter()
        .enumerate()
        .map(|(index, text)| EngineSpec::parse(text, index))
        .collect::<Result<Vec<_>, _>>()?;
    let Ok(mut engines) = <[EngineSpec; 2]>::try_from(engines) else {
        return Err("exactly two --engine are needed".into());
    };
    if engines[0].name == engines[1].name {
        engines[1].name.push_str("-2");
    }
    let mut config = Config::new(args.game, engines);
    config.game_options = args.game_options.trim().to_owned();
    config.games = args.games;
    config.tc = args.tc;
    config.margin = Duration::from_millis(args.margin);
    config.timeout = Duration::from_millis(args.timeout);
    config.concurrency = args.concurrency;
    config.seed = args.seed;
    config.max_plies = args.max_plies;
    config.sprt = args.sprt;
    config.record = args.record;
    config.shard = args.shard.unwrap_or(Shard::WHOLE);
    config.results = args.results;
    config.quiet = args.quiet;
    config.match_length = args.match_length;
    config.mat_dir = args.mat;
    let cube_on = config.option_pairs().contains(&("cube", "on"));
    if config.match_length.is_some() && (config.game != "backgammon" || !cube_on) {
        return Err("--match needs --game backgammon --game-options cube=on".into());
    }
    // A game or game options that do not exist are a bad command line, like any other value.
    let start = config.start_position()?;
    config.openings = match (args.openings, args.random_plies) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Openings::List(super::openings::load(&text, start.as_ref())?)
        }
        (None, Some(plies)) => Openings::Random(plies),
        (None, None) => Openings::None,
    };
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn a_full_command_line() {
        let config = parse(&args(
            "--game bombardment --game-options size=6 --engine cmd=./t,name=a,option.Player=search \
             --engine cmd=./t,option.Player=random,tc=depth=1 --games 20 --tc 10+0.1 --margin 50 \
             --timeout 3000 --concurrency 2 --seed 7 --random-plies 4 --max-plies 300 \
             --sprt elo0=0,elo1=10 --record games.txt --shard 2/8 --results r.txt --quiet",
        ))
        .expect("parses");
        assert_eq!(config.game, "bombardment");
        assert_eq!(config.game_options, "size=6");
        assert_eq!(config.engines[0].name, "a");
        assert_eq!(config.engines[1].name, "engine2");
        assert_eq!(config.engines[1].tc, Some(TimeControl::Depth(1)));
        assert_eq!(
            config.engines[0].options,
            vec![("Player".to_owned(), "search".to_owned())]
        );
        assert_eq!((config.games, config.concurrency, config.seed), (20, 2, 7));
        assert_eq!(
            config.tc,
            TimeControl::Clock {
                base_ms: 10_000,
                increment_ms: 100
            }
        );
        assert_eq!(config.margin, Duration::from_millis(50));
        assert_eq!(config.timeout, Duration::from_secs(3));
        assert_eq!(config.openings, Openings::Random(4));
        assert_eq!(config.max_plies, 300);
        assert_eq!(config.sprt.map(|s| s.elo1), Some(10.0));
        assert_eq!(config.record, Some(PathBuf::from("games.txt")));
        assert_eq!(config.shard, Shard { index: 2, count: 8 });
        assert_eq!(config.results, Some(PathBuf::from("r.txt")));
        assert!(config.quiet);
    }

    #[test]
    fn whole_matches_are_backgammon_with_the_cube_and_write_no_game_records() {
        let base = "--game backgammon --engine cmd=x --engine cmd=y";
        let config = parse(&args(&format!(
            "{base} --game-options cube=on --match 7 --mat dir"
        )))
        .expect("parses");
        assert_eq!(config.match_length, Some(7));
        assert_eq!(config.mat_dir, Some(PathBuf::from("dir")));
        for bad in [
            format!("{base} --match 7"),
            "--game nim --engine cmd=x --engine cmd=y --match 7".to_owned(),
            format!("{base} --game-options cube=on --mat dir"),
            format!("{base} --game-options cube=on --match 7 --record r"),
            format!("{base} --game-options cube=on --match 7 --shard 0/2"),
            format!("{base} --game-options cube=on --match 0"),
        ] {
            assert!(parse(&args(&bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn defaults_are_those_of_config_new() {
        let config = parse(&args("--game nim --engine cmd=x --engine cmd=y")).expect("parses");
        let new = Config::new("nim".into(), config.engines.clone());
        assert_eq!(config.game_options, new.game_options);
        assert_eq!(config.games, new.games);
        assert_eq!(config.tc, new.tc);
        assert_eq!((config.margin, config.timeout), (new.margin, new.timeout));
        assert_eq!(
            (config.concurrency, config.seed),
            (new.concurrency, new.seed)
        );
        assert_eq!(config.openings, new.openings);
        assert_eq!(config.max_plies, new.max_plies);
        assert_eq!((config.sprt, &config.record), (new.sprt, &new.record));
        assert_eq!(config.quiet, new.quiet);
        assert_eq!((config.shard, &config.results), (new.shard, &new.results));
    }

    #[test]
    fn a_later_flag_overrides_an_earlier_one() {
        // scripts/match.sh: its `--tc movetime=100 ... --seed 1`, then the user's options.
        let config = parse(&args(
            "--game nim --tc movetime=100 --engine cmd=x --engine cmd=y --seed 1 --tc depth=2 --seed 5",
        ))
        .expect("parses");
        assert_eq!((config.tc, config.seed), (TimeControl::Depth(2), 5));
    }

    #[test]
    fn mistakes_are_usage_errors() {
        let bad = [
            "--game bombardment --engine cmd=x",
            "--engine cmd=x --engine cmd=y",
            "--game nim --engine cmd=x --engine cmd=y --games",
            "--game nim --engine cmd=x --engine name=y",
            "--game nim --engine cmd=x --engine cmd=y --tc fast",
            "--game nim --engine cmd=x --engine cmd=y --games many",
            "--game nim --engine cmd=x --engine cmd=y --engine cmd=z",
            "--game nim --engine cmd=x --engine cmd=y --openings f --random-plies 2",
            "--game nim --engine cmd=x --engine cmd=y --no-such-option",
            "--game nim --engine cmd=x --engine cmd=y --shard 3/3",
            "--game bombardment --engine cmd=x --engine cmd=y --openings /nonexistent/file",
            "--game chess --engine cmd=x --engine cmd=y",
            "--game nim --game-options heaps --engine cmd=x --engine cmd=y",
            "--game nim --game-options colour=red --engine cmd=x --engine cmd=y",
            // Zero of these is no match at all, not a default.
            "--game nim --engine cmd=x --engine cmd=y --timeout 0",
            "--game nim --engine cmd=x --engine cmd=y --concurrency 0",
            "--game nim --engine cmd=x --engine cmd=y --games 0",
            "--game nim --engine cmd=x --engine cmd=y --games -1",
        ];
        for text in bad {
            let error = parse(&args(text)).expect_err(text);
            assert_eq!(error.exit_code(), 2, "{text}: {error}");
        }
        let help = parse(&args("--help")).expect_err("--help is not a match");
        assert_eq!((help.kind(), help.exit_code()), (ErrorKind::DisplayHelp, 0));
        let same = parse(&args(
            "--game nim --engine cmd=x,name=a --engine cmd=y,name=a",
        ));
        assert_eq!(
            same.map(|c| c.engines[1].name.clone()).ok(),
            Some("a-2".into())
        );
    }

    #[test]
    fn the_game_help_lists_the_registry() {
        let help = Args::command().render_help().to_string();
        for game in crate::registry::GAMES {
            assert!(
                help.contains(game.name),
                "{} missing from\n{help}",
                game.name
            );
        }
    }
}
