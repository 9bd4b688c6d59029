//! `MultiPV` and `Threads` through the protocol, in every game: the N lines of the last depth
//! are distinct legal moves ranked best first, `bestmove` is line 1's move, and a search on
//! two threads answers a legal move within its limits and counts the helpers' nodes.

use crate::common;

use common::Engine;
use std::time::{Duration, Instant};

/// A position per game where the search has a real choice (backgammon: a rolled checker play).
const POSITIONS: &[(&str, &str)] = &[
    ("bombardment", "position startpos moves e2e3 d7d6"),
    ("gipf", "position startpos"),
    ("cascades", "position startpos"),
    ("morris", "position startpos moves d2 d6 f4 b4"),
    ("nim", "position startpos"),
    ("backgammon", "position startpos\ndice 21"),
];

/// Sends `go`, collects the `info` lines until `bestmove`; returns them and the move.
fn search(engine: &mut Engine, go: &str) -> (Vec<String>, String) {
    engine.send(go);
    let mut infos = Vec::new();
    loop {
        let line = engine.until("", Duration::from_secs(60));
        if let Some(mv) = line.strip_prefix("bestmove ") {
            return (infos, mv.split_whitespace().next().unwrap_or("").to_owned());
        }
        if line.starts_with("info depth") {
            infos.push(line);
        }
    }
}

/// The value of `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == key)?;
    words.get(at + 1).copied()
}

/// A score as one comparable number: mates beyond every centipawn score.
fn score(line: &str) -> i64 {
    if let Some(cp) = field(line, "cp") {
        return cp.parse().unwrap();
    }
    let mate: i64 = field(line, "mate").unwrap().parse().unwrap();
    if mate > 0 {
        10_000_000 - mate
    } else {
        -10_000_000 - mate
    }
}

fn legal_moves(engine: &mut Engine) -> Vec<String> {
    engine.send("legalmoves");
    let line = engine.until("legalmoves", Duration::from_secs(10));
    line.split_whitespace().skip(1).map(str::to_owned).collect()
}

#[test]
fn multipv_lines_are_distinct_ranked_legal_moves_in_every_game() {
    for &(game, position) in POSITIONS {
        let mut engine = Engine::start(&[game]);
        engine.send(position);
        let legal = legal_moves(&mut engine);
        engine.send("setoption name MultiPV value 3");
        let (infos, best) = search(&mut engine, "go depth 3");
        let deepest = infos
            .iter()
            .filter_map(|l| field(l, "depth"))
            .map(|d| d.parse::<u32>().unwrap())
            .max()
            .expect("info lines");
        let last: Vec<&String> = infos
            .iter()
            .filter(|l| field(l, "depth") == Some(&deepest.to_string()))
            .collect();
        assert_eq!(last.len(), 3.min(legal.len()), "{game}: {last:?}");
        let mut seen = Vec::new();
        for (k, line) in last.iter().enumerate() {
            assert_eq!(
                field(line, "multipv"),
                Some(&*(k + 1).to_string()),
                "{game}: {line}"
            );
            let first = field(line, "pv").expect("a pv");
            assert!(
                legal.iter().any(|m| m == first),
                "{game}: {first} not legal"
            );
            assert!(!seen.contains(&first), "{game}: {first} twice");
            seen.push(first);
        }
        for pair in last.windows(2) {
            assert!(score(pair[0]) >= score(pair[1]), "{game}: {pair:?}");
        }
        assert_eq!(best, seen[0], "{game}: bestmove is line 1");
        // Back to one line: no multipv field.
        engine.send("setoption name MultiPV value 1");
        let (infos, _) = search(&mut engine, "go depth 2");
        assert!(
            infos.iter().all(|l| field(l, "multipv").is_none()),
            "{game}"
        );
        engine.send("quit");
        engine.finish();
    }
}

#[test]
fn two_threads_answer_legal_moves_within_the_limits_in_every_game() {
    for &(game, position) in POSITIONS {
        let mut engine = Engine::start(&[game]);
        engine.send(position);
        let legal = legal_moves(&mut engine);
        engine.send("setoption name Threads value 2");
        let (infos, best) = search(&mut engine, "go depth 3");
        assert!(legal.contains(&best), "{game}: {best}");
        assert!(!infos.is_empty(), "{game}");
        let started = Instant::now();
        let (_, best) = search(&mut engine, "go movetime 200");
        let took = started.elapsed();
        assert!(legal.contains(&best), "{game}: {best}");
        assert!(took < Duration::from_millis(1500), "{game}: {took:?}");
        // `stop` ends a two-thread infinite search at once.
        engine.send("go infinite");
        std::thread::sleep(Duration::from_millis(100));
        let stopped = Instant::now();
        let (_, best) = search(&mut engine, "stop");
        assert!(legal.contains(&best), "{game}: {best}");
        assert!(stopped.elapsed() < Duration::from_millis(500), "{game}");
        engine.send("quit");
        engine.finish();
    }
}

/// The lines of a `go` up to `bestmove`, without what depends on the clock (nodes per second,
/// time).
fn untimed_lines(engine: &mut Engine, go: &str) -> Vec<String> {
    engine.send(go);
    let mut lines = Vec::new();
    loop {
        let line = engine.until("", Duration::from_secs(60));
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut kept = Vec::new();
        let mut i = 0;
        while i < words.len() {
            if words[i] == "nps" || words[i] == "time" {
                i += 2;
            } else {
                kept.push(words[i]);
                i += 1;
            }
        }
        lines.push(kept.join(" "));
        if line.starts_with("bestmove") {
            return lines;
        }
    }
}

#[test]
fn backgammon_cube_decisions_on_two_threads_are_those_of_one() {
    let cases = [
        // Before the roll, depth 2: every roll searched by the lookahead's passes.
        (
            "w=13:4,8:3,6:5,5:2,4:1 b=24:2,13:4,8:3,6:4,5:2 w -",
            "go depth 2",
        ),
        // Facing a double, depth 3: the answer and two checker plays.
        (
            "w=11:4,8:2,6:3,5:2,3:2,2:2 b=18:1,13:3,9:2,7:1,6:3,4:3,2:2 b - offered",
            "go depth 3",
        ),
    ];
    for (fen, go) in cases {
        let mut answers = Vec::new();
        for threads in [1, 2] {
            let mut engine = Engine::start(&[]);
            engine.send(&format!("setoption name Threads value {threads}"));
            engine.send("newgame backgammon cube=on");
            engine.send(&format!("position fen {fen}"));
            answers.push(untimed_lines(&mut engine, go));
            engine.send("quit");
            engine.finish();
        }
        assert!(
            answers[0].iter().any(|l| l.starts_with("info string cube")),
            "{fen}: {:?}",
            answers[0]
        );
        assert_eq!(answers[0], answers[1], "{fen}");
    }
}
