//! `morris-tune` on small records: which positions become samples (quiet ones only: no mill
//! close for the side to move, game not over), that the fit lowers the training loss, that
//! each game is replayed under its own options, and errors for records it cannot use.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn record(result: &str, options: &str, moves: &str) -> String {
    format!("[Game \"morris\"]\n[Options \"{options}\"]\n[Result \"{result}\"]\nposition startpos moves {moves}\n\n")
}

fn tune(text: &str) -> (bool, String, String) {
    let dir = std::env::temp_dir().join(format!("morris-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // One file per call: the tests run in parallel.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let path = dir.join(format!("{}.rec", CALLS.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_morris-tune"))
        .arg(&path)
        .args(["--iterations", "200"])
        .output()
        .unwrap();
    std::fs::remove_file(&path).ok();
    // Fails while another call still has its file there; the last one removes it.
    std::fs::remove_dir(&dir).ok();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The training loss of a loss line (`scale k = K; loss ...: train L, held out ...`): the
/// number after the scale (the held-out part may be a loss or say that none is held out).
fn train_loss(line: &str) -> f64 {
    let mut numbers = line
        .split([' ', ',', ';'])
        .filter_map(|w| w.parse::<f64>().ok());
    numbers.next().unwrap(); // the scale k
    numbers.next().unwrap()
}

/// Three games of 4, 4 and 5 positions (the start and after each move). In the last, after
/// `a1 b2 d1 b4` White can close `a1 d1 g1`: that position is not quiet, so 12 samples.
#[test]
fn quiet_positions_are_the_samples_and_the_fit_lowers_the_loss() {
    let text = [
        record("1-0", "", "a1 a4 b2"),
        record("1/2-1/2", "", "a1 b2 d1"),
        record("1-0", "", "a1 b2 d1 b4"),
    ]
    .concat();
    let (ok, out, err) = tune(&text);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("3 games: 12 training positions, 0 held out"),
        "{out}"
    );
    let current = out.lines().find(|l| l.contains("current weights")).unwrap();
    let fitted = out.lines().find(|l| l.contains("fitted weights")).unwrap();
    assert!(train_loss(fitted) < train_loss(current), "{out}");
    for name in ["men", "gaps-against", "tempo-placing"] {
        assert!(out.lines().any(|l| l.starts_with(name)), "{out}");
    }
    // The scale is fixed: a man stays at 400.
    let men = out.lines().find(|l| l.starts_with("men ")).unwrap();
    assert_eq!(men.split_whitespace().nth(2), Some("400"), "{men}");
}

/// Each game is replayed under its own options: the last move of this game (from a flying
/// arena match) flies Black's man from c3 to d5, legal only with `flying=true`. Records of
/// another game and bad options are errors.
#[test]
fn options_are_the_records_own_and_unusable_records_are_errors() {
    let fly = "b4 f4 d2 g4 e4 g7 g1 d7 a7 d5 d6 c5 e5 e3 d1 d3 a1xd3 a4 d2d3 c5c4 d1d2 c4c3 \
               g1d1xf4 g4f4 d2b2 f4f2 d6b6xa4 f2d2 b4a4xd2 d7d6 a4b4xd5 g7d7 b2d2xe3 c3d5xa7";
    let (ok, out, err) = tune(&record("0-1", "flying=true", fly));
    assert!(ok, "{err}");
    assert!(out.starts_with("1 games: "), "{out}");
    let (ok, _, err) = tune(&record("0-1", "", fly));
    assert!(!ok && err.contains("c3d5xa7"), "{err}");
    let (ok, _, err) = tune(&record("1-0", "flying=maybe", "a1"));
    assert!(!ok && err.contains("flying"), "{err}");
    let (ok, _, err) = tune(&record("1-0", "", "a1 a1"));
    assert!(!ok && err.contains("a1"), "{err}");
    let (ok, _, err) = tune(&record("2-0", "", "a1"));
    assert!(!ok && err.contains("unknown result"), "{err}");
    let other = record("1-0", "", "a1").replace("morris", "nim");
    let (ok, _, err) = tune(&other);
    assert!(!ok && err.contains("nim record"), "{err}");
}
