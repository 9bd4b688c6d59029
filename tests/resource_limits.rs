//! Memory the engine really holds, read from `/proc/PID/status` (Linux only) of the engine
//! binary under a pipe: the transposition table takes what `Hash` says, for every game, and no
//! more; shrinking `Hash` gives the memory back.

mod common;

use common::Engine;
use std::time::Duration;

/// Sends the lines, then waits for `readyok` (every command before it is done).
fn run(engine: &mut Engine, lines: &[&str]) {
    for line in lines {
        engine.send(line);
    }
    engine.send("isready");
    engine.until("readyok", Duration::from_secs(60));
}

/// The engine's resident memory in KiB.
fn rss_kib(engine: &Engine) -> i64 {
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", engine.pid())).expect("Linux /proc");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn the_table_takes_what_hash_says_in_every_game() {
    const SMALL: i64 = 1;
    const LARGE: i64 = 96;
    for game in ["backgammon", "bombardment", "cascades", "gipf", "morris"] {
        let mut engine = Engine::start(&[]);
        let set = |mib: i64| format!("setoption name Hash value {mib}");
        run(
            &mut engine,
            &[
                &set(SMALL),
                &format!("newgame {game}"),
                "go depth 2",
                "wait",
            ],
        );
        let small = rss_kib(&engine);
        run(&mut engine, &[&set(LARGE), "go depth 3", "wait"]);
        let large = rss_kib(&engine);
        let grown_mib = (large - small) as f64 / 1024.0;
        // The table is all of the growth: at most the difference asked, and nearly all of it
        // (it is written through when built, so every page is resident).
        let asked = (LARGE - SMALL) as f64;
        assert!(
            grown_mib <= asked + 2.0 && grown_mib >= asked * 0.95,
            "{game}: Hash {SMALL} -> {LARGE} grew the engine by {grown_mib:.1} MiB"
        );
        run(&mut engine, &[&set(SMALL)]);
        let shrunk_mib = (rss_kib(&engine) - small) as f64 / 1024.0;
        assert!(
            shrunk_mib < 4.0,
            "{game}: back to Hash {SMALL}, the engine still holds {shrunk_mib:.1} MiB more"
        );
    }
}

#[test]
fn movetime_counts_from_when_go_arrived() {
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;
    use tabula::search::Limits;
    // A search thread that got going 200 ms after its `go movetime 100` arrived (a loaded
    // machine) is already out of time: it must answer at once, with a move.
    let game = tabula::registry::new_game("gipf", &[], 1).unwrap();
    let arrived = Instant::now() - Duration::from_millis(200);
    let limits = Limits {
        movetime: Some(100),
        received: Some(arrived),
        ..Limits::default()
    };
    let started = Instant::now();
    let found = game.search(&limits, &AtomicBool::new(false), &mut |_| {});
    let took = started.elapsed().as_millis();
    assert!(found.best.is_some(), "no move");
    assert!(took < 50, "searched {took} ms past its deadline");
}
