//! Notation: options, position strings, move tokens with their illegal-move reasons, and
//! the board drawing for `d`.

use super::board::{coordinates, in_mill_at, point_index, points, Points, ADJACENT, POINT_NAMES};
use super::movegen::Phase;
use super::{Morris, Move, Options, MAX_NOCAPTURE, NO_POINT};
use crate::game::{find_equal, resolve_move, GameError, Side};

// Options

/// Parses `flying=`, `repetition=` and `nocapture=`; other keys are errors.
pub fn parse_options(pairs: &[(&str, &str)]) -> Result<Options, GameError> {
    let mut options = Options::default();
    for &(key, value) in pairs {
        let bad =
            |expected: &str| GameError::BadOption(format!("{key}={value}: expected {expected}"));
        match key {
            "flying" => {
                options.flying = match value {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad("false or true")),
                }
            }
            "repetition" => {
                // 1 would end every game at once, so the rule counts from 2.
                let expected = "0 or 2..1000";
                options.repetition = value.parse().map_err(|_| bad(expected))?;
                if options.repetition == 1 || options.repetition > 1000 {
                    return Err(bad(expected));
                }
            }
            "nocapture" => {
                let expected = format!("0..{MAX_NOCAPTURE}");
                options.nocapture = value.parse().map_err(|_| bad(&expected))?;
                if options.nocapture > MAX_NOCAPTURE {
                    return Err(bad(&expected));
                }
            }
            _ => return Err(GameError::BadOption(format!("unknown option {key}"))),
        }
    }
    Ok(options)
}

/// The plies-without-capture field, checked against what a game can reach: the game ends when
/// the counter reaches `nocapture`, so it never exceeds it; with the rule off (`nocapture=0`)
/// it counts on, up to the largest `u32` (where it stays). While pieces are in hand it cannot
/// exceed the placements made so far (every ply of that phase is a placement).
fn parse_quiet_plies(text: &str, hand: [u8; 2], options: &Options) -> Result<u32, GameError> {
    let bad = |what: String| Err(GameError::BadPosition(what));
    let Ok(quiet) = text.parse::<u32>() else {
        return bad(format!(
            "plies without capture must be a number 0..{}, not '{text}'",
            u32::MAX
        ));
    };
    if options.nocapture > 0 && quiet > options.nocapture {
        return bad(format!(
            "plies without capture must be 0..{0} (the game is drawn at {0}: nocapture={0}), not {quiet}",
            options.nocapture
        ));
    }
    if hand != [0, 0] {
        let placed = 18 - u32::from(hand[0]) - u32::from(hand[1]);
        if quiet > placed {
            return bad(format!(
                "{quiet} plies without capture, more than the {placed} placements made so far"
            ));
        }
    }
    Ok(quiet)
}

/// Every option as `key=value`, in a fixed order.
pub fn format_options(options: &Options) -> String {
    format!(
        "flying={} repetition={} nocapture={}",
        options.flying, options.repetition, options.nocapture
    )
}

// Position strings

/// The points of each rank, from rank 7 down to rank 1, files a..g.
fn ranks() -> [Vec<usize>; 7] {
    let mut out: [Vec<usize>; 7] = Default::default();
    for p in 0..24 {
        let (_, rank) = coordinates(p);
        out[6 - rank].push(p);
    }
    out
}

/// Prints `W.B/.../.../....../.../.../... w 9 9 0` (see the module summary in `mod.rs`).
pub fn format_fen(pos: &Morris) -> String {
    let rows: Vec<String> = ranks()
        .iter()
        .map(|rank| rank.iter().map(|&p| piece_char(pos, p)).collect::<String>())
        .collect();
    let side = if pos.side == Side::White { 'w' } else { 'b' };
    format!(
        "{} {side} {} {} {}",
        rows.join("/"),
        pos.hand[0],
        pos.hand[1],
        pos.quiet_plies
    )
}

fn piece_char(pos: &Morris, p: usize) -> char {
    if pos.board[0] >> p & 1 == 1 {
        'W'
    } else if pos.board[1] >> p & 1 == 1 {
        'B'
    } else {
        '.'
    }
}

