//! Bombardment's rules as tests check them from position strings alone (written apart from the
//! bitboard code on purpose: see [`Laws`]).

use crate::game::Laws;
use crate::util::board_text::{men as pieces, rows};

/// The laws: pieces on the board; a step keeps every piece, a detonation removes every piece
/// on its 3x3 block; the game is over exactly when a side has no piece or a piece stands on
/// its far rank.
pub const LAWS: Laws = Laws {
    pieces,
    pieces_after,
    over,
    position: |_| Ok(()),
    step: |_, _| Ok(()),
};

fn pieces_after(before: &str, token: &str) -> Option<[i64; 2]> {
    let mut counts = pieces(before)?;
    let Some(square) = token.strip_prefix('x') else {
        return Some(counts);
    };
    let rows = rows(before)?;
    let size = rows.len() as i64;
    let file = i64::from(square.bytes().next()?.checked_sub(b'a')?);
    let rank: i64 = square.get(1..)?.parse().ok()?;
    let row = size - rank;
    for r in row - 1..=row + 1 {
        for f in file - 1..=file + 1 {
            if (0..size).contains(&r) && (0..size).contains(&f) {
                match rows[r as usize][f as usize] {
                    'w' => counts[0] -= 1,
                    'b' => counts[1] -= 1,
                    _ => {}
                }
            }
        }
    }
    Some(counts)
}

fn over(fen: &str) -> Option<bool> {
    let rows = rows(fen)?;
    let [white, black] = pieces(fen)?;
    let far = rows.first()?.contains(&'w') || rows.last()?.contains(&'b');
    Some(white == 0 || black == 0 || far)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_written_positions_read_right() {
        let start = "bbbbbbbb/bbbbbbbb/8/8/8/8/wwwwwwww/wwwwwwww w";
        assert_eq!(pieces(start), Some([16, 16]));
        assert_eq!(pieces_after("8/8/8/8/8/2b5/1www4/8 w", "xc2"), Some([0, 0]));
        assert_eq!(over("w7/8/8/8/8/8/8/b7 b"), Some(true));
        assert_eq!(over(start), Some(false));
    }
}
