//! Move tokens and position strings (notation.md, GIPF section).
//!
//! Move: `[choices:]<dot>-<spot>[:choices]`, choices comma-separated, each `x<end>-<end>`.
//! Position: `<columns b..h> <side> <white reserve> <black reserve> <white captured> <black captured>`,
//! each column from its lowest spot up, `w`/`b` for pieces and a digit for empty spots, e.g.
//! the start `b2w/5/6/w5b/6/5/b2w w 12 12 0 0`. Captured counts are opposing pieces taken.

use super::geometry::{
    adjacent, is_spot, name, parse_point, push_between, segment_between, POINTS, PUSH_TABLE,
    SEGMENT_TABLE, XY,
};
use super::movegen::{Choices, Move};
use super::{Gipf, PIECE_LIMIT};
use crate::game::{GameError, Side};

/// A move token split into its parts, point numbers not yet checked against the position.
struct Token {
    before: Vec<(usize, usize)>,
    dot: usize,
    target: usize,
    after: Vec<(usize, usize)>,
}

/// Reads a point name or says it is not one.
fn point(token: &str, text: &str) -> Result<usize, GameError> {
    parse_point(text).ok_or_else(|| GameError::bad_move(token, format!("{text} is not a point")))
}

/// Reads `x<end>-<end>,...`.
fn parse_choices(token: &str, text: &str) -> Result<Vec<(usize, usize)>, GameError> {
    if text.is_empty() {
        return Err(GameError::bad_move(
            token,
            "expected a removal x<end>-<end> after the colon",
        ));
    }
    text.split(',')
        .map(|choice| {
            let ends = choice.strip_prefix('x').and_then(|c| c.split_once('-'));
            let (a, b) = ends.ok_or_else(|| {
                GameError::bad_move(
                    token,
                    format!("expected a removal x<end>-<end>, got {choice}"),
                )
            })?;
            Ok((point(token, a)?, point(token, b)?))
        })
        .collect()
}

/// Splits a token into choices, push and choices (syntax only).
fn tokenize(token: &str) -> Result<Token, GameError> {
    let parts: Vec<&str> = token.split(':').collect();
    let is_push = |p: &&str| !p.starts_with('x');
    let Some(at) = parts.iter().position(is_push) else {
        return Err(GameError::bad_move(token, "expected a push <dot>-<spot>"));
    };
    if parts.len() > 3 || at > 1 || parts.len() - at > 2 {
        return Err(GameError::bad_move(
            token,
            "expected [removals:]<dot>-<spot>[:removals]",
        ));
    }
    let (dot, target) = parts[at].split_once('-').ok_or_else(|| {
        GameError::bad_move(
            token,
            format!("expected a push <dot>-<spot>, got {}", parts[at]),
        )
    })?;
    let before = match at {
        1 => parse_choices(token, parts[0])?,
        _ => Vec::new(),
    };
    let after = match parts.get(at + 1) {
        Some(text) => parse_choices(token, text)?,
        None => Vec::new(),
    };
    Ok(Token {
        before,
        dot: point(token, dot)?,
        target: point(token, target)?,
        after,
    })
}

/// `x<low>-<high>` for segment `run`.
fn spell_choice(run: u8, out: &mut String) {
    let segment = &SEGMENT_TABLE[run as usize];
    out.push('x');
    out.extend(name(segment.low as usize).map(char::from));
    out.push('-');
    out.extend(name(segment.high as usize).map(char::from));
}

/// The runs `side` may choose between now, spelt for an error message.
fn choice_list(pos: &Gipf, side: Side) -> String {
    let mut probe = *pos;
    let rows = probe.remove_uncontested(side);
    let mut list: Vec<String> = rows
        .as_slice()
        .iter()
        .map(|r| {
            let mut s = String::new();
            spell_choice(r.run, &mut s);
            s
        })
        .collect();
    list.sort();
    list.join(", ")
}

