//! Matches through the arena library and binary: real engines (our binary with different
//! options) in every registered game, and fake engines that break the protocol.

use std::time::Duration;
use tabula::arena::engine::EngineSpec;
use tabula::arena::openings::Openings;
use tabula::arena::referee::Played;
use tabula::arena::tc::TimeControl;
use tabula::arena::{run, Config, Summary};
use tabula::game::Side;
use tabula::registry::{self, GAMES};

const ENGINE: &str = env!("CARGO_BIN_EXE_tabula");

/// Our engine with `Player=player` (search, greedy, random), run away from the checkout
/// (Morris tables built there would be its default `TablebasePath`).
fn ours(name: &str, player: &str) -> EngineSpec {
    let dir = std::env::temp_dir();
    let text = format!(
        "cmd={ENGINE},name={name},option.Player={player},dir={}",
        dir.display()
    );
    EngineSpec::parse(&text, 0).expect("a valid spec")
}

fn fake(script: &str) -> EngineSpec {
    let path = format!("{}/tests/fake_engines/{script}", env!("CARGO_MANIFEST_DIR"));
    EngineSpec::parse(&format!("cmd=sh {path},name={script}"), 0).expect("a valid spec")
}

/// Small boards where a game has them, so that CI games are short.
fn small_options(game: &str) -> &'static str {
    match game {
        "bombardment" => "size=6",
        _ => "",
    }
}

fn config(game: &str, engines: [EngineSpec; 2], games: usize) -> Config {
    let mut config = Config::new(game.to_owned(), engines);
    config.game_options = small_options(game).to_owned();
    config.games = games;
    config.tc = TimeControl::MoveTime(10);
    config.margin = Duration::from_millis(400);
    config.max_plies = 100;
    config.quiet = true;
    config
}

fn play(config: &Config) -> (Summary, String) {
    let mut out = Vec::new();
    let summary = run(config, &mut out).expect("the match runs");
    (summary, String::from_utf8_lossy(&out).into_owned())
}

/// The winner's engine index (0 or 1 in match order), or None for a draw.
fn winning_engine(game: &Played) -> Option<usize> {
    game.result.winner.map(|side| match side {
        Side::White => game.pairing.white,
        Side::Black => 1 - game.pairing.white,
    })
}

#[test]
fn faulty_engines_lose_with_the_right_reason_and_the_match_goes_on() {
    for (script, reason) in [
        ("illegal.sh", "illegal-move"),
        ("sleepy.sh", "time-forfeit"),
        ("exits.sh", "crash"),
        ("garbage.sh", "garbage"),
        ("mute.sh", "hang"),
    ] {
        let mut config = config("bombardment", [fake(script), ours("random", "random")], 2);
        config.margin = Duration::from_millis(100);
        config.timeout = Duration::from_millis(500);
        let (summary, _) = play(&config);
        assert_eq!(summary.games.len(), 2, "{script}");
        for game in &summary.games {
            assert_eq!(game.result.reason, reason, "{script}: {:?}", game.result);
            assert_eq!(winning_engine(game), Some(1), "{script}");
        }
        assert_eq!(summary.tally.losses, 2);
    }
}

/// Each kind of line protocol.md lets an engine print, at its longest (a 40 KB `info` line,
/// `multipv` and `mate` fields, `info string` during a search and before `readyok`, blank
/// lines, `bestmove M ponder P` from the engine's `Ponder` option), is read as the engine
/// playing on: every game ends by the rules, none by a fault.
#[test]
fn every_kind_of_line_an_engine_may_print_is_read_as_play() {
    let path = format!(
        "{}/tests/fake_engines/chatty.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    for kind in ["long-info", "multipv", "info-string", "blank", "ponder"] {
        let chatty = format!(
            "cmd=bash {path} {ENGINE} {kind},name=chatty,option.Ponder=true,option.MultiPV=2"
        );
        let engines = [
            EngineSpec::parse(&chatty, 0).expect("a valid spec"),
            ours("random", "random"),
        ];
        let (summary, _) = play(&config("nim", engines, 2));
        assert_eq!(summary.games.len(), 2, "{kind}");
        for played in &summary.games {
            let reason = played.result.reason.as_str();
            let faults = ["garbage", "crash", "hang", "time-forfeit", "illegal-move"];
            assert!(!faults.contains(&reason), "{kind}: {:?}", played.result);
        }
    }
}

