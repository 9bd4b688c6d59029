//! Unit tests: notation round trips, parse/generate agreement, rule clauses, reasons.

use super::board::{ADJACENT, MILLS, POINT_NAMES};
use super::*;
use crate::game::{Game, GameError, Harness, Outcome, Side};

fn pos(fen: &str) -> Morris {
    Morris::from_fen(fen, &Options::default()).unwrap()
}

fn legal(p: &Morris) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    moves.iter().map(|&m| p.format_move(m)).collect()
}

fn after(p: &Morris, tokens: &str) -> Morris {
    let mut p = p.clone();
    for t in tokens.split_whitespace() {
        let mv = p.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        p.play(mv);
    }
    p
}

fn reason(p: &Morris, token: &str) -> String {
    p.parse_move(token).unwrap_err().to_string()
}

#[test]
fn geometry() {
    assert_eq!(ADJACENT.iter().map(|a| a.count_ones()).sum::<u32>(), 64);
    assert!(MILLS.iter().all(|m| m.count_ones() == 3));
    let mut names = POINT_NAMES.to_vec();
    names.sort();
    assert_eq!(names, POINT_NAMES);
}

#[test]
fn start_position() {
    let p = Morris::start(&Options::default());
    assert_eq!(p.to_fen(), ".../.../.../....../.../.../... w 9 9 0");
    assert_eq!(legal(&p).len(), 24);
    assert_eq!(p.perft(2), 24 * 23);
    assert_eq!(pos(&p.to_fen()).hash(), p.hash());
}

