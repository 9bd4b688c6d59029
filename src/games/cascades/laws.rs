//! Cascades' rules as tests check them from position strings alone (written apart from the
//! game's code on purpose: see [`Laws`]).

use crate::game::Laws;

/// The laws: stones on the board, only ever added, one per cell a move names; two passes in a
/// row end the game.
pub const LAWS: Laws = Laws {
    pieces,
    pieces_after: |before, token| {
        let mut counts = pieces(before)?;
        let mover = match before.split_whitespace().nth(1)? {
            "w" => 0,
            "b" => 1,
            _ => return None,
        };
        if token != "pass" {
            counts[mover] += token.split(',').count() as i64;
        }
        Some(counts)
    },
    over: |fen| (fen.split_whitespace().nth(2)? == "2").then_some(true),
    position: |_| Ok(()),
    step: |_, _| Ok(()),
};

fn pieces(fen: &str) -> Option<[i64; 2]> {
    let board = fen.split_whitespace().next()?;
    let count = |c: char| board.chars().filter(|&x| x == c).count() as i64;
    Some([count('w'), count('b')])
}
