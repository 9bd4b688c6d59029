//! Move tokens (`31:8/5,6/5`, `66:bar/19,...`, `42:pass`), the position string and the `d` board.
//!
//! Position string: `w=LIST b=LIST SIDE DICE [opening]`, for example the start
//! `w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w - opening`. Each LIST gives one side's checkers
//! as `point:count` in that side's own numbering, `bar` first then from 24 down (`-` when none
//! are left); checkers not listed are borne off. SIDE is `w` or `b`, DICE is `-` or the roll
//! (high die first), `opening` marks the first turn (its roll is never a double). Cube flags
//! (`cube=2:w`, `offered`, `dropped`) and match flags (`match=7 score=2-3`, `crawford`) follow
//! when they apply; a string without `match=` is a money game.

use super::board::{self, check_step, Side26, StepError, BAR, CHECKERS, OFF};
use super::cube::{Cube, CubeAction};
use super::movegen::{Move, Roll, Step};
use super::score::MatchScore;
use super::{Backgammon, Options};
use crate::game::{Game, GameError, Side};

/// A point's name in move tokens: `bar`, `off` or the number.
fn point_name(p: u8) -> String {
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

/// Resolves a token to a legal play of `pos`, or says which rule it breaks.
pub fn parse_move(pos: &Backgammon, token: &str) -> Result<Move, GameError> {
    if pos.outcome().is_some() {
        return Err(GameError::GameOver);
    }
    if let Some(action) = CubeAction::parse(token) {
        return parse_cube_action(pos, token, action);
    }
    if pos.cube().offered {
        return Err(GameError::illegal(
            token,
            "a double is offered: the answer is take or drop",
        ));
    }
    let (roll_text, body) = match token.split_once(':') {
        Some((r, b)) => (Some(r), b),
        None => (None, token),
    };
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
            [only] if only.len == 0 => Ok(*only),
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
    let side = pos.side_to_move();
    let (me, them) = (*pos.checkers(side), *pos.checkers(side.opponent()));
    let targets: Vec<(Side26, Side26)> = legal.iter().map(|&mv| after(me, them, mv)).collect();
    let mut dice = [0u8; 7];
    dice[roll.hi as usize] += 1;
    dice[roll.lo as usize] += 1;
    if roll.is_double() {
        dice[roll.hi as usize] = 4;
    }
    let mut walk = Walk {
        side,
        roll,
        segments: &segments,
        legal: &legal,
        targets: &targets,
        steps: Vec::with_capacity(8),
        failure: (0, String::new()),
    };
    let (mut me, mut them) = (me, them);
    let start = segments.first().map_or(OFF, |s| s.from);
    let start_dice = dice;
    match walk.go(&mut me, &mut them, &mut dice, 0, start, start_dice) {
        Some(mv) => Ok(mv),
        None => Err(GameError::illegal(token, walk.failure.1)),
    }
}

/// `double`, `take` or `drop`, when the cube allows it.
fn parse_cube_action(pos: &Backgammon, token: &str, action: CubeAction) -> Result<Move, GameError> {
    let refusal = match action {
        CubeAction::Double => pos.double_refusal(),
        CubeAction::Beaver => pos.beaver_refusal().map(str::to_owned),
        _ if !pos.cube().offered => Some("no double is offered".to_owned()),
        _ => None,
    };
    match refusal {
        Some(reason) => Err(GameError::illegal(token, reason)),
        None => Ok(Move::cube_action(action)),
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

fn side_list(s: &Side26) -> String {
    let items: Vec<String> = (1..26)
        .rev()
        .filter(|&p| s[p] > 0)
        .map(|p| format!("{}:{}", point_name(p as u8), s[p]))
        .collect();
    if items.is_empty() {
        "-".to_owned()
    } else {
        items.join(",")
    }
}

/// The engine's position string.
pub fn format_fen(pos: &Backgammon) -> String {
    let dice = pos
        .dice()
        .map_or("-".to_owned(), |r| format!("{}{}", r.hi, r.lo));
    let turn = if pos.side_to_move() == Side::White {
        "w"
    } else {
        "b"
    };
    let mut s = format!(
        "w={} b={} {turn} {dice}",
        side_list(pos.checkers(Side::White)),
        side_list(pos.checkers(Side::Black))
    );
    if pos.is_opening() {
        s.push_str(" opening");
    }
    let cube = pos.cube();
    if let Some(flag) = cube.flag() {
        s.push(' ');
        s.push_str(&flag);
    }
    if cube.offered {
        s.push_str(" offered");
    }
    if cube.dropped {
        s.push_str(" dropped");
    }
    for flag in pos.match_score().flags() {
        s.push(' ');
        s.push_str(&flag);
    }
    s
}

fn bad(what: impl Into<String>) -> GameError {
    GameError::BadPosition(what.into())
}

fn parse_side_list(field: &str, prefix: &str) -> Result<Side26, GameError> {
    let list = field
        .strip_prefix(prefix)
        .ok_or_else(|| bad(format!("expected {prefix}LIST, got '{field}'")))?;
    let mut side = [0u8; 26];
    if list != "-" {
        for item in list.split(',') {
            let (p, n) = item
                .split_once(':')
                .ok_or_else(|| bad(format!("'{item}' is not point:count")))?;
            let point = match p {
                "bar" => BAR,
                _ => match p.parse::<usize>() {
                    Ok(n @ 1..=24) => n,
                    _ => return Err(bad(format!("'{p}' is not a point (1-24 or bar)"))),
                },
            };
            let count = match n.parse::<u8>() {
                Ok(c @ 1..=15) => c,
                _ => return Err(bad(format!("'{n}' is not a count 1-15"))),
            };
            if side[point] > 0 {
                return Err(bad(format!("point {p} is listed twice")));
            }
            side[point] = count;
        }
    }
    let on_board = board::in_play(&side);
    if on_board > CHECKERS {
        return Err(bad(format!(
            "{prefix} lists {on_board} checkers, more than 15"
        )));
    }
    side[OFF] = CHECKERS - on_board;
    Ok(side)
}

/// Parses and validates a position string.
pub fn parse_fen(fen: &str, options: &Options) -> Result<Backgammon, GameError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(bad(
            "expected 'w=LIST b=LIST w|b DICE [opening] [cube=V[:w|b]] [offered] [dropped] \
             [match=N score=W-B [crawford]]'",
        ));
    }
    let white = parse_side_list(fields[0], "w=")?;
    let black = parse_side_list(fields[1], "b=")?;
    let turn = match fields[2] {
        "w" => Side::White,
        "b" => Side::Black,
        other => return Err(bad(format!("side to move '{other}' is not w or b"))),
    };
    let dice = match fields[3] {
        "-" => None,
        d => Some(parse_roll(d).ok_or_else(|| bad(format!("'{d}' is not a roll")))?),
    };
    let mut opening = false;
    let mut cube = Cube::default();
    let mut score = MatchScore::default();
    let mut seen = Vec::new();
    for &flag in &fields[4..] {
        let name = flag.split('=').next().unwrap_or(flag);
        if seen.contains(&name) {
            return Err(bad(format!("flag '{name}' given twice")));
        }
        seen.push(name);
        match flag {
            "opening" => opening = true,
            "offered" => cube.offered = true,
            "dropped" => cube.dropped = true,
            "crawford" => score.crawford = true,
            _ => match flag.split_once('=') {
                Some(("cube", value)) => cube.parse_flag(value)?,
                Some(("match", value)) => score.parse_length(value)?,
                Some(("score", value)) => score.parse_score(value)?,
                _ => return Err(bad(format!("unknown flag '{flag}'"))),
            },
        }
    }
    if seen.contains(&"score") != seen.contains(&"match") {
        return Err(bad("match=N and score=W-B come together"));
    }
    let mut pos = Backgammon::from_parts([white, black], turn, dice, opening, options);
    pos.set_cube(cube);
    pos.set_match_score(score);
    validate(&pos)?;
    Ok(pos)
}

/// The checks every imported position passes (shared with the XGID and GNU ID readers).
pub fn validate(pos: &Backgammon) -> Result<(), GameError> {
    let white = pos.checkers(Side::White);
    let black = pos.checkers(Side::Black);
    if let Some(p) = (1..25).find(|&p| white[p] > 0 && black[25 - p] > 0) {
        return Err(bad(format!("white point {p} holds checkers of both sides")));
    }
    if white[OFF] == CHECKERS && black[OFF] == CHECKERS {
        return Err(bad("both sides have borne off every checker"));
    }
    if let Some(o) = pos.outcome() {
        let drop = pos.cube().dropped;
        if drop != (o.winner == Some(pos.side_to_move())) {
            return Err(bad(if drop {
                "after a drop the doubler, who won, is to move"
            } else {
                "the side to move has already won"
            }));
        }
        if pos.dice().is_some() || pos.is_opening() {
            return Err(bad("a finished game has no roll"));
        }
    }
    if pos.is_opening() && pos.dice().is_some_and(Roll::is_double) {
        return Err(bad("the opening roll cannot be a double"));
    }
    let cube = pos.cube();
    if cube.offered && (pos.dice().is_some() || pos.is_opening() || cube.dropped) {
        return Err(bad(
            "a double is offered before the roll, outside the opening",
        ));
    }
    if cube.offered && cube.owner == Some(pos.side_to_move()) {
        return Err(bad("the side that owns the cube cannot be doubled"));
    }
    if cube.offered && cube.log2 >= super::cube::MAX_LOG2 {
        return Err(bad("the cube is at 64"));
    }
    if cube.dropped && (pos.dice().is_some() || pos.is_opening()) {
        return Err(bad("a finished game has no roll"));
    }
    let score = pos.match_score();
    score.check()?;
    if score.crawford && (cube.log2 > 0 || cube.owner.is_some() || cube.offered) {
        return Err(bad("the cube is not used in the Crawford game"));
    }
    Ok(())
}

/// The `d` board, drawn from white's side: white's points 13-24 on top, 12-1 below.
pub fn board_lines(pos: &Backgammon) -> Vec<String> {
    let white = pos.checkers(Side::White);
    let black = pos.checkers(Side::Black);
    let cell = |p: usize| {
        if white[p] > 0 {
            format!("W{}", white[p])
        } else if black[25 - p] > 0 {
            format!("B{}", black[25 - p])
        } else {
            ".".to_owned()
        }
    };
    let row = |points: &mut dyn Iterator<Item = usize>| {
        let cells: Vec<String> = points.map(|p| format!("{:>3}", cell(p))).collect();
        format!("{} |{}", cells[..6].concat(), cells[6..].concat())
    };
    let numbers = |points: &mut dyn Iterator<Item = usize>| {
        let cells: Vec<String> = points.map(|p| format!("{p:>3}")).collect();
        format!("{} |{}", cells[..6].concat(), cells[6..].concat())
    };
    let dice = pos
        .dice()
        .map_or("not rolled".to_owned(), |r| format!("{}{}", r.hi, r.lo));
    let mut lines = vec![
        numbers(&mut (13..25)),
        row(&mut (13..25)),
        row(&mut (1..13).rev()),
        numbers(&mut (1..13).rev()),
        format!(
            "bar: white {} black {}   off: white {} black {}",
            white[BAR], black[BAR], white[OFF], black[OFF]
        ),
        format!(
            "pips: white {} black {}   {} to move, dice {dice}{}",
            board::pips(white),
            board::pips(black),
            pos.side_to_move().name(),
            if pos.is_opening() { " (opening)" } else { "" }
        ),
    ];
    let (cube, score) = (pos.cube(), pos.match_score());
    if cube.enabled || score.is_match() || cube.log2 > 0 {
        let owner = cube
            .owner
            .map_or("centred".to_owned(), |s| format!("owned by {}", s.name()));
        let mut line = format!("cube {} {owner}", cube.value());
        if cube.offered {
            line.push_str(", double offered");
        }
        if score.is_match() {
            line.push_str(&format!(
                "   match to {}, score {}-{}",
                score.length, score.score[0], score.score[1]
            ));
            if score.crawford {
                line.push_str(" (Crawford game)");
            }
        }
        lines.push(line);
    }
    lines
}
