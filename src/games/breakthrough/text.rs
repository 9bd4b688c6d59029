//! Breakthrough's notation: squares, moves, the position string and the `d` drawing.

use super::{Breakthrough, Move};
use crate::game::{GameError, Side};

/// A square's name (`e2`).
pub fn square(square: u8) -> String {
    format!("{}{}", (b'a' + square % 8) as char, square / 8 + 1)
}

/// A square of a board of `size` from its name.
fn parse_square(text: &str, size: u8) -> Option<u8> {
    let mut chars = text.chars();
    let file = chars.next()? as u32;
    let file = file
        .checked_sub('a' as u32)
        .filter(|&f| f < u32::from(size))? as u8;
    let rank: u8 = chars.as_str().parse().ok()?;
    (1..=size).contains(&rank).then(|| (rank - 1) * 8 + file)
}

/// A move token's two squares (syntax and board only: legality is the game's).
pub fn parse_move(token: &str, size: u8) -> Result<Move, GameError> {
    let bad = || GameError::bad_move(token, "expected two squares, like e2e3");
    let split = token
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c.is_ascii_lowercase())
        .map(|(i, _)| i)
        .ok_or_else(bad)?;
    let from = parse_square(&token[..split], size).ok_or_else(bad)?;
    let to = parse_square(&token[split..], size).ok_or_else(bad)?;
    Ok(Move { from, to })
}

/// Why a well-formed move is not legal here, by the first rule it breaks, if any.
pub fn why_illegal(pos: &Breakthrough, mv: Move) -> Option<String> {
    let me = pos.side.index();
    let them = pos.side.opponent().index();
    if pos.men[me] & 1 << mv.from == 0 {
        return Some(format!("no {} man on {}", pos.side.name(), square(mv.from)));
    }
    let forward = match pos.side {
        Side::White => i16::from(mv.to / 8) - i16::from(mv.from / 8),
        Side::Black => i16::from(mv.from / 8) - i16::from(mv.to / 8),
    };
    let sideways = (i16::from(mv.to % 8) - i16::from(mv.from % 8)).abs();
    if forward != 1 || sideways > 1 {
        return Some("a man moves one square forward, straight or diagonally".into());
    }
    if pos.men[me] & 1 << mv.to != 0 {
        return Some(format!("{} holds a man of the same side", square(mv.to)));
    }
    if sideways == 0 && pos.men[them] & 1 << mv.to != 0 {
        return Some("a man captures diagonally, never straight ahead".into());
    }
    None
}

/// Parses a position string of a board of `size`.
pub fn from_fen(fen: &str, size: u8) -> Result<Breakthrough, GameError> {
    let bad = |what: String| GameError::BadPosition(what);
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let [board, side] = fields[..] else {
        return Err(bad(format!("expected 2 fields, got {}", fields.len())));
    };
    let side = match side {
        "w" => Side::White,
        "b" => Side::Black,
        other => return Err(bad(format!("side to move must be w or b, not {other}"))),
    };
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != usize::from(size) {
        return Err(bad(format!(
            "expected {size} ranks (size={size}), got {}",
            rows.len()
        )));
    }
    let mut men = [0u64; 2];
    for (i, row) in rows.iter().enumerate() {
        let rank = size as usize - 1 - i;
        let mut file = 0usize;
        let mut digits = String::new();
        for c in row.chars().map(Some).chain(std::iter::once(None)) {
            if let Some(digit) = c.filter(char::is_ascii_digit) {
                digits.push(digit);
                continue;
            }
            if !digits.is_empty() {
                let run: usize =
                    digits.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                        bad(format!("bad empty-square count in rank {}", rank + 1))
                    })?;
                file += run;
                digits.clear();
            }
            let owner = match c {
                None => break,
                Some('w') => 0,
                Some('b') => 1,
                Some(other) => {
                    return Err(bad(format!("unknown piece {other:?} (w, b or digits)")))
                }
            };
            if file < usize::from(size) {
                men[owner] |= 1 << (rank * 8 + file);
            }
            file += 1;
        }
        if file != usize::from(size) {
            return Err(bad(format!(
                "rank {} has {file} squares, expected {size}",
                rank + 1
            )));
        }
    }
    let pos = Breakthrough { men, side, size };
    if men[0] & pos.far_rank(Side::White) != 0 && men[1] & pos.far_rank(Side::Black) != 0 {
        return Err(bad("both sides stand on their far rank".into()));
    }
    if men == [0, 0] {
        return Err(bad("no men on the board".into()));
    }
    if men[0].count_ones() > 2 * u32::from(size) || men[1].count_ones() > 2 * u32::from(size) {
        return Err(bad(format!("a side has at most {} men", 2 * size)));
    }
    Ok(pos)
}

/// The position string.
pub fn to_fen(pos: &Breakthrough) -> String {
    let rows: Vec<String> = (0..pos.size)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..pos.size {
                let bit = 1u64 << (rank * 8 + file);
                let piece = if pos.men[0] & bit != 0 {
                    'w'
                } else if pos.men[1] & bit != 0 {
                    'b'
                } else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(piece);
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    let side = if pos.side == Side::White { "w" } else { "b" };
    format!("{} {side}", rows.join("/"))
}

/// The `d` drawing: ranks from the top with their numbers, files below.
pub fn board_lines(pos: &Breakthrough) -> Vec<String> {
    let mut lines: Vec<String> = (0..pos.size)
        .rev()
        .map(|rank| {
            let cells: Vec<&str> = (0..pos.size)
                .map(|file| {
                    let bit = 1u64 << (rank * 8 + file);
                    if pos.men[0] & bit != 0 {
                        "W"
                    } else if pos.men[1] & bit != 0 {
                        "B"
                    } else {
                        "."
                    }
                })
                .collect();
            format!("{:>2} {}", rank + 1, cells.join(" "))
        })
        .collect();
    let files: Vec<String> = (0..pos.size)
        .map(|f| ((b'a' + f) as char).to_string())
        .collect();
    lines.push(format!("   {}", files.join(" ")));
    lines.push(format!(
        "white men {}, black men {}",
        pos.men[0].count_ones(),
        pos.men[1].count_ones()
    ));
    lines
}
