//! The `arena` command line, parsed into a [`Config`].

use super::engine::EngineSpec;
use super::openings::Openings;
use super::stats::Sprt;
use super::tc::TimeControl;
use super::Config;
use std::path::PathBuf;
use std::time::Duration;

/// The `--help` text.
pub const USAGE: &str = "\
usage: arena --game NAME --engine SPEC --engine SPEC [options]

  --game NAME            game to play (bombardment, gipf, cascades, morris, backgammon)
  --game-options \"K=V ..\" game options, as after `newgame NAME`
  --engine SPEC          cmd=PROGRAM ARGS,name=N,option.NAME=VALUE,...,tc=TC (twice)
  --games N              games to play (default 10); pairs share opening and dice
  --tc TC                movetime=MS | depth=N | nodes=N | BASE+INC seconds (default movetime=100)
  --margin MS            grace beyond each time allowance (default 100)
  --timeout MS           limit for handshakes, isready and depth/nodes searches (default 10000)
  --concurrency N        games played at once (default 1)
  --seed N               fixes openings, dice and engine seeds (default 1)
  --openings FILE        one opening per line: moves in protocol notation
  --random-plies N       or: N random plies per pair
  --max-plies N          adjudicate a draw after N plies (default 1000, 0: never)
  --sprt elo0=A,elo1=B[,alpha=0.05,beta=0.05]  stop when the SPRT decides
  --record FILE          write every game (headers + `position startpos moves ...`)
  --quiet                no line per game, only the summary
";

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{flag} needs a number, not {value}"))
}

/// Parses the arguments (without the program name). An openings file is read and checked
/// against the rules of the game here.
pub fn parse(args: &[String]) -> Result<Config, String> {
    let mut game = None;
    let mut engines = Vec::new();
    let mut config = Config::new(String::new(), [dummy(), dummy()]);
    let mut openings_file = None;
    let mut random_plies = None;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        if flag == "--quiet" {
            config.quiet = true;
            continue;
        }
        if flag == "--help" || flag == "-h" {
            return Err(USAGE.to_owned());
        }
        let value = rest
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n\n{USAGE}"))?;
        match flag.as_str() {
            "--game" => game = Some(value.clone()),
            "--game-options" => config.game_options = value.trim().to_owned(),
            "--engine" => engines.push(EngineSpec::parse(value, engines.len())?),
            "--games" => config.games = number(flag, value)?,
            "--tc" => config.tc = TimeControl::parse(value)?,
            "--margin" => config.margin = Duration::from_millis(number(flag, value)?),
            "--timeout" => config.timeout = Duration::from_millis(number(flag, value)?),
            "--concurrency" => config.concurrency = number::<usize>(flag, value)?.max(1),
            "--seed" => config.seed = number(flag, value)?,
            "--openings" => openings_file = Some(PathBuf::from(value)),
            "--random-plies" => random_plies = Some(number(flag, value)?),
            "--max-plies" => config.max_plies = number(flag, value)?,
            "--sprt" => config.sprt = Some(Sprt::parse(value)?),
            "--record" => config.record = Some(PathBuf::from(value)),
            _ => return Err(format!("unknown option {flag}\n\n{USAGE}")),
        }
    }
    config.game = game.ok_or_else(|| format!("--game is required\n\n{USAGE}"))?;
    config.engines = match <[EngineSpec; 2]>::try_from(engines) {
        Ok(pair) => pair,
        Err(_) => return Err(format!("exactly two --engine are needed\n\n{USAGE}")),
    };
    if config.engines[0].name == config.engines[1].name {
        config.engines[1].name.push_str("-2");
    }
    config.openings = match (openings_file, random_plies) {
        (Some(_), Some(_)) => return Err("--openings and --random-plies exclude each other".into()),
        (Some(path), None) => {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let start = config.start_position()?;
            Openings::List(super::openings::load(&text, start.as_ref())?)
        }
        (None, Some(plies)) => Openings::Random(plies),
        (None, None) => Openings::None,
    };
    Ok(config)
}

/// A placeholder until the `--engine` flags are read.
fn dummy() -> EngineSpec {
    EngineSpec {
        name: String::new(),
        command: Vec::new(),
        options: Vec::new(),
        tc: None,
    }
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
             --concurrency 2 --seed 7 --random-plies 4 --max-plies 300 --sprt elo0=0,elo1=10",
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
        assert_eq!(config.openings, Openings::Random(4));
        assert_eq!(config.max_plies, 300);
        assert!(config.sprt.is_some());
    }

    #[test]
    fn mistakes_are_explained() {
        assert!(parse(&args("--game bombardment --engine cmd=x")).is_err());
        assert!(parse(&args("--engine cmd=x --engine cmd=y")).is_err());
        assert!(parse(&args("--game g --engine cmd=x --engine cmd=y --games")).is_err());
        assert!(parse(&args("--game g --engine cmd=x --engine name=y")).is_err());
        assert!(parse(&args("--game g --engine cmd=x --engine cmd=y --tc fast")).is_err());
        let same = parse(&args(
            "--game g --engine cmd=x,name=a --engine cmd=y,name=a",
        ));
        assert_eq!(same.map(|c| c.engines[1].name.clone()), Ok("a-2".into()));
    }
}
