//! FIBS "rawboard" strings (`boardstyle 3`), the board line of the First Internet Backgammon
//! Server, also what GNU Backgammon sends to an external player and what UBGI engines read.
//!
//! `board:NAME:OPPONENT:LENGTH:SCORE:OPPSCORE:` then 26 board numbers (positions 0 and 25 are
//! the bars; positive numbers are O's checkers, negative X's), then `TURN:DICE1:DICE2:
//! OPPDICE1:OPPDICE2:CUBE:MAYDOUBLE:OPPMAYDOUBLE:WASDOUBLED:COLOUR:DIRECTION:HOME:BAR:
//! ONHOME:OPPONHOME:ONBAR:OPPONBAR:CANMOVE:FORCEDMOVE:DIDCRAWFORD:REDOUBLES`, 53 fields in
//! all. "The player" is the side the board is drawn for (`COLOUR` 1 is O, -1 is X); it moves
//! from 24 to 1 when `DIRECTION` is -1 (its bar is then position 25). Read here:
//!
//! - the side to act is the one whose colour `TURN` names, except while `WASDOUBLED` is not 0:
//!   the doubler keeps the turn and the other side answers (FIBS's "your opponent has just
//!   doubled", and how GNU Backgammon writes a pending double for either side);
//! - the roll is the dice pair of the side on turn (`0:0`: not rolled);
//! - the cube is owned by the only side that may double; when both or neither may, centred;
//! - the Crawford game is read as GNU Backgammon reads FIBS boards (its `drawboard.c`): a side
//!   is one point from the match and both of the last two fields are 0 (the second last is
//!   FIBS's "no Crawford rule" flag, the last the post-Crawford flag, 1 once the Crawford
//!   game has been played); GNU Backgammon 1.07 writes its boards that way too;
//! - match length 9999 (FIBS) or 0 (GNU Backgammon) is money play (scores are then ignored);
//! - `TURN` 0 is a finished game: the side with checkers left is "to move";
//! - the redundant fields (home, bar, borne-off and bar counts, can move) must be numbers but
//!   the board numbers rule: GNU Backgammon writes 0 on-bar counts whatever the board holds.
//!
//! Written: White is the player, colour O, direction -1 (like GNU Backgammon), names `white`
//! and `black`, money play as length 9999, the roll in the pair of the side to roll (0s in
//! the other).

use super::board::{Side26, BAR, CHECKERS, OFF};
use super::cube::{Cube, MAX_LOG2};
use super::ids::assemble;
use super::movegen::Roll;
use super::score::{MatchScore, MAX_LENGTH};
use super::{Backgammon, Options};
use crate::game::{Game, GameError, Side};

/// Number of `:`-separated fields in a rawboard string, `board` included.
const FIELDS: usize = 53;
/// Index of the first of the 26 board numbers.
const BOARD: usize = 6;
/// Index of `TURN`, right after the board.
const TURN: usize = BOARD + 26;

fn bad(what: impl Into<String>) -> GameError {
    GameError::BadPosition(format!("FIBS board: {}", what.into()))
}

fn number(fields: &[&str], i: usize, what: &str) -> Result<i64, GameError> {
    fields[i].trim().parse::<i64>().map_err(|_| {
        bad(format!(
            "{what} (field {}) '{}' is not a number",
            i + 1,
            fields[i]
        ))
    })
}

fn sign(fields: &[&str], i: usize, what: &str) -> Result<i64, GameError> {
    match number(fields, i, what)? {
        n @ (-1 | 1) => Ok(n),
        n => Err(bad(format!("{what} (field {}) is {n}, not 1 or -1", i + 1))),
    }
}

fn dice(fields: &[&str], i: usize) -> Result<Option<Roll>, GameError> {
    let a = number(fields, i, "a die")?;
    let b = number(fields, i + 1, "a die")?;
    match (a, b) {
        (0, 0) => Ok(None),
        (1..=6, 1..=6) => Ok(Roll::new(a as u8, b as u8)),
        _ => Err(bad(format!(
            "dice {a} and {b} (fields {}-{})",
            i + 1,
            i + 2
        ))),
    }
}

