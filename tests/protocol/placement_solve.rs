//! `solve` and `go` while pieces are in hand, with endgame tables attached: the proof over
//! the rest of placement answers through the protocol, its move keeps the value it claims,
//! and `go` plays a move that keeps it too (docs/morris.md, "Placement, proven").

use crate::common::Engine;
use std::process::Command;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(60);

/// The proven value of the position set last (`win`, `draw` or `loss`) and its move.
fn solve(engine: &mut Engine) -> (String, String) {
    engine.send("solve movetime 30000");
    let line = engine.until("solve ", WAIT);
    let words: Vec<&str> = line.split_whitespace().collect();
    assert!(["win", "draw", "loss"].contains(&words[1]), "{line}");
    let at = words
        .iter()
        .position(|&w| w == "bestmove")
        .expect("a bestmove field");
    (words[1].to_owned(), words[at + 1].to_owned())
}

/// The value the opponent has after `mv` was played from `fen` (a finished game counts).
fn value_after(engine: &mut Engine, fen: &str, mv: &str) -> String {
    engine.send(&format!("position fen {fen} moves {mv}\nd"));
    let result = engine.until("result ", WAIT);
    if result != "result none" {
        return if result.contains("draw") {
            "draw"
        } else {
            "loss"
        }
        .to_owned();
    }
    engine.send(&format!("position fen {fen} moves {mv}"));
    solve(engine).0
}

fn opposite(value: &str) -> &'static str {
    match value {
        "win" => "loss",
        "loss" => "win",
        _ => "draw",
    }
}

#[test]
fn placement_positions_are_solved_and_played_by_their_value() {
    let dir = std::env::temp_dir().join(format!("tabula-placement-{}", std::process::id()));
    let built = Command::new(env!("CARGO_BIN_EXE_morris-tb"))
        .args([
            "--max",
            "4",
            "--max-total",
            "7",
            "--flying",
            "true",
            "--threads",
            "1",
        ])
        .arg("--dir")
        .arg(&dir)
        .output()
        .expect("morris-tb starts");
    assert!(built.status.success(), "{built:?}");
    let mut engine = Engine::start(&[]);
    engine.send("newgame morris flying=true nocapture=0 repetition=0");
    engine.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    let loaded = engine.until("info string morris tablebases", WAIT);
    if !loaded.contains(": loaded ") {
        engine.until("info string morris tablebases", WAIT);
    }
    let positions = [
        // White closes a7-d7-g7 and takes one of Black's two men: Black is left with two.
        "WW./BB./.../....../.../.../... w 1 1 0",
        "B.W/.../.../....../.../.../W.B w 1 1 0",
        "W../.../.../....../.../.../..B w 2 2 0",
        ".../.W./.B./....../.../.../... b 2 3 0",
    ];
    for fen in positions {
        engine.send(&format!("position fen {fen}"));
        let (value, best) = solve(&mut engine);
        if fen.starts_with("WW.") {
            assert_eq!(value, "win", "{fen}");
            assert!(best.starts_with("g7x"), "{fen} {best}");
        }
        assert_eq!(
            value_after(&mut engine, fen, &best),
            opposite(&value),
            "{fen} {best}"
        );
        engine.send(&format!("position fen {fen}\ngo movetime 100"));
        let played = engine.until("bestmove ", WAIT);
        let played = played.split_whitespace().nth(1).expect("a move").to_owned();
        assert_eq!(
            value_after(&mut engine, fen, &played),
            opposite(&value),
            "{fen} {played}"
        );
    }
    // Placement ends in 4v4, whose table is missing: unknown, unless placement decided.
    engine.send("position fen .../.W./.B./....../.../.W./... b 2 3 0\nsolve");
    let open = engine.until("solve ", WAIT);
    assert!(open.starts_with("solve unknown bestmove none "), "{open}");
    engine.send("quit");
    std::fs::remove_dir_all(&dir).unwrap();
}