#[test]
fn an_engine_that_exits_is_a_crash_while_its_child_holds_the_output_open() {
    // `forks.sh` exits at `go` and leaves a `sleep` holding the pipe: the end of the output
    // does not come, so the arena has to notice the exit of the process itself. Before, it
    // waited out the whole timeout and scored a time forfeit.
    let mut config = config(
        "bombardment",
        [fake("forks.sh"), ours("random", "random")],
        2,
    );
    config.tc = TimeControl::Depth(1);
    config.timeout = Duration::from_millis(3000);
    let (summary, _) = play(&config);
    assert_eq!(summary.games.len(), 2);
    for game in &summary.games {
        assert_eq!(game.result.reason, "crash", "{:?}", game.result);
        assert!(
            game.result.detail.contains("exited") && game.result.detail.contains("status: 5"),
            "{:?}",
            game.result
        );
        assert_eq!(winning_engine(game), Some(1));
    }
}

#[test]
fn every_game_is_played_and_recorded_replayably() {
    let dir = std::env::temp_dir().join(format!("arena-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    for entry in GAMES {
        let record = dir.join(format!("{}.txt", entry.name));
        let mut config = config(
            entry.name,
            [ours("search", "search"), ours("random", "random")],
            2,
        );
        config.record = Some(record.clone());
        config.openings = Openings::Random(2);
        let (summary, _) = play(&config);
        assert_eq!(summary.tally.games(), 2, "{}", entry.name);
        let text = std::fs::read_to_string(&record).expect("the record exists");
        let blocks: Vec<&str> = text
            .split("\n\n")
            .filter(|b| !b.trim().is_empty())
            .collect();
        assert_eq!(blocks.len(), 2);
        for (block, game) in blocks.iter().zip(&summary.games) {
            assert!(block.contains(&format!("[Game \"{}\"]", entry.name)));
            let line = block
                .lines()
                .find(|l| l.starts_with("position startpos"))
                .expect("a position line");
            let moves: Vec<&str> = line.split_whitespace().skip(3).collect();
            let options: Vec<(&str, &str)> = config
                .game_options
                .split_whitespace()
                .filter_map(|kv| kv.split_once('='))
                .collect();
            let mut replay = registry::new_game(entry.name, &options, 0).expect("builds");
            replay
                .set_position(None, &moves)
                .expect("the record replays");
            if let Some(outcome) = replay.outcome() {
                assert_eq!(outcome.winner, game.result.winner, "{}", entry.name);
                assert_eq!(outcome.reason, game.result.reason);
            } else {
                assert_eq!(game.result.reason, "max-plies", "{}", entry.name);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_seed_plays_the_same_games_at_any_concurrency() {
    let moves = |concurrency: usize, seed: u64| {
        let mut config = config("bombardment", [ours("a", "random"), ours("b", "greedy")], 4);
        config.concurrency = concurrency;
        config.seed = seed;
        config.openings = Openings::Random(2);
        let (summary, _) = play(&config);
        summary
            .games
            .iter()
            .map(|g| g.moves.clone())
            .collect::<Vec<_>>()
    };
    let one = moves(1, 5);
    assert_eq!(one, moves(2, 5));
    assert_ne!(one, moves(1, 6));
    // Each pair starts from one opening, colours swapped.
    assert_eq!(one[0][..2], one[1][..2]);
}

#[test]
fn the_binary_prints_a_line_per_game_and_stops_on_the_sprt() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["--game", "bombardment", "--game-options", "size=6"])
        .args([
            "--engine",
            &format!("cmd={ENGINE},name=greedy,option.Player=greedy"),
        ])
        .args([
            "--engine",
            &format!("cmd={ENGINE},name=random,option.Player=random"),
        ])
        .args(["--games", "60", "--tc", "movetime=10", "--concurrency", "2"])
        .args(["--sprt", "elo0=0,elo1=50", "--seed", "3"])
        .output()
        .expect("arena runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    let games = text.lines().filter(|l| l.starts_with("game ")).count();
    assert!(games < 60, "{text}");
    assert!(text.contains("H1 accepted"), "{text}");
    assert!(text.contains("elo +"), "{text}");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "--game",
            "nosuchgame",
            "--engine",
            "cmd=x",
            "--engine",
            "cmd=y",
        ])
        .output()
        .expect("arena runs");
    assert_eq!(
        bad.status.code(),
        Some(2),
        "an unknown game is a bad command line"
    );
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["--game", "nim", "--game-options", "heaps"])
        .args(["--engine", "cmd=x", "--engine", "cmd=y"])
        .output()
        .expect("arena runs");
    assert_eq!(
        bad.status.code(),
        Some(2),
        "game options that do not parse too"
    );
    let missing = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["--game", "nim", "--games", "2", "--tc", "depth=1"])
        .args(["--engine", "cmd=/nonexistent/engine", "--engine", "cmd=y"])
        .output()
        .expect("arena runs");
    assert_eq!(
        missing.status.code(),
        Some(1),
        "an engine that does not start"
    );
}

