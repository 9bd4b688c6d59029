//! Move tokens: the canonical form (`31:8/5,6/5`, `66:bar/19,...`, `42:pass`) and the
//! readings of a written play (several dice per checker, `(2)` counts, hits), resolved against
//! the legal plays; the cube actions `double`, `take`, `drop` and `beaver`.

use super::board::{self, check_step, Side26, StepError, BAR, OFF};
use super::cube::CubeAction;
use super::movegen::{Move, Roll, Step};
use super::Backgammon;
use crate::game::{resolve_move, Game, GameError, Side};

/// A point's name in move tokens (and position strings): `bar`, `off` or the number.
pub(super) fn point_name(p: u8) -> String {
    match p as usize {
        BAR => "bar".to_owned(),
        OFF => "off".to_owned(),
        n => n.to_string(),
    }
}

/// The canonical token: the roll, then the steps highest starting point first.
pub fn format_move(mv: Move) -> String {
    if let Some(token) = mv.cube.token() {
        return token.to_owned();
    }
    let mut s = format!("{}{}:", mv.roll.hi, mv.roll.lo);
    if mv.len == 0 {
        s.push_str("pass");
    }
    for (i, step) in mv.steps().iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&point_name(step.from));
        s.push('/');
        s.push_str(&point_name(step.to));
    }
    s
}

/// A play in UBGI's plain format (what UBGI engines and GNU Backgammon's external players
/// answer): `31:8/5,6/5` is `8/5 6/5`, one from/to pair per die, and a roll that cannot be
/// played (`31:pass`) the empty line; cube actions stay as they are.
pub fn to_plain(token: &str) -> String {
    match token.split_once(':') {
        Some((_, "pass")) => String::new(),
        Some((_, steps)) => steps.replace(',', " "),
        None => token.to_owned(),
    }
}

/// The token of a play written in UBGI's plain format with `roll`: `8/5 6/5` is
/// `31:8/5,6/5`, the empty line `31:pass` (the inverse of [`to_plain`]).
pub fn from_plain(roll: Roll, plain: &str) -> String {
    let steps: Vec<&str> = plain.split_whitespace().collect();
    if steps.is_empty() {
        format!("{}:pass", roll.event())
    } else {
        format!("{}:{}", roll.event(), steps.join(","))
    }
}

/// A roll written as two digits, in either order (`31` or `13`).
pub fn parse_roll(token: &str) -> Option<Roll> {
    match token.as_bytes() {
        &[a, b] if a.is_ascii_digit() && b.is_ascii_digit() => Roll::new(a - b'0', b - b'0'),
        _ => None,
    }
}

/// One checker's journey as written, possibly over several dice (`8/4` with 31).
#[derive(Copy, Clone, Debug)]
struct Segment {
    from: usize,
    to: usize,
}

/// Reads the steps part of a token: `8/5,6/5`, `24/18/12`, `13/7(2)`, `6/2*`.
fn parse_steps(token: &str, body: &str) -> Result<Vec<Segment>, GameError> {
    let mut segments = Vec::new();
    for part in body.split(',') {
        let (chain, times) = match part.strip_suffix(')').and_then(|p| p.rsplit_once('(')) {
            Some((chain, n)) => match n.parse::<usize>() {
                Ok(n @ 1..=4) => (chain, n),
                _ => {
                    return Err(GameError::bad_move(
                        token,
                        format!("bad repeat count ({n})"),
                    ))
                }
            },
            None => (part, 1),
        };
        let points = chain
            .split('/')
            .map(|p| parse_point(token, p.trim_end_matches('*')))
            .collect::<Result<Vec<_>, _>>()?;
        if points.len() < 2 {
            return Err(GameError::bad_move(
                token,
                format!("a step is from/to, e.g. 8/5 (got '{part}')"),
            ));
        }
        for pair in points.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            if from == OFF || to == BAR || from <= to {
                return Err(GameError::bad_move(
                    token,
                    format!(
                        "checkers move from the bar and higher points towards off ({}/{})",
                        point_name(from as u8),
                        point_name(to as u8)
                    ),
                ));
            }
        }
        for _ in 0..times {
            for pair in points.windows(2) {
                segments.push(Segment {
                    from: pair[0],
                    to: pair[1],
                });
            }
        }
        if segments.len() > 8 {
            return Err(GameError::bad_move(token, "too many steps for one roll"));
        }
    }
    Ok(segments)
}