/// Parses and validates a position string.
///
/// # Errors
/// [`GameError::BadPosition`] naming the first problem: field count, rank shape, piece
/// letters, side, hands, a counter the game cannot reach, counts above 9 pieces, a hand count
/// the alternation of turns cannot produce, or an opponent already below 3 pieces.
pub fn parse_fen(fen: &str, options: &Options) -> Result<Morris, GameError> {
    let bad = |what: String| GameError::BadPosition(what);
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let [rows, side, white_hand, black_hand, quiet] = fields[..] else {
        return Err(bad(format!(
            "expected 5 fields (ranks, side, white in hand, black in hand, plies without capture), got {}",
            fields.len()
        )));
    };
    let row_texts: Vec<&str> = rows.split('/').collect();
    if row_texts.len() != 7 {
        return Err(bad(format!(
            "expected 7 ranks separated by '/', got {}",
            row_texts.len()
        )));
    }
    let mut board: [Points; 2] = [0, 0];
    for (text, points) in row_texts.iter().zip(ranks().iter()) {
        if text.chars().count() != points.len() {
            return Err(bad(format!(
                "rank '{text}' must have {} points",
                points.len()
            )));
        }
        for (c, &p) in text.chars().zip(points) {
            match c {
                'W' => board[0] |= 1 << p,
                'B' => board[1] |= 1 << p,
                '.' => {}
                _ => return Err(bad(format!("'{c}' is not W, B or ."))),
            }
        }
    }
    let side = match side {
        "w" => Side::White,
        "b" => Side::Black,
        _ => return Err(bad(format!("side to move must be w or b, not '{side}'"))),
    };
    let hand_count = |text: &str| match text.parse::<u8>() {
        Ok(n) if n <= 9 => Ok(n),
        _ => Err(bad(format!("pieces in hand must be 0..9, not '{text}'"))),
    };
    let hand = [hand_count(white_hand)?, hand_count(black_hand)?];
    let quiet_plies = parse_quiet_plies(quiet, hand, options)?;
    for s in [Side::White, Side::Black] {
        let i = s.index();
        if board[i].count_ones() + u32::from(hand[i]) > 9 {
            return Err(bad(format!("{} has more than 9 pieces", s.name())));
        }
    }
    // With all 18 pieces still in the game nothing was ever captured, so every ply so far
    // counts: exactly the placements made while pieces are in hand, all 18 of them after.
    let all_there = (0..2).all(|i| board[i].count_ones() + u32::from(hand[i]) == 9);
    let placed = 18 - u32::from(hand[0]) - u32::from(hand[1]);
    if all_there && (hand != [0, 0] && quiet_plies != placed || quiet_plies < placed) {
        return Err(bad(format!(
            "{quiet_plies} plies without capture, but nothing has been captured in the {placed} placements made"
        )));
    }
    // White places first and turns alternate, so White's hand equals Black's when White is
    // to move and is one smaller when Black is.
    let expected_black = hand[0] + u8::from(side == Side::Black);
    if (hand[0] > 0 || hand[1] > 0) && hand[1] != expected_black {
        return Err(bad(format!(
            "with white holding {} in hand and {} to move, black must hold {expected_black}",
            hand[0],
            side.name()
        )));
    }
    let pos = Morris::from_parts(board, hand, side, quiet_plies, *options);
    let waiting = side.opponent();
    if pos.piece_count(waiting) < 3 {
        return Err(bad(format!(
            "{} has fewer than 3 pieces but it is {}'s turn",
            waiting.name(),
            side.name()
        )));
    }
    Ok(pos)
}

// Moves

/// The canonical token: `d2`, `d2d3`, `d2xa1`, `d2d3xa1`.
pub fn format_move(mv: Move) -> String {
    let mut out = String::with_capacity(7);
    if mv.from != NO_POINT {
        out.push_str(POINT_NAMES[mv.from as usize]);
    }
    out.push_str(POINT_NAMES[mv.to as usize]);
    if mv.is_capture() {
        out.push('x');
        out.push_str(POINT_NAMES[mv.capture as usize]);
    }
    out
}

const SYNTAX: &str = "expected a point (d2) or a step (d2d3), optionally with a capture (xa1)";

/// Resolves a token to the legal move it names, or says which rule it breaks.
pub fn parse_move(pos: &Morris, token: &str) -> Result<Move, GameError> {
    resolve_move(pos, token, read_move(token), find_equal, |&mv| {
        why_illegal(pos, mv).map(|reason| GameError::illegal(token, reason))
    })
}

/// A token's move: its (from, to, capture) points, read for their syntax only (legality is
/// the move list's).
fn read_move(token: &str) -> Result<Move, GameError> {
    let (main, capture) = match token.split_once('x') {
        Some((main, capture)) => (main, Some(capture)),
        None => (token, None),
    };
    let point = |name: &str| {
        point_index(name).ok_or_else(|| {
            GameError::bad_move(token, format!("{name} is not a point of the board"))
        })
    };
    let (from, to) = match main.len() {
        2 => (None, main),
        4 if main.is_char_boundary(2) => (Some(&main[..2]), &main[2..]),
        _ => return Err(GameError::bad_move(token, SYNTAX)),
    };
    if capture.is_some_and(|c| c.len() != 2) {
        return Err(GameError::bad_move(token, SYNTAX));
    }
    let number = |p: Option<usize>| p.map_or(NO_POINT, |p| p as u8);
    Ok(Move {
        from: number(from.map(point).transpose()?),
        to: point(to)? as u8,
        capture: number(capture.map(point).transpose()?),
    })
}

