//! The games' opening books through the protocol (`OwnBook`): a timed `go` answers the book's
//! move at once, fixed-depth searches and `OwnBook false` search; in Nine Men's Morris a
//! position that is a mirror image of a book position gets an image of the book's move, and
//! GIPF's book holds the basic game only.

use crate::common;

use common::Engine;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);
/// Long enough that a search could not answer early.
const MOVETIME: &str = "go movetime 20000";

/// The book's move for a position key (Morris: `BOARD SIDE WHITE BLACK`), read from the book
/// file.
fn book_line(book: &str, key: &str) -> String {
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
    let book = include_str!("../../src/games/morris/book.txt");
    assert_eq!(mv, book_line(book, ".../.../.../....../.../.../... w 9 9"));
    assert!(!searched && took < Duration::from_secs(10), "{took:?}");

    let (_, searched, _) = answer(&mut engine, "go depth 2");
    assert!(searched, "go depth searches");
    engine.send("setoption name OwnBook value false");
    let (_, searched, _) = answer(&mut engine, "go movetime 200");
    assert!(searched, "OwnBook false searches");
    engine.send("setoption name OwnBook value true");

    // Black on a1 after White's book move, and the half-turn image of both: White's book
    // replies are images of each other.
    engine.send(&format!("position startpos moves {mv} a1"));
    let (reply, searched, _) = answer(&mut engine, MOVETIME);
    assert!(!searched, "White's second move is in the book");
    engine.send(&format!("position startpos moves {} g7", half_turn(&mv)));
    let (turned, searched, _) = answer(&mut engine, MOVETIME);
    assert!(!searched);
    // Besides the identity only the mirror in the a1-g7 diagonal fixes a1, and it fixes
    // White's man only when that man is on the diagonal: then either image may answer.
    let mut images = vec![half_turn(&reply)];
    if diagonal(&mv) == mv {
        images.push(half_turn(&diagonal(&reply)));
    }
    assert!(
        images.contains(&turned),
        "{turned} after {} g7, {reply} after {mv} a1",
        half_turn(&mv)
    );
    // The book holds White's moves only (docs/morris.md, sixth round): Black searches.
    engine.send("position startpos moves a1");
    let (_, searched, _) = answer(&mut engine, "go movetime 300");
    assert!(searched, "Black's first move is searched");
    engine.send("setoption name OwnBook value maybe");
    assert_eq!(
        engine.until("error", WAIT),
        "error bad value for OwnBook: expected true or false"
    );
    assert!(engine.finish().success());
}

#[test]
fn gipf_timed_searches_answer_from_the_book_of_the_basic_game() {
    let book = include_str!("../../src/games/gipf/book.txt");
    let mut engine = Engine::start(&[]);
    engine.send("newgame gipf");
    engine.send("position startpos");
    let (first, searched, took) = answer(&mut engine, MOVETIME);
    assert_eq!(first, book_line(book, "b2w/5/6/w5b/6/5/b2w w 12 12 0 0"));
    assert!(!searched && took < Duration::from_secs(10), "{took:?}");
    // Black's reply to any first move, and White's second move after Black's book reply.
    engine.send("position startpos moves a1-b2");
    let (_, searched, _) = answer(&mut engine, "go wtime 600000 btime 600000");
    assert!(!searched, "a clock search answers from the book");
    engine.send(&format!("position startpos moves {first}"));
    let (reply_to_book, searched, _) = answer(&mut engine, MOVETIME);
    assert!(!searched);
    engine.send(&format!("position startpos moves {first} {reply_to_book}"));
    let (_, searched, _) = answer(&mut engine, MOVETIME);
    assert!(!searched, "White's second move is in the book");

    engine.send("position startpos");
    let (_, searched, _) = answer(&mut engine, "go nodes 1000");
    assert!(searched, "go nodes searches");
    engine.send("setoption name OwnBook value false");
    let (_, searched, _) = answer(&mut engine, "go movetime 100");
    assert!(searched, "OwnBook false searches");
    engine.send("setoption name OwnBook value true");
    engine.send("newgame gipf variant=standard");
    engine.send("position startpos");
    let (_, searched, _) = answer(&mut engine, "go movetime 100");
    assert!(searched, "the standard game has no book");
    assert!(engine.finish().success());
}
