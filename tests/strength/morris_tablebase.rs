//! `go` and `solve` with endgame tables, through the protocol of the real binary. The test
//! builds the flying 3v3, 3v4 and 4v3 tables itself (a few seconds), writes them to a temporary
//! directory and points the engine at it with `setoption name TablebasePath`.
//!
//! Expected values come from the tables read through the library (checked position by
//! position against the rules in the crate's tablebase tests) and, for short results, from
//! the engine's own search without tables: two independent computations.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::Duration;
use tabula::game::{Game, Side};
use tabula::games::morris::tablebase::{Tablebase, TbResult};
use tabula::games::morris::{Morris, Options};

/// The tables, built once, and the directory they were saved to.
static TABLES: LazyLock<(Tablebase, PathBuf)> = LazyLock::new(|| {
    let mut tb = Tablebase::new(true);
    tb.build_up_to(4, 7, |_, _, _| {});
    // Cargo's scratch directory for integration tests: each run rewrites the same instead of leaving a new directory in the system's temp folder; files of an
    // earlier run (maybe of an older format) go first, since `save` keeps existing files.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("morris-tables");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    tb.save(&dir).unwrap();
    (tb, dir)
});

fn options() -> Options {
    Options {
        flying: true,
        ..Options::default()
    }
}

fn position(fen: &str) -> Morris {
    Morris::from_fen(fen, &options()).unwrap()
}

/// The tables' value of a position (the library's own probe).
fn table(pos: &Morris) -> TbResult {
    TABLES.0.probe_position(pos).expect("a table position")
}

/// The engine playing `morris flying=true`, with the table checks' own commands.
struct Engine(common::Engine);

impl Engine {
    /// An engine playing `morris flying=true`, with the tables when `tables` is set (waiting
    /// until they are loaded).
    fn new(tables: Option<&Path>) -> Engine {
        let mut engine = Engine(common::Engine::start(&["morris", "flying=true"]));
        if let Some(dir) = tables {
            engine.send(&format!(
                "setoption name TablebasePath value {}",
                dir.display()
            ));
            // The loading thread may finish before `setoption` has said it started.
            let mut notes = [
                engine.until("info string morris tablebases"),
                engine.until("info string morris tablebases"),
            ];
            notes.sort_by_key(|note| note.contains("loaded"));
            assert!(notes[0].contains("loading 3v3 3v4 4v3"), "{notes:?}");
            assert!(notes[1].contains("loaded 3v3 3v4 4v3 in"), "{notes:?}");
        }
        engine
    }

    fn send(&mut self, line: &str) {
        self.0.send(line);
    }

    /// The next line starting with `prefix` (earlier lines are dropped).
    fn until(&mut self, prefix: &str) -> String {
        self.0.until(prefix, Duration::from_secs(60))
    }

    /// `go depth 1` at `fen` after `moves`: the last `info` score and the best move.
    fn go(&mut self, fen: &str, moves: &[String]) -> (String, String) {
        self.send(format!("position fen {fen} moves {}", moves.join(" ")).trim_end());
        self.send("go depth 1");
        let mut score = String::new();
        loop {
            let line = self.until("");
            if let Some(rest) = line.strip_prefix("info depth") {
                let words: Vec<&str> = rest.split_whitespace().collect();
                let at = words.iter().position(|&w| w == "score").unwrap();
                score = format!("{} {}", words[at + 1], words[at + 2]);
            } else if let Some(best) = line.strip_prefix("bestmove ") {
                return (score, best.to_owned());
            }
        }
    }

    /// The `solve` line for a position.
    fn solve(&mut self, fen: &str, movetime: u32) -> String {
        self.send(&format!("position fen {fen}"));
        self.send(&format!("solve movetime {movetime}"));
        self.until("solve ")
    }
}

/// The protocol's words for a table value: `solve`'s and `info`'s.
fn solve_words(result: TbResult) -> String {
    match result {
        TbResult::Win(n) => format!("win plies {n}"),
        TbResult::Loss(n) => format!("loss plies {n}"),
        TbResult::Draw => "draw".into(),
    }
}

fn score_words(result: TbResult) -> String {
    match result {
        TbResult::Win(n) => format!("mate {}", n.div_ceil(2)),
        TbResult::Loss(n) => format!("mate -{}", n.div_ceil(2)),
        TbResult::Draw => "cp 0".into(),
    }
}