impl Gipf {
    /// The spelling of `mv`: choices, push, choices.
    pub(crate) fn spell(&self, mv: Move) -> String {
        let mut out = String::with_capacity(8);
        let write_choices = |choices: &Choices, out: &mut String| {
            for (i, &run) in choices.as_slice().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                spell_choice(run, out);
            }
        };
        if !mv.before.is_empty() {
            write_choices(&mv.before, &mut out);
            out.push(':');
        }
        let push = &PUSH_TABLE[mv.push as usize];
        out.extend(name(push.dot as usize).map(char::from));
        out.push('-');
        out.extend(name(push.line.cells[0] as usize).map(char::from));
        if !mv.after.is_empty() {
            out.push(':');
            write_choices(&mv.after, &mut out);
        }
        out
    }

    /// Applies written choices for the mover, checking each is one it may make now.
    fn apply_choices(
        &self,
        pos: &mut Gipf,
        token: &str,
        written: &[(usize, usize)],
    ) -> Result<Choices, GameError> {
        let mover = self.to_move;
        let mut choices = Choices::default();
        for &(a, b) in written {
            let shown = format!("x{}-{}", pretty(a), pretty(b));
            let mut probe = *pos;
            if probe.remove_uncontested(mover).as_slice().is_empty() {
                return Err(GameError::illegal(
                    token,
                    format!(
                        "wrong removal choice: {shown} is not due, {} has no rows to choose between",
                        mover.name()
                    ),
                ));
            }
            let run = segment_between(a, b).filter(|&run| pos.remove_chosen(mover, run));
            let Some(run) = run else {
                return Err(GameError::illegal(
                    token,
                    format!(
                        "wrong removal choice: {shown} is not one of {}",
                        choice_list(&probe, mover)
                    ),
                ));
            };
            choices = choices.with(run as u8).ok_or_else(|| {
                GameError::illegal(token, "wrong removal choice: too many removals")
            })?;
        }
        if !pos.remove_uncontested(mover).as_slice().is_empty() {
            return Err(GameError::illegal(
                token,
                format!(
                    "missing removal choice: {} must choose one of {}",
                    mover.name(),
                    choice_list(pos, mover)
                ),
            ));
        }
        Ok(choices)
    }

    /// Resolves a token to the legal move it spells.
    pub(crate) fn read_move(&self, token: &str) -> Result<Move, GameError> {
        let parts = tokenize(token)?;
        let (dot, target) = (parts.dot, parts.target);
        if self.outcome_now().is_some() {
            return Err(GameError::GameOver);
        }
        if is_spot(dot) {
            return Err(GameError::illegal(
                token,
                format!("{} is not a dot", pretty(dot)),
            ));
        }
        if !adjacent(dot, target) {
            return Err(GameError::illegal(
                token,
                format!("{} is not adjacent to {}", pretty(target), pretty(dot)),
            ));
        }
        let Some(push) = push_between(dot, target) else {
            return Err(GameError::illegal(
                token,
                format!("{} is a dot, not a spot of the play area", pretty(target)),
            ));
        };
        let mut pos = *self;
        let before = self.apply_choices(&mut pos, token, &parts.before)?;
        if !pos.push_is_legal(push) {
            let line = &PUSH_TABLE[push].line;
            let last = line.cells[line.len as usize - 1] as usize;
            return Err(GameError::illegal(
                token,
                format!(
                    "the line from {} to {} is full",
                    pretty(target),
                    pretty(last)
                ),
            ));
        }
        pos.apply_push(push, self.to_move);
        let after = self.apply_choices(&mut pos, token, &parts.after)?;
        pos.finish_turn(self.to_move);
        let mut moves = Vec::new();
        self.generate(&mut moves);
        let written = Move {
            before,
            push: push as u8,
            after,
        };
        moves
            .into_iter()
            .find(|&mv| mv.push == written.push && self.after_move(mv) == pos)
            .ok_or_else(|| GameError::illegal(token, "not a legal move"))
    }

    /// The position after `mv`.
    pub(crate) fn after_move(&self, mv: Move) -> Gipf {
        let mut next = *self;
        next.apply(mv);
        next
    }

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
                        column.push(if side == Side::White { 'w' } else { 'b' });
                    }
                }
            }
            if empty > 0 {
                column.push_str(&empty.to_string());
            }
            columns.push(column);
        }
        format!(
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
        )
    }

    /// Parses and validates a position string.
    pub(crate) fn read_fen(fen: &str) -> Result<Gipf, GameError> {
        let bad = |what: String| GameError::BadPosition(what);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let [board, side, counts @ ..] = fields.as_slice() else {
            return Err(bad("expected board, side and four counts".into()));
        };
        if counts.len() != 4 {
            return Err(bad(format!("expected 6 fields, got {}", fields.len())));
        }
        let mut pos = Gipf {
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
                    'w' => (1, Some(Side::White)),
                    'b' => (1, Some(Side::Black)),
                    '1'..='7' => (c as usize - '0' as usize, None),
                    _ => return Err(bad(format!("unexpected {c:?} in column {letter}"))),
                };
                if at + count > spots.len() {
                    return Err(bad(format!(
                        "column {letter} has only {} spots",
                        spots.len()
                    )));
                }
                if let Some(side) = side {
                    pos.pieces[side.index()] |= 1 << spots[at];
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
        for side in [Side::White, Side::Black] {
            let total = pos.pieces[side.index()].count_ones()
                + pos.reserve[side.index()] as u32
                + pos.captured[side.opponent().index()] as u32;
            if total > PIECE_LIMIT as u32 {
                return Err(bad(format!(
                    "{} would own {total} pieces (board, reserve and captured), more than {PIECE_LIMIT}",
                    side.name()
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

    /// The hexagon, dots labelled with their names, spots `.`, `W` or `B`, then the counts.
    pub(crate) fn draw(&self) -> Vec<String> {
        // Column x sits 4 characters apart; point (x, row) at height 2 * row + |x - 4|.
        let mut lines = Vec::new();
        for height in (2..=18).rev() {
            let mut text = String::new();
            for (p, &(x, _)) in XY.iter().enumerate() {
                let x = x as i32;
                if 2 * super::geometry::row_of(p) + (x - 4).abs() != height {
                    continue;
                }
                let column = 4 * x as usize;
                while text.len() < column {
                    text.push(' ');
                }
                let cell = if !is_spot(p) {
                    pretty(p)
                } else if self.pieces[0] & (1 << p) != 0 {
                    " W".into()
                } else if self.pieces[1] & (1 << p) != 0 {
                    " B".into()
                } else {
                    " .".into()
                };
                text.push_str(&cell);
            }
            lines.push(text.trim_end().to_owned());
        }
        for side in [Side::White, Side::Black] {
            lines.push(format!(
                "{}: reserve {}, captured {}",
                side.name(),
                self.reserve[side.index()],
                self.captured[side.index()]
            ));
        }
        if self.has_row(self.to_move) {
            lines.push(format!(
                "{} must first remove one of {}",
                self.to_move.name(),
                choice_list(self, self.to_move)
            ));
        }
        lines
    }
}

/// A point's name as a `String`.
pub(crate) fn pretty(p: usize) -> String {
    name(p).iter().map(|&b| char::from(b)).collect()
}
