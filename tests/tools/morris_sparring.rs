//! The independent sparring partner (`src/bin/morris-sparring/`) through its protocol: the
//! handshake arena needs, a mill taken when one can be closed, legal moves all through games
//! (both flying settings) checked by the library's rules, `bestmove 0000` at a game's end,
//! `Seed` choosing among equal moves (with arena's large seeds too), the material-only `Eval`,
//! and errors for bad option values.

use crate::sparring::Sparring;
use tabula::game::Game;
use tabula::games::morris::{Morris, Options};

/// The partner at `depth`.
fn partner(depth: u32) -> Sparring {
    Sparring::start(env!("CARGO_BIN_EXE_morris-sparring"), depth)
}

/// The position after `moves` from the start.
fn after(moves: &[String]) -> String {
    format!("startpos moves {}", moves.join(" "))
}

#[test]
fn handshake_declares_what_arena_sets() {
    let mut s = partner(2);
    s.send("ugi");
    let lines = s.until("ugiok");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name GameOptions")));
    s.send("isready");
    assert_eq!(s.until("readyok"), ["readyok"]);
}

#[test]
fn closes_a_mill_when_it_can() {
    // White a1 a4, Black b2 b4: a7 closes White's mill on file a and takes a man, with
    // either evaluation.
    for eval in ["full", "material"] {
        let mut s = partner(3);
        s.send(&format!("setoption name Eval value {eval}"));
        let moves: Vec<String> = ["a1", "b2", "a4", "b4"].map(String::from).to_vec();
        let best = s.bestmove(&after(&moves));
        assert!(best.starts_with("a7x"), "{eval}: {best}");
    }
}

#[test]
fn bad_option_values_are_errors() {
    let mut s = partner(1);
    for (line, error) in [
        ("setoption name Eval value deep", "error bad eval deep"),
        ("setoption name Seed value -1", "error bad seed -1"),
        (
            "setoption name Seed value 9223372036854775808",
            "error bad seed 9223372036854775808",
        ),
    ] {
        s.send(line);
        s.send("isready");
        assert_eq!(s.until("readyok"), [error, "readyok"], "{line}");
    }
}

#[test]
fn plays_legal_moves_to_the_end() {
    for flying in [false, true] {
        let options = Options {
            flying,
            ..Options::default()
        };
        let mut s = partner(3);
        s.send(&format!("setoption name GameOptions value flying={flying}"));
        s.send("uginewgame");
        let mut pos = Morris::start(&options);
        let mut moves = Vec::new();
        while pos.outcome().is_none() {
            let token = s.bestmove(&after(&moves));
            let mv = pos
                .parse_move(&token)
                .unwrap_or_else(|e| panic!("{token} after {moves:?}: {e}"));
            pos.play(mv);
            moves.push(token);
        }
        assert_eq!(s.bestmove(&after(&moves)), "0000");
    }
}

#[test]
fn a_seed_varies_the_choice_among_equal_moves() {
    // At depth 1 a first placement scores by its point alone: the middle square's four
    // midpoints (b4 d2 d6 f4, four neighbours each) tie, and seeds pick among them.
    let first_moves = |seed: u64| {
        let mut s = partner(1);
        s.send(&format!("setoption name Seed value {seed}"));
        s.bestmove(&after(&[]))
    };
    let unseeded = first_moves(0);
    assert_eq!(unseeded, first_moves(0), "seed 0: the generator's order");
    let seeded: std::collections::BTreeSet<String> = (1..=12).map(first_moves).collect();
    assert!(seeded.len() > 1, "twelve seeds all chose {seeded:?}");
    assert!(seeded
        .iter()
        .all(|m| ["b4", "d2", "d6", "f4"].contains(&m.as_str())));
    assert_eq!(first_moves(7), first_moves(7), "a seed gives one game");
    // Arena's seeds run up to 2^62: those vary the choice too.
    let large: std::collections::BTreeSet<String> =
        (1..=12u64).map(|k| first_moves(k << 50)).collect();
    assert!(large.len() > 1, "twelve large seeds all chose {large:?}");
}
