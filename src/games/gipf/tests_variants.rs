//! Scenarios of the standard and tournament games: GIPF-pieces, their choices, the game end.

use super::*;

fn options(variant: Variant) -> Options {
    Options { variant }
}

fn pos(variant: Variant, fen: &str) -> Gipf {
    Gipf::from_fen(fen, &options(variant)).expect("test fen")
}

fn moves(p: &Gipf) -> Vec<String> {
    let mut list = Vec::new();
    p.legal_moves(&mut list);
    list.iter().map(|&m| p.format_move(m)).collect()
}

fn play(p: &Gipf, token: &str) -> Gipf {
    let mut next = *p;
    next.play(p.parse_move(token).expect(token));
    next
}

fn error(p: &Gipf, token: &str) -> String {
    p.parse_move(token).expect_err(token).to_string()
}

#[test]
fn starts_and_options() {
    let standard = Gipf::start(&options(Variant::Standard));
    assert_eq!(standard.to_fen(), "B2W/5/6/W5B/6/5/B2W w 12 12 0 0");
    assert_eq!(standard.gipf_count(Side::White), 3);
    let tournament = Gipf::start(&options(Variant::Tournament));
    assert_eq!(tournament.to_fen(), "4/5/6/7/6/5/4 w 18 18 0 0 wb");
    assert_eq!(tournament.outcome(), None);
    let parsed = Gipf::parse_options(&[("variant", "tournament")]).unwrap();
    assert_eq!(Gipf::format_options(&parsed), "variant=tournament");
    assert!(Gipf::parse_options(&[("variant", "ultimate")]).is_err());
    // Same layout, but GIPF-pieces: a different position and key.
    let basic = Gipf::start(&Options::default());
    assert_ne!(basic.hash(), standard.hash());
    assert_eq!(basic.to_fen(), "b2w/5/6/w5b/6/5/b2w w 12 12 0 0");
}

#[test]
fn gipf_pieces_slide_with_the_push() {
    let p = pos(Variant::Standard, "B2W/5/6/W5B/6/5/B2W w 12 12 0 0");
    let after = play(&p, "e1-e2");
    assert_eq!(after.to_fen(), "B2W/5/6/wW4B/6/5/B2W b 11 12 0 0");
}

#[test]
fn the_remover_decides_for_gipf_pieces_of_both_colours() {
    let p = pos(Variant::Standard, "B2W/1WwwB/6/W5B/6/5/B2W w 8 10 0 0");
    let listed = moves(&p);
    for m in [
        "c1-c2:xc2-c6",
        "c1-c2:xc2-c6/c3",
        "c1-c2:xc2-c6/c6",
        "c1-c2:xc2-c6/c3/c6",
    ] {
        assert!(listed.contains(&m.to_string()), "{m}");
    }
    // Every GIPF-piece goes: 3 singles and the GIPF-piece back (5), Black's GIPF-piece is 2.
    let all = play(&p, "c1-c2:xc2-c6");
    assert_eq!(all.to_fen(), "B2W/5/6/W5B/6/5/B2W b 12 10 2 0");
    // Keeping both: c3 stays White's, c6 stays Black's; the spots may be written in any order.
    let both = play(&p, "c1-c2:xc2-c6/c6/c3");
    assert_eq!(both.to_fen(), "B2W/1W2B/6/W5B/6/5/B2W b 10 10 0 0");
    assert_eq!(
        error(&p, "c1-c2:xc2-c6/c4"),
        "illegal move c1-c2:xc2-c6/c4: wrong removal choice: c4 is not a GIPF-piece of xc2-c6"
    );
    assert_eq!(
        error(&p, "c1-c2"),
        "illegal move c1-c2: missing removal choice: white must decide which GIPF-pieces of xc2-c6 stay"
    );
}

#[test]
fn a_kept_gipf_piece_on_the_crossing_keeps_the_second_row() {
    let p = pos(Variant::Standard, "1w2/W1ww1/1w4/1w4B/6/5/B2W w 9 12 2 0");
    let listed = moves(&p);
    assert!(listed.contains(&"c1-c2:xb3-e3".to_string()));
    assert!(listed.contains(&"c1-c2:xb3-e3/c3,xc2-c5/c3".to_string()));
    // Keeping c3 leaves the column a row: it must be taken too.
    assert!(error(&p, "c1-c2:xb3-e3/c3").contains("missing removal choice"));
    // Taking it with the row breaks the column: nothing more is due.
    assert!(error(&p, "c1-c2:xb3-e3,xc2-c5").contains("is not due"));
}

