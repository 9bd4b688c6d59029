//! Rule scenarios, one per tricky clause.

use super::*;
use crate::game::{Exact, Game, GameError, Harness, Hints, Outcome, Proven, Side};

fn start(width: u8, rows: u8, adjacency: Adjacency) -> Cascades {
    Cascades::start(&Geometry {
        width,
        rows,
        adjacency,
    })
}

fn names(position: &Cascades) -> Vec<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|&m| position.format_move(m)).collect();
    out.sort();
    out
}

#[test]
fn start_of_the_default_board() {
    let p = Cascades::start(&Geometry::default());
    assert_eq!(p.geometry().cell_count(), 92);
    assert_eq!(p.geometry().bottom_len(), 15);
    assert_eq!(
        p.to_fen(),
        "bwbwbwbw/........./........../.........../............/............./............../............... w 0 first"
    );
    assert_eq!(
        names(&p),
        ["b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "pass"]
    );
}

fn play(position: &mut Cascades, tokens: &[&str]) {
    for token in tokens {
        let mv = position.parse_move(token).unwrap();
        position.play(mv);
    }
}

fn reason(position: &Cascades, token: &str) -> String {
    position.parse_move(token).unwrap_err().to_string()
}

#[test]
fn every_illegal_move_reason() {
    let mut p = start(4, 4, Adjacency::SideBelow);
    assert_eq!(
        reason(&p, "b2,b3"),
        "illegal move b2,b3: white's first move places at most one stone"
    );
    assert_eq!(reason(&p, "a2"), "illegal move a2: a2 is occupied");
    assert_eq!(
        reason(&p, "c1"),
        "illegal move c1: c1 is not beside or below a white stone"
    );
    play(&mut p, &["b2"]);
    assert_eq!(reason(&p, "b2"), "illegal move b2: b2 is occupied");
    assert_eq!(
        reason(&p, "b1,c1,d1"),
        "illegal move b1,c1,d1: a move places at most two stones"
    );
    assert_eq!(
        reason(&p, "b1,b1"),
        "illegal move b1,b1: b1 is placed twice"
    );
    assert_eq!(
        reason(&p, "c1,b1"),
        "illegal move c1,b1: c1 is not beside or below a black stone"
    );
    assert_eq!(
        reason(&p, "e1"),
        "illegal move e1: e1 is off the board (rows a to d)"
    );
    assert_eq!(
        reason(&p, "b6"),
        "illegal move b6: b6 is off the board (row b has 5 cells)"
    );
    for junk in [
        "", "b", "b0", "b01", "B2", "b2,", ",b2", "b2;b3", "b123", "pas",
    ] {
        assert!(
            matches!(p.parse_move(junk), Err(GameError::BadMove { .. })),
            "{junk:?}"
        );
    }
    // c1 is beside White's c2 but below only Black's b1.
    let mut below = start(4, 4, Adjacency::Below);
    play(&mut below, &["b2", "b1", "c2", "pass"]);
    assert_eq!(
        reason(&below, "c1"),
        "illegal move c1: c1 is not below a white stone"
    );
}

#[test]
fn a_pass_then_another_ends_the_game() {
    let mut p = start(3, 3, Adjacency::SideBelow);
    play(&mut p, &["pass"]);
    assert_eq!(p.to_fen(), "bwb/..../..... b 1 -");
    assert!(p.outcome().is_none());
    play(&mut p, &["pass"]);
    assert_eq!(p.outcome(), Some(Outcome::draw("two-passes")));
    assert_eq!(p.parse_move("pass"), Err(GameError::GameOver));
    let mut moves = vec![];
    p.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn two_passes_count_the_bottom_row() {
    let g = Geometry {
        width: 2,
        rows: 3,
        adjacency: Adjacency::SideBelow,
    };
    // Bottom row of 4: one white stone, none black; after two passes White wins.
    let mut p = Cascades::from_fen("bw/.w./..w. b 0 -", &g).unwrap();
    play(&mut p, &["pass", "pass"]);
    assert_eq!(p.outcome(), Some(Outcome::win(Side::White, "two-passes")));
}

#[test]
fn a_bottom_majority_wins_at_once() {
    let g = Geometry {
        width: 3,
        rows: 3,
        adjacency: Adjacency::SideBelow,
    };
    // Bottom row of 5: White holds 2 and takes a third.
    let mut p = Cascades::from_fen("bwb/.w../.ww.. w 0 -", &g).unwrap();
    play(&mut p, &["c4"]);
    assert_eq!(p.outcome(), Some(Outcome::win(Side::White, "majority")));
}

#[test]
fn position_strings_are_validated() {
    let g = Geometry::default();
    let small = Geometry {
        width: 3,
        rows: 3,
        adjacency: Adjacency::SideBelow,
    };
    let bad = |fen: &str, g: &Geometry| Cascades::from_fen(fen, g).unwrap_err().to_string();
    assert!(bad("bwb/..../..... w 0", &small).contains("expected 4 fields"));
    assert!(bad("bwb/..../.... w 0 -", &small).contains("row c has 4 cells, expected 5"));
    assert!(bad("bwb/.... w 0 -", &small).contains("2 rows, this board has 3"));
    assert!(bad("bwb/..x./..... w 0 -", &small).contains("'x' is not w, b or ."));
    assert!(bad("wbw/..../..... w 0 -", &small).contains("top row"));
    assert!(bad("bwb/..../..w.. w 0 -", &small).contains("white stone on c3 is not connected"));
    assert!(bad("bwb/..../..... x 0 -", &small).contains("side to move"));
    assert!(bad("bwb/..../..... w 3 -", &small).contains("passes"));
    assert!(bad("bwb/..../..... b 0 first", &small).contains("first is only possible"));
    assert!(bad("bwb/.w../..... w 0 first", &small).contains("first is only possible"));
    assert!(bad("bwb/..../..... w 0 x", &small).contains("expected first or -"));
    assert!(bad("bwb/..../..... w 0 first", &g).contains("rows"));
    // Beside links count only under the side-below rule.
    let below = Geometry {
        adjacency: Adjacency::Below,
        ..small
    };
    assert!(Cascades::from_fen("bwb/.www/..... b 0 -", &small).is_ok());
    assert!(bad("bwb/.www/..... b 0 -", &below).contains("not connected"));
    let start = Cascades::start(&g);
    assert_eq!(Cascades::from_fen(&start.to_fen(), &g), Ok(start));
}

#[test]
fn options_parse_and_print() {
    let g = Cascades::parse_options(&[("width", "16"), ("rows", "16"), ("adjacency", "below")])
        .unwrap();
    assert_eq!(
        Cascades::format_options(&g),
        "width=16 rows=16 adjacency=below"
    );
    assert_eq!(g.cell_count(), 16 * 16 + 120);
    for (key, value) in [
        ("width", "1"),
        ("rows", "17"),
        ("adjacency", "side"),
        ("size", "8"),
    ] {
        assert!(matches!(
            Cascades::parse_options(&[(key, value)]),
            Err(GameError::BadOption(_))
        ));
    }
    assert_eq!(
        Cascades::format_options(&Geometry::default()),
        "width=8 rows=8 adjacency=side-below"
    );
}

#[test]
fn the_board_is_drawn_as_a_trapezoid() {
    let mut p = start(3, 3, Adjacency::SideBelow);
    play(&mut p, &["b3"]);
    assert_eq!(
        p.board_lines(),
        [
            "a   b w b",
            "b  . . w .",
            "c . . . . .",
            "black to move; bottom row: white 0, black 0, 5 cells",
        ]
    );
}

#[test]
fn the_largest_board_works() {
    let g = Geometry {
        width: 16,
        rows: 16,
        adjacency: Adjacency::SideBelow,
    };
    let mut p = Cascades::start(&g);
    play(&mut p, &["b17", "b1,c1"]);
    assert!(p.parse_move("c18,d19").is_ok());
    assert!(p.parse_move("p31").is_err());
    assert_eq!(p.perft(1), p.count_moves());
    assert!(p.is_consistent());
}

#[test]
fn tactical_moves_are_the_legal_bottom_row_moves() {
    let mut seed = 99u64;
    for (width, rows) in [(3, 3), (4, 5), (8, 8)] {
        for adjacency in [Adjacency::SideBelow, Adjacency::Below] {
            let mut p = start(width, rows, adjacency);
            while p.outcome().is_none() {
                let mut legal = vec![];
                p.legal_moves(&mut legal);
                let mut tactical = vec![];
                p.tactical_moves(&mut tactical);
                let bottom = p.geometry().bottom() as u8;
                let mut seen = std::collections::HashSet::new();
                for mv in &tactical {
                    assert!(legal.contains(mv), "{mv:?} at {}", p.to_fen());
                    assert!(seen.insert(*mv));
                    let cells = match *mv {
                        Move::One(a) => vec![a],
                        Move::Two(a, b) => vec![a, b],
                        Move::Pass => vec![],
                    };
                    assert!(cells.iter().any(|c| c.row == bottom));
                }
                for mv in &legal {
                    let all_bottom = match *mv {
                        Move::One(a) => a.row == bottom,
                        Move::Two(a, b) => a.row == bottom && b.row == bottom,
                        Move::Pass => false,
                    };
                    assert!(!all_bottom || tactical.contains(mv));
                }
                if p.can_win_now() {
                    assert_eq!(p.proven_value(), Some(Proven::Win(1)));
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let pick = 1 + (seed >> 33) as usize % (legal.len() - 1).max(1);
                p.play(legal[pick.min(legal.len() - 1)]);
            }
        }
    }
}

#[test]
fn can_win_now_matches_trying_every_move() {
    let mut seed = 5u64;
    for (width, rows) in [(2, 2), (3, 3), (4, 4), (3, 5)] {
        for adjacency in [Adjacency::SideBelow, Adjacency::Below] {
            for _ in 0..20 {
                let mut p = start(width, rows, adjacency);
                while p.outcome().is_none() {
                    let mut legal = vec![];
                    p.legal_moves(&mut legal);
                    let wins = legal.iter().any(|&mv| {
                        let mut child = p.clone();
                        child.play(mv);
                        child.outcome().is_some_and(|o| {
                            o.reason == "majority" && o.winner == Some(p.side_to_move())
                        })
                    });
                    assert_eq!(p.can_win_now(), wins, "{}", p.to_fen());
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    p.play(legal[(seed >> 33) as usize % legal.len()]);
                }
            }
        }
    }
}

#[test]
fn garbage_never_panics() {
    let g = Geometry {
        width: 3,
        rows: 3,
        adjacency: Adjacency::SideBelow,
    };
    let pieces = [
        "bwb", "/", "....", ".....", "w", "b", " ", "0", "1", "2", "first", "-", "é", "x", "z99",
        ",", "a1", "c5", "pass", "p16", "b0", "99", "\u{0}",
    ];
    let mut seed = 3u64;
    let p = Cascades::start(&g);
    for _ in 0..20_000 {
        let mut text = String::new();
        for _ in 0..(seed >> 60) + 1 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
        }
        if let Ok(position) = Cascades::from_fen(&text, &g) {
            assert_eq!(
                position.to_fen(),
                text.split_whitespace().collect::<Vec<_>>().join(" ")
            );
        }
        let _ = p.parse_move(&text);
    }
}

#[test]
fn the_mirror_image_has_the_mirrored_hash() {
    // 4 wide (colours swap): White's b2 mirrors to Black's b4; 3 wide: b2 mirrors to b3.
    let even = Geometry {
        width: 4,
        rows: 3,
        adjacency: Adjacency::SideBelow,
    };
    let a = Cascades::from_fen("bwbw/.w.../...... b 0 -", &even).unwrap();
    let b = Cascades::from_fen("bwbw/...b./...... w 0 -", &even).unwrap();
    assert_eq!(a.mirrored_hash(), b.hash());
    assert_eq!(b.mirrored_hash(), a.hash());
    let odd = Geometry {
        width: 3,
        rows: 3,
        adjacency: Adjacency::Below,
    };
    let a = Cascades::from_fen("bwb/.w../..... b 1 -", &odd).unwrap();
    let b = Cascades::from_fen("bwb/..w./..... b 1 -", &odd).unwrap();
    assert_eq!(a.mirrored_hash(), b.hash());
    assert_ne!(a.hash(), b.hash());
}

#[test]
fn the_evaluation_counts_the_race_in_stones_and_turns() {
    // White's stones a8 to h8 wall Black off from a majority (7 bottom cells left), so
    // Black's need is capped at 40 stones (20 turns); White needs h9..h15, 7 stones, 4
    // turns. For Black to move: 30 per stone, 33 behind, and 100 per turn, 16 behind.
    let mut position = Cascades::start(&Geometry::default());
    play(
        &mut position,
        &["b8", "b2,c3", "c8,d8", "d4,e5", "e8,f8", "f6,g7", "g8,h8"],
    );
    assert_eq!(position.evaluate(), 30 * (7 - 40) + 100 * (4 - 20));
}
