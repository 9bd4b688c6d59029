//! GIPF perft, checked against an independent reference implementation.
//!
//! How the numbers were obtained: the `reference` module (`tests/perft/gipf_reference/mod.rs`) is a
//! deliberately naive second implementation of the rules of the basic, standard and tournament
//! games, written from notation.md and docs/gipf.md. It shares no code with the engine: a 9x9
//! grid of cells indexed by (x, y) instead of bitboards, lines found by
//! walking directions instead of precomputed tables, rows found by scanning every spot, the
//! opponent's removals recomputed from scratch, and moves deduplicated through a hash set of
//! (push, resulting position). Every test computes the count both ways and compares them; the
//! literal numbers are asserted too, so that a change in both at once is noticed.
//!
//! The positions exercise every removal case of issue 5 within the first plies: an extension
//! capturing opposing pieces, two separate rows at once, intersecting rows (a choice), one push
//! making rows for both players, the opponent's choice written before its push, and a player
//! with an empty reserve rescued by its waiting row. The variant positions do the same for
//! each GIPF-piece clause (see `VARIANT_POSITIONS`).

use std::collections::{BTreeMap, HashSet};
use tabula::game::Game;
use tabula::games::gipf::{Gipf, Options, Variant};

#[path = "gipf_reference/mod.rs"]
mod reference;

/// The start and the six removal positions (see the module comment).
const POSITIONS: [(&str, &str); 7] = [
    ("start", "b2w/5/6/w5b/6/5/b2w w 12 12 0 0"),
    // c1-c2 makes the white row c2..c5 whose extension captures the black c6.
    ("extension", "b2w/1wwwb/1b4/1bbb3/w5/5/b2w w 9 8 0 0"),
    // c1-c2 makes two white rows, b2..e2 and c4..f3, whose runs do not meet.
    ("two-rows", "w3/bw3/w1w3/w1w3b/1w4/1b3/b3 w 8 11 0 0"),
    // c1-c2 makes two white rows sharing c2: White chooses xc2-c5 or xc2-f4.
    ("choice", "b2w/1www1/1w4/2w3b/2w3/5/b2w w 7 12 0 0"),
    // c1-c2 makes the white row b2..e2 and the black row c3..f2.
    ("both-players", "w3/b4/wb4/wb4b/b5/5/3w w 11 10 0 0"),
    // Black's a2-b2 makes two contested white rows: White's choice comes before its push.
    ("waiting-choice", "w3/1www1/1w4/2w3b/2w3/5/b2w b 7 13 0 0"),
    // White has no reserve but a contested row waits: it is rescued; Black is nearly dry.
    ("rescued", "b3/wwww1/1w4/2w3b/2w3/5/b2w w 0 2 10 7"),
];

fn engine(fen: &str) -> Gipf {
    engine_in(fen, Variant::Basic)
}

fn engine_in(fen: &str, variant: Variant) -> Gipf {
    Gipf::from_fen(fen, &Options { variant }).expect("valid position")
}

fn reference_in(fen: &str, variant: Variant) -> reference::Pos {
    reference::parse_variant(fen, variant != Variant::Basic)
}

/// The engine's move list, spelt and sorted, with the positions they lead to.
fn engine_moves(pos: &Gipf) -> BTreeMap<String, String> {
    let mut list = Vec::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&m| {
            let mut next = *pos;
            next.play(m);
            (pos.format_move(m), next.to_fen())
        })
        .collect()
}

/// Compares the spelt move lists and the positions they lead to, `depth` plies deep.
fn compare_moves(fen: &str, variant: Variant, depth: u32) {
    let ours = engine_in(fen, variant);
    let theirs = reference_in(fen, variant);
    let a = engine_moves(&ours);
    let b = theirs.moves(true);
    let names_a: Vec<&String> = a.keys().collect();
    let names_b: Vec<&String> = b.keys().collect();
    assert_eq!(names_a, names_b, "move lists differ at {fen}");
    for (spelling, next_fen) in &a {
        assert_eq!(
            reference_in(next_fen, variant),
            b[spelling],
            "{spelling} from {fen}"
        );
        assert_eq!(engine_in(next_fen, variant).to_fen(), *next_fen);
        if depth > 1 {
            compare_moves(next_fen, variant, depth - 1);
        }
    }
}

#[test]
fn move_lists_match_reference() {
    for (_, fen) in POSITIONS {
        compare_moves(fen, Variant::Basic, 2);
    }
}

#[test]
fn removal_cases_appear_at_the_root() {
    let moves = |fen: &str| engine_moves(&engine(fen)).into_keys().collect::<Vec<_>>();
    assert!(moves(POSITIONS[3].1).contains(&"c1-c2:xc2-c5".to_string()));
    let waiting = engine(POSITIONS[5].1);
    let mv = waiting.parse_move("a2-b2").unwrap();
    let mut after = waiting;
    after.play(mv);
    assert!(moves(&after.to_fen())[0].starts_with("xc2-"));
    let set: HashSet<String> = moves(POSITIONS[6].1).into_iter().collect();
    assert!(set.iter().all(|m| m.starts_with("xc2-")));
}