/// Reads a FIBS rawboard string (`board:...`).
pub fn from_fibs(text: &str, options: &Options) -> Result<Backgammon, GameError> {
    let fields: Vec<&str> = text.trim().split(':').collect();
    if fields[0] != "board" {
        return Err(bad("it starts with 'board:'"));
    }
    if fields.len() != FIELDS {
        return Err(bad(format!(
            "{} fields separated by ':', not {FIELDS}",
            fields.len()
        )));
    }
    let length = number(&fields, 3, "match length")?;
    let length = match length {
        0 | 9999 => 0,
        1..=64 => length as u16,
        _ => {
            return Err(bad(format!(
                "match length {length} is not 1-{MAX_LENGTH}, 0 or 9999"
            )))
        }
    };
    let points = [
        number(&fields, 4, "the player's score")?,
        number(&fields, 5, "the opponent's score")?,
    ];
    let colour = sign(&fields, TURN + 9, "colour")?;
    let direction = sign(&fields, TURN + 10, "direction")?;
    // The player's own point number at board position i (0 and 25: the bars).
    let own = |i: usize| if direction == -1 { i } else { 25 - i };
    let mut player: Side26 = [0; 26];
    let mut opponent: Side26 = [0; 26];
    for i in 0..26 {
        let n = number(&fields, BOARD + i, "a board count")?;
        if n == 0 {
            continue;
        }
        if n.abs() > i64::from(CHECKERS) {
            return Err(bad(format!("{} checkers on position {i}", n.abs())));
        }
        let count = n.unsigned_abs() as u8;
        let p = own(i);
        let (side, point) = if n.signum() == colour {
            (&mut player, p)
        } else {
            (&mut opponent, 25 - p)
        };
        // Position `own == 0` is the player's home side: only the opponent's bar is there.
        if point == OFF {
            return Err(bad(format!(
                "position {i} is a bar, but holds the other side's checkers"
            )));
        }
        side[point] = count;
    }
    for i in (TURN + 11)..FIELDS {
        number(&fields, i, "a count")?;
    }
    let turn = number(&fields, TURN, "turn")?;
    let doubled = number(&fields, TURN + 8, "was doubled")? != 0;
    let player_dice = dice(&fields, TURN + 1)?;
    let opponent_dice = dice(&fields, TURN + 3)?;
    let sides = [player, opponent];
    // White is the player, Black the opponent.
    let (on_turn, roll) = match turn {
        0 => {
            let off = |s: &Side26| s[1..].iter().all(|&c| c == 0);
            match (off(&player), off(&opponent)) {
                (true, false) => (Side::Black, None),
                (false, true) => (Side::White, None),
                _ => return Err(bad("turn 0 (game over), but no side alone has borne off")),
            }
        }
        t if t == colour => (Side::White, player_dice),
        t if t == -colour => (Side::Black, opponent_dice),
        t => return Err(bad(format!("turn {t} is not 1, -1 or 0"))),
    };
    let cube_value = number(&fields, TURN + 5, "cube")?;
    if !(1..=1 << MAX_LOG2).contains(&cube_value) || cube_value.count_ones() != 1 {
        return Err(bad(format!("cube {cube_value} is not 1, 2, 4, ... 64")));
    }
    let may = [
        number(&fields, TURN + 6, "may double")? != 0,
        number(&fields, TURN + 7, "may double")? != 0,
    ];
    let mut cube = Cube {
        log2: cube_value.trailing_zeros() as u8,
        owner: match may {
            [true, false] => Some(Side::White),
            [false, true] => Some(Side::Black),
            _ => None,
        },
        ..Cube::default()
    };
    let mut side_to_move = on_turn;
    if doubled {
        if turn == 0 || roll.is_some() {
            return Err(bad("a double is offered before the roll of a game in play"));
        }
        cube.offered = true;
        // The answer comes from the side the doubler faces; the cube shown is the old one.
        side_to_move = on_turn.opponent();
    }
    let mut score = MatchScore::new(length);
    if score.is_match() {
        for (i, &p) in points.iter().enumerate() {
            if !(0..i64::from(length)).contains(&p) {
                return Err(bad(format!(
                    "score {p} is not below the match length {length}"
                )));
            }
            score.score[i] = p as u16;
        }
        let no_crawford = number(&fields, TURN + 19, "no Crawford rule")? != 0;
        let post_crawford = number(&fields, TURN + 20, "post-Crawford")? != 0;
        let one_away = score.score.iter().filter(|&&s| s + 1 == length).count() == 1;
        score.crawford = one_away && !no_crawford && !post_crawford;
    } else if points.iter().any(|&p| p < 0) {
        return Err(bad("a negative score"));
    }
    assemble(sides, side_to_move, roll, cube, score, options)
}