fn parse_point(token: &str, p: &str) -> Result<usize, GameError> {
    match p {
        "bar" => Ok(BAR),
        "off" => Ok(OFF),
        _ => match p.parse::<usize>() {
            Ok(n @ 1..=24) if !p.starts_with('+') => Ok(n),
            _ => Err(GameError::bad_move(
                token,
                format!("'{p}' is not a point (1-24, bar or off)"),
            )),
        },
    }
}

/// What a token names, read for its syntax only. A token that cannot be read still gets
/// its reason from [`refusal`], whose checks keep their own order (some rules come before
/// the syntax of the steps).
enum Written {
    /// `double`, `take`, `drop` or `beaver`.
    Cube(CubeAction),
    /// A play: its roll if written, and the journeys of its checkers (none for `pass`).
    Play {
        roll: Option<Roll>,
        segments: Vec<Segment>,
    },
    /// Not a move of this game.
    Unreadable,
}

/// A play's written roll, if any, and the rest (`31:8/5,6/5`, `8/5,6/5`).
fn split_roll(token: &str) -> (Option<&str>, &str) {
    match token.split_once(':') {
        Some((roll, body)) => (Some(roll), body),
        None => (None, token),
    }
}

/// Reads a token for its syntax only.
fn read(token: &str) -> Written {
    if let Some(action) = CubeAction::parse(token) {
        return Written::Cube(action);
    }
    let (roll_text, body) = split_roll(token);
    let roll = match roll_text.map(parse_roll) {
        Some(None) => return Written::Unreadable,
        Some(roll) => roll,
        None => None,
    };
    let segments = match body {
        "pass" => Vec::new(),
        _ => match parse_steps(token, body) {
            Ok(segments) => segments,
            Err(_) => return Written::Unreadable,
        },
    };
    Written::Play { roll, segments }
}

/// Resolves a token to a legal move of `pos`, or says which rule it breaks.
pub fn parse_move(pos: &Backgammon, token: &str) -> Result<Move, GameError> {
    let written = read(token);
    // Before the roll every roll's plays are legal: a play with its roll written is looked
    // up among that roll's plays alone (the same moves), not among all 21 rolls'.
    let rolled = match written {
        Written::Play {
            roll: Some(roll), ..
        } if pos.dice().is_none() && pos.roll_allowed(roll) => {
            let mut rolled = pos.clone();
            rolled.set_dice(roll);
            Some(rolled)
        }
        _ => None,
    };
    let within = rolled.as_ref().unwrap_or(pos);
    resolve_move(
        within,
        token,
        Ok(written),
        |written, legal| find_written(within, written, legal),
        |_| refusal(pos, token).err(),
    )
}

/// The legal move a written token names: its cube action, or the play of its roll that
/// its steps reach when walked with the dice in some order (each step as the move generator
/// allows it: [`check_step`]).
fn find_written(pos: &Backgammon, written: &Written, legal: &[Move]) -> Option<usize> {
    let found = match written {
        Written::Cube(action) => Move::cube_action(*action),
        Written::Play { roll, segments } => {
            let roll = roll.or(pos.dice())?;
            let plays: Vec<Move> = legal
                .iter()
                .filter(|mv| mv.cube == CubeAction::None && mv.roll == roll)
                .copied()
                .collect();
            walk_play(pos, roll, segments, &plays).ok()?
        }
        Written::Unreadable => return None,
    };
    legal.iter().position(|&mv| mv == found)
}

/// The dice of `roll` by face value: how many times each may be used.
fn dice_of(roll: Roll) -> [u8; 7] {
    let mut dice = [0u8; 7];
    dice[roll.hi as usize] += 1;
    dice[roll.lo as usize] += 1;
    if roll.is_double() {
        dice[roll.hi as usize] = 4;
    }
    dice
}

