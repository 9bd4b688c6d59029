//! Move tokens (notation.md, GIPF section): `[choices:]<dot>-<spot>[:choices]`, choices
//! comma-separated, each `x<end>-<end>` (the removal run's ends in byte order). With
//! GIPF-pieces: `G<dot>-<spot>` pushes a GIPF-piece in, and a choice lists the GIPF-pieces
//! that stay after its ends, `/`-separated in byte order: `xb2-e5/c3/d4`.

use super::geometry::{
    adjacent, is_spot, name, parse_point, push_between, segment_between, PUSH_TABLE, SEGMENT_TABLE,
};
use super::movegen::{Choices, Move};
use super::{Gipf, Variant};
use crate::game::{resolve_move, GameError, Side};

/// A written removal choice: the run's two ends and the spots whose GIPF-pieces stay.
struct Written {
    ends: (usize, usize),
    keep: Vec<usize>,
}

/// A move token split into its parts, point numbers not yet checked against the position.
struct Token {
    before: Vec<Written>,
    gipf_piece: bool,
    dot: usize,
    target: usize,
    after: Vec<Written>,
}

/// Reads a point name or says it is not one.
fn point(token: &str, text: &str) -> Result<usize, GameError> {
    parse_point(text).ok_or_else(|| GameError::bad_move(token, format!("{text} is not a point")))
}

