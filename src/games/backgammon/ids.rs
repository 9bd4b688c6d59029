//! The position formats other backgammon programs exchange: eXtreme Gammon's XGID and GNU
//! Backgammon's Position ID + Match ID.
//!
//! Both also carry the cube, the score and the match length. The cube (value, owner, a double
//! offered, a dropped double) and the match (length, score, Crawford game) are kept; in money
//! play the score fields are range-checked and written as 0, and XGID's Jacoby and beaver bits
//! are written from the game's options (on input the options rule). The opening flag is not
//! part of either format: an imported position is an opening when it is the start layout with
//! either side on roll, the cube centred at 1 and no double rolled. White is XG's bottom player (upper-case, turn `1`) and
//! GNU's player 0.

use super::board::{Side26, BAR, CHECKERS, OFF, START};
use super::cube::Cube;
use super::movegen::Roll;
use super::position_text::validate;
use super::score::MatchScore;
use super::{Backgammon, Options};
use crate::game::{Game, GameError, Side};

fn bad(what: impl Into<String>) -> GameError {
    GameError::BadPosition(what.into())
}

/// Builds and validates a position from checkers on the board (off = the rest).
pub(super) fn assemble(
    mut sides: [Side26; 2],
    turn: Side,
    dice: Option<Roll>,
    cube: Cube,
    score: MatchScore,
    options: &Options,
) -> Result<Backgammon, GameError> {
    for (side, name) in sides.iter_mut().zip(["white", "black"]) {
        let on: u32 = side[1..].iter().map(|&c| c as u32).sum();
        if on > CHECKERS as u32 {
            return Err(bad(format!("{name} has {on} checkers, more than 15")));
        }
        side[OFF] = CHECKERS - on as u8;
    }
    // Either side on roll: the start layout cannot come back once a checker has moved.
    let opening =
        sides == [START, START] && cube == Cube::default() && !dice.is_some_and(Roll::is_double);
    let mut pos = Backgammon::from_parts(sides, turn, dice, opening, options);
    pos.set_cube(cube);
    pos.set_match_score(score);
    validate(&pos)?;
    Ok(pos)
}

/// The XGID of a position: `XGID=<26 points>:<cube>:<owner>:<turn>:<dice>:<white score>:
/// <black score>:<Crawford or Jacoby/beaver bits>:<match length>:10`.
pub fn to_xgid(pos: &Backgammon) -> String {
    let white = pos.checkers(Side::White);
    let black = pos.checkers(Side::Black);
    let mut board = String::with_capacity(26);
    // Character i is white's point i; 0 is black's bar and 25 white's bar.
    for i in 0..26 {
        let (w, b) = match i {
            0 => (0, black[BAR]),
            25 => (white[BAR], 0),
            p => (white[p], black[25 - p]),
        };
        board.push(match (w, b) {
            (0, 0) => '-',
            (0, n) => (b'a' + n - 1) as char,
            (n, _) => (b'A' + n - 1) as char,
        });
    }
    let cube = pos.cube();
    // While a double is offered XG names the doubler as the player on turn, with dice `D`.
    let roller = if cube.offered {
        pos.side_to_move().opponent()
    } else {
        pos.side_to_move()
    };
    let turn = if roller == Side::White { "1" } else { "-1" };
    let dice = match pos.dice() {
        _ if cube.offered => "D".to_owned(),
        Some(r) => format!("{}{}", r.hi, r.lo),
        None => "00".to_owned(),
    };
    let owner = match cube.owner {
        None => "0",
        Some(Side::White) => "1",
        Some(Side::Black) => "-1",
    };
    let score = pos.match_score();
    let rules = if score.is_match() {
        u8::from(score.crawford)
    } else {
        let (beaver, jacoby) = pos.money_rules();
        u8::from(jacoby) | u8::from(beaver) << 1
    };
    format!(
        "XGID={board}:{}:{owner}:{turn}:{dice}:{}:{}:{rules}:{}:10",
        cube.log2, score.score[0], score.score[1], score.length
    )
}

fn xgid_number(
    field: &str,
    what: &str,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i64, GameError> {
    match field.parse::<i64>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(bad(format!("XGID {what} '{field}' is out of range"))),
    }
}

