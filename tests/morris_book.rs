//! Nine Men's Morris' opening book through the protocol (`OwnBook`): a timed `go` answers the
//! book's move at once, fixed-depth searches and `OwnBook false` search, and a position that
//! is a mirror image of a book position gets an image of the book's move.

mod common;

use common::Engine;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);
/// Long enough that a search could not answer early.
const MOVETIME: &str = "go movetime 20000";

/// The book's move for a position key (`BOARD SIDE WHITE BLACK`), read from the book file.
fn book_line(key: &str) -> String {
    let book = include_str!("../src/games/morris/book.txt");
    let line = book
        .lines()
        .find(|line| line.starts_with(&format!("{key} ")))
        .unwrap_or_else(|| panic!("{key} is in the book"));
    line[key.len()..]
        .split_whitespace()
        .next()
        .expect("a move")
        .to_owned()
}

/// The point turned half round the board: files a..g and ranks 1..7 reversed.
fn half_turn(point: &str) -> String {
    let b = point.as_bytes();
    format!(
        "{}{}",
        (b'a' + b'g' - b[0]) as char,
        (b'1' + b'7' - b[1]) as char
    )
}

/// The point mirrored in the a1-g7 diagonal: file and rank swapped.
fn diagonal(point: &str) -> String {
    let b = point.as_bytes();
    format!(
        "{}{}",
        (b'a' + b[1] - b'1') as char,
        (b'1' + b[0] - b'a') as char
    )
}

/// The answer to `go` and whether an `info depth` line came before it.
fn answer(engine: &mut Engine, go: &str) -> (String, bool, Duration) {
    let start = Instant::now();
    engine.send(go);
    engine.send("isready");
    let mut searched = false;
    loop {
        let line = engine.until("", WAIT);
        if line.starts_with("info depth") {
            searched = true;
        }
        if let Some(mv) = line.strip_prefix("bestmove ") {
            return (mv.to_owned(), searched, start.elapsed());
        }
    }
}

#[test]
fn timed_searches_answer_from_the_book() {
    let mut engine = Engine::start(&[]);
    engine.send("newgame morris");
    engine.send("position startpos");
    let (mv, searched, took) = answer(&mut engine, MOVETIME);
    assert_eq!(mv, book_line(".../.../.../....../.../.../... w 9 9"));
    assert!(!searched && took < Duration::from_secs(10), "{took:?}");

    let (_, searched, _) = answer(&mut engine, "go depth 2");
    assert!(searched, "go depth searches");
    engine.send("setoption name OwnBook value false");
    let (_, searched, _) = answer(&mut engine, "go movetime 200");
    assert!(searched, "OwnBook false searches");
    engine.send("setoption name OwnBook value true");

    // White on a1, and White on g7 (its half-turn image): Black's book replies are images.
    engine.send("position startpos moves a1");
    let (reply, searched, _) = answer(&mut engine, MOVETIME);
    assert!(!searched);
    engine.send("position startpos moves g7");
    let (turned, searched, _) = answer(&mut engine, MOVETIME);
    assert!(!searched);
    // The only symmetries fixing a1 are the identity and the mirror in the a1-g7 diagonal,
    // so the book may answer either image of the reply.
    let images = [half_turn(&reply), half_turn(&diagonal(&reply))];
    assert!(
        images.contains(&turned),
        "{turned} after g7, {reply} after a1"
    );
    engine.send("setoption name OwnBook value maybe");
    assert_eq!(
        engine.until("error", WAIT),
        "error bad value for OwnBook: expected true or false"
    );
    assert!(engine.finish().success());
}