/// A sample of the White-to-move positions of table `w`v`b` (no pieces in hand, game not
/// over) with the given value, in index order.
fn positions_with(w: u32, b: u32, wanted: impl Fn(TbResult) -> bool) -> Vec<Morris> {
    let sets = |k: u32| -> Vec<u32> { (0u32..1 << 24).filter(|s| s.count_ones() == k).collect() };
    let (whites, blacks) = (sets(w), sets(b));
    let mut found = Vec::new();
    // About 150 x 150 positions, spread over the table.
    for &white in whites.iter().step_by(whites.len() / 150) {
        let step = blacks.len() / 150;
        for &black in blacks.iter().filter(|&&s| s & white == 0).step_by(step) {
            let fen = fen_of(white, black);
            let pos = position(&fen);
            if pos.outcome().is_none() && wanted(table(&pos)) {
                found.push(pos);
            }
        }
    }
    found
}

/// The position string of White's and Black's point sets (bit i: the i-th point in byte
/// order, a1 = 0), White to move: built from the point names, independently of the engine.
fn fen_of(white: u32, black: u32) -> String {
    const NAMES: [&str; 24] = [
        "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3", "d5", "d6", "d7",
        "e3", "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7",
    ];
    let ranks: [&[&str]; 7] = [
        &["a7", "d7", "g7"],
        &["b6", "d6", "f6"],
        &["c5", "d5", "e5"],
        &["a4", "b4", "c4", "e4", "f4", "g4"],
        &["c3", "d3", "e3"],
        &["b2", "d2", "f2"],
        &["a1", "d1", "g1"],
    ];
    let square = |name: &str| {
        let bit = 1 << NAMES.iter().position(|&n| n == name).unwrap();
        if white & bit != 0 {
            'W'
        } else if black & bit != 0 {
            'B'
        } else {
            '.'
        }
    };
    let board: Vec<String> = ranks
        .iter()
        .map(|rank| rank.iter().map(|&n| square(n)).collect())
        .collect();
    format!("{} w 0 0 0", board.join("/"))
}

/// The longest win of a table, from White's side.
fn longest_win(w: u32, b: u32) -> (Morris, u32) {
    positions_with(w, b, |r| matches!(r, TbResult::Win(_)))
        .into_iter()
        .map(|pos| match table(&pos) {
            TbResult::Win(n) => (pos, n),
            _ => unreachable!(),
        })
        .max_by_key(|(_, n)| *n)
        .unwrap()
}

/// Both sides played by the engine with tables: the winner keeps the value, the defender
/// delays as long as the tables allow, so the game lasts exactly the table's distance; every
/// `info` score says so. The game's own rules must then declare White the winner.
#[test]
fn go_plays_won_endgames_out_in_exactly_the_tables_distance() {
    let mut engine = Engine::new(Some(&TABLES.1));
    // 3v4: the win goes through a capture into the 3v3 table.
    for (start, plies) in [longest_win(3, 3), longest_win(3, 4)] {
        assert!(plies >= 15, "{plies}");
        let fen = start.to_fen();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for ply in 0..plies {
            let expected = table(&pos);
            let (score, best) = engine.go(&fen, &moves);
            assert_eq!(score, score_words(expected), "{fen} after {moves:?}");
            let want_after = match expected {
                TbResult::Win(n) => TbResult::Loss(n - 1),
                TbResult::Loss(n) => TbResult::Win(n - 1),
                TbResult::Draw => unreachable!(),
            };
            pos.play(pos.parse_move(&best).unwrap());
            moves.push(best);
            let after = if pos.outcome().is_some() {
                TbResult::Loss(0)
            } else {
                table(&pos)
            };
            assert_eq!(after, want_after, "{fen} after {moves:?}");
            assert_eq!(pos.outcome().is_some(), ply + 1 == plies);
        }
        engine.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        engine.send("result");
        let result = engine.until("result ");
        assert!(result.starts_with("result white "), "{result}");
        assert_eq!(pos.outcome().unwrap().winner, Some(Side::White));
    }
}

/// Whether `mv` keeps the tables' `value` of `pos`: a win in n plies leads to a loss in n - 1
/// (or ends the game), a loss in n to a win in n - 1, a draw to a draw.
fn keeps(pos: &Morris, mv: &str, value: TbResult) -> bool {
    let mut child = pos.clone();
    child.play(pos.parse_move(mv).unwrap());
    let after = match child.outcome() {
        Some(_) => TbResult::Loss(0),
        None => table(&child),
    };
    match (value, after) {
        (TbResult::Win(n), TbResult::Loss(m)) | (TbResult::Loss(n), TbResult::Win(m)) => m + 1 == n,
        (TbResult::Draw, TbResult::Draw) => true,
        _ => false,
    }
}