/// Perft by listing every move at every ply: what the bulk count must agree with.
fn listed_perft(p: &Morris, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = p.clone();
            child.play(mv);
            listed_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn perft_matches_listing_every_move() {
    let p = Morris::start(&Options::default());
    for d in 1..=5 {
        assert_eq!(p.perft(d), listed_perft(&p, d));
    }
}

/// White to move in the moving phase: white a1 d1 (g1 closes a mill), b4 g4 d6; black holds
/// the mill a7 d7 g7 and the free pieces c5 e3.
const MOVING: &str = "BBB/.W./B../.W...W/..B/.../WW. w 0 0 10";

#[test]
fn placement_reasons() {
    let p = after(&Morris::start(&Options::default()), "a1 b2 d1 d2");
    let moves = legal(&p);
    assert!(moves.contains(&"g1xb2".to_owned()) && moves.contains(&"g1xd2".to_owned()));
    assert!(!moves.contains(&"g1".to_owned()));
    assert_eq!(moves.len(), 19 + 2);
    assert_eq!(
        reason(&p, "g1"),
        "illegal move g1: g1 closes a mill and must take a black piece (add a capture like xb2)"
    );
    assert_eq!(
        reason(&p, "a4xb2"),
        "illegal move a4xb2: capture not allowed: a4 closes no mill"
    );
    assert_eq!(
        reason(&p, "g1xa4"),
        "illegal move g1xa4: no black piece on a4 to take"
    );
    assert_eq!(reason(&p, "a1"), "illegal move a1: a1 is occupied");
    assert_eq!(
        reason(&p, "a1a4"),
        "illegal move a1a4: white must place a piece while it has 7 in hand"
    );
    assert_eq!(
        reason(&p, "h1"),
        "bad move h1: h1 is not a point of the board"
    );
    assert!(reason(&p, "d2-d3").starts_with("bad move d2-d3: expected"));
}

#[test]
fn moving_reasons() {
    let p = pos(MOVING);
    assert_eq!(p.phase(Side::White), Phase::Moving);
    assert_eq!(reason(&p, "g4g7"), "illegal move g4g7: g7 is occupied");
    assert_eq!(
        reason(&p, "b4d2"),
        "illegal move b4d2: d2 is not adjacent to b4"
    );
    assert_eq!(
        reason(&p, "c3d3"),
        "illegal move c3d3: no white piece on c3"
    );
    assert_eq!(
        reason(&p, "d2"),
        "illegal move d2: white has no pieces in hand and must move a piece (like d2d3)"
    );
    assert_eq!(
        reason(&p, "g4g1xa7"),
        "illegal move g4g1xa7: a7 is protected in a mill while black has pieces outside mills"
    );
    assert_eq!(
        reason(&p, "b4c4xc5"),
        "illegal move b4c4xc5: capture not allowed: b4c4 closes no mill"
    );
    let moves = legal(&p);
    assert!(moves.contains(&"g4g1xc5".to_owned()) && moves.contains(&"g4g1xe3".to_owned()));
    assert!(!moves.iter().any(|m| m == "g4g1" || m == "g4g1xa7"));
}

#[test]
fn protected_pieces_fall_when_all_are_in_mills() {
    // Black has only the mill a7 d7 g7: any of it may be taken.
    let p = pos("BBB/.W./.../.W...W/.../.../WW. w 0 0 0");
    let moves = legal(&p);
    for m in ["g4g1xa7", "g4g1xd7", "g4g1xg7"] {
        assert!(moves.contains(&m.to_owned()), "{m}");
    }
}

#[test]
fn flying() {
    let options = Options {
        flying: true,
        ..Options::default()
    };
    let p = Morris::from_fen("BBB/.../B../.W...W/..B/.../W.. w 0 0 0", &options).unwrap();
    assert_eq!(p.phase(Side::White), Phase::Flying);
    assert_eq!(p.phase(Side::Black), Phase::Moving);
    // 3 pieces x 16 empty points.
    assert_eq!(legal(&p).len(), 3 * 16);
    let q = pos("BBB/.../B../.W...W/..B/.../W.. w 0 0 0");
    assert_eq!(reason(&q, "a1g7"), "illegal move a1g7: g7 is occupied");
    assert_eq!(
        reason(&q, "a1d5"),
        "illegal move a1d5: d5 is not adjacent to a1"
    );
}

#[test]
fn losses() {
    // Black with three pieces loses one: white wins.
    let p = pos("BBB/.../.../.W...W/.../.../WW. w 0 0 0");
    let q = after(&p, "g4g1xa7");
    assert_eq!(
        q.outcome(),
        Some(Outcome::win(Side::White, "too-few-pieces"))
    );
    assert!(legal(&q).is_empty());
    // Black to move with a1 d1 g1 boxed in by a4 d2 g4.
    let blocked = pos(".../.../.../W....W/.../.W./BBB b 0 0 0");
    assert_eq!(
        blocked.outcome(),
        Some(Outcome::win(Side::White, "blocked"))
    );
}

#[test]
fn draws() {
    let p = pos(MOVING);
    let shuffle = "b4c4 c5d5 c4b4 d5c5";
    let twice = after(&p, shuffle);
    assert_eq!(twice.occurrences(), 2);
    assert_eq!(twice.outcome(), None);
    let thrice = after(&twice, shuffle);
    assert_eq!(thrice.outcome(), Some(Outcome::draw("repetition")));
    assert_eq!(thrice.parse_move("b4c4"), Err(GameError::GameOver));
    let off = Options {
        repetition: 0,
        ..Options::default()
    };
    let free = Morris::from_fen(MOVING, &off).unwrap();
    assert_eq!(
        after(&free, &format!("{shuffle} {shuffle}")).outcome(),
        None
    );

    let near = pos("BBB/.W./B../.W...W/..B/.../WW. w 0 0 98");
    let one = after(&near, "b4c4");
    assert_eq!(one.outcome(), None);
    assert_eq!(
        after(&one, "c5d5").outcome(),
        Some(Outcome::draw("no-capture"))
    );
    // A capture on the 100th ply resets the counter instead.
    let q = pos("BBB/.W./B../.W...W/..B/.../WW. w 0 0 99");
    assert_eq!(after(&q, "g4g1xc5").outcome(), None);
}

#[test]
fn bad_positions_are_rejected() {
    let o = Options::default();
    for fen in [
        "",
        ".../.../.../....../.../.../... w 9 9",
        ".../.../.../....../.../.../... x 9 9 0",
        ".../.../.../....../.../... w 9 9 0",
        ".../.../.../...../.../.../... w 9 9 0",
        ".../.../.../....../.../.../..Q w 9 9 0",
        ".../.../.../....../.../.../... w 10 10 0",
        ".../.../.../....../.../.../... w 9 8 0",
        ".../.../.../....../.../.../... b 9 9 0",
        ".../.../.../....../.../.../... w 9 9 -1",
        ".../.../.../....../.../.../... w 9 9 99999999999",
        "WWW/WWW/WWW/W...../.../.../... w 0 0 0",
        "WWW/.../.../....../.../.../BB. w 0 0 0",
        "ééé/.../.../....../.../.../... w 9 9 0",
    ] {
        assert!(
            matches!(Morris::from_fen(fen, &o), Err(GameError::BadPosition(_))),
            "{fen}"
        );
    }
    assert!(Morris::parse_options(&[("flying", "yes")]).is_err());
    assert!(Morris::parse_options(&[("repetition", "1")]).is_err());
    assert!(Morris::parse_options(&[("speed", "1")]).is_err());
    let o = Morris::parse_options(&[("flying", "true"), ("nocapture", "0")]).unwrap();
    assert_eq!(
        Morris::format_options(&o),
        "flying=true repetition=3 nocapture=0"
    );
}

/// Every syntactically valid token, parsed, must be exactly the legal moves, and the
/// canonical spelling must parse back to the same move; fen must round-trip. Checked along
/// pseudo-random games with both flying settings.
#[test]
fn parse_agrees_with_generation() {
    let names = POINT_NAMES;
    let mut tokens: Vec<String> = Vec::new();
    for a in names {
        tokens.push(a.to_owned());
        for b in names {
            tokens.push(format!("{a}{b}"));
            tokens.push(format!("{a}x{b}"));
            for c in names {
                tokens.push(format!("{a}{b}x{c}"));
            }
        }
    }
    let mut seed = 0x1234_5678_u64;
    let mut positions = 0;
    for flying in [false, true] {
        let options = Options {
            flying,
            ..Options::default()
        };
        for _game in 0..4 {
            let mut p = Morris::start(&options);
            for ply in 0..200 {
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
                assert!(p.is_consistent());
                let back = Morris::from_fen(&p.to_fen(), &options).unwrap();
                assert_eq!(back.to_fen(), p.to_fen());
                assert_eq!(back.position_key(), p.position_key());
                if ply % 7 == 0 || moves.len() < 8 {
                    positions += 1;
                    let mut parsed: Vec<Move> =
                        tokens.iter().filter_map(|t| p.parse_move(t).ok()).collect();
                    let mut sorted = moves.clone();
                    parsed.sort_by_key(|m| (m.from, m.to, m.capture));
                    sorted.sort_by_key(|m| (m.from, m.to, m.capture));
                    assert_eq!(parsed, sorted, "{}", p.to_fen());
                    for &m in &moves {
                        assert_eq!(p.parse_move(&p.format_move(m)), Ok(m));
                    }
                }
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                p.play(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
    }
    assert!(positions > 50);
}

#[test]
fn a_pass_is_offered_only_while_placing() {
    use crate::game::Hints;
    let start = Morris::start(&Options::default());
    let passed = start.null_move().expect("placing: a pass is a fair test");
    assert_eq!(passed.side_to_move(), Side::Black);
    assert_eq!(passed.pieces(Side::White), 0);
    assert_eq!(
        (passed.in_hand(Side::White), passed.in_hand(Side::Black)),
        (9, 9)
    );
    assert_ne!(passed.hash(), start.hash());
    assert_eq!(legal(&passed).len(), 24);
    // Passing back gives the start again, key included.
    assert_eq!(passed.null_move().unwrap().hash(), start.hash());
    let moving = pos("W.B/BW./.WB/WB..BW/B.W/.BW/W.B w 0 0 20");
    assert!(moving.null_move().is_none(), "moving: zugzwang is real");
    let flying_options = Options {
        flying: true,
        ..Options::default()
    };
    let flying = Morris::from_fen("..B/.W./B.B/W...B./..B/.../W.B w 0 0 30", &flying_options);
    assert!(flying.unwrap().null_move().is_none());
    let black = after(&start, "a1 d2 a4 d3 a7xd2");
    let passed = black.null_move().unwrap();
    assert_eq!(passed.side_to_move(), Side::White);
    assert_eq!(passed.pieces(Side::White), black.pieces(Side::White));
    assert_eq!(passed.pieces(Side::Black), black.pieces(Side::Black));
}
