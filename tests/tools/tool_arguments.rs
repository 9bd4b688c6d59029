//! The tool binaries refuse nonsense numbers and arguments that would make a run do nothing
//! (exit status 2, the usage errors of clap), say so when a held-out set is empty instead of
//! printing a perfect score for it, name the path they cannot write, and end quietly when
//! their output is closed (`tool | head`). Every file a run may write goes under
//! /tmp/toolfix, never into the repository.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const TUNE: &str = env!("CARGO_BIN_EXE_morris-tune");
const DEEP: &str = env!("CARGO_BIN_EXE_backgammon-deep");
const TRAIN: &str = env!("CARGO_BIN_EXE_backgammon-train");
const BOOK: &str = env!("CARGO_BIN_EXE_opening-book");
const TB: &str = env!("CARGO_BIN_EXE_morris-tb");

/// The shipped network (read only).
const SHIPPED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/src/games/backgammon/neural.weights"
);

/// A fresh scratch directory of one test (the tests run in parallel), removed when the test
/// ends.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The scratch directory of the test `name`.
fn scratch(name: &str) -> Scratch {
    let dir = format!("/tmp/toolfix/tool_arguments-{}-{name}", std::process::id());
    let dir = PathBuf::from(dir);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    Scratch(dir)
}

/// Runs `tool` in `dir` (so that a relative default path lands there, not in the
/// repository).
fn run(tool: &str, dir: &Path, args: &[&str]) -> Output {
    Command::new(tool)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the tool starts")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts that every one of `lines` is a usage error (status 2) that ran nothing.
fn usage_errors(tool: &str, dir: &Path, common: &[&str], lines: &[&[&str]]) {
    for line in lines {
        let args: Vec<&str> = common.iter().chain(line.iter()).copied().collect();
        let out = run(tool, dir, &args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{tool} {args:?}:\n{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{tool} {args:?}: nothing ran");
    }
}

/// A Morris record of `games` short games (arena's format).
fn morris_records(dir: &Path, games: usize) -> String {
    let game = "[Game \"morris\"]\n[Options \"\"]\n[Result \"1-0\"]\n\
                position startpos moves a1 a4 b2\n\n";
    let path = dir.join("games.rec");
    std::fs::write(&path, game.repeat(games)).expect("written");
    path.display().to_string()
}

/// A `backgammon-deep` data file of `lines` positions (the start, a made-up target).
fn deep_data(dir: &Path, lines: usize) -> String {
    let line =
        "w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 b -\t0.50000 0.12000 0.00500 0.12000 0.00500\n";
    let path = dir.join("tiny.data");
    std::fs::write(&path, line.repeat(lines)).expect("written");
    path.display().to_string()
}

#[test]
fn morris_tune_refuses_nonsense_rates_and_ridges() {
    let dir = scratch("tune-numbers");
    let records = morris_records(&dir, 3);
    usage_errors(
        TUNE,
        &dir,
        &[&records],
        &[
            &["--iterations", "5", "--rate", "nan"],
            &["--iterations", "5", "--rate", "inf"],
            &["--iterations", "5", "--rate=-5"],
            &["--iterations", "5", "--rate=0"],
            &["--iterations", "5", "--ridge=nan"],
            &["--iterations", "5", "--ridge=inf"],
            &["--iterations", "5", "--ridge=-1"],
            &["--iterations", "0"],
        ],
    );
    // A ridge of 0 (no pull towards the old weights) is a fit.
    let out = run(TUNE, &dir, &[&records, "--iterations", "5", "--ridge", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn morris_tune_says_when_nothing_is_held_out() {
    let dir = scratch("tune-held");
    let records = morris_records(&dir, 3);
    let out = run(TUNE, &dir, &[&records, "--iterations", "5"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let losses: Vec<&str> = stdout.lines().filter(|l| l.contains("loss")).collect();
    assert_eq!(losses.len(), 2, "{stdout}");
    for line in losses {
        assert!(line.contains("held out: none"), "{line}");
        assert!(!line.contains("0.000000"), "{line}");
    }
    // The tenth game is the first held out, and then it has a loss.
    let records = morris_records(&dir, 10);
    let out = run(TUNE, &dir, &[&records, "--iterations", "5"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("10 games: 36 training positions, 4 held out\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("held out: none"), "{stdout}");
}

#[test]
fn backgammon_deep_refuses_nonsense_numbers() {
    let dir = scratch("deep-numbers");
    let data = deep_data(&dir, 20);
    let out = dir.join("w").display().to_string();
    usage_errors(
        DEEP,
        &dir,
        // The default 4 epochs over 20 positions take no time.
        &["train", "--data", &data, "--out", &out],
        &[
            &["--alpha", "1e300"],
            &["--alpha", "nan"],
            &["--decay", "1e300"],
            &["--decay", "1.5"],
            &["--decay", "0"],
            &["--epochs", "0"],
        ],
    );
    let data_out = dir.join("g.data").display().to_string();
    usage_errors(
        DEEP,
        &dir,
        &["generate", "--out", &data_out],
        &[
            &["--positions", "0"],
            // --candidates means something only two plies deep.
            &["--positions", "3", "--candidates", "9"],
            &["--positions", "3", "--depth", "1", "--candidates", "9"],
            &[
                "--positions",
                "3",
                "--rollout-plies",
                "2",
                "--candidates",
                "9",
            ],
        ],
    );
    usage_errors(DEEP, &dir, &["calibrate"], &[&["--games", "0"]]);
    let mixed = dir.join("m.data").display().to_string();
    usage_errors(
        DEEP,
        &dir,
        &[
            "mix",
            "--corrected",
            &data,
            "--lookahead",
            &data,
            "--out",
            &mixed,
        ],
        &[
            &["--repeat", "0"],
            // A network for the anchor without the anchor would be ignored.
            &["--from", SHIPPED],
        ],
    );
    assert!(!dir.join("w").exists() && !dir.join("g.data").exists());
    assert!(!dir.join("m.data").exists());
}

#[test]
fn backgammon_deep_train_refuses_to_narrow_the_network() {
    let dir = scratch("deep-hidden");
    let data = deep_data(&dir, 20);
    let out = dir.join("w").display().to_string();
    let common = ["train", "--data", &data, "--out", &out, "--epochs", "1"];
    // The shipped network has 128 hidden units.
    let narrow = run(DEEP, &dir, &[&common[..], &["--hidden", "10"]].concat());
    let stderr = text(&narrow.stderr);
    assert_eq!(narrow.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("128"), "{stderr}");
    assert!(!dir.join("w").exists());
    let same = run(DEEP, &dir, &[&common[..], &["--hidden", "128"]].concat());
    assert_eq!(same.status.code(), Some(0), "{}", text(&same.stderr));
}

#[test]
fn backgammon_deep_train_says_when_nothing_is_held_out() {
    let dir = scratch("deep-held");
    let data = deep_data(&dir, 20);
    let out = dir.join("w").display().to_string();
    let run_with = |holdout: &str| {
        let args = [
            "train",
            "--data",
            &data,
            "--out",
            &out,
            "--epochs",
            "1",
            "--holdout",
            holdout,
        ];
        let out = run(DEEP, &dir, &args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let stdout = run_with("0");
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    for line in stdout.lines() {
        assert!(line.contains("nothing held out"), "{line}");
        assert!(!line.contains("rms"), "{line}");
    }
    let stdout = run_with("0.1");
    assert!(
        stdout.starts_with("epoch 0 held-out 2 cross-entropy"),
        "{stdout}"
    );
    // Nothing left to learn from is a run that cannot do its work.
    let all = run(
        DEEP,
        &dir,
        &["train", "--data", &data, "--out", &out, "--holdout", "1"],
    );
    assert_eq!(all.status.code(), Some(1), "{}", text(&all.stdout));
}

#[test]
fn backgammon_train_refuses_to_record_zero_games() {
    // `--games 0` alone writes the initial weights (the cluster's self-play starts so).
    let dir = scratch("train-games");
    let games = dir.join("games.txt").display().to_string();
    usage_errors(
        TRAIN,
        &dir,
        &["--games", "0"],
        &[&["--play-to", &games, "--from", SHIPPED]],
    );
    assert!(!dir.join("games.txt").exists());
}

#[test]
fn opening_book_refuses_a_book_of_nothing() {
    let dir = scratch("book-numbers");
    let out = dir.join("book.txt").display().to_string();
    usage_errors(
        BOOK,
        &dir,
        &["--out", &out],
        &[
            &["--game", "morris", "--plies", "0"],
            // Black's first position is at ply 1, which the book leaves out.
            &["--game", "gipf", "--plies", "1", "--sides", "black"],
            &["--game", "morris", "--plies", "1", "--sides", "black"],
            &["--game", "morris", "--plies", "1", "--nodes", "0"],
            &[
                "--game", "morris", "--plies", "1", "--nodes", "1000", "--hash", "0",
            ],
        ],
    );
    assert!(!dir.join("book.txt").exists());
    // The smallest book: the start position alone.
    let ok = run(
        BOOK,
        &dir,
        &[
            "--game", "morris", "--plies", "1", "--nodes", "1000", "--hash", "1", "--out", &out,
        ],
    );
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert_eq!(text(&ok.stdout), format!("wrote 1 positions to {out}\n"));
    let book = std::fs::read_to_string(dir.join("book.txt")).expect("the book");
    assert_eq!(
        book.lines().filter(|l| !l.starts_with('#')).count(),
        1,
        "{book}"
    );
}

#[test]
fn opening_book_checks_its_output_before_searching() {
    let dir = scratch("book-out");
    let out = run(
        BOOK,
        &dir,
        &[
            "--game",
            "morris",
            "--plies",
            "1",
            "--nodes",
            "1000",
            "--out",
            "/proc/nonexist/book.txt",
        ],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("/proc/nonexist/book.txt"), "{stderr}");
    // No search ran (its progress line holds the depth reached).
    assert!(!stderr.contains("# depth"), "{stderr}");
}

#[test]
fn morris_tb_refuses_totals_that_build_nothing_or_are_capped() {
    let dir = scratch("tb-total");
    let tables = dir.join("tables").display().to_string();
    usage_errors(
        TB,
        &dir,
        &["--dir", &tables],
        &[
            &["--max-total", "0"],
            &["--max-total", "5"],
            &["--max", "3", "--max-total", "7"],
            &["--max-total", "19"],
        ],
    );
    assert!(!dir.join("tables").exists());
}

#[test]
fn morris_tb_names_the_directory_it_cannot_make() {
    let dir = scratch("tb-dir");
    let out = run(TB, &dir, &["--dir", "/proc/nonexist/x"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("/proc/nonexist/x"), "{stderr}");
}

/// One short run of each tool that writes to its standard output, in `dir`.
fn printing_runs(dir: &Path) -> Vec<(&'static str, Vec<String>)> {
    let records = morris_records(dir, 3);
    let data = deep_data(dir, 20);
    let path = |name: &str| dir.join(name).display().to_string();
    // The scratch paths hold no spaces.
    let words = |line: &str| line.split(' ').map(String::from).collect::<Vec<_>>();
    vec![
        (TUNE, words(&format!("{records} --iterations 5"))),
        (
            DEEP,
            words(&format!(
                "train --data {data} --out {} --epochs 1",
                path("w")
            )),
        ),
        (DEEP, words("calibrate --games 1")),
        (
            BOOK,
            words(&format!(
                "--game morris --plies 1 --nodes 1000 --out {}",
                path("book.txt")
            )),
        ),
        (TB, words(&format!("--dir {}", path("tables")))),
    ]
}

/// Runs `tool` in `dir` with its standard output going to `stdout`.
fn run_into(tool: &str, dir: &Path, args: &[String], stdout: impl Into<Stdio>) -> Output {
    Command::new(tool)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .output()
        .expect("the tool runs")
}

/// A tool whose standard output is closed before it writes dies of SIGPIPE, as other
/// command-line tools do, instead of panicking in `println!` (status 101).
#[cfg(unix)]
#[test]
fn closed_output_ends_the_tools_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let dir = scratch("pipe");
    for (tool, args) in printing_runs(&dir) {
        // A pipe whose reading end is closed before the tool starts: its first write fails
        // however fast it runs.
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = run_into(tool, &dir, &args, writer);
        let stderr = text(&out.stderr);
        assert_eq!(
            out.status.signal(),
            Some(libc::SIGPIPE),
            "{tool} {args:?}: {:?} {stderr}",
            out.status
        );
        assert!(!stderr.contains("panicked"), "{tool} {args:?}: {stderr}");
    }
}

/// A tool whose standard output fails otherwise (a full disk: `/dev/full`) says so in one
/// line and exits 1, instead of panicking in `println!` (status 101 and a panic message).
#[cfg(target_os = "linux")]
#[test]
fn a_failed_output_is_one_line_and_status_1() {
    let dir = scratch("full");
    for (tool, args) in printing_runs(&dir) {
        let full = std::fs::File::create("/dev/full").expect("/dev/full");
        let out = run_into(tool, &dir, &args, full);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{tool} {args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write its output: No space left on device"),
            "{tool} {args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{tool} {args:?}: {stderr}");
    }
}

/// A training run whose learning rate makes it diverge says so and exits 1, instead of
/// printing (or writing) NaN weights and exiting 0; a network file of NaN is no network.
#[test]
fn diverged_training_is_an_error() {
    let dir = scratch("diverge");
    // Four real games (arena's records of movetime-100 games), so that the fit has terms to
    // move and results that disagree.
    let games = [
        (
            "0-1",
            "c5 b4 d1 d2 g1 a1 b6 d6 f2 d7 e4 d5xe4 e3 f4 e4 a7 f6 g7xc5 g1g4 d5e5 d1g1 \
                 e5d5xg4 g1d1 d5e5 d1g1 g7g4 g1d1 g4g7xd1 e3d3 e5d5xd3 e4e5 g7g4 e5e4 g4g7xe4",
        ),
        (
            "1-0",
            "b4 b2 d2 e4 d6 g1 f4 e5 e3 g7 c4 d1 a4xg1 b6 c3 g4 c5xg7 d7 c5d5 g4g1 a4a1 \
                 d7g7 a1a4xg7 d1a1 a4a7 g1d1 a7a4xb2 d1g1 a4a7 g1g4 a7a4xg4 a1d1 d2d3xd1",
        ),
        (
            "0-1",
            "b2 b4 f4 d2 a7 d6 f2 f6 g4 e4 a1 b6xa1 a1 a4 c5 c4xa1 e5 d5 g4g1 d6d7 g1g4 \
                 b6d6xa7 g4g7 b4b6xg7 f4g4 b6b4xg4 f2f4 b4b6xf4 b2b4 d2b2",
        ),
        (
            "1-0",
            "b4 g1 d2 e3 f6 b2 d5 e5 e4 d7 f4 a4 g4xa4 c4 d3 f2 d1xf2 g7 d2f2xc4 b2d2 \
                 f6d6 d7a7 d6f6xd2 g7d7 f2d2xg1 a7a4 d2f2xd7 a4a1 f2d2xa1",
        ),
    ];
    let game: String = games
        .iter()
        .map(|(result, moves)| {
            format!(
                "[Game \"morris\"]\n[Options \"\"]\n[Result \"{result}\"]\n\
                 position startpos moves {moves}\n\n"
            )
        })
        .collect();
    let records = dir.join("game.rec");
    std::fs::write(&records, game).expect("written");
    let records = records.display().to_string();
    let out = run(
        TUNE,
        &dir,
        &[&records, "--rate", "1e6", "--iterations", "50"],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("diverged"), "{stderr}");

    let data = deep_data(&dir, 20);
    let w = dir.join("w");
    let out = run(
        DEEP,
        &dir,
        &[
            "train",
            "--data",
            &data,
            "--out",
            &w.display().to_string(),
            "--epochs",
            "2",
            "--alpha",
            "1e30",
        ],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("diverged"), "{stderr}");
    assert!(!w.exists(), "no weights written");
    // A file of NaN weights (what such a run wrote before) is refused where it is read.
    let shipped = std::fs::read_to_string(SHIPPED).expect("the shipped network");
    let first = shipped.lines().nth(1).expect("a weight");
    let nan = dir.join("nan.weights");
    std::fs::write(&nan, shipped.replacen(first, "NaN", 1)).expect("written");
    let out = run(
        DEEP,
        &dir,
        &[
            "calibrate",
            "--games",
            "1",
            "--from",
            &nan.display().to_string(),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
}

/// The trainers find an output path they cannot write before they train, not after.
#[test]
fn trainers_check_their_output_before_training() {
    let dir = scratch("train-out");
    let data = deep_data(&dir, 20);
    for (tool, args) in [
        (
            TRAIN,
            vec!["--games", "5000", "--out", "/proc/nonexist/x.w"],
        ),
        (
            DEEP,
            vec!["train", "--data", &data, "--out", "/proc/nonexist/x.w"],
        ),
    ] {
        let start = std::time::Instant::now();
        let out = run(tool, &dir, &args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{tool}: {stderr}");
        assert!(stderr.contains("/proc/nonexist/x.w"), "{tool}: {stderr}");
        assert!(out.stdout.is_empty(), "{tool}: nothing trained");
        assert!(start.elapsed().as_secs() < 10, "{tool}: found out late");
    }
}

/// The match-file tools answer `--help` (status 0, the usage on stdout) and refuse a bad
/// command line as the others do (status 2, nothing run); `gnubg-bridge` refuses a move time
/// of 0 before it listens.
#[test]
fn the_match_file_tools_have_the_usual_command_line() {
    const MAT: &str = env!("CARGO_BIN_EXE_backgammon-mat");
    const BRIDGE: &str = env!("CARGO_BIN_EXE_gnubg-bridge");
    let dir = scratch("match-file-tools");
    for (tool, usage) in [
        (MAT, "Usage: backgammon-mat"),
        (BRIDGE, "Usage: gnubg-bridge"),
    ] {
        let help = run(tool, &dir, &["--help"]);
        assert_eq!(help.status.code(), Some(0), "{tool} --help");
        assert!(text(&help.stdout).contains(usage), "{}", text(&help.stdout));
    }
    usage_errors(
        MAT,
        &dir,
        &[],
        &[
            &[],
            &["check"],
            &["show"],
            &["copy", "a.mat"],
            &["frob", "a.mat"],
        ],
    );
    usage_errors(
        BRIDGE,
        &dir,
        &["--listen", "127.0.0.1:1"],
        &[
            &["--movetime", "0"],
            &["--movetime", "-5"],
            &["--frob"],
            &["--mat"],
        ],
    );
    // A file that cannot be read is not a usage error: status 1, naming the file.
    let missing = run(MAT, &dir, &["check", "missing.mat"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).starts_with("missing.mat: "));
}
