//! Move tokens (`e2e3`, `xe2`), the position string and the `d` drawing.

use super::bits::Bits;
use super::geometry::Geometry;
use super::{Bombardment, Move};
use crate::game::{GameError, Side};

/// The canonical spelling of a move.
pub fn format_move<B: Bits>(geometry: &Geometry<B>, mv: Move) -> String {
    match mv {
        Move::Step(from, to) => format!(
            "{}{}",
            geometry.square_name(from as u32),
            geometry.square_name(to as u32)
        ),
        Move::Detonate(square) => format!("x{}", geometry.square_name(square as u32)),
    }
}

/// Splits `e2e3` into its two square names (the second starts at the second letter).
fn split_step(token: &str) -> Option<(&str, &str)> {
    let second = token
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())?
        .0;
    Some((&token[..second], &token[second..]))
}

/// A letter and a number: the shape of a square name, on this board or not.
fn looks_like_square(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && !chars.as_str().is_empty()
        && chars.all(|c| c.is_ascii_digit())
}

/// What a token names (syntax and board only: legality is the move list's).
pub fn read_move<B: Bits>(geometry: &Geometry<B>, token: &str) -> Result<Move, GameError> {
    let square = |text: &str| {
        geometry.parse_square(text).ok_or_else(|| {
            let last = geometry.square_name(geometry.size * geometry.size - 1);
            GameError::bad_move(
                token,
                format!("{text} is not a square of this board (a1..{last})"),
            )
        })
    };
    let expected = "expected a step like e2e3 or a detonation like xe2";
    if let Some(rest) = token.strip_prefix('x') {
        if !looks_like_square(rest) {
            return Err(GameError::bad_move(token, expected));
        }
        return Ok(Move::Detonate(square(rest)? as u8));
    }
    let (from, to) = split_step(token).ok_or_else(|| GameError::bad_move(token, expected))?;
    if !looks_like_square(from) || !looks_like_square(to) {
        return Err(GameError::bad_move(token, expected));
    }
    Ok(Move::Step(square(from)? as u8, square(to)? as u8))
}

/// Why `mv` is not a legal move of `position`, by the first rule it breaks, if any.
pub fn why_illegal<B: Bits>(position: &Bombardment<B>, mv: Move) -> Option<String> {
    let geometry = &position.geometry;
    let side = position.side;
    let own = position.pieces[side.index()];
    let origin = match mv {
        Move::Step(from, _) | Move::Detonate(from) => from as u32,
    };
    if !own.has(origin) {
        return Some(format!(
            "no {} piece on {}",
            side.name(),
            geometry.square_name(origin)
        ));
    }
    if let Move::Step(from, to) = mv {
        let (straight, left, right) = geometry.steps(B::bit(from as u32), side == Side::White);
        if !(straight | left | right).has(to as u32) {
            return Some("a piece steps one square straight or diagonally forward".into());
        }
        if position.occupied().has(to as u32) {
            return Some(format!("{} is occupied", geometry.square_name(to as u32)));
        }
    }
    None
}

/// The position string: ranks from the top, then the side to move.
pub fn format_fen<B: Bits>(position: &Bombardment<B>) -> String {
    let n = position.geometry.size;
    let mut ranks = Vec::with_capacity(n as usize);
    for rank in (0..n).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 0..n {
            match piece_at(position, rank * n + file) {
                Some(side) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(if side == Side::White { 'w' } else { 'b' });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    let side = if position.side == Side::White {
        'w'
    } else {
        'b'
    };
    format!("{} {side}", ranks.join("/"))
}

fn piece_at<B: Bits>(position: &Bombardment<B>, square: u32) -> Option<Side> {
    [Side::White, Side::Black]
        .into_iter()
        .find(|side| position.pieces[side.index()].has(square))
}

/// Parses a position string for a board of the given geometry.
pub fn parse_fen<B: Bits>(fen: &str, geometry: Geometry<B>) -> Result<Bombardment<B>, GameError> {
    let bad = |what: String| GameError::BadPosition(what);
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let [board, side] = fields[..] else {
        return Err(bad(
            "expected two fields: ranks and side to move (w or b)".into()
        ));
    };
    let side = match side {
        "w" => Side::White,
        "b" => Side::Black,
        other => return Err(bad(format!("side to move must be w or b, not {other}"))),
    };
    let n = geometry.size;
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != n as usize {
        return Err(bad(format!(
            "{} ranks, but this game is size={n} (choose the size with newgame bombardment size=N)",
            ranks.len()
        )));
    }
    let mut position = Bombardment::empty(geometry, side);
    for (index, text) in ranks.iter().enumerate() {
        let rank = n - 1 - index as u32;
        let mut file = 0u32;
        let mut digits = String::new();
        for c in text.chars().chain(std::iter::once('/')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                let run: u32 = digits
                    .parse()
                    .map_err(|_| bad(format!("bad number in rank {}", rank + 1)))?;
                if run == 0 || digits.starts_with('0') {
                    return Err(bad(format!(
                        "bad empty-square count {digits} in rank {}",
                        rank + 1
                    )));
                }
                file = file.saturating_add(run);
                digits.clear();
            }
            let owner = match c {
                'w' => Side::White,
                'b' => Side::Black,
                '/' => break,
                other => {
                    return Err(bad(format!(
                        "unexpected {other:?} in rank {} (use w, b or digits)",
                        rank + 1
                    )))
                }
            };
            if file >= n {
                return Err(bad(format!("rank {} has more than {n} squares", rank + 1)));
            }
            position.put(owner, rank * n + file);
            file += 1;
        }
        if file != n {
            return Err(bad(format!(
                "rank {} has {file} squares, expected {n}",
                rank + 1
            )));
        }
    }
    // Pieces are never added: each side has at most the two home rows it started with.
    for owner in [Side::White, Side::Black] {
        let count = position.pieces[owner.index()].count();
        if count > 2 * n {
            return Err(bad(format!(
                "{} has {count} pieces, more than the {} it starts with on size={n}",
                owner.name(),
                2 * n
            )));
        }
    }
    if position.reached_far_rank(Side::White) && position.reached_far_rank(Side::Black) {
        return Err(bad("both sides stand on their far rank".into()));
    }
    // Only the mover's own step reaches its far rank, and that ends the game at once.
    if position.reached_far_rank(side) {
        return Err(bad(format!(
            "{0} stands on its far rank with {0} to move (the game ended on {0}'s last move)",
            side.name()
        )));
    }
    Ok(position)
}

/// The board for `d`: rank numbers left, file letters below, `W`/`B` pieces, `.` empty.
pub fn board_lines<B: Bits>(position: &Bombardment<B>) -> Vec<String> {
    let n = position.geometry.size;
    let mut lines = Vec::new();
    for rank in (0..n).rev() {
        let cells: Vec<&str> = (0..n)
            .map(|file| match piece_at(position, rank * n + file) {
                Some(Side::White) => "W",
                Some(Side::Black) => "B",
                None => ".",
            })
            .collect();
        lines.push(format!("{:>2} {}", rank + 1, cells.join(" ")));
    }
    let files: Vec<String> = (0..n)
        .map(|f| ((b'a' + f as u8) as char).to_string())
        .collect();
    lines.push(format!("   {}", files.join(" ")));
    lines.push(format!(
        "white pieces {}, black pieces {}",
        position.pieces[0].count(),
        position.pieces[1].count()
    ));
    lines
}
