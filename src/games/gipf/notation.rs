//! Move tokens (notation.md, GIPF section): `[choices:]<dot>-<spot>[:choices]`, choices
//! comma-separated, each `x<end>-<end>` (the removal run's ends in byte order).

use super::geometry::{
    adjacent, is_spot, name, parse_point, push_between, segment_between, PUSH_TABLE, SEGMENT_TABLE,
};
use super::movegen::{Choices, Move};
use super::Gipf;
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
pub(crate) fn choice_list(pos: &Gipf, side: Side) -> String {
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
}

/// A point's name as a `String`.
pub(crate) fn pretty(p: usize) -> String {
    name(p).iter().map(|&b| char::from(b)).collect()
}