/// Why the written move `written` is not legal in `pos`, by the first rule it breaks, if any.
fn why_illegal(pos: &Morris, written: Move) -> Option<String> {
    let point = |p: u8| (p != NO_POINT).then_some(usize::from(p));
    let (from, to, capture) = (
        point(written.from),
        usize::from(written.to),
        point(written.capture),
    );
    let me = pos.side;
    let name = |p: usize| POINT_NAMES[p];
    let phase = pos.phase(me);
    let mv = match (from, phase) {
        (None, Phase::Placing) => Move::placement(to),
        (None, _) => {
            return Some(format!(
                "{} has no pieces in hand and must move a piece (like d2d3)",
                me.name()
            ))
        }
        (Some(_), Phase::Placing) => {
            return Some(format!(
                "{} must place a piece while it has {} in hand",
                me.name(),
                pos.in_hand(me)
            ))
        }
        (Some(from), _) => {
            if pos.pieces(me) >> from & 1 == 0 {
                return Some(format!("no {} piece on {}", me.name(), name(from)));
            }
            Move::step(from, to)
        }
    };
    if pos.empty() >> to & 1 == 0 {
        return Some(format!("{} is occupied", name(to)));
    }
    if let (Some(from), Phase::Moving) = (from, phase) {
        if ADJACENT[from] >> to & 1 == 0 {
            return Some(format!("{} is not adjacent to {}", name(to), name(from)));
        }
    }
    let closes = in_mill_at(pos.own_after(mv), to);
    let theirs = pos.pieces(me.opponent());
    match capture {
        None if closes && theirs != 0 => Some(format!(
            "{} closes a mill and must take a {} piece (add a capture like x{})",
            format_move(mv),
            me.opponent().name(),
            name(points(pos.capturable(me)).next().unwrap_or(0))
        )),
        None => None,
        Some(_) if !closes => Some(format!(
            "capture not allowed: {} closes no mill",
            format_move(mv)
        )),
        Some(c) if theirs >> c & 1 == 0 => Some(format!(
            "no {} piece on {} to take",
            me.opponent().name(),
            name(c)
        )),
        Some(c) if pos.capturable(me) >> c & 1 == 0 => Some(format!(
            "{} is protected in a mill while {} has pieces outside mills",
            name(c),
            me.opponent().name()
        )),
        Some(_) => None,
    }
}

// Board drawing

/// The board as text: pieces `W`/`B`, empty points `+`, lines `-` and `|`, then a status line.
pub fn board_lines(pos: &Morris) -> Vec<String> {
    let mut grid = vec![vec![' '; 25]; 13];
    for (p, &adjacent) in ADJACENT.iter().enumerate() {
        let (f, r) = coordinates(p);
        for q in points(adjacent).filter(|&q| q > p) {
            let (g, s) = coordinates(q);
            if s == r {
                (f * 4 + 1..g * 4).for_each(|x| grid[12 - 2 * r][x] = '-');
            } else {
                (12 - 2 * s + 1..12 - 2 * r).for_each(|y| grid[y][f * 4] = '|');
            }
        }
        let c = piece_char(pos, p);
        grid[12 - 2 * r][f * 4] = if c == '.' { '+' } else { c };
    }
    let mut lines: Vec<String> = grid
        .iter()
        .enumerate()
        .map(|(y, row)| {
            let label = if y % 2 == 0 {
                char::from(b'7' - (y / 2) as u8)
            } else {
                ' '
            };
            format!("{label} {}", row.iter().collect::<String>())
                .trim_end()
                .to_owned()
        })
        .collect();
    lines.push("  a   b   c   d   e   f   g".to_owned());
    let phase = |s: Side| match pos.phase(s) {
        Phase::Placing => "placing",
        Phase::Moving => "moving",
        Phase::Flying => "flying",
    };
    lines.push(format!(
        "{} to move; white {} ({} in hand), black {} ({} in hand); {} plies without capture",
        pos.side.name(),
        phase(Side::White),
        pos.hand[0],
        phase(Side::Black),
        pos.hand[1],
        pos.quiet_plies
    ));
    lines
}
