//! Breakthrough's rules as tests check them from position strings alone (written apart from
//! the bitboard code on purpose: see [`Laws`]).

use crate::game::Laws;
use crate::util::board_text::{men as pieces, rows};

/// The laws: men on the board; a move keeps the mover's men and takes one enemy man exactly
/// when it lands on one; the game is over when a man stands on its far rank or a side has no
/// men.
pub const LAWS: Laws = Laws {
    pieces,
    pieces_after,
    over,
    position: |_| Ok(()),
    step: |_, _| Ok(()),
};

fn pieces_after(before: &str, token: &str) -> Option<[i64; 2]> {
    let mut counts = pieces(before)?;
    let rows = rows(before)?;
    // The target is the second square: the token's tail from its second letter.
    let second = token.get(1..)?.find(|c: char| c.is_ascii_lowercase())? + 1;
    let target = &token[second..];
    let file = usize::from(target.bytes().next()?.checked_sub(b'a')?);
    let rank: usize = target.get(1..)?.parse().ok()?;
    let row = rows.len().checked_sub(rank)?;
    match rows.get(row)?.get(file)? {
        'w' => counts[0] -= 1,
        'b' => counts[1] -= 1,
        _ => {}
    }
    Some(counts)
}

fn over(fen: &str) -> Option<bool> {
    let rows = rows(fen)?;
    let [white, black] = pieces(fen)?;
    let far = rows.first()?.contains(&'w') || rows.last()?.contains(&'b');
    Some(white == 0 || black == 0 || far)
}
