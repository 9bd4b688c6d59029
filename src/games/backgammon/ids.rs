//! The position formats other backgammon programs exchange: eXtreme Gammon's XGID and GNU
//! Backgammon's Position ID + Match ID.
//!
//! Both also carry the cube, the score and the match length. The engine plays money games
//! without a cube for now, so those fields are read and range-checked but not kept; exports
//! write a centred 1-cube, money play. The opening flag is not part of either format: an
//! imported position is an opening when it is the start layout with white on roll and no
//! double rolled. White is XG's bottom player (upper-case, turn `1`) and GNU's player 0.

use super::board::{Side26, BAR, CHECKERS, OFF, START};
use super::movegen::Roll;
use super::notation::validate;
use super::{Backgammon, EvalKind};
use crate::game::{Game, GameError, Side};

fn bad(what: impl Into<String>) -> GameError {
    GameError::BadPosition(what.into())
}

/// Builds and validates a position from checkers on the board (off = the rest).
fn assemble(
    mut sides: [Side26; 2],
    turn: Side,
    dice: Option<Roll>,
    eval: EvalKind,
) -> Result<Backgammon, GameError> {
    for (side, name) in sides.iter_mut().zip(["white", "black"]) {
        let on: u32 = side[1..].iter().map(|&c| c as u32).sum();
        if on > CHECKERS as u32 {
            return Err(bad(format!("{name} has {on} checkers, more than 15")));
        }
        side[OFF] = CHECKERS - on as u8;
    }
    let opening =
        sides == [START, START] && turn == Side::White && !dice.is_some_and(Roll::is_double);
    let pos = Backgammon::from_parts(sides, turn, dice, opening, eval);
    validate(&pos)?;
    Ok(pos)
}

/// The XGID of a position: `XGID=<26 points>:0:0:<turn>:<dice>:0:0:0:0:10`.
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
    let turn = if pos.side_to_move() == Side::White {
        "1"
    } else {
        "-1"
    };
    let dice = pos
        .dice()
        .map_or("00".to_owned(), |r| format!("{}{}", r.hi, r.lo));
    format!("XGID={board}:0:0:{turn}:{dice}:0:0:0:0:10")
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
pub fn from_xgid(text: &str, eval: EvalKind) -> Result<Backgammon, GameError> {
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
    xgid_number(cube, "cube", 0..=15)?;
    xgid_number(cube_pos, "cube position", -1..=1)?;
    let turn = match xgid_number(turn, "turn", -1..=1)? {
        1 => Side::White,
        -1 => Side::Black,
        _ => return Err(bad("XGID turn is 1 or -1")),
    };
    let dice = match *dice {
        "00" | "D" | "B" | "R" => None,
        d => Some(super::notation::parse_roll(d).ok_or_else(|| bad(format!("XGID dice '{d}'")))?),
    };
    for (f, what) in [(s1, "score"), (s2, "score"), (len, "match length")] {
        xgid_number(f, what, 0..=32767)?;
    }
    xgid_number(cj, "crawford/jacoby", 0..=3)?;
    xgid_number(max, "maximum cube", 0..=15)?;
    assemble(sides, turn, dice, eval)
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

/// The GNU Backgammon Position ID: 80 bits, the player on roll first, each side's points
/// 1..24 then the bar as that many 1 bits and a 0, base64 without padding.
fn position_id(me: &Side26, them: &Side26) -> String {
    let mut key = [0u8; 10];
    let mut at = 0;
    for side in [me, them] {
        for &count in side[1..26].iter() {
            put_bits(&mut key, &mut at, (1u32 << count) - 1, count as usize + 1);
        }
    }
    base64_encode(&key)
}

/// The GNU Backgammon Match ID for a money game with a centred cube.
fn match_id(pos: &Backgammon) -> String {
    let mut key = [0u8; 9];
    let mut at = 0;
    let turn = pos.side_to_move().index() as u32;
    let state = if pos.outcome().is_some() { 2 } else { 1 };
    let (d1, d2) = pos.dice().map_or((0, 0), |r| (r.hi as u32, r.lo as u32));
    for (value, width) in [
        (0, 4),     // log2 of the cube value
        (3, 2),     // cube owner: centred
        (turn, 1),  // who rolls
        (0, 1),     // Crawford game
        (state, 3), // playing or over
        (turn, 1),  // who decides
        (0, 1),     // no double offered
        (0, 2),     // no resignation
        (d1, 3),
        (d2, 3),
        (0, 15), // match length: money
        (0, 15),
        (0, 15),
    ] {
        put_bits(&mut key, &mut at, value, width);
    }
    base64_encode(&key)
}

/// `PositionID:MatchID`, as GNU Backgammon shows it.
pub fn to_gnubg_id(pos: &Backgammon) -> String {
    let turn = pos.side_to_move();
    let ids = position_id(pos.checkers(turn), pos.checkers(turn.opponent()));
    format!("{ids}:{}", match_id(pos))
}

/// Reads `PositionID:MatchID` (or a Position ID alone: white on roll, no dice).
pub fn from_gnubg_id(text: &str, eval: EvalKind) -> Result<Backgammon, GameError> {
    let text = text.trim();
    let (pid, mid) = match text.split_once(':') {
        Some((p, m)) => (p, Some(m)),
        None => (text, None),
    };
    let key = base64_decode(pid, 10).ok_or_else(|| bad(format!("'{pid}' is not a Position ID")))?;
    let mut at = 0;
    let mut mover_first = [[0u8; 26]; 2];
    for side in mover_first.iter_mut() {
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
    let (turn, dice) = match mid {
        None => (Side::White, None),
        Some(m) => read_match_id(m)?,
    };
    let [mover, other] = mover_first;
    let sides = if turn == Side::White {
        [mover, other]
    } else {
        [other, mover]
    };
    assemble(sides, turn, dice, eval)
}

/// The side on roll and the dice from a Match ID (the other fields are range-checked only).
fn read_match_id(mid: &str) -> Result<(Side, Option<Roll>), GameError> {
    let key = base64_decode(mid, 9).ok_or_else(|| bad(format!("'{mid}' is not a Match ID")))?;
    let mut at = 0;
    let mut field = |width| get_bits(&key, &mut at, width);
    let _cube = field(4);
    if field(2) == 2 {
        return Err(bad("Match ID cube owner 2 does not exist"));
    }
    let roller = field(1);
    let _crawford = field(1);
    if field(3) > 4 {
        return Err(bad("Match ID game state is 0-4"));
    }
    let _decider = field(1);
    let _double = field(1);
    let _resign = field(2);
    let (d1, d2) = (field(3), field(3));
    let turn = if roller == 0 {
        Side::White
    } else {
        Side::Black
    };
    let dice = match (d1, d2) {
        (0, 0) => None,
        (a, b) => {
            Some(Roll::new(a as u8, b as u8).ok_or_else(|| bad(format!("Match ID dice {a}{b}")))?)
        }
    };
    Ok((turn, dice))
}
