//! Unit tests of the rules, notation and formats; perft against a naive reference is in
//! `tests/perft_backgammon.rs`.

use super::*;
use crate::game::Game;

fn pos(fen: &str) -> Backgammon {
    Backgammon::from_fen(fen, &Options::default()).expect(fen)
}

fn moves(p: &Backgammon) -> Vec<String> {
    let mut out = Vec::new();
    p.legal_moves(&mut out);
    let mut v: Vec<String> = out.iter().map(|&m| p.format_move(m)).collect();
    v.sort();
    v
}

#[test]
fn start_fen_round_trips() {
    let start = Backgammon::start(&Options::default());
    let fen = start.to_fen();
    assert_eq!(fen, "w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w - opening");
    assert_eq!(pos(&fen), start);
}

#[test]
fn debug_print() {
    let start = Backgammon::start(&Options::default());
    let mut p = start.clone();
    p.apply_chance(31);
    eprintln!("{:?}", moves(&p));
    eprintln!("perft1 {} perft2 {}", start.perft(1), start.perft(2));
    for l in start.board_lines() {
        eprintln!("{l}");
    }
}