/// The FIBS rawboard string of a position; `None` after a drop (FIBS has no such board).
pub fn to_fibs(pos: &Backgammon) -> Option<String> {
    let cube = pos.cube();
    if cube.dropped {
        return None;
    }
    let white = pos.checkers(Side::White);
    let black = pos.checkers(Side::Black);
    let score = pos.match_score();
    let mut fields: Vec<String> = vec![
        "board".into(),
        "white".into(),
        "black".into(),
        if score.is_match() {
            score.length.to_string()
        } else {
            "9999".into()
        },
        score.score[0].to_string(),
        score.score[1].to_string(),
    ];
    // White moves 24 -> 1 with its bar at 25; Black's point p is position 25 - p.
    fields.push((-i32::from(black[BAR])).to_string());
    for i in 1..25 {
        let n = i32::from(white[i]) - i32::from(black[25 - i]);
        fields.push(n.to_string());
    }
    fields.push(white[BAR].to_string());
    // The doubler keeps the turn while the other side answers.
    let roller = if cube.offered {
        pos.side_to_move().opponent()
    } else {
        pos.side_to_move()
    };
    let turn = match (pos.outcome(), roller) {
        (Some(_), _) => 0,
        (None, Side::White) => 1,
        (None, Side::Black) => -1,
    };
    fields.push(turn.to_string());
    let roll = pos.dice().map_or([0, 0], |r| [r.hi, r.lo]);
    let none = [0, 0];
    let (w_dice, b_dice) = if roller == Side::White {
        (roll, none)
    } else {
        (none, roll)
    };
    fields.extend(w_dice.iter().chain(&b_dice).map(u8::to_string));
    fields.push(cube.value().to_string());
    let may = |side: Side| {
        u8::from(cube.owner != Some(side.opponent()) && !score.crawford && cube.enabled)
    };
    fields.push(may(Side::White).to_string());
    fields.push(may(Side::Black).to_string());
    fields.push(u8::from(cube.offered).to_string());
    // Colour O, direction -1, home 0, bar 25.
    fields.extend(["1", "-1", "0", "25"].map(String::from));
    fields.push(white[OFF].to_string());
    fields.push(black[OFF].to_string());
    fields.push(white[BAR].to_string());
    fields.push(black[BAR].to_string());
    fields.push(can_move(pos).to_string());
    fields.push("0".into());
    // The Crawford flags as read above: none in the Crawford game, post-Crawford once a side
    // is one point away outside it.
    let one_away = score.is_match() && score.score.iter().any(|&s| s + 1 == score.length);
    fields.push("0".into());
    fields.push(u8::from(one_away && !score.crawford).to_string());
    Some(fields.join(":"))
}

/// How many checkers the roll lets the side to move play (FIBS's "can move").
fn can_move(pos: &Backgammon) -> usize {
    let Some(roll) = pos.dice() else { return 0 };
    let mut plays = Vec::new();
    pos.plays_of(roll, &mut plays);
    plays.first().map_or(0, |mv| mv.steps().len())
}
