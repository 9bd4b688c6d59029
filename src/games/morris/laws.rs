//! Nine Men's Morris's rules as tests check them from position strings alone (written apart
//! from the game's code on purpose: see [`Laws`]).

use crate::game::Laws;

/// The laws: a side's men on the board plus in hand; a move keeps the mover's, a capture
/// takes exactly one of the opponent's; fewer than three men ends the game.
pub const LAWS: Laws = Laws {
    pieces,
    pieces_after,
    over: |fen| {
        let [white, black] = pieces(fen)?;
        (white < 3 || black < 3).then_some(true)
    },
    position: |_| Ok(()),
    step: |_, _| Ok(()),
};

fn pieces(fen: &str) -> Option<[i64; 2]> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let count = |c: char| fields[0].chars().filter(|&x| x == c).count() as i64;
    let hand = |i: usize| fields.get(i)?.parse::<i64>().ok();
    Some([count('W') + hand(2)?, count('B') + hand(3)?])
}

fn pieces_after(before: &str, token: &str) -> Option<[i64; 2]> {
    let mut counts = pieces(before)?;
    let opponent = match before.split_whitespace().nth(1)? {
        "w" => 1,
        "b" => 0,
        _ => return None,
    };
    counts[opponent] -= i64::from(token.contains('x'));
    Some(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_written_positions_read_right() {
        let start = ".../.../.../....../.../.../... w 9 9 0";
        assert_eq!(pieces(start), Some([9, 9]));
        assert_eq!(
            pieces_after("WW./.../.../B...../.../.../... w 6 7 0", "a7xa4"),
            Some([8, 7])
        );
    }
}
