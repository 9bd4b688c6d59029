//! Memory the engine really holds, read from `/proc/PID/status` (Linux only) of the engine
//! binary under a pipe: the transposition table takes at most what `Hash` says, for every
//! game, its pages becoming resident as the search writes them (so a large `Hash` costs no
//! time before it is used); shrinking `Hash` gives the memory back.

use crate::common;

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
fn the_table_takes_at_most_what_hash_says_in_every_game() {
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
        // Enough stores to write nearly every page of the table in the games that use it.
        run(&mut engine, &[&set(LARGE), "go nodes 400000", "wait"]);
        let grown_mib = (rss_kib(&engine) - small) as f64 / 1024.0;
        // The table's pages become resident as they are written, never beyond what was asked.
        let asked = (LARGE - SMALL) as f64;
        assert!(
            grown_mib <= asked + 2.0,
            "{game}: Hash {SMALL} -> {LARGE} grew the engine by {grown_mib:.1} MiB"
        );
        if game == "bombardment" {
            assert!(
                grown_mib >= asked * 0.8,
                "{game}: a long search wrote only {grown_mib:.1} MiB of the table"
            );
        }
        run(&mut engine, &[&set(SMALL)]);
        let shrunk_mib = (rss_kib(&engine) - small) as f64 / 1024.0;
        assert!(
            shrunk_mib < 4.0,
            "{game}: back to Hash {SMALL}, the engine still holds {shrunk_mib:.1} MiB more"
        );
    }
}

/// Milliseconds until `readyok` answers an `isready` sent after `lines`.
fn ready_after(engine: &mut Engine, lines: &[&str]) -> u128 {
    let start = std::time::Instant::now();
    run(engine, lines);
    start.elapsed().as_millis()
}

#[test]
fn a_large_hash_costs_no_time_until_used() {
    let mut engine = Engine::start(&[]);
    let before = rss_kib(&engine);
    let hash = ready_after(&mut engine, &["setoption name Hash value 4096"]);
    let newgame = ready_after(&mut engine, &["newgame gipf"]);
    let cleared = ready_after(&mut engine, &["uginewgame"]);
    let largest = ready_after(&mut engine, &["setoption name Hash value 65536"]);
    let switched = ready_after(&mut engine, &["newgame morris"]);
    let searched = ready_after(&mut engine, &["go depth 3", "wait"]);
    let grown_mib = (rss_kib(&engine) - before) / 1024;
    println!(
        "readyok after Hash 4096 {hash} ms, newgame {newgame} ms, uginewgame {cleared} ms, \
         Hash 65536 {largest} ms, newgame {switched} ms, go depth 3 {searched} ms; +{grown_mib} MiB"
    );
    for (what, ms) in [
        ("Hash 4096", hash),
        ("newgame", newgame),
        ("uginewgame", cleared),
        ("Hash 65536", largest),
        ("newgame with Hash 65536", switched),
    ] {
        assert!(ms < 1000, "{what}: readyok after {ms} ms");
    }
    assert!(grown_mib < 64, "the unused table takes {grown_mib} MiB");
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