/// Perft both ways at depths 1..=max, returning the engine's counts.
fn check_perft(fen: &str, max: u32) -> Vec<u64> {
    check_perft_in(fen, Variant::Basic, max)
}

/// Perft both ways at depths 1..=max in `variant`, returning the engine's counts.
fn check_perft_in(fen: &str, variant: Variant, max: u32) -> Vec<u64> {
    let ours = engine_in(fen, variant);
    let theirs = reference_in(fen, variant);
    (1..=max)
        .map(|d| {
            let n = ours.perft(d);
            assert_eq!(n, theirs.perft(d), "perft {d} of {fen}");
            n
        })
        .collect()
}

#[test]
fn perft_start() {
    assert_eq!(check_perft(POSITIONS[0].1, 4), EXPECTED[0]);
}

/// Depths 1..=3 are recomputed by the reference in every run; depth 4 (2.5 to 6 million
/// leaves each, about a minute for the naive reference) is checked by the ignored test below.
#[test]
fn perft_removal_positions() {
    for (i, (name, fen)) in POSITIONS.iter().enumerate().skip(1) {
        let mut counts = check_perft(fen, 3);
        counts.push(engine(fen).perft(4));
        assert_eq!(counts, EXPECTED[i], "{name}");
    }
}

/// Run with `cargo test --release --test perft gipf:: -- --ignored`.
#[test]
#[ignore]
fn perft_removal_positions_depth_4_reference() {
    for (i, (name, fen)) in POSITIONS.iter().enumerate().skip(1) {
        assert_eq!(reference::parse(fen).perft(4), EXPECTED[i][3], "{name}");
    }
}

/// Random games: at every ply the engine's spelt move list and the positions the moves lead to
/// equal the reference's. Crowded mid-game positions reach rows, choices and game ends often.
#[test]
fn random_games_match_reference() {
    let mut seed = 2026u64;
    let mut choices_seen = 0;
    for _ in 0..30 {
        let mut pos = engine(POSITIONS[0].1);
        for _ in 0..300 {
            let fen = pos.to_fen();
            let ours = engine_moves(&pos);
            let theirs = reference::parse(&fen).moves(true);
            assert_eq!(
                ours.keys().collect::<Vec<_>>(),
                theirs.keys().collect::<Vec<_>>(),
                "at {fen}"
            );
            for (spelling, next) in &ours {
                assert_eq!(
                    reference::parse(next),
                    theirs[spelling],
                    "{spelling} at {fen}"
                );
            }
            choices_seen += ours.keys().filter(|m| m.contains('x')).count();
            let mut list = Vec::new();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.play(list[(seed >> 33) as usize % list.len()]);
        }
    }
    assert!(choices_seen > 40, "only {choices_seen} moves with choices");
}

/// Perft 1..=4 of each position, as computed by both implementations (see the module comment).
const EXPECTED: [[u64; 4]; 7] = [
    [42, 1764, 73800, 3066768],
    [42, 1752, 72416, 2969399],
    [40, 1606, 64652, 2597882],
    [44, 1848, 80195, 3348732],
    [40, 1604, 64212, 2566766],
    [42, 1921, 80586, 3592668],
    [82, 3444, 144450, 6041988],
];

/// The full-game transcript, replayed through the reference: every `move` is a listed spelling
/// there and every recorded position string matches its position.
#[test]
fn gipf_game_matches_reference() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/transcripts/gipf_game.txt"
    );
    let text = std::fs::read_to_string(path).expect("transcript");
    let mut pos = reference::parse(POSITIONS[0].1);
    let mut history = Vec::new();
    let mut checked = 0;
    for line in text.lines() {
        if let Some(token) = line.strip_prefix("> move ") {
            let next = pos.moves(true).remove(token);
            history.push(pos);
            pos = next.unwrap_or_else(|| panic!("{token} is not a reference move"));
        } else if line == "> undo" {
            pos = history.pop().expect("a move to undo");
        } else if let Some(fen) = line.strip_prefix("< fen ") {
            assert_eq!(reference::parse(fen), pos, "at {fen}");
            checked += 1;
        } else if line == "< result white no-reserve" {
            assert!(pos.is_over());
        }
    }
    assert!(checked > 5 && history.len() > 50);
}