#[test]
fn four_gipf_pieces_in_a_row_must_be_broken() {
    let p = pos(Variant::Tournament, "4/1WWW1/6/5B1/6/5/4 w 12 16 0 0 wb");
    assert_eq!(
        error(&p, "Gc1-c2:xc2-c5/c2/c3/c4/c5"),
        "illegal move Gc1-c2:xc2-c5/c2/c3/c4/c5: wrong removal choice: keeping those GIPF-pieces leaves white's row of four on the board"
    );
    let three = play(&p, "Gc1-c2:xc2-c5/c3/c4/c5");
    assert_eq!(three.to_fen(), "4/1WWW1/6/5B1/6/5/4 b 12 16 0 0 wb");
    // A single piece in the row may be the one that goes; it ends White's GIPF-pieces.
    let single = play(&p, "c1-c2:xc2-c5/c3/c4/c5");
    assert_eq!(single.to_fen(), "4/1WWW1/6/5B1/6/5/4 b 12 16 0 0 b");
}

#[test]
fn a_row_with_a_gipf_piece_waits_for_its_owner() {
    let p = pos(Variant::Standard, "4/wWw1w/6/W5B/6/5/B3 b 11 10 4 0");
    let waiting = play(&p, "c1-c2");
    assert_eq!(waiting.to_fen(), "4/bwWww/6/W5B/6/5/B3 w 11 9 4 0");
    assert!(error(&waiting, "a1-b2").contains("white must decide which GIPF-pieces of xc2-c6 stay"));
    let kept = play(&waiting, "xc2-c6/c4:a1-b2");
    assert_eq!(kept.to_fen(), "w3/2W2/6/W5B/6/5/B3 b 13 9 5 0");
    assert!(moves(&waiting).iter().all(|m| m.starts_with("xc2-c6")));
}

#[test]
fn losing_the_last_gipf_piece_loses() {
    let p = pos(Variant::Standard, "4/1wwwB/6/W6/6/5/4 w 10 8 8 3");
    let taken = play(&p, "c1-c2:xc2-c6");
    let outcome = taken.outcome().expect("over");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Side::White), "no-gipf")
    );
    assert!(moves(&taken).is_empty());
    assert_eq!(play(&p, "c1-c2:xc2-c6/c6").outcome(), None);
    // Removing one's own last GIPF-piece loses at once too.
    let own = pos(Variant::Standard, "4/1Www1/6/6B/6/5/4 w 10 14 2 4");
    let gone = play(&own, "c1-c2:xc2-c5");
    assert_eq!(gone.outcome().map(|o| o.winner), Some(Some(Side::Black)));
}

#[test]
fn tournament_opening_rules() {
    let p = Gipf::start(&options(Variant::Tournament));
    assert!(moves(&p).iter().all(|m| m.starts_with('G')));
    assert_eq!(
        error(&p, "a1-b2"),
        "illegal move a1-b2: white has no GIPF-piece on the board and must bring one in (G before the dot)"
    );
    let two = play(&play(&p, "Ga1-b2"), "Ge9-e8");
    let listed = moves(&two);
    assert!(listed.contains(&"Ga2-b3".to_string()) && listed.contains(&"a2-b3".to_string()));
    let single = play(&two, "a2-b3");
    assert_eq!(single.to_fen(), "Ww2/5/6/6B/6/5/4 b 15 16 0 0 b");
    let back = play(&single, "a2-b2");
    assert_eq!(
        error(&back, "Ga3-b3"),
        "illegal move Ga3-b3: white has played a single piece and may no longer bring in GIPF-pieces"
    );
    let dry = pos(Variant::Tournament, "W3/5/6/7/6/5/4 w 1 16 2 15 wb");
    assert_eq!(
        error(&dry, "Ga2-b3"),
        "illegal move Ga2-b3: a GIPF-piece takes 2 pieces, white has 1 in reserve"
    );
    let standard = Gipf::start(&options(Variant::Standard));
    assert_eq!(
        error(&standard, "Ga1-b2"),
        "illegal move Ga1-b2: GIPF-pieces are brought in only in variant=tournament"
    );
    let basic = Gipf::start(&Options::default());
    assert_eq!(
        error(&basic, "Ga1-b2"),
        "illegal move Ga1-b2: the basic game has no GIPF-pieces"
    );
}