/// The play among `plays` (all of `roll`) that the written segments reach, or why none is:
/// the reason of the failure that got furthest.
fn walk_play(
    pos: &Backgammon,
    roll: Roll,
    segments: &[Segment],
    plays: &[Move],
) -> Result<Move, String> {
    let side = pos.side_to_move();
    let (mut me, mut them) = (*pos.checkers(side), *pos.checkers(side.opponent()));
    let targets: Vec<(Side26, Side26)> = plays.iter().map(|&mv| after(me, them, mv)).collect();
    let mut walk = Walk {
        side,
        roll,
        segments,
        legal: plays,
        targets: &targets,
        steps: Vec::with_capacity(8),
        failure: (0, String::new()),
    };
    let start_dice = dice_of(roll);
    let start = segments.first().map_or(OFF, |s| s.from);
    walk.go(
        &mut me,
        &mut them,
        &mut start_dice.clone(),
        0,
        start,
        start_dice,
    )
    .ok_or(walk.failure.1)
}

/// Why a token names no legal move, by the first rule it breaks (`Ok`: no rule found).
fn refusal(pos: &Backgammon, token: &str) -> Result<(), GameError> {
    if let Some(action) = CubeAction::parse(token) {
        return cube_refusal(pos, token, action);
    }
    if pos.cube().offered {
        return Err(GameError::illegal(
            token,
            "a double is offered: the answer is take or drop",
        ));
    }
    let (roll_text, body) = split_roll(token);
    let written = match roll_text {
        Some(r) => Some(parse_roll(r).ok_or_else(|| {
            GameError::bad_move(
                token,
                format!("'{r}' is not a roll (two dice 1-6, e.g. 31)"),
            )
        })?),
        None => None,
    };
    let roll = match (pos.dice(), written) {
        (Some(set), Some(w)) if set != w => {
            return Err(GameError::illegal(
                token,
                format!("the roll is {}{}, not {}{}", set.hi, set.lo, w.hi, w.lo),
            ))
        }
        (Some(set), _) => set,
        (None, Some(w)) => w,
        (None, None) => {
            return Err(GameError::bad_move(
                token,
                "no dice are set: write the roll first, e.g. 31:8/5,6/5",
            ))
        }
    };
    if !pos.roll_allowed(roll) {
        return Err(GameError::illegal(
            token,
            "the opening roll cannot be a double",
        ));
    }
    let mut legal = Vec::new();
    pos.plays_of(roll, &mut legal);
    if body == "pass" {
        return match legal.as_slice() {
            [only] if only.len == 0 => Ok(()),
            _ => Err(GameError::illegal(
                token,
                format!(
                    "{}{} can be played, so passing is not allowed",
                    roll.hi, roll.lo
                ),
            )),
        };
    }
    let segments = parse_steps(token, body)?;
    walk_play(pos, roll, &segments, &legal)
        .map(drop)
        .map_err(|reason| GameError::illegal(token, reason))
}

/// Why `double`, `take`, `drop` or `beaver` is not allowed now (`Ok`: no rule found).
fn cube_refusal(pos: &Backgammon, token: &str, action: CubeAction) -> Result<(), GameError> {
    let refusal = match action {
        CubeAction::Double => pos.double_refusal(),
        CubeAction::Beaver => pos.beaver_refusal().map(str::to_owned),
        _ if !pos.cube().offered => Some("no double is offered".to_owned()),
        _ => None,
    };
    match refusal {
        Some(reason) => Err(GameError::illegal(token, reason)),
        None => Ok(()),
    }
}

/// Both sides after `mv` is played by `me` against `them`.
fn after(mut me: Side26, mut them: Side26, mv: Move) -> (Side26, Side26) {
    for s in mv.steps() {
        board::apply_step(&mut me, &mut them, s.from as usize, s.to as usize);
    }
    (me, them)
}

/// Depth-first search for a way to play the written segments with the dice, remembering
/// the reason of the failure that got furthest.
struct Walk<'a> {
    side: Side,
    roll: Roll,
    segments: &'a [Segment],
    legal: &'a [Move],
    targets: &'a [(Side26, Side26)],
    steps: Vec<Step>,
    failure: (usize, String),
}

