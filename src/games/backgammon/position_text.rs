//! The engine's position string and the checks every imported position passes.
//!
//! `w=LIST b=LIST SIDE DICE [opening]`, for example the start
//! `w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w - opening`. Each LIST gives one side's checkers
//! as `point:count` in that side's own numbering, `bar` first then from 24 down (`-` when none
//! are left); checkers not listed are borne off. SIDE is `w` or `b`, DICE is `-` or the roll
//! (high die first), `opening` marks the first turn (its roll is never a double). Cube flags
//! (`cube=2:w`, `offered`, `dropped`) and match flags (`match=7 score=2-3`, `crawford`) follow
//! when they apply; a string without `match=` is a money game.

use super::board::{self, Side26, BAR, CHECKERS, OFF};
use super::cube::Cube;
use super::move_text::{parse_roll, point_name};
use super::movegen::Roll;
use super::score::MatchScore;
use super::{Backgammon, Options};
use crate::game::{Game, GameError, Side};

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
    pos.cube().check_in_play()?;
    let white = pos.checkers(Side::White);
    let black = pos.checkers(Side::Black);
    if let Some(p) = (1..25).find(|&p| white[p] > 0 && black[25 - p] > 0) {
        return Err(bad(format!("white point {p} holds checkers of both sides")));
    }
    if white[OFF] == CHECKERS && black[OFF] == CHECKERS {
        return Err(bad("both sides have borne off every checker"));
    }
    // A game ends once: by the last checker borne off or by a drop, never both.
    if pos.cube().dropped && (white[OFF] == CHECKERS || black[OFF] == CHECKERS) {
        return Err(bad(
            "a double was dropped, but a side has already borne off every checker",
        ));
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
        if pos.cube().offered {
            return Err(bad("nobody doubles in a finished game"));
        }
    }
    if pos.is_opening() && pos.dice().is_some_and(Roll::is_double) {
        return Err(bad("the opening roll cannot be a double"));
    }
    let cube = pos.cube();
    if pos.is_opening() && (white != &board::START || black != &board::START) {
        return Err(bad("the opening is the first turn, from the start layout"));
    }
    // A centred cube above 1 is reachable (automatic doubles, GNU Backgammon writes it); an
    // owned one is not before anyone has played.
    if pos.is_opening() && cube.owner.is_some() {
        return Err(bad("nobody doubles before the opening roll"));
    }
    if cube.log2 == 0 && cube.owner.is_some() {
        return Err(bad("a cube at 1 is centred (no owner)"));
    }
    if cube.dropped && cube.owner == Some(pos.side_to_move().opponent()) {
        return Err(bad(
            "after a drop the doubler is to move: the other side cannot own the cube",
        ));
    }
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
    if score.crawford && (cube.log2 > 0 || cube.owner.is_some() || cube.offered || cube.dropped) {
        return Err(bad("the cube is not used in the Crawford game"));
    }
    Ok(())
}