/// `solve` answers the tables' value with a move that keeps it, and `go` plays such a move
/// with the matching score, for wins, losses and draws.
#[test]
fn solve_and_go_answer_from_the_tables() {
    let mut engine = Engine::new(Some(&TABLES.1));
    let kinds: [fn(TbResult) -> bool; 3] = [
        |r| matches!(r, TbResult::Win(_)),
        |r| matches!(r, TbResult::Loss(_)),
        |r| r == TbResult::Draw,
    ];
    let mut checked = [0; 3];
    for (w, b) in [(3, 3), (3, 4), (4, 3)] {
        for (k, kind) in kinds.iter().enumerate() {
            // Not every table has every kind (3 flying pieces to move rarely lose to 4).
            let sample = positions_with(w, b, kind);
            for pos in sample.iter().step_by(sample.len() / 5 + 1).take(5) {
                checked[k] += 1;
                let fen = pos.to_fen();
                let value = table(pos);
                let line = engine.solve(&fen, 1000);
                let want = format!("solve {} bestmove ", solve_words(value));
                assert!(line.starts_with(&want), "{fen}: {line}, tables {value:?}");
                let best = line[want.len()..].split(' ').next().unwrap();
                assert!(keeps(pos, best, value), "{fen}: solve's {best}");
                // `go` plays a move that keeps the value too, and its score says the value.
                let (score, best) = engine.go(&fen, &[]);
                assert_eq!(score, score_words(value), "{fen}");
                assert!(keeps(pos, &best, value), "{fen}: go's {best}");
            }
        }
    }
    assert!(checked.iter().all(|&n| n >= 10), "{checked:?}");
}

/// A position whose value the tables give needs no search: `go movetime` answers at once with
/// the tables' move, which keeps the value, instead of using its time (a drawn root would
/// otherwise deepen to the search's depth limit).
#[test]
fn go_stops_once_the_table_value_is_kept() {
    let mut engine = Engine::new(Some(&TABLES.1));
    let kinds: [fn(TbResult) -> bool; 2] = [
        |r| r == TbResult::Draw,
        |r| matches!(r, TbResult::Win(n) if n >= 9),
    ];
    for kind in kinds {
        let sample = positions_with(3, 3, kind);
        for pos in sample.iter().step_by(sample.len() / 3 + 1).take(3) {
            let fen = pos.to_fen();
            engine.send(&format!("position fen {fen}"));
            let start = std::time::Instant::now();
            engine.send("go movetime 20000");
            let mut iterations = 0;
            let best = loop {
                let line = engine.until("");
                if line.starts_with("info depth") {
                    iterations += 1;
                } else if let Some(best) = line.strip_prefix("bestmove ") {
                    break best.to_owned();
                }
            };
            let took = start.elapsed();
            // A timed search plays the tables' move without searching (as a book move).
            assert_eq!(iterations, 0, "{fen}");
            assert!(keeps(pos, &best, table(pos)), "{fen}: {best}");
            assert!(took < Duration::from_secs(10), "{fen}: {took:?}");
        }
    }
}

/// For short results the search without tables proves the same value.
#[test]
fn short_results_agree_with_the_search_alone() {
    let mut with = Engine::new(Some(&TABLES.1));
    let mut without = Engine::new(None);
    let kinds: [fn(TbResult) -> bool; 2] = [
        |r| matches!(r, TbResult::Win(n) if n <= 5),
        |r| matches!(r, TbResult::Loss(n) if n <= 6),
    ];
    let mut compared = [0, 0]; // wins, losses
    for (w, b) in [(3, 3), (3, 4), (4, 3)] {
        let sample = kinds
            .iter()
            .flat_map(|kind| positions_with(w, b, kind).into_iter().step_by(5).take(6));
        for pos in sample {
            let fen = pos.to_fen();
            let value = |line: String| line.split(" bestmove").next().unwrap().to_owned();
            let by_tables = value(with.solve(&fen, 1000));
            let by_search = value(without.solve(&fen, 20_000));
            assert_eq!(by_tables, by_search, "{fen}");
            assert_eq!(by_tables, format!("solve {}", solve_words(table(&pos))));
            compared[usize::from(matches!(table(&pos), TbResult::Loss(_)))] += 1;
        }
    }
    assert!(compared[0] >= 10 && compared[1] >= 5, "{compared:?}");
}

