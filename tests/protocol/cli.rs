//! The tool binaries' command lines: `--help` prints the options and exits 0, a flag that does
//! not exist is a usage error with exit status 2 (what scripts and `docs/arena.md` rely on).

use std::io::Write;
use std::process::{Command, Output, Stdio};

const TOOLS: [&str; 11] = [
    env!("CARGO_BIN_EXE_arena"),
    env!("CARGO_BIN_EXE_morris-tb"),
    env!("CARGO_BIN_EXE_cascades-solve"),
    env!("CARGO_BIN_EXE_backgammon-train"),
    env!("CARGO_BIN_EXE_backgammon-match"),
    env!("CARGO_BIN_EXE_backgammon-deep"),
    env!("CARGO_BIN_EXE_web-board"),
    env!("CARGO_BIN_EXE_morris-tune"),
    env!("CARGO_BIN_EXE_opening-book"),
    env!("CARGO_BIN_EXE_replay"),
    env!("CARGO_BIN_EXE_morris-sparring"),
];

fn run(tool: &str, args: &[&str]) -> Output {
    Command::new(tool)
        .args(args)
        .output()
        .expect("the tool starts")
}

#[test]
fn help_works_and_a_bad_flag_exits_2() {
    for tool in TOOLS {
        let help = run(tool, &["--help"]);
        let text = String::from_utf8_lossy(&help.stdout);
        assert_eq!(help.status.code(), Some(0), "{tool} --help");
        assert!(
            text.contains("Usage:") && text.contains("--help"),
            "{tool}:\n{text}"
        );
        let bad = run(tool, &["--no-such-flag"]);
        let text = String::from_utf8_lossy(&bad.stderr);
        assert_eq!(bad.status.code(), Some(2), "{tool} --no-such-flag:\n{text}");
        assert!(text.contains("--no-such-flag"), "{tool}:\n{text}");
        assert!(bad.stdout.is_empty(), "{tool}: nothing ran");
    }
}

#[test]
fn arena_help_names_every_game_and_its_options() {
    let help = run(env!("CARGO_BIN_EXE_arena"), &["--help"]);
    let text = String::from_utf8_lossy(&help.stdout);
    for game in tabula::registry::GAMES {
        assert!(text.contains(game.name), "{} missing:\n{text}", game.name);
        for option in game.options {
            let usage = option.usage();
            assert!(text.contains(&usage), "{usage} missing:\n{text}");
        }
    }
    // The options docs/arena.md documents.
    let options = [
        "--game ",
        "--game-options",
        "--engine",
        "--games",
        "--tc",
        "--margin",
        "--timeout",
        "--concurrency",
        "--seed",
        "--openings",
        "--random-plies",
        "--max-plies",
        "--sprt",
        "--record",
        "--quiet",
    ];
    for option in options {
        assert!(text.contains(option), "{option} missing:\n{text}");
    }
}

#[test]
fn arena_exit_codes() {
    let arena = env!("CARGO_BIN_EXE_arena");
    // A game that does not exist is a bad command line, status 2, like any bad value.
    let unknown = run(
        arena,
        &[
            "--game",
            "nosuchgame",
            "--engine",
            "cmd=x",
            "--engine",
            "cmd=y",
        ],
    );
    assert_eq!(unknown.status.code(), Some(2));
    // One engine only, or a malformed value: a bad command line, status 2.
    for args in [
        &["--game", "bombardment", "--engine", "cmd=x"][..],
        &[
            "--game",
            "bombardment",
            "--engine",
            "cmd=x",
            "--engine",
            "cmd=y",
            "--tc",
            "fast",
        ],
        &["--engine", "cmd=x", "--engine", "cmd=y"],
    ] {
        assert_eq!(run(arena, args).status.code(), Some(2), "{args:?}");
    }
}

