//! Position strings and the board drawing.
//!
//! Position: `<columns b..h> <side> <white reserve> <black reserve> <white captured> <black captured>`,
//! each column from its lowest spot up, `w`/`b` for pieces, `W`/`B` for GIPF-pieces and a
//! digit for empty spots, e.g. the start `b2w/5/6/w5b/6/5/b2w w 12 12 0 0`. Captured counts
//! are opposing pieces taken (a GIPF-piece counts two). The tournament game adds a seventh
//! field: the sides that may still bring GIPF-pieces in (`wb`, `w`, `b` or `-`).

use super::geometry::{is_spot, row_of, POINTS, XY};
use super::notation::{choice_list, pretty};
use super::{Gipf, Variant, PIECE_LIMIT};
use crate::game::{GameError, Side};

/// The seventh field of a tournament position string.
fn bringing_field(may_bring: u8) -> &'static str {
    ["-", "w", "b", "wb"][may_bring as usize & 3]
}

impl Gipf {
    /// The position string.
    pub(crate) fn write_fen(&self) -> String {
        let mut columns = Vec::new();
        for x in 1..8 {
            let mut column = String::new();
            let mut empty = 0;
            for p in (0..POINTS).filter(|&p| XY[p].0 == x && is_spot(p)) {
                let piece = [Side::White, Side::Black]
                    .into_iter()
                    .find(|s| self.pieces[s.index()] & (1 << p) != 0);
                match piece {
                    None => empty += 1,
                    Some(side) => {
                        if empty > 0 {
                            column.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let letter = if side == Side::White { 'w' } else { 'b' };
                        column.push(if self.gipf & (1 << p) != 0 {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        });
                    }
                }
            }
            if empty > 0 {
                column.push_str(&empty.to_string());
            }
            columns.push(column);
        }
        let mut fen = format!(
            "{} {} {} {} {} {}",
            columns.join("/"),
            if self.to_move == Side::White {
                'w'
            } else {
                'b'
            },
            self.reserve[0],
            self.reserve[1],
            self.captured[0],
            self.captured[1]
        );
        if self.variant == Variant::Tournament {
            fen.push(' ');
            fen.push_str(bringing_field(self.may_bring));
        }
        fen
    }

    /// Parses and validates a position string of `variant`.
    pub(crate) fn read_fen(fen: &str, variant: Variant) -> Result<Gipf, GameError> {
        let bad = |what: String| GameError::BadPosition(what);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let [board, side, rest @ ..] = fields.as_slice() else {
            return Err(bad("expected board, side and four counts".into()));
        };
        let (counts, bringing) = match (rest.len(), variant) {
            (4, _) => (rest, "-"),
            (5, Variant::Tournament) => (&rest[..4], rest[4]),
            (5, _) => {
                return Err(bad(
                    "expected 6 fields, got 7 (the seventh is for variant=tournament only)".into(),
                ))
            }
            _ if variant == Variant::Tournament => {
                return Err(bad(format!("expected 6 or 7 fields, got {}", fields.len())))
            }
            _ => return Err(bad(format!("expected 6 fields, got {}", fields.len()))),
        };
        let may_bring = match bringing {
            "-" => 0,
            "w" => 1,
            "b" => 2,
            "wb" => 3,
            other => {
                return Err(bad(format!(
                    "the sides still bringing GIPF-pieces in must be wb, w, b or -, got {other}"
                )))
            }
        };
        let mut pos = Gipf {
            gipf: 0,
            may_bring,
            variant,
            pieces: [0, 0],
            reserve: [0, 0],
            captured: [0, 0],
            to_move: match *side {
                "w" => Side::White,
                "b" => Side::Black,
                other => return Err(bad(format!("side must be w or b, got {other}"))),
            },
        };
        let columns: Vec<&str> = board.split('/').collect();
        if columns.len() != 7 {
            return Err(bad(format!(
                "expected 7 columns b..h, got {}",
                columns.len()
            )));
        }
        for (x, column) in (1..8).zip(&columns) {
            let spots: Vec<usize> = (0..POINTS)
                .filter(|&p| XY[p].0 == x && is_spot(p))
                .collect();
            let letter = char::from(b'a' + x as u8);
            let mut at = 0;
            for c in column.chars() {
                let (count, side) = match c {
                    'w' | 'W' => (1, Some(Side::White)),
                    'b' | 'B' => (1, Some(Side::Black)),
                    '1'..='7' => (c as usize - '0' as usize, None),
                    _ => return Err(bad(format!("unexpected {c:?} in column {letter}"))),
                };
                if c.is_ascii_uppercase() && !variant.has_gipf_pieces() {
                    return Err(bad(format!(
                        "{c} is a GIPF-piece, and the basic game has none"
                    )));
                }
                if at + count > spots.len() {
                    return Err(bad(format!(
                        "column {letter} has only {} spots",
                        spots.len()
                    )));
                }
                if let Some(side) = side {
                    pos.pieces[side.index()] |= 1 << spots[at];
                    if c.is_ascii_uppercase() {
                        pos.gipf |= 1 << spots[at];
                    }
                }
                at += count;
            }
            if at != spots.len() {
                return Err(bad(format!(
                    "column {letter} describes {at} of {} spots",
                    spots.len()
                )));
            }
        }
        let mut numbers = [0u8; 4];
        for (n, text) in numbers.iter_mut().zip(counts) {
            *n = text
                .parse::<u8>()
                .ok()
                .filter(|&n| n <= PIECE_LIMIT)
                .ok_or_else(|| bad(format!("count {text} is not a number 0..={PIECE_LIMIT}")))?;
        }
        pos.reserve = [numbers[0], numbers[1]];
        pos.captured = [numbers[2], numbers[3]];
        // A push moves pieces from the reserve to the board, a removal moves them back or to
        // the opponent's captures: the sum never changes.
        for side in [Side::White, Side::Black] {
            let total = pos.owned(side);
            if total != u32::from(variant.pieces()) {
                return Err(bad(format!(
                    "{} has {total} pieces (board, reserve and captured by {}), the {} game has {}",
                    side.name(),
                    side.opponent().name(),
                    variant.name(),
                    variant.pieces()
                )));
            }
        }
        let waiting = pos.to_move.opponent();
        if pos.has_row(waiting) {
            return Err(bad(format!(
                "{} has a row of four but {} is to move",
                waiting.name(),
                pos.to_move.name()
            )));
        }
        Ok(pos)
    }

    /// The hexagon, dots labelled with their names, spots `.`, `W` or `B` (`WW` or `BB` for a
    /// GIPF-piece), then the counts.
    pub(crate) fn draw(&self) -> Vec<String> {
        // Column x sits 4 characters apart; point (x, row) at height 2 * row + |x - 4|.
        let mut lines = Vec::new();
        for height in (2..=18).rev() {
            let mut text = String::new();
            for (p, &(x, _)) in XY.iter().enumerate() {
                let x = x as i32;
                if 2 * row_of(p) + (x - 4).abs() != height {
                    continue;
                }
                let column = 4 * x as usize;
                while text.len() < column {
                    text.push(' ');
                }
                let cell = if !is_spot(p) {
                    pretty(p)
                } else if self.pieces[0] & (1 << p) != 0 {
                    if self.gipf & (1 << p) != 0 {
                        "WW"
                    } else {
                        " W"
                    }
                    .into()
                } else if self.pieces[1] & (1 << p) != 0 {
                    if self.gipf & (1 << p) != 0 {
                        "BB"
                    } else {
                        " B"
                    }
                    .into()
                } else {
                    " .".into()
                };
                text.push_str(&cell);
            }
            lines.push(text.trim_end().to_owned());
        }
        for side in [Side::White, Side::Black] {
            let mut line = format!(
                "{}: reserve {}, captured {}",
                side.name(),
                self.reserve[side.index()],
                self.captured[side.index()]
            );
            if self.variant.has_gipf_pieces() {
                line += &format!(", GIPF-pieces on the board {}", self.gipf_count(side));
            }
            if self.may_bring(side) {
                line += ", may still bring GIPF-pieces in";
            }
            lines.push(line);
        }
        if self.has_row(self.to_move) {
            let list = choice_list(self, self.to_move);
            if list.is_empty() {
                // Rows that cross no other are removed with the next move, unasked.
                lines.push(format!(
                    "{} has a row of four, removed before its push (no choice to make)",
                    self.to_move.name()
                ));
            } else if list.contains(',') || self.gipf == 0 {
                lines.push(format!(
                    "{} must first remove one of {list}",
                    self.to_move.name()
                ));
            } else if !list.is_empty() {
                lines.push(format!(
                    "{} must first remove {list}, deciding which GIPF-pieces stay",
                    self.to_move.name()
                ));
            }
        }
        lines
    }
}