#[test]
fn an_even_score_is_plus_zero_elo() {
    // The same engine on both sides of a Nim pair: each colour wins once.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "--game", "nim", "--games", "2", "--tc", "depth=1", "--quiet",
        ])
        .args(["--engine", &format!("cmd={ENGINE},name=a")])
        .args(["--engine", &format!("cmd={ENGINE},name=b")])
        .output()
        .expect("arena runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("W/L/D 1/1/0"), "{text}");
    assert!(text.contains("elo +0.0 +- "), "{text}");
}

/// `games` money games of backgammon with the cube between `engines`.
fn cube_games(engines: [EngineSpec; 2], games: usize, tc: TimeControl) -> Summary {
    let mut config = config("backgammon", engines, games);
    config.game_options = "cube=on".to_owned();
    config.tc = tc;
    play(&config).0
}

#[test]
fn cube_games_ask_before_the_roll_and_score_the_cube() {
    let summary = cube_games(
        [ours("a", "search"), ours("b", "search")],
        8,
        TimeControl::Depth(1),
    );
    assert_eq!(summary.tally.games(), 8);
    let mut doubles = 0;
    for game in &summary.games {
        doubles += game.moves.iter().filter(|m| *m == "double").count();
        let moves: Vec<&str> = game.moves.iter().map(String::as_str).collect();
        let mut replay = registry::new_game("backgammon", &[("cube", "on")], 0).expect("builds");
        replay.set_position(None, &moves).expect("the moves replay");
        let outcome = replay.outcome().expect("the game is over");
        assert_eq!(outcome.winner, game.result.winner);
        assert_eq!(outcome.points, game.result.points, "{:?}", game.moves);
        // Every double was answered, and nothing but the answer came between.
        for (i, mv) in game
            .moves
            .iter()
            .enumerate()
            .filter(|(_, m)| *m == "double")
        {
            let answer = game.moves.get(i + 1).map(String::as_str);
            assert!(matches!(answer, Some("take" | "drop")), "{:?}", game.moves);
            assert_eq!(mv, "double");
        }
    }
    assert!(doubles > 0, "no engine doubled in 8 games");
    // Points count the cube: more points than games once a take is won.
    let points = summary.tally.points_for + summary.tally.points_against;
    assert!(points > 8, "{points} points in 8 games");
}

#[test]
fn before_the_roll_only_roll_or_a_cube_action_is_accepted() {
    let summary = cube_games(
        [fake("eager.sh"), ours("search", "search")],
        2,
        TimeControl::MoveTime(10),
    );
    // Game 2: the fake plays black and is asked before its first roll.
    let game = &summary.games[1];
    assert_eq!(game.result.reason, "illegal-move", "{:?}", game.result);
    assert!(
        game.result
            .detail
            .contains("before the roll only roll or double may be played"),
        "{:?}",
        game.result
    );
    assert_eq!(winning_engine(game), Some(1));
}

#[test]
fn an_engine_that_only_ever_rolls_loses_instead_of_looping() {
    let summary = cube_games(
        [fake("roller.sh"), ours("search", "search")],
        2,
        TimeControl::MoveTime(10),
    );
    for game in &summary.games {
        // `roll` before a roll lets the dice fall; with the dice known it is no move.
        assert_eq!(game.result.reason, "illegal-move", "{:?}", game.result);
        assert!(game.result.detail.starts_with("roll:"), "{:?}", game.result);
        assert_eq!(winning_engine(game), Some(1));
    }
    // Game 2: the fake, black, was asked before its first roll, rolled, and was asked again.
    assert_eq!(
        summary.games[1].moves.len(),
        1,
        "{:?}",
        summary.games[1].moves
    );
}

/// The arena binary with `args`, its standard output going to `stdout`.
fn arena_to(args: &[&str], stdout: std::process::Stdio) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdout(stdout)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("arena runs")
}