/// Reads `x<end>-<end>[/<spot>...],...`.
fn parse_choices(token: &str, text: &str) -> Result<Vec<Written>, GameError> {
    if text.is_empty() {
        return Err(GameError::bad_move(
            token,
            "expected a removal x<end>-<end> after the colon",
        ));
    }
    text.split(',')
        .map(|choice| {
            let mut parts = choice.split('/');
            let run = parts.next().unwrap_or_default();
            let ends = run.strip_prefix('x').and_then(|c| c.split_once('-'));
            let (a, b) = ends.ok_or_else(|| {
                GameError::bad_move(
                    token,
                    format!("expected a removal x<end>-<end>, got {choice}"),
                )
            })?;
            Ok(Written {
                ends: (point(token, a)?, point(token, b)?),
                keep: parts
                    .map(|p| match p {
                        "" => Err(GameError::bad_move(
                            token,
                            format!("expected a kept GIPF-piece's spot after / in {choice}"),
                        )),
                        _ => point(token, p),
                    })
                    .collect::<Result<_, _>>()?,
            })
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
    let (gipf_piece, push) = match parts[at].strip_prefix('G') {
        Some(rest) => (true, rest),
        None => (false, parts[at]),
    };
    let (dot, target) = push.split_once('-').ok_or_else(|| {
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
        gipf_piece,
        dot: point(token, dot)?,
        target: point(token, target)?,
        after,
    })
}

/// `x<low>-<high>` for segment `run`, then `/<spot>` for each kept GIPF-piece (point order is
/// byte order).
fn spell_choice(run: usize, keep: u64, out: &mut String) {
    let segment = &SEGMENT_TABLE[run];
    out.push('x');
    out.extend(name(segment.low as usize).map(char::from));
    out.push('-');
    out.extend(name(segment.high as usize).map(char::from));
    let mut rest = keep;
    while rest != 0 {
        out.push('/');
        out.extend(name(rest.trailing_zeros() as usize).map(char::from));
        rest &= rest - 1;
    }
}

/// The runs `side` must decide on now, spelt for an error message.
pub(crate) fn choice_list(pos: &Gipf, side: Side) -> String {
    let mut probe = *pos;
    let rows = probe.remove_free(side);
    let mut list: Vec<String> = rows
        .as_slice()
        .iter()
        .map(|r| {
            let mut s = String::new();
            spell_choice(r.run as usize, 0, &mut s);
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
            for (i, (run, keep)) in choices.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                spell_choice(run, keep, out);
            }
        };
        if !mv.before.is_empty() {
            write_choices(&mv.before, &mut out);
            out.push(':');
        }
        if mv.gipf_piece {
            out.push('G');
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

    /// Applies written choices for the mover, saying why one is not a choice it may make now.
    fn apply_choices(
        &self,
        pos: &mut Gipf,
        token: &str,
        written: &[Written],
    ) -> Result<(), GameError> {
        let mover = self.to_move;
        for choice in written {
            let (a, b) = choice.ends;
            let shown = format!("x{}-{}", pretty(a), pretty(b));
            let mut probe = *pos;
            let due = probe.remove_free(mover);
            if due.as_slice().is_empty() {
                return Err(GameError::illegal(
                    token,
                    format!(
                        "wrong removal choice: {shown} is not due, {} has no rows to choose between",
                        mover.name()
                    ),
                ));
            }
            let run = segment_between(a, b)
                .filter(|&run| due.as_slice().iter().any(|r| r.run as usize == run));
            let Some(run) = run else {
                return Err(GameError::illegal(
                    token,
                    format!(
                        "wrong removal choice: {shown} is not one of {}",
                        choice_list(&probe, mover)
                    ),
                ));
            };
            let mask = SEGMENT_TABLE[run].mask;
            let mut keep = 0u64;
            for &spot in &choice.keep {
                if probe.gipf & mask & (1 << spot) == 0 {
                    return Err(GameError::illegal(
                        token,
                        format!(
                            "wrong removal choice: {} is not a GIPF-piece of {shown}",
                            pretty(spot)
                        ),
                    ));
                }
                keep |= 1 << spot;
            }
            if !probe.keep_is_allowed(mover, mask, keep) {
                return Err(GameError::illegal(
                    token,
                    format!(
                        "wrong removal choice: keeping those GIPF-pieces leaves {}'s row of four on the board",
                        mover.name()
                    ),
                ));
            }
            pos.remove_chosen(mover, run, keep);
        }
        let mut probe = *pos;
        let due = probe.remove_free(mover);
        if let Some(row) = due.as_slice().first() {
            let message = if due.as_slice().len() == 1 {
                let mut run = String::new();
                spell_choice(row.run as usize, 0, &mut run);
                format!(
                    "missing removal choice: {} must decide which GIPF-pieces of {run} stay",
                    mover.name()
                )
            } else {
                format!(
                    "missing removal choice: {} must choose one of {}",
                    mover.name(),
                    choice_list(pos, mover)
                )
            };
            return Err(GameError::illegal(token, message));
        }
        pos.remove_free(mover);
        Ok(())
    }

    /// Why `side` may not push the kind of piece written, if it may not.
    fn piece_error(&self, pos: &Gipf, gipf_piece: bool) -> Option<String> {
        let side = self.to_move;
        let reserve = pos.reserve[side.index()];
        if gipf_piece {
            if !self.variant.has_gipf_pieces() {
                Some("the basic game has no GIPF-pieces".into())
            } else if !pos.may_bring(side) {
                Some(match self.variant {
                    Variant::Tournament => format!(
                        "{} has played a single piece and may no longer bring in GIPF-pieces",
                        side.name()
                    ),
                    _ => "GIPF-pieces are brought in only in variant=tournament".into(),
                })
            } else if reserve < 2 {
                Some(format!(
                    "a GIPF-piece takes 2 pieces, {} has {reserve} in reserve",
                    side.name()
                ))
            } else {
                None
            }
        } else if pos.may_bring(side) && pos.gipf_count(side) == 0 {
            Some(format!(
                "{} has no GIPF-piece on the board and must bring one in (G before the dot)",
                side.name()
            ))
        } else {
            None
        }
    }

    /// Resolves a token to the legal move it spells.
    pub(crate) fn read_move(&self, token: &str) -> Result<Move, GameError> {
        resolve_move(
            self,
            token,
            tokenize(token),
            |written, legal| self.find_written(written, legal),
            |written| self.why_illegal(token, written).err(),
        )
    }

    /// The legal move a written turn names: the same push of the same kind of piece, leading
    /// to the same position (choices may be written in any order that reaches it).
    fn find_written(&self, written: &Token, legal: &[Move]) -> Option<usize> {
        let push = push_between(written.dot, written.target)?;
        let mut kind = legal
            .iter()
            .enumerate()
            .filter(|(_, mv)| mv.push as usize == push && mv.gipf_piece == written.gipf_piece)
            .peekable();
        // No legal move pushes there with that piece: nothing to play out.
        kind.peek()?;
        let end = self.written_end(written, push)?;
        kind.find(|(_, &mv)| self.after_move(mv) == end)
            .map(|(i, _)| i)
    }

    /// The position a written turn leads to, if each of its choices is one of the mover's
    /// rows when it comes, none is left undecided and the push can be made (whether the turn
    /// is legal is the move list's to say).
    fn written_end(&self, written: &Token, push: usize) -> Option<Gipf> {
        let mover = self.to_move;
        let mut pos = *self;
        pos.make_choices(mover, &written.before)?;
        let pieces = 1 + u8::from(written.gipf_piece);
        if !pos.push_is_legal(push) || pos.reserve[mover.index()] < pieces {
            return None;
        }
        pos.apply_push(push, mover, written.gipf_piece);
        if !written.gipf_piece {
            pos.may_bring &= !(1 << mover.index());
        }
        pos.make_choices(mover, &written.after)?;
        pos.finish_turn(mover);
        Some(pos)
    }

    /// Removes the written runs of `side` in order; `None` when one is not due or a row is
    /// left undecided.
    fn make_choices(&mut self, side: Side, written: &[Written]) -> Option<()> {
        for choice in written {
            let run = segment_between(choice.ends.0, choice.ends.1)?;
            let keep = choice
                .keep
                .iter()
                .fold(0u64, |keep, &spot| keep | 1 << spot);
            if !self.remove_chosen(side, run, keep) {
                return None;
            }
        }
        self.remove_free(side).as_slice().is_empty().then_some(())
    }

    /// Why a written turn is not legal, by the first rule it breaks (`Ok`: no rule found).
    fn why_illegal(&self, token: &str, parts: &Token) -> Result<(), GameError> {
        let (dot, target) = (parts.dot, parts.target);
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
        self.apply_choices(&mut pos, token, &parts.before)?;
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
        if let Some(reason) = self.piece_error(&pos, parts.gipf_piece) {
            return Err(GameError::illegal(token, reason));
        }
        pos.apply_push(push, self.to_move, parts.gipf_piece);
        if !parts.gipf_piece {
            pos.may_bring &= !(1 << self.to_move.index());
        }
        self.apply_choices(&mut pos, token, &parts.after)
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
