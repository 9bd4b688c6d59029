//! Breakthrough's rules on positions worked out by hand.

use super::*;

fn at(fen: &str) -> Breakthrough {
    Breakthrough::from_fen(fen, &Options::default()).expect(fen)
}

fn legal(pos: &Breakthrough) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut text: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    text.sort();
    text
}

fn played(mut pos: Breakthrough, token: &str) -> Breakthrough {
    let mv = pos.parse_move(token).expect(token);
    pos.play(mv);
    pos
}

#[test]
fn the_start_position_and_its_22_moves() {
    let start = Breakthrough::start(&Options::default());
    assert_eq!(
        start.to_fen(),
        "bbbbbbbb/bbbbbbbb/8/8/8/8/wwwwwwww/wwwwwwww w"
    );
    // Each man of rank 2 steps straight or to either diagonal; the a and h men have one
    // diagonal: 8 x 3 - 2.
    assert_eq!(legal(&start).len(), 22);
    assert_eq!(start.count_moves(), 22);
    assert!(start.is_consistent());
}

#[test]
fn captures_go_diagonally_and_never_straight() {
    // White d4 faces black d5 (straight: blocked) and c5 (diagonal: a capture).
    let pos = at("4b3/8/8/2bb4/3w4/8/8/4w3 w");
    let moves = legal(&pos);
    assert!(moves.contains(&"d4c5".to_owned()));
    assert!(moves.contains(&"d4e5".to_owned()));
    assert!(!moves.contains(&"d4d5".to_owned()));
    let err = pos.parse_move("d4d5").unwrap_err().to_string();
    assert_eq!(
        err,
        "illegal move d4d5: a man captures diagonally, never straight ahead"
    );
    let after = played(pos, "d4c5");
    assert_eq!(after.to_fen(), "4b3/8/8/2wb4/8/8/8/4w3 b");
}

#[test]
fn the_far_rank_and_the_last_man_win() {
    let pos = played(at("8/3w4/8/8/8/8/b7/8 w"), "d7d8");
    assert_eq!(pos.outcome(), Some(Outcome::win(Side::White, "far-rank")));
    assert!(legal(&pos).is_empty());
    let pos = played(at("8/8/8/8/8/2b5/3w4/8 w"), "d2c3");
    assert_eq!(pos.outcome(), Some(Outcome::win(Side::White, "no-pieces")));
}

#[test]
fn a_man_blocked_straight_ahead_still_takes_or_steps_aside() {
    // Black h3 moves down: h2 holds a white man (no straight capture), g2 another (a capture).
    let pos = at("8/8/8/8/8/7b/6ww/8 b");
    assert_eq!(legal(&pos), vec!["h3g2"]);
    // White a1 faces black a2 straight ahead; its one diagonal, b2, is empty: a move.
    let pos = at("7b/8/8/8/8/8/b7/w7 w");
    assert_eq!(legal(&pos), vec!["a1b2"]);
}

#[test]
fn bad_moves_and_positions_say_why() {
    let start = Breakthrough::start(&Options::default());
    let why = |token: &str| start.parse_move(token).unwrap_err().to_string();
    assert_eq!(why("e2"), "bad move e2: expected two squares, like e2e3");
    assert_eq!(
        why("e2i3"),
        "bad move e2i3: expected two squares, like e2e3"
    );
    assert_eq!(why("e3e4"), "illegal move e3e4: no white man on e3");
    assert_eq!(
        why("e2e4"),
        "illegal move e2e4: a man moves one square forward, straight or diagonally"
    );
    assert_eq!(
        why("e1e2"),
        "illegal move e1e2: e2 holds a man of the same side"
    );
    for fen in [
        "8/8/8/8/8/8/8 w",
        "9/8/8/8/8/8/8/8 w",
        "x7/8/8/8/8/8/8/8 w",
        "w7/8/8/8/8/8/8/b7 w",
        "8/8/8/8/8/8/8/8 x",
        "8/8/8/8/8/8/8/8",
        "0/8/8/8/8/8/8/8 w",
        "8/8/8/8/8/8/8/8 w",
        "bbbbbbbb/bbbbbbbb/bbbbbbbb/8/8/8/wwwwwwww/wwwwwwww w",
    ] {
        assert!(
            Breakthrough::from_fen(fen, &Options::default()).is_err(),
            "{fen}"
        );
    }
    let small = Options { size: 5 };
    let pos = Breakthrough::from_fen("bbbbb/bbbbb/5/wwwww/wwwww w", &small).unwrap();
    assert_eq!(pos.to_fen(), "bbbbb/bbbbb/5/wwwww/wwwww w");
    assert_eq!(Breakthrough::start(&small).to_fen(), pos.to_fen());
    assert!(Breakthrough::parse_options(&[("size", "4")]).is_err());
    assert!(Breakthrough::parse_options(&[("size", "9")]).is_err());
    assert!(Breakthrough::parse_options(&[("width", "8")]).is_err());
}