/// Positions of the standard and tournament games. The starts, then one position per
/// GIPF-piece clause, each reached within the first plies.
const VARIANT_POSITIONS: [(&str, Variant, &str); 8] = [
    (
        "standard start",
        Variant::Standard,
        "B2W/5/6/W5B/6/5/B2W w 12 12 0 0",
    ),
    (
        "tournament start",
        Variant::Tournament,
        "4/5/6/7/6/5/4 w 18 18 0 0 wb",
    ),
    // c1-c2 makes the row c2..c5 holding White's GIPF-piece c3 and extended by Black's c6:
    // White keeps either, both or neither.
    (
        "keep own or theirs",
        Variant::Standard,
        "B2W/1WwwB/6/W5B/6/5/B2W w 8 10 0 0",
    ),
    // c1-c2 makes two rows crossing on the GIPF-piece now on c3: take one row with it, or
    // keep it and take the other row too.
    (
        "cross on a GIPF-piece",
        Variant::Standard,
        "1w2/W1ww1/1w4/1w4B/6/5/B2W w 9 12 2 0",
    ),
    // Black's c1-c2 makes a White row c3..c6 holding the GIPF-piece c4: it waits for White,
    // who decides before its push.
    (
        "waiting for the owner",
        Variant::Standard,
        "4/wWw1w/6/W5B/6/5/B3 b 11 10 4 0",
    ),
    // c1-c2 makes a row whose extension c6 is Black's last GIPF-piece: taking it wins.
    (
        "last GIPF-piece",
        Variant::Standard,
        "4/1wwwB/6/W6/6/5/4 w 10 8 8 3",
    ),
    // Gc1-c2 makes four GIPF-pieces in a row: at least one must go.
    (
        "four GIPF-pieces",
        Variant::Tournament,
        "4/1WWW1/6/5B1/6/5/4 w 12 16 0 0 wb",
    ),
    // White has played a single piece; Black has not, and has no GIPF-piece yet.
    (
        "one side still bringing",
        Variant::Tournament,
        "w3/5/6/W6/6/5/4 b 15 18 0 0 b",
    ),
];

/// Perft 1..=3 of each variant position, as computed by both implementations.
/// Depth 4 (ignored test below, engine and reference) is in `VARIANT_DEPTH_4`.
const VARIANT_EXPECTED: [[u64; 3]; 8] = [
    [42, 1764, 73800],
    [42, 1764, 148176],
    [52, 2170, 109606],
    [47, 1974, 95502],
    [42, 1926, 80734],
    [44, 1762, 77406],
    [168, 13776, 1363424],
    [42, 1764, 148080],
];

#[test]
fn variant_move_lists_match_reference() {
    for (_, variant, fen) in VARIANT_POSITIONS {
        compare_moves(fen, variant, 2);
    }
}

#[test]
fn variant_perft() {
    for (i, (name, variant, fen)) in VARIANT_POSITIONS.iter().enumerate() {
        assert_eq!(
            check_perft_in(fen, *variant, 3),
            VARIANT_EXPECTED[i],
            "{name}"
        );
    }
}

/// Perft 4 of the variant positions, engine and reference (minutes of reference time): run
/// with `cargo test --release --test perft gipf::variant -- --ignored`.
#[test]
#[ignore]
fn variant_perft_depth_4_reference() {
    for (name, variant, fen) in VARIANT_POSITIONS {
        let ours = engine_in(fen, variant).perft(4);
        let theirs = reference_in(fen, variant).perft(4);
        println!("{name}: {ours}");
        assert_eq!(ours, theirs, "{name}");
    }
}

/// Random games of both variants: at every ply the spelt move lists, the positions they lead
/// to and the game's end (winner and reason) agree with the reference.
#[test]
fn variant_random_games_match_reference() {
    let mut seed = 7u64;
    let (mut kept, mut ends) = (0, Vec::new());
    for (variant, fen) in [
        (Variant::Standard, VARIANT_POSITIONS[0].2),
        (Variant::Tournament, VARIANT_POSITIONS[1].2),
    ] {
        for _ in 0..25 {
            let mut pos = engine_in(fen, variant);
            for _ in 0..300 {
                let fen = pos.to_fen();
                let theirs = reference_in(&fen, variant);
                let ours = engine_moves(&pos);
                let listed = theirs.moves(true);
                assert_eq!(
                    ours.keys().collect::<Vec<_>>(),
                    listed.keys().collect::<Vec<_>>(),
                    "at {fen}"
                );
                for (spelling, next) in &ours {
                    assert_eq!(
                        reference_in(next, variant),
                        listed[spelling],
                        "{spelling} at {fen}"
                    );
                }
                kept += ours.keys().filter(|m| m.contains('/')).count();
                let expected = theirs.loss().map(|(loser, why)| {
                    let loser = if loser == 1 { "white" } else { "black" };
                    (loser, why)
                });
                let outcome = pos.outcome().map(|o| {
                    let winner = o.winner.expect("no draws");
                    (winner.opponent().name(), o.reason)
                });
                assert_eq!(outcome, expected, "at {fen}");
                let mut list = Vec::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    ends.push(pos.outcome().map_or("none", |o| o.reason));
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.play(list[(seed >> 33) as usize % list.len()]);
            }
        }
    }
    assert!(kept > 20, "only {kept} moves keeping GIPF-pieces");
    assert!(ends.contains(&"no-gipf"), "ends: {ends:?}");
}