/// The tables ignore the no-capture rule: a win in n plies is claimed only while the counter
/// leaves room for it; one ply later the value is not the table's.
#[test]
fn the_no_capture_counter_limits_table_wins() {
    let mut engine = Engine::new(Some(&TABLES.1));
    let (pos, plies) = longest_win(3, 3);
    let fen = pos.to_fen();
    let with_counter = |quiet: u32| fen.replace(" w 0 0 0", &format!(" w 0 0 {quiet}"));
    let in_time = engine.solve(&with_counter(100 - plies), 1000);
    assert!(
        in_time.starts_with(&format!("solve win plies {plies} ")),
        "{in_time}"
    );
    // Every win in 3v3 ends the game at its last ply, and the defender can hold out for
    // `plies`: with one quiet ply more the counter draws first. Nothing can prove a draw
    // here but the tables, which do not know the counter: unknown.
    let late = engine.solve(&with_counter(101 - plies), 300);
    assert!(late.starts_with("solve unknown "), "{late}");
}

/// A truncated file is skipped with a note, and so is the table whose captures lead into it
/// (3v4 into 3v3; 4v3's captures end the game); the engine keeps working without them. A file
/// of the right length with one byte changed fails its checksum while loading: left out, with
/// a note naming it, and never probed.
#[test]
fn a_corrupt_file_is_skipped() {
    let dir = std::env::temp_dir().join(format!("tabula-morris-corrupt-{}", std::process::id()));
    let copy = |dir: &Path| {
        std::fs::create_dir_all(dir).unwrap();
        for name in [
            "morris-fly-3v3.tb",
            "morris-fly-3v4.tb",
            "morris-fly-4v3.tb",
        ] {
            std::fs::copy(TABLES.1.join(name), dir.join(name)).unwrap();
        }
    };
    copy(&dir);
    let file = dir.join("morris-fly-3v3.tb");
    let bytes = std::fs::read(&file).unwrap();
    let full = Tablebase::file_len(3, 3);
    assert_eq!(bytes.len() as u64, full);
    std::fs::write(&file, &bytes[..1000]).unwrap();
    let mut engine = Engine::new(None);
    engine.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    // The loading thread's note may come first.
    let notes = [engine.until("info string"), engine.until("info string")];
    let note = notes.iter().find(|n| n.contains("skipped")).unwrap();
    assert!(
        note.contains(&format!("morris-fly-3v3.tb has 1000 bytes, not {full}"))
            && note.contains("morris-fly-3v4.tb needs the 3v3 table")
            && note.contains("loading 4v3 ("),
        "{note}"
    );
    let (pos, plies) = longest_win(3, 3);
    let line = engine.solve(&pos.to_fen(), 200);
    assert!(
        !line.starts_with(&format!("solve win plies {plies} ")),
        "{line}"
    );
    // One value byte changed (a draw turned into a win in 1): the checksum catches it.
    let flipped =
        std::env::temp_dir().join(format!("tabula-morris-flipped-{}", std::process::id()));
    copy(&flipped);
    let file = flipped.join("morris-fly-3v3.tb");
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() - 1 - bytes.iter().rev().position(|&b| b == 0).unwrap();
    bytes[at] = 2;
    std::fs::write(&file, &bytes).unwrap();
    engine.send(&format!(
        "setoption name TablebasePath value {}",
        flipped.display()
    ));
    let mut notes = [engine.until("info string"), engine.until("info string")];
    notes.sort_by_key(|note| note.contains("loaded"));
    assert!(notes[0].contains("loading 3v3 3v4 4v3"), "{notes:?}");
    let loaded = &notes[1];
    assert!(
        loaded.contains("loaded 3v3 3v4 4v3")
            && loaded.contains("left out 3v3: ")
            && loaded.contains("morris-fly-3v3.tb: checksum mismatch"),
        "{loaded}"
    );
    let line = engine.solve(&pos.to_fen(), 200);
    assert!(
        !line.starts_with(&format!("solve win plies {plies} ")),
        "{line}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&flipped).unwrap();
}

#[test]
fn a_tablebases_directory_where_the_engine_starts_is_used_by_default() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let here = std::env::temp_dir().join(format!("tabula-default-tb-{}", std::process::id()));
    std::fs::create_dir_all(here.join("tablebases")).unwrap();
    let run = |dir: &std::path::Path| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"uci\nnewgame morris\nisready\n")
            .unwrap();
        String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
    };
    let with = run(&here);
    assert!(
        with.contains("option name TablebasePath type string default tablebases\n"),
        "{with}"
    );
    assert!(
        with.contains(
            "info string morris tablebases in tablebases: no usable morris-nofly-*.tb file\n"
        ),
        "{with}"
    );
    // Without the directory: no tables and nothing said about them.
    let without = run(&std::env::temp_dir());
    assert!(
        without.contains("option name TablebasePath type string default <empty>\n"),
        "{without}"
    );
    assert!(!without.contains("tablebases"), "{without}");
    std::fs::remove_dir_all(&here).unwrap();
}
