//! The board field of a square-board position string (`bb2/8/.../ww w`: ranks from the top,
//! `/`-separated, digits for runs of empty squares), read into rows of chars. The laws of the
//! games that use this layout (Bombardment, Breakthrough) read boards with it, apart from the
//! games' own bitboard parsers.

/// The board as rows from the top, one char per square (`.` for empty); `None` when a run of
/// digits is not a number.
pub fn rows(fen: &str) -> Option<Vec<Vec<char>>> {
    let board = fen.split_whitespace().next()?;
    board
        .split('/')
        .map(|rank| {
            let mut row = Vec::new();
            let mut digits = String::new();
            for c in rank.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    row.extend(std::iter::repeat_n('.', digits.parse().ok()?));
                    digits.clear();
                }
                row.push(c);
            }
            if !digits.is_empty() {
                row.extend(std::iter::repeat_n('.', digits.parse().ok()?));
            }
            Some(row)
        })
        .collect()
}

/// White's and Black's men (`w`, `b`) on the board of `fen`; `None` as for [`rows`].
pub fn men(fen: &str) -> Option<[i64; 2]> {
    let rows = rows(fen)?;
    let count = |c: char| rows.iter().flatten().filter(|&&x| x == c).count() as i64;
    Some([count('w'), count('b')])
}

#[cfg(test)]
mod tests {
    use super::{men, rows};

    #[test]
    fn men_are_counted_by_colour() {
        assert_eq!(men("b2b/1w1w w"), Some([2, 2]));
        assert_eq!(men("3/3 w"), Some([0, 0]));
        assert_eq!(men("w99999999999999999999 w"), None);
    }

    #[test]
    fn digit_runs_of_any_length_become_empty_squares() {
        let board = rows("b11w/12 b").unwrap();
        assert_eq!(board.len(), 2);
        assert_eq!(board[0].len(), 13);
        assert_eq!((board[0][0], board[0][1], board[0][12]), ('b', '.', 'w'));
        assert!(board[1].iter().all(|&c| c == '.') && board[1].len() == 12);
    }
}