/// Reads an XGID (with or without the `XGID=` prefix).
pub fn from_xgid(text: &str, options: &Options) -> Result<Backgammon, GameError> {
    let body = text.trim().strip_prefix("XGID=").unwrap_or(text.trim());
    let fields: Vec<&str> = body.split(':').collect();
    let [board, cube, cube_pos, turn, dice, s1, s2, cj, len, max] = fields.as_slice() else {
        return Err(bad("an XGID has 10 fields separated by ':'"));
    };
    if board.len() != 26 || !board.is_ascii() {
        return Err(bad("the XGID board has 26 characters"));
    }
    let mut sides = [[0u8; 26]; 2];
    for (i, c) in board.bytes().enumerate() {
        let (count, white) = match c {
            b'-' => continue,
            b'A'..=b'O' => (c - b'A' + 1, true),
            b'a'..=b'o' => (c - b'a' + 1, false),
            _ => return Err(bad(format!("XGID board character '{}'", c as char))),
        };
        match (i, white) {
            (0, false) => sides[1][BAR] = count,
            (25, true) => sides[0][BAR] = count,
            (1..=24, true) => sides[0][i] = count,
            (1..=24, false) => sides[1][25 - i] = count,
            _ => return Err(bad(format!("XGID bar slot {i} holds the wrong colour"))),
        }
    }
    let mut state = Cube::default();
    let log2 = xgid_number(cube, "cube", 0..=super::cube::MAX_LOG2 as i64)?;
    state.log2 = log2 as u8;
    state.owner = match xgid_number(cube_pos, "cube position", -1..=1)? {
        1 => Some(Side::White),
        -1 => Some(Side::Black),
        _ => None,
    };
    let mut turn = match xgid_number(turn, "turn", -1..=1)? {
        1 => Side::White,
        -1 => Side::Black,
        _ => return Err(bad("XGID turn is 1 or -1")),
    };
    if *dice == "D" {
        state.offered = true;
        turn = turn.opponent();
    }
    let dice = match *dice {
        "00" | "D" => None,
        "B" | "R" => return Err(bad("XGID dice B and R (a beaver or raccoon waiting) do not occur here: a beaver is immediate and raccoons are not played")),
        d => Some(super::move_text::parse_roll(d).ok_or_else(|| bad(format!("XGID dice '{d}'")))?),
    };
    let length = xgid_number(len, "match length", 0..=i64::from(super::score::MAX_LENGTH))?;
    let mut score = MatchScore::new(length as u16);
    for (i, (f, what)) in [(s1, "white score"), (s2, "black score")]
        .iter()
        .enumerate()
    {
        let points = xgid_number(f, what, 0..=32767)?;
        if score.is_match() {
            score.score[i] = points as u16;
        }
    }
    // One field, two meanings: the Crawford flag in a match, Jacoby and beaver bits in money.
    let rules = if score.is_match() {
        xgid_number(cj, "Crawford flag", 0..=1)?
    } else {
        xgid_number(cj, "Jacoby/beaver bits", 0..=3)?
    };
    score.crawford = score.is_match() && rules == 1;
    xgid_number(max, "maximum cube", 0..=15)?;
    assemble(sides, turn, dice, state, score, options)
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let mut n = 0u32;
        for (i, &b) in chunk.iter().enumerate() {
            n |= (b as u32) << (16 - 8 * i);
        }
        for i in 0..=chunk.len() {
            out.push(BASE64[(n >> (18 - 6 * i)) as usize & 63] as char);
        }
    }
    out
}

fn base64_decode(text: &str, bytes: usize) -> Option<Vec<u8>> {
    let mut bits = Vec::with_capacity(text.len() * 6);
    for c in text.bytes() {
        let v = BASE64.iter().position(|&b| b == c)? as u32;
        bits.extend((0..6).rev().map(|i| (v >> i) & 1));
    }
    if bits.len() < bytes * 8 || text.len() != (bytes * 8).div_ceil(6) {
        return None;
    }
    Some(
        bits.chunks(8)
            .take(bytes)
            .map(|byte| byte.iter().fold(0u8, |acc, &b| acc << 1 | b as u8))
            .collect(),
    )
}

/// Appends `width` bits of `value` (least significant first) at bit `*at` of `key`.
fn put_bits(key: &mut [u8], at: &mut usize, value: u32, width: usize) {
    for i in 0..width {
        if value >> i & 1 == 1 {
            key[*at / 8] |= 1 << (*at % 8);
        }
        *at += 1;
    }
}

fn get_bits(key: &[u8], at: &mut usize, width: usize) -> u32 {
    let mut value = 0;
    for i in 0..width {
        let bit = key.get(*at / 8).map_or(0, |b| b >> (*at % 8) & 1);
        value |= (bit as u32) << i;
        *at += 1;
    }
    value
}

/// The GNU Backgammon Position ID: 80 bits, the opponent of the player on roll first (gnubg's
/// manual says the player on roll, but gnubg itself writes and reads the opponent first), each
/// side's points 1..24 then the bar as that many 1 bits and a 0, base64 without padding.
fn position_id(roller: &Side26, opponent: &Side26) -> String {
    let mut key = [0u8; 10];
    let mut at = 0;
    for side in [opponent, roller] {
        for &count in side[1..26].iter() {
            put_bits(&mut key, &mut at, (1u32 << count) - 1, count as usize + 1);
        }
    }
    base64_encode(&key)
}

