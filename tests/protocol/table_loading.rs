//! `isready` after a tablebase path is set answers once the tables are loaded (UCI: "this
//! should be sent after setting the path to the tablebases as this can take some time"), so
//! an arbiter's first game is played with them; a `quit` read meanwhile still ends the
//! engine at once.

use crate::common::Engine;
use std::process::Command;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(60);

/// A directory with the flying tables up to 7 men, built by `morris-tb`.
fn tables(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-{name}-{}", std::process::id()));
    let built = Command::new(env!("CARGO_BIN_EXE_morris-tb"))
        .args(["--max", "4", "--max-total", "7", "--flying", "true"])
        .args(["--threads", "1", "--dir"])
        .arg(&dir)
        .output()
        .expect("morris-tb starts");
    assert!(built.status.success(), "{built:?}");
    dir
}

#[test]
fn isready_answers_after_the_tables_are_loaded() {
    let dir = tables("loading");
    for command in [
        "newgame morris flying=true",
        "setoption name Game value morris",
    ] {
        let mut engine = Engine::start(&[]);
        engine.send("setoption name GameOptions value flying=true");
        engine.send(command);
        engine.send(&format!(
            "setoption name TablebasePath value {}\nisready",
            dir.display()
        ));
        let lines = engine.lines_until("readyok", WAIT);
        assert!(
            lines.iter().any(|l| l.contains(": loaded 3v3 3v4 4v3")),
            "{command}: {lines:?}"
        );
        // Loaded: the next `isready` has nothing to wait for.
        engine.send("position startpos moves a1 a4\nisready");
        assert_eq!(engine.lines_until("readyok", WAIT), ["readyok"]);
        engine.send("quit");
        assert!(engine.finish().success());
    }
    let mut engine = Engine::start(&[]);
    let start = Instant::now();
    engine.send(&format!(
        "newgame morris flying=true\nsetoption name TablebasePath value {}\nisready\nquit",
        dir.display()
    ));
    assert!(engine.finish().success());
    assert!(start.elapsed() < Duration::from_secs(10));
    let _ = std::fs::remove_dir_all(&dir);
}