#[test]
fn position_strings_of_the_variants() {
    let bad = |variant: Variant, fen: &str| Gipf::from_fen(fen, &options(variant)).is_err();
    assert!(bad(Variant::Basic, "B2W/5/6/W5B/6/5/B2W w 12 12 0 0"));
    assert!(bad(Variant::Standard, "B2W/5/6/W5B/6/5/B2W w 12 12 0 0 wb"));
    assert!(bad(Variant::Tournament, "4/5/6/7/6/5/4 w 18 18 0 0 x"));
    // A GIPF-piece counts two of the 18 pieces.
    assert!(bad(Variant::Standard, "B2W/5/6/W5B/6/5/B2W w 13 12 0 0"));
    let p = pos(Variant::Tournament, "4/5/6/7/6/5/4 w 18 18 0 0");
    assert_eq!(p.to_fen(), "4/5/6/7/6/5/4 w 18 18 0 0 -");
    let drawn = pos(Variant::Standard, "B2W/5/6/W5B/6/5/B2W w 12 12 0 0").board_lines();
    assert!(drawn.iter().any(|l| l.contains("WW")));
    assert!(drawn
        .iter()
        .any(|l| l == "white: reserve 12, captured 0, GIPF-pieces on the board 3"));
}

/// Random games of every version: every listed spelling is distinct and parses back to its
/// move, positions stay consistent and survive their string and key round trip.
#[test]
fn random_games_keep_invariants() {
    let mut rng = crate::util::rng::Rng::new(4242u64);
    let mut next = |n: usize| rng.below(n as u64) as usize;
    for variant in [Variant::Basic, Variant::Standard, Variant::Tournament] {
        for _ in 0..30 {
            let mut p = Gipf::start(&options(variant));
            for _ in 0..300 {
                let mut list = Vec::new();
                p.legal_moves(&mut list);
                if list.is_empty() {
                    assert!(p.outcome().is_some());
                    break;
                }
                let spelled: Vec<String> = list.iter().map(|&m| p.format_move(m)).collect();
                let mut sorted = spelled.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), spelled.len());
                for (m, s) in list.iter().zip(&spelled) {
                    assert_eq!(p.parse_move(s).ok(), Some(*m), "{s} in {}", p.to_fen());
                }
                p.play(list[next(list.len())]);
                assert!(p.is_consistent());
                let again = pos(variant, &p.to_fen());
                assert_eq!((again, again.hash()), (p, p.hash()));
            }
        }
    }
}

/// Random text with the variants' extra characters never panics the parsers.
#[test]
fn variant_garbage_never_panics() {
    let alphabet: Vec<char> = "abcdefghiGWBxwb0123456789-:,/ ".chars().collect();
    let mut rng = crate::util::rng::Rng::new(77u64);
    let mut next = |n: usize| rng.below(n as u64) as usize;
    let p = pos(Variant::Tournament, "4/1WWW1/6/5B1/6/5/4 w 12 16 0 0 wb");
    for _ in 0..20000 {
        let len = next(20);
        let text: String = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
        let _ = p.parse_move(&text);
        for variant in [Variant::Standard, Variant::Tournament] {
            let _ = Gipf::from_fen(&format!("{text} w 1 2 3 4 wb"), &options(variant));
            let _ = Gipf::from_fen(&text, &options(variant));
        }
    }
}

/// The evaluation counts GIPF-pieces and fears being down to the last one.
#[test]
fn evaluation_knows_gipf_pieces() {
    // The same pieces, White's e2 a GIPF-piece or not (the reserve makes the totals equal).
    let three = pos(Variant::Standard, "B2W/5/6/W5B/6/5/B2W w 12 12 0 0").evaluate();
    let two = pos(Variant::Standard, "B2W/5/6/w5B/6/5/B2W w 13 12 0 0").evaluate();
    let one = pos(Variant::Standard, "B2w/5/6/w5B/6/5/B2W w 14 12 0 0").evaluate();
    assert!(three > two, "{three} {two}");
    assert!(
        two - one > three - two,
        "the last one weighs more: {two} {one}"
    );
}