/// The GNU Backgammon Match ID: cube, turn, dice, and the match length and score.
fn match_id(pos: &Backgammon) -> String {
    let mut key = [0u8; 9];
    let mut at = 0;
    let cube = pos.cube();
    let score = pos.match_score();
    let decider = pos.side_to_move().index() as u32;
    let roller = if cube.offered { 1 - decider } else { decider };
    let state = match pos.outcome() {
        None => 1,
        Some(_) if cube.dropped => 4,
        Some(_) => 2,
    };
    let owner = cube.owner.map_or(3, |s| s.index() as u32);
    let (d1, d2) = pos.dice().map_or((0, 0), |r| (r.hi as u32, r.lo as u32));
    for (value, width) in [
        (cube.log2 as u32, 4),
        (owner, 2),
        (roller, 1),
        (score.crawford as u32, 1),
        (state, 3),
        (decider, 1),
        (cube.offered as u32, 1),
        (0, 2), // no resignation
        (d1, 3),
        (d2, 3),
        (score.length as u32, 15),
        (score.score[0] as u32, 15),
        (score.score[1] as u32, 15),
    ] {
        put_bits(&mut key, &mut at, value, width);
    }
    base64_encode(&key)
}

/// `PositionID:MatchID`, as GNU Backgammon shows it.
pub fn to_gnubg_id(pos: &Backgammon) -> String {
    // The board is written for the player on roll: the doubler while a double is offered.
    let turn = pos.side_to_move();
    let roller = if pos.cube().offered {
        turn.opponent()
    } else {
        turn
    };
    let ids = position_id(pos.checkers(roller), pos.checkers(roller.opponent()));
    format!("{ids}:{}", match_id(pos))
}

/// Reads `PositionID:MatchID` (or a Position ID alone: white on roll, no dice).
pub fn from_gnubg_id(text: &str, options: &Options) -> Result<Backgammon, GameError> {
    let text = text.trim();
    let (pid, mid) = match text.split_once(':') {
        Some((p, m)) => (p, Some(m)),
        None => (text, None),
    };
    let key = base64_decode(pid, 10).ok_or_else(|| bad(format!("'{pid}' is not a Position ID")))?;
    let mut at = 0;
    let mut opponent_first = [[0u8; 26]; 2];
    for side in opponent_first.iter_mut() {
        for slot in side[1..26].iter_mut() {
            let mut count = 0u8;
            while get_bits(&key, &mut at, 1) == 1 {
                count += 1;
                if count > CHECKERS || at >= 80 {
                    return Err(bad("the Position ID has more than 15 checkers for a side"));
                }
            }
            *slot = count;
        }
    }
    let (roller, turn, dice, cube, score) = match mid {
        None => (
            Side::White,
            Side::White,
            None,
            Cube::default(),
            MatchScore::default(),
        ),
        Some(m) => read_match_id(m)?,
    };
    let [other, mover] = opponent_first;
    let sides = if roller == Side::White {
        [mover, other]
    } else {
        [other, mover]
    };
    assemble(sides, turn, dice, cube, score, options)
}

/// What a Match ID holds: the side on roll, the side to decide, the dice, the cube, the match.
type MatchFields = (Side, Side, Option<Roll>, Cube, MatchScore);

/// Reads a Match ID (in money play the score fields are ignored).
fn read_match_id(mid: &str) -> Result<MatchFields, GameError> {
    let key = base64_decode(mid, 9).ok_or_else(|| bad(format!("'{mid}' is not a Match ID")))?;
    let mut at = 0;
    let mut field = |width| get_bits(&key, &mut at, width);
    let side = |bit: u32| if bit == 0 { Side::White } else { Side::Black };
    let mut cube = Cube::default();
    let log2 = field(4);
    if log2 > super::cube::MAX_LOG2 as u32 {
        return Err(bad("Match ID cube above 64"));
    }
    cube.log2 = log2 as u8;
    cube.owner = match field(2) {
        3 => None,
        2 => return Err(bad("Match ID cube owner 2 does not exist")),
        o => Some(side(o)),
    };
    let roller = side(field(1));
    let crawford = field(1) == 1;
    let state = field(3);
    if state > 4 {
        return Err(bad("Match ID game state is 0-4"));
    }
    cube.dropped = state == 4;
    let turn = side(field(1));
    cube.offered = field(1) == 1;
    if field(2) != 0 {
        return Err(bad("resignations are not part of this engine"));
    }
    let (d1, d2) = (field(3), field(3));
    let dice = match (d1, d2) {
        (0, 0) => None,
        (a, b) => {
            Some(Roll::new(a as u8, b as u8).ok_or_else(|| bad(format!("Match ID dice {a}{b}")))?)
        }
    };
    let length = field(15);
    if length > u32::from(super::score::MAX_LENGTH) {
        return Err(bad(format!(
            "Match ID match length {length} is above {}",
            super::score::MAX_LENGTH
        )));
    }
    let mut score = MatchScore::new(length as u16);
    let points = [field(15), field(15)];
    if score.is_match() {
        score.score = points.map(|p| p as u16);
        score.crawford = crawford;
    }
    Ok((roller, turn, dice, cube, score))
}
