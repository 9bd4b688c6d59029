//! The independent sparring partner (`src/bin/gipf-sparring/`) through its protocol: the
//! handshake arena needs, a capture taken when one is there, legal moves all through games
//! (basic and standard) checked by the library's rules, `bestmove 0000` at a game's end, and
//! clear errors for bad input.

use crate::sparring::Sparring;
use tabula::game::{Game, Side};
use tabula::games::gipf::{Gipf, Options, Variant};

/// The partner at `depth`.
fn partner(depth: u32) -> Sparring {
    Sparring::start(env!("CARGO_BIN_EXE_gipf-sparring"), depth)
}

#[test]
fn handshake_declares_what_arena_sets() {
    let mut s = partner(2);
    s.send("ugi");
    let lines = s.until("ugiok");
    assert!(lines[0].starts_with("id name gipf-sparring"), "{lines:?}");
    for option in ["GameOptions", "Depth"] {
        let declared = format!("option name {option} ");
        assert!(lines.iter().any(|l| l.starts_with(&declared)), "{lines:?}");
    }
    s.send("isready");
    assert_eq!(s.until("readyok"), ["readyok"]);
}

#[test]
fn captures_when_it_can() {
    // White e2 e3 e4, Black e6: only e1-e2 makes White's four e2-e5, whose run takes e6 along.
    let fen = "4/5/6/www1b2/6/5/4 w 12 14 0 0";
    let start = Gipf::from_fen(fen, &Options::default()).unwrap();
    for depth in [1, 2] {
        let mut s = partner(depth);
        let best = s.bestmove(&format!("fen {fen}"));
        let mut pos = start;
        pos.play(pos.parse_move(&best).unwrap());
        assert_eq!(pos.captured(Side::White), 1, "depth {depth}: {best}");
    }
}

#[test]
fn plays_legal_moves_to_the_end() {
    for variant in [Variant::Basic, Variant::Standard] {
        let options = Options { variant };
        let mut s = partner(2);
        s.send(&format!(
            "setoption name GameOptions value {}",
            Gipf::format_options(&options)
        ));
        s.send("uginewgame");
        let mut pos = Gipf::start(&options);
        let mut moves = Vec::new();
        while pos.outcome().is_none() {
            assert!(moves.len() < 1000, "{variant:?}: no end after {moves:?}");
            let token = s.bestmove(&format!("startpos moves {}", moves.join(" ")));
            let mv = pos
                .parse_move(&token)
                .unwrap_or_else(|e| panic!("{token} after {moves:?}: {e}"));
            // The rules print one spelling per move: the partner must use it, as arena does.
            assert_eq!(pos.format_move(mv), token);
            pos.play(mv);
            moves.push(token);
        }
        let end = format!("startpos moves {}", moves.join(" "));
        assert_eq!(s.bestmove(&end), "0000", "{variant:?}");
    }
}

#[test]
fn bad_input_gets_an_error_line() {
    let mut s = partner(1);
    for (line, expected) in [
        ("position startpos moves zz", "error move zz"),
        ("setoption name GameOptions value variant=huge", "error "),
        (
            "setoption name Depth value 0",
            "error bad depth 0: expected 1 to 20",
        ),
        (
            "setoption name Depth",
            "error setoption name Depth: expected value VALUE",
        ),
        (
            "setoption name Depth value 1 2",
            "error setoption name Depth: expected value",
        ),
        ("setoption name Seed value 1", "error unknown option Seed"),
        (
            "setoption value 3",
            "error setoption: expected name NAME value",
        ),
        ("position fen nonsense", "error "),
        ("frobnicate", "error unknown command"),
    ] {
        s.send(line);
        s.send("isready");
        let lines = s.until("readyok");
        assert!(
            lines.len() == 2 && lines[0].starts_with(expected),
            "{line}: {lines:?}"
        );
    }
    // Still at the start and still answering after all of that.
    let best = s.bestmove("startpos");
    assert!(Gipf::start(&Options::default()).parse_move(&best).is_ok());
}
