//! Rule scenarios, one per tricky clause, plus random-game invariants.

use super::geometry::{PUSHES, PUSH_TABLE, SEGMENTS, SPOTS, WINDOWS};
use super::notation::pretty;
use super::*;

fn pos(fen: &str) -> Gipf {
    Gipf::from_fen(fen, &Options::default()).expect("test fen")
}

fn moves(p: &Gipf) -> Vec<String> {
    let mut list = Vec::new();
    p.legal_moves(&mut list);
    let mut out: Vec<String> = list.iter().map(|&m| p.format_move(m)).collect();
    out.sort();
    out
}

fn start() -> Gipf {
    Gipf::start(&Options::default())
}

#[test]
fn geometry_counts() {
    assert_eq!(SPOTS.count_ones(), 37);
    assert_eq!(PUSHES, 42);
    assert_eq!(WINDOWS, 48);
    assert_eq!(SEGMENTS, 90);
    let names = |i: usize| {
        let l = &PUSH_TABLE[i].line;
        l.cells[..l.len as usize]
            .iter()
            .map(|&c| String::from_utf8_lossy(&geometry::name(c as usize)).into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let a1 = geometry::push_between(
        geometry::parse_point("a1").unwrap(),
        geometry::parse_point("b2").unwrap(),
    )
    .unwrap();
    assert_eq!(names(a1), "b2 c3 d4 e5 f5 g5 h5");
    let i3 = geometry::push_between(
        geometry::parse_point("i3").unwrap(),
        geometry::parse_point("h3").unwrap(),
    )
    .unwrap();
    assert_eq!(names(i3), "h3 g3 f3 e3 d2");
    let first = &geometry::LINE_TABLE[0];
    let names: Vec<String> = first.cells[..first.len as usize]
        .iter()
        .map(|&c| pretty(c as usize))
        .collect();
    assert_eq!(names, ["b2", "b3", "b4", "b5"]);
}

#[test]
fn start_position() {
    let p = start();
    assert_eq!(p.to_fen(), "b2w/5/6/w5b/6/5/b2w w 12 12 0 0");
    assert_eq!(pos("b2w/5/6/w5b/6/5/b2w w 12 12 0 0"), p);
    let after = p.after_move(p.parse_move("a1-b2").unwrap());
    assert_ne!(after.hash(), p.hash());
    let mut black_to_move = p;
    black_to_move.to_move = Side::Black;
    assert_ne!(black_to_move.hash(), p.hash());
    let list = moves(&p);
    assert_eq!(list.len(), 42);
    assert_eq!(list[0], "a1-b2");
    assert!(list.contains(&"i3-h3".to_string()));
}

#[test]
fn push_slides_pieces() {
    let p = start();
    let mv = p.parse_move("e1-e2").unwrap();
    let next = p.after_move(mv);
    assert_eq!(next.to_fen(), "b2w/5/6/ww4b/6/5/b2w b 11 12 0 0");
}

#[test]
fn illegal_reasons() {
    let p = start();
    let err = |t: &str| p.parse_move(t).unwrap_err().to_string();
    assert_eq!(err("e5-e6"), "illegal move e5-e6: e5 is not a dot");
    assert_eq!(err("a1-c3"), "illegal move a1-c3: c3 is not adjacent to a1");
    assert_eq!(
        err("a1-a2"),
        "illegal move a1-a2: a2 is a dot, not a spot of the play area"
    );
    assert_eq!(err("z1-b2"), "bad move z1-b2: z1 is not a point");
    assert_eq!(
        err("a1b2"),
        "bad move a1b2: expected a push <dot>-<spot>, got a1b2"
    );
    assert!(err("a1-b2:xb2-b5").starts_with("illegal move a1-b2:xb2-b5: wrong removal choice"));
    // A full line.
    let full = pos("wbwb/5/6/w5b/6/5/b2w w 11 11 0 0");
    assert_eq!(
        full.parse_move("b1-b2").unwrap_err().to_string(),
        "illegal move b1-b2: the line from b2 to b5 is full"
    );
}

#[test]
fn row_with_extension_captures() {
    // White on c3 c4 c5, Black on c6: c1-c2 makes the row c2..c5, extended over c6.
    let p = pos("4/1wwwb/6/7/6/5/4 w 5 5 9 7");
    let next = p.after_move(p.parse_move("c1-c2").unwrap());
    assert_eq!(next.to_fen(), "4/5/6/7/6/5/4 b 8 5 10 7");
}

#[test]
fn intersecting_rows_need_a_choice() {
    // c1-c2 completes the column c2..c5 and the diagonal c2 d3 e4 f4, which share c2.
    let p = pos("4/1www1/1w4/2w4/2w3/5/4 w 5 5 10 4");
    let list = moves(&p);
    assert!(list.contains(&"c1-c2:xc2-c5".to_string()), "{list:?}");
    assert!(list.contains(&"c1-c2:xc2-f4".to_string()), "{list:?}");
    assert!(!list.contains(&"c1-c2".to_string()));
    let err = p.parse_move("c1-c2").unwrap_err().to_string();
    assert_eq!(
        err,
        "illegal move c1-c2: missing removal choice: white must choose one of xc2-c5, xc2-f4"
    );
    assert_eq!(
        p.parse_move("c1-c2:xc5-c2").unwrap(),
        p.parse_move("c1-c2:xc2-c5").unwrap()
    );
    let after = p.after_move(p.parse_move("c1-c2:xc2-f4").unwrap());
    assert_eq!(after.to_fen(), "4/1www1/6/7/6/5/4 b 8 5 10 4");
}

#[test]
fn opponent_choice_waits_for_its_turn() {
    // Black's a2-b2 slides the white b2 piece to c2, completing two white rows that share c2.
    let p = pos("w3/1www1/1w4/2w4/2w3/5/4 b 5 5 10 3");
    let next = p.after_move(p.parse_move("a2-b2").unwrap());
    assert_eq!(next.to_fen(), "b3/wwww1/1w4/2w4/2w3/5/4 w 5 4 10 3");
    let list = moves(&next);
    assert!(list
        .iter()
        .all(|m| m.starts_with("xc2-c5:") || m.starts_with("xc2-f4:")));
    assert!(list.contains(&"xc2-f4:i5-h5".to_string()));
    assert_eq!(
        next.parse_move("i5-h5").unwrap_err().to_string(),
        "illegal move i5-h5: missing removal choice: white must choose one of xc2-c5, xc2-f4"
    );
    // White's reserve is counted after the removal: 5 + 4 returned - 1 pushed.
    let after = next.after_move(next.parse_move("xc2-c5:i5-h5").unwrap());
    assert_eq!(after.reserve, [8, 4]);
}

#[test]
fn empty_reserve_loses_unless_rows_wait() {
    let dry = pos("4/5/6/7/6/5/4 w 0 5 10 15");
    assert_eq!(dry.outcome().map(|o| o.winner), Some(Some(Side::Black)));
    assert!(moves(&dry).is_empty());
    let rescued = pos("b3/wwww1/1w4/2w4/2w3/5/4 w 0 4 10 8");
    assert!(rescued.outcome().is_none());
    assert!(!moves(&rescued).is_empty());
}

#[test]
fn garbage_never_panics() {
    let alphabet: Vec<char> = "abcdefghijxwb0123456789-:,/ ".chars().collect();
    let mut seed = 99u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let p = pos("b3/wwww1/1w4/2w3b/2w3/5/b2w w 3 4 8 4");
    for _ in 0..20000 {
        let len = next(16);
        let text: String = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
        let _ = p.parse_move(&text);
        let _ = Gipf::from_fen(&text, &Options::default());
        let fen = format!("{text} w 1 2 3 4");
        let _ = Gipf::from_fen(&fen, &Options::default());
    }
    for bad in [
        "",
        " ",
        "x",
        ":",
        "::",
        "a1-",
        "-b2",
        "xa1-a2:b1-b2",
        "xa1-a9:a1-b2",
        "a1-b2:x",
    ] {
        assert!(p.parse_move(bad).is_err(), "{bad}");
    }
}

#[test]
fn structured_tokens_parse_to_listed_moves_or_fail_cleanly() {
    let names: Vec<String> = (0..geometry::POINTS).map(pretty).collect();
    let mut seed = 7u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let positions = [
        "b3/wwww1/1w4/2w3b/2w3/5/b2w w 3 4 8 4",
        "b2w/1www1/1w4/2w3b/2w3/5/b2w w 7 12 0 0",
        "b3/1www1/1w4/2w3w/2w2w/b3w/wwww w 2 13 0 0",
    ];
    let mut accepted = 0;
    for fen in positions {
        let p = pos(fen);
        let mut legal = Vec::new();
        p.legal_moves(&mut legal);
        for _ in 0..20000 {
            let choice = |next: &mut dyn FnMut(usize) -> usize| {
                format!("x{}-{}", names[next(names.len())], names[next(names.len())])
            };
            let mut token = String::new();
            if next(2) == 0 {
                token += &choice(&mut next);
                token.push(':');
            }
            token += &format!("{}-{}", names[next(names.len())], names[next(names.len())]);
            if next(2) == 0 {
                token.push(':');
                token += &choice(&mut next);
            }
            if let Ok(mv) = p.parse_move(&token) {
                assert!(legal.contains(&mv), "{token}");
                accepted += 1;
            }
        }
    }
    assert!(accepted > 0);
}

#[test]
fn choice_orders_reaching_one_position_are_one_move() {
    // The column c2..c6 and the diagonal c2..g4 meet only in the black c2 (an extension of
    // both): either choice removes both rows, so every push is listed once, with the smaller
    // spelling, and the other spelling is accepted as the same move.
    let p = pos("4/bwwww/1w4/2w4/2w3/2w2/4 w 5 8 6 2");
    let list = moves(&p);
    assert_eq!(list.len(), 42);
    assert!(list.iter().all(|m| m.starts_with("xc2-c6:")));
    assert_eq!(
        p.parse_move("xc2-g4:a1-b2").unwrap(),
        p.parse_move("xc2-c6:a1-b2").unwrap()
    );
    let after = p.after_move(p.parse_move("xc2-g4:a1-b2").unwrap());
    assert_eq!(after.to_fen(), "w3/5/6/7/6/5/4 b 12 8 7 2");
}
