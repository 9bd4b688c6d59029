//! Rule scenarios, each named after the rule it pins down.

use super::*;

fn position(fen: &str) -> Bombardment<u64> {
    Bombardment::from_fen(fen, &Options::default()).expect("test position parses")
}

fn moves(position: &Bombardment<u64>) -> Vec<String> {
    let mut list = Vec::new();
    position.legal_moves(&mut list);
    let mut text: Vec<String> = list.iter().map(|&m| position.format_move(m)).collect();
    text.sort();
    text
}

#[test]
fn start_has_22_steps_and_16_detonations() {
    let start = Bombardment::<u64>::start(&Options::default());
    let list = moves(&start);
    assert_eq!(list.len(), 22 + 16);
    assert!(list.contains(&"a2a3".to_string()) && list.contains(&"a2b3".to_string()));
    assert!(!list.iter().any(|m| m.starts_with("a1")));
}

#[test]
fn steps_go_forward_onto_empty_squares_only() {
    // White d4 faces black d5 and e5; c5 is free.
    let p = position("8/8/8/3bb3/3w4/8/8/8 w");
    assert_eq!(moves(&p), vec!["d4c5", "xd4"]);
}

#[test]
fn detonation_removes_both_colours_around_it() {
    let mut p = position("7b/8/8/2bbb3/2www3/8/8/8 w");
    p.play(p.parse_move("xd4").unwrap());
    assert_eq!(p.to_fen(), "7b/8/8/8/8/8/8/8 b");
    assert_eq!(p.outcome(), Some(Outcome::win(Side::Black, "no-pieces")));
}

#[test]
fn detonation_emptying_the_board_is_a_draw() {
    let mut p = position("8/8/8/8/3b4/3w4/8/8 w");
    p.play(p.parse_move("xd3").unwrap());
    assert_eq!(p.outcome(), Some(Outcome::draw("board-empty")));
    assert!(moves(&p).is_empty());
}

#[test]
fn reaching_the_far_rank_wins() {
    let mut p = position("b7/3w4/8/8/8/8/8/8 w");
    p.play(p.parse_move("d7d8").unwrap());
    assert_eq!(p.outcome(), Some(Outcome::win(Side::White, "far-rank")));
    assert_eq!(p.perft(1), 0);
}

#[test]
fn illegal_moves_say_why() {
    let p = Bombardment::<u64>::start(&Options::default());
    let err = |t: &str| p.parse_move(t).unwrap_err().to_string();
    assert_eq!(
        err("e2e4"),
        "illegal move e2e4: a piece steps one square straight or diagonally forward"
    );
    assert_eq!(err("e1e2"), "illegal move e1e2: e2 is occupied");
    assert_eq!(err("xe7"), "illegal move xe7: no white piece on e7");
    assert_eq!(err("e3e4"), "illegal move e3e4: no white piece on e3");
    assert_eq!(
        err("e2e1"),
        "illegal move e2e1: a piece steps one square straight or diagonally forward"
    );
    assert!(err("z9z8").starts_with("bad move z9z8"));
    assert!(err("e2").starts_with("bad move e2"));
    assert!(err("").starts_with("bad move"));
}

#[test]
fn fen_round_trips_and_rejects_junk() {
    let start = Bombardment::<u64>::start(&Options::default());
    assert_eq!(
        start.to_fen(),
        "bbbbbbbb/bbbbbbbb/8/8/8/8/wwwwwwww/wwwwwwww w"
    );
    assert_eq!(position(&start.to_fen()), start);
    for bad in [
        "",
        "8/8 w",
        "bbbbbbbb/bbbbbbbb/8/8/8/8/wwwwwwww/wwwwwwww",
        "9/8/8/8/8/8/8/8 w",
        "7/8/8/8/8/8/8/8 w",
        "8/8/8/8/8/8/8/8 x",
        "08/8/8/8/8/8/8/8 w",
        "w7/8/8/8/8/8/8/b7 w",
        "q7/8/8/8/8/8/8/8 w",
    ] {
        assert!(
            Bombardment::<u64>::from_fen(bad, &Options::default()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn every_board_size_plays_the_same_rules() {
    // From size 6 up the two armies cannot touch within two plies: each side has 3n-2 steps
    // (n straight, n-1 per diagonal) and 2n detonations, whatever the other side did.
    for size in 6..=16u32 {
        let options = Options { size };
        let count = match size {
            0..=8 => Bombardment::<u64>::start(&options).perft(2),
            9..=11 => Bombardment::<u128>::start(&options).perft(2),
            _ => Bombardment::<U256>::start(&options).perft(2),
        };
        let n = size as u64;
        assert_eq!(count, (5 * n - 2) * (5 * n - 2), "size {size}");
    }
}
