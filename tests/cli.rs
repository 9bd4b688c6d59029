//! The tool binaries' command lines: `--help` prints the options and exits 0, a flag that does
//! not exist is a usage error with exit status 2 (what scripts and `docs/arena.md` rely on).

use std::process::{Command, Output};

const TOOLS: [&str; 9] = [
    env!("CARGO_BIN_EXE_arena"),
    env!("CARGO_BIN_EXE_morris-tb"),
    env!("CARGO_BIN_EXE_cascades-solve"),
    env!("CARGO_BIN_EXE_backgammon-train"),
    env!("CARGO_BIN_EXE_backgammon-match"),
    env!("CARGO_BIN_EXE_backgammon-deep"),
    env!("CARGO_BIN_EXE_web-board"),
    env!("CARGO_BIN_EXE_morris-tune"),
    env!("CARGO_BIN_EXE_opening-book"),
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