/// A short, deterministic Nim match of our engine against itself.
fn nim_match(extra: &[&str]) -> Vec<String> {
    let engine = format!("cmd={ENGINE}");
    let mut args: Vec<String> = ["--game", "nim", "--games", "4", "--tc", "depth=1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(["--engine".into(), engine.clone(), "--engine".into(), engine]);
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

#[test]
fn output_that_cannot_be_written_is_an_error() {
    let dir = std::env::temp_dir().join(format!("arena-full-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let results = dir.join("r.res").display().to_string();
    let full = || {
        std::fs::File::create("/dev/full")
            .expect("/dev/full")
            .into()
    };
    // The summary alone (--quiet), and game lines: a full disk fails the run, loudly.
    for extra in [&["--quiet", "--results", results.as_str()][..], &[]] {
        let args = nim_match(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = arena_to(&args, full()).wait_with_output().expect("ends");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{extra:?}: {stderr}");
        assert!(stderr.contains("cannot write the output"), "{stderr}");
    }
    // `arena merge` too (the quiet run wrote every game to its results file).
    let output = arena_to(&["merge", &results], full())
        .wait_with_output()
        .expect("ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("arena merge: cannot write the output"),
        "{stderr}"
    );
    // A reader that went away (`arena | head -1`): quiet, but not a success.
    let args = nim_match(&[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut child = arena_to(&args, std::process::Stdio::piped());
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("ends");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_help_gives_the_exit_statuses_the_binary_uses() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("--help")
        .output()
        .expect("arena runs");
    let help = String::from_utf8_lossy(&output.stdout);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let statuses = help.split("Exit status:").nth(1).expect("exit statuses");
    let (one, two) = statuses.split_once(", 2 for").expect("status 2");
    // An unknown game exits with 2 (`the_binary_prints_a_line_per_game...` checks it).
    assert!(!one.contains("game"), "{statuses}");
    assert!(two.contains("unknown game"), "{statuses}");
    assert!(one.contains("cannot write its output"), "{statuses}");
}

#[test]
fn zero_is_not_a_number_of_games_workers_or_milliseconds() {
    for (option, value) in [("--timeout", "0"), ("--concurrency", "0"), ("--games", "0")] {
        let mut args = nim_match(&[]);
        args.extend([option.to_owned(), value.to_owned()]);
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(&args)
            .output()
            .expect("arena runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{option} {value}: {stderr}");
        assert!(stderr.contains(option), "{stderr}");
        assert!(output.stdout.is_empty(), "{option}: nothing ran");
    }
}

#[test]
fn whole_backgammon_matches_carry_the_score_and_are_written_as_match_files() {
    use tabula::games::backgammon::matfile;
    let dir = std::env::temp_dir().join(format!("arena-matches-{}", std::process::id()));
    let mut config = config("backgammon", [ours("a", "search"), ours("b", "search")], 2);
    config.game_options = "cube=on".to_owned();
    config.tc = TimeControl::Depth(1);
    config.max_plies = 0;
    config.match_length = Some(3);
    config.mat_dir = Some(dir.clone());
    let (summary, text) = play(&config);
    assert_eq!(summary.tally.games(), 2);
    assert!(text.contains("matches won "), "{text}");
    let mut first_rolls = Vec::new();
    for unit in &summary.games {
        assert_eq!(unit.result.reason, "match", "{:?}", unit.result);
        // No game was lost to a fault: an engine not told of the Crawford game could double
        // in it, which the arbiter refuses.
        assert!(!unit.result.detail.contains('('), "{:?}", unit.result);
        let path = dir.join(format!("match-{:04}.mat", unit.pairing.number));
        let file = std::fs::read_to_string(&path).expect("the match file is written");
        // Reading replays every game under the rules, the Crawford game from the score.
        let record = matfile::read(&file, "match").expect("the match file reads back");
        assert_eq!(record.length, 3);
        let mut score = [0u32; 2];
        for game in &record.games {
            score[game.winner.index()] += game.points;
        }
        let winner = unit.result.winner.expect("a match has a winner");
        assert!(score[winner.index()] >= 3, "{score:?} for {winner:?}");
        assert!(score[winner.opponent().index()] < 3, "{score:?}");
        assert_eq!(
            unit.result.detail.split(' ').next(),
            Some(format!("{}-{}", score[0], score[1]).as_str())
        );
        let white = &config.engines[unit.pairing.white].name;
        assert_eq!(&record.names[0], white);
        first_rolls.push(record.games[0].actions[0].clone());
    }
    // Duplicate: both matches of the pair open with the same colour and roll.
    assert_eq!(first_rolls[0].side, first_rolls[1].side);
    assert_eq!(first_rolls[0].token[..2], first_rolls[1].token[..2]);
    std::fs::remove_dir_all(&dir).ok();
}

/// `dir=` runs the engine in that folder, where a relative `cmd` is found too; a `dir=` that is
/// not a folder is refused before any game.
#[test]
fn an_engine_runs_in_its_dir() {
    let path = std::path::Path::new(ENGINE);
    let folder = path
        .parent()
        .expect("the binary's folder")
        .display()
        .to_string();
    let name = path.file_name().expect("a file name").to_string_lossy();
    let spec = |n: &str| {
        EngineSpec::parse(&format!("cmd=./{name},name={n},dir={folder}"), 0).expect("valid")
    };
    let (summary, _) = play(&config("nim", [spec("a"), spec("b")], 2));
    assert_eq!(summary.games.len(), 2);
    // Without `dir=` the same `cmd` is looked for where the arena runs, and is not there.
    let lost = EngineSpec::parse(&format!("cmd=./{name},name=c"), 0).expect("valid");
    let mut out = Vec::new();
    assert!(run(&config("nim", [lost, spec("d")], 2), &mut out).is_err());
    let refused = EngineSpec::parse(&format!("cmd={ENGINE},dir=/nonexistent/tabula"), 0);
    assert_eq!(
        refused,
        Err("--engine: dir=/nonexistent/tabula is not a folder".to_owned())
    );
}