impl Walk<'_> {
    fn fail(&mut self, progress: usize, reason: String) {
        if self.failure.1.is_empty() || progress > self.failure.0 {
            self.failure = (progress, reason);
        }
    }

    fn go(
        &mut self,
        me: &mut Side26,
        them: &mut Side26,
        dice: &mut [u8; 7],
        i: usize,
        cur: usize,
        seg_dice: [u8; 7],
    ) -> Option<Move> {
        let Some(&seg) = self.segments.get(i) else {
            return self.finish(me, them);
        };
        if cur == seg.to {
            let next = self.segments.get(i + 1).map_or(OFF, |s| s.from);
            return self.go(me, them, dice, i + 1, next, *dice);
        }
        let progress = i + 1;
        let mut reason = None;
        for die in 1..=6usize {
            if dice[die] == 0 {
                continue;
            }
            let reaches = if seg.to == OFF {
                true
            } else {
                cur >= seg.to + die
            };
            if !reaches {
                continue;
            }
            match check_step(me, them, cur, die) {
                Err(e) => {
                    if reason.is_none() || cur.checked_sub(die) == Some(seg.to) {
                        reason = Some(self.explain(e, cur, die));
                    }
                }
                Ok(to) => {
                    let saved = (*me, *them);
                    board::apply_step(me, them, cur, to);
                    dice[die] -= 1;
                    self.steps.push(Step {
                        from: cur as u8,
                        to: to as u8,
                    });
                    let found = self.go(me, them, dice, i, to, seg_dice);
                    self.steps.pop();
                    dice[die] += 1;
                    (*me, *them) = saved;
                    if found.is_some() {
                        return found;
                    }
                }
            }
        }
        // A broken rule explains more than "no die fits", so it wins at equal progress.
        let (rank, reason) = match reason {
            Some(r) => (2 * progress + 1, r),
            None => (2 * progress, self.wrong_die(seg, &seg_dice)),
        };
        self.fail(rank, reason);
        None
    }

    /// All segments are played: the result must be one of the legal plays.
    fn finish(&mut self, me: &Side26, them: &Side26) -> Option<Move> {
        let found = self.targets.iter().position(|(m, t)| m == me && t == them);
        if let Some(i) = found {
            return self.legal.get(i).copied();
        }
        let used = self.steps.len();
        let best = self.legal.first().map_or(0, |m| m.len as usize);
        let roll = format!("{}{}", self.roll.hi, self.roll.lo);
        let reason = if used < best && best == 2 && !self.roll.is_double() {
            format!("both dice of {roll} can be played, so both must be used")
        } else if used < best {
            format!("{best} dice of {roll} can be played; this play uses {used}")
        } else if best == 1 && !self.roll.is_double() {
            format!(
                "only one die of {roll} can be played, and it must be the larger ({})",
                self.roll.hi
            )
        } else {
            format!("not a legal play of {roll}")
        };
        self.fail(usize::MAX, reason);
        None
    }

    fn explain(&self, e: StepError, from: usize, die: usize) -> String {
        let who = self.side.name();
        match e {
            StepError::MustEnter => {
                format!("{who} has a checker on the bar, which must enter first")
            }
            StepError::NoChecker => format!("no {who} checker on {}", point_name(from as u8)),
            StepError::Blocked(p) => format!(
                "{}/{p}: point {p} is blocked by {}",
                point_name(from as u8),
                self.side.opponent().name()
            ),
            StepError::NotAllHome => {
                format!("cannot bear off while {who} has checkers outside the home board")
            }
            StepError::HigherChecker(h) => format!(
                "cannot bear off from {from} with a {die} while a checker stands on {}",
                point_name(h)
            ),
        }
    }

    /// No die (or sum of dice) that was left when the segment started fits it.
    fn wrong_die(&self, seg: Segment, dice: &[u8; 7]) -> String {
        let left: Vec<String> = (1..=6)
            .rev()
            .flat_map(|d| std::iter::repeat_n(d.to_string(), dice[d] as usize))
            .collect();
        let what = format!(
            "{}/{}",
            point_name(seg.from as u8),
            point_name(seg.to as u8)
        );
        if left.is_empty() {
            return format!(
                "no dice of {}{} are left for {what}",
                self.roll.hi, self.roll.lo
            );
        }
        let pips = seg.from - seg.to;
        format!(
            "{what} needs {pips} pips; the dice left ({}) cannot make it",
            left.join(" ")
        )
    }
}