/// Asserts that each command line of `tool` is a usage error that ran nothing.
fn usage_errors(tool: &str, lines: &[&str]) {
    for line in lines {
        let args: Vec<&str> = line.split_whitespace().collect();
        let output = run(tool, &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{tool} {line}:\n{stderr}");
        assert!(!stderr.contains("panicked"), "{tool} {line}:\n{stderr}");
        assert!(output.stdout.is_empty(), "{tool} {line}: nothing ran");
    }
}

#[test]
fn cascades_solve_times_are_1_to_10_million_seconds() {
    let tool = env!("CARGO_BIN_EXE_cascades-solve");
    // Huge times overflowed the deadline (a panic); 0 printed a header and proved nothing.
    usage_errors(
        tool,
        &[
            "18446744073709551615 2 2x2",
            "9223372036854775807 2 2x2",
            "2 9223372036854775807 2x2",
            "10000001 2 2x2",
            "0 0 2x2",
            "0 2 2x2",
            "2 0 2x2",
        ],
    );
    let solved = run(tool, &["10000000", "1", "2x2"]);
    assert_eq!(solved.status.code(), Some(0));
    let text = String::from_utf8_lossy(&solved.stdout);
    assert_eq!(text.lines().count(), 4, "header and two rows:\n{text}");
}

#[test]
fn backgammon_match_needs_a_game_and_a_thread() {
    usage_errors(
        env!("CARGO_BIN_EXE_backgammon-match"),
        &[
            "0 1 neural pubeval 1",
            "1 1 neural pubeval 0",
            "1000000001 1 neural pubeval 1",
        ],
    );
}

#[test]
fn replay_command_line_and_repeat_counts() {
    let replay = env!("CARGO_BIN_EXE_replay");
    let engine = env!("CARGO_BIN_EXE_tabula");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let good = dir.join("cli_replay_good.txt");
    std::fs::write(&good, "> isready\n< readyok\n").unwrap();
    let good = good.to_str().unwrap();
    usage_errors(replay, &["", &format!("{good} --engine")]);
    // --engine before or after the transcripts, as before.
    for args in [[good, "--engine", engine], ["--engine", engine, good]] {
        let output = run(replay, &args);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert!(String::from_utf8_lossy(&output.stdout).starts_with("ok "));
    }
    // A repeat count whose line does not fit in memory is an error of the file, not a
    // capacity-overflow panic.
    let huge = dir.join("cli_replay_huge.txt");
    for count in ["18446744073709551615", "16777217"] {
        std::fs::write(&huge, format!("> isready\n>*{count} x\n")).unwrap();
        let output = run(replay, &["--engine", engine, huge.to_str().unwrap()]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{count}: {stdout}");
        assert!(
            stdout.contains("line 2: bad repeat count"),
            "{count}: {stdout}"
        );
    }
}

#[test]
fn morris_sparring_depth_and_eval_are_checked() {
    usage_errors(
        env!("CARGO_BIN_EXE_morris-sparring"),
        &[
            "--depth 0",
            "--depth 31",
            "--depth 4294967295",
            "--depth -1",
            "--eval deep",
            "--depth",
            "8",
        ],
    );
}

/// Sends each of `lines` to morris-sparring followed by `isready`, and returns the answer to
/// each: the lines it printed before the `readyok`.
fn morris_sparring_answers(lines: &[&str]) -> Vec<Vec<String>> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_morris-sparring"))
        .args(["--depth", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("morris-sparring starts");
    let mut input = child.stdin.take().unwrap();
    for line in lines {
        writeln!(input, "{line}\nisready").unwrap();
    }
    drop(input);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    let mut answers = vec![Vec::new()];
    for line in text.lines() {
        if line == "readyok" {
            answers.push(Vec::new());
        } else {
            answers.last_mut().unwrap().push(line.to_owned());
        }
    }
    assert_eq!(answers.pop(), Some(Vec::new()), "{text}");
    assert_eq!(answers.len(), lines.len(), "{text}");
    answers
}

#[test]
fn morris_sparring_answers_bad_input_with_errors() {
    let bad = [
        ("frobnicate", "error unknown command frobnicate"),
        ("position fen x", "error bad position"),
        ("position startpos junk", "error position"),
        ("position", "error position"),
        ("setoption name Hash value 1", "error unknown option Hash"),
        ("setoption name Depth value", "error setoption name Depth"),
        ("setoption", "error setoption"),
        (
            "setoption name GameOptions value flying",
            "error bad option",
        ),
        ("isready now", "error unknown command isready"),
    ];
    let lines: Vec<&str> = bad.iter().map(|(line, _)| *line).collect();
    for ((line, error), answer) in bad.iter().zip(morris_sparring_answers(&lines)) {
        assert_eq!(answer.len(), 1, "{line}: {answer:?}");
        assert!(answer[0].starts_with(error), "{line}: {answer:?}");
    }
    // The commands that worked before answer as before; `uci` is `ugi` as in gipf-sparring.
    let answers = morris_sparring_answers(&[
        "ugi",
        "uci",
        "setoption name GameOptions value flying=true",
        "setoption name Depth value 2",
        "setoption name Seed value 7",
        "setoption name Eval value material",
        "uginewgame",
        "position startpos moves d2",
        "go depth 1",
        "",
    ]);
    assert_eq!(answers[0].last().map(String::as_str), Some("ugiok"));
    assert_eq!(answers[1].last().map(String::as_str), Some("uciok"));
    assert_eq!(
        answers[0][..answers[0].len() - 1],
        answers[1][..answers[1].len() - 1]
    );
    for answer in &answers[2..8] {
        assert!(answer.is_empty(), "{answers:?}");
    }
    assert!(answers[8][0].starts_with("info depth 2 "), "{answers:?}");
    assert!(answers[8][1].starts_with("bestmove "), "{answers:?}");
    assert!(answers[9].is_empty(), "a blank line is ignored");
}

/// The engine itself answers `--help` and `--version` instead of taking them for a game.
#[test]
fn the_engine_has_help_and_version() {
    let engine = env!("CARGO_BIN_EXE_tabula");
    for flag in ["--help", "-h"] {
        let out = run(engine, &[flag]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{flag}: {out:?}");
        assert!(text.starts_with("usage: tabula [GAME"), "{flag}: {text}");
        for entry in tabula::registry::GAMES {
            assert!(text.contains(entry.name), "{}: {text}", entry.name);
        }
    }
    let out = run(engine, &["--version"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("tabula {}\n", env!("CARGO_PKG_VERSION"))
    );
    // Anything else is still a game name: an unknown one is a usage error.
    assert_eq!(run(engine, &["--helpme"]).status.code(), Some(2));
}
