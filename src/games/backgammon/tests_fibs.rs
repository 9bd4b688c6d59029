//! FIBS rawboard strings checked against the format's definition (FIBS's `rawboard` help and
//! client protocol), not against the engine's own output.

use super::fibs::{from_fibs, to_fibs};
use super::*;
use crate::game::Game;

const START: &str = "w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5";

fn read(text: &str) -> Result<Backgammon, GameError> {
    from_fibs(text, &Options::default())
}

fn cube_on() -> Options {
    Backgammon::parse_options(&[("cube", "on")]).unwrap()
}

/// The documented example: "You" (O, moving 24 -> 1) on roll with 62 at the start of a
/// 3-point match.
const EXAMPLE: &str = "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0";

#[test]
fn the_documented_example_is_the_start_with_62() {
    let p = read(EXAMPLE).unwrap();
    assert_eq!(
        p.to_fen(),
        format!("{START} w 62 opening match=3 score=0-0")
    );
}

#[test]
fn the_same_numbers_seen_by_x_moving_up_are_the_same_position() {
    // Colour X (-1) moving 1 -> 24 (direction 1, home 25, bar 0): X's checkers are the
    // negative ones, its 24-point is position 1; turn -1 is X's, so the player is on roll.
    let x = EXAMPLE
        .replace(":1:6:2:0:0:", ":-1:6:2:0:0:")
        .replace(":0:1:-1:0:25:", ":0:-1:1:25:0:");
    assert_eq!(read(&x).unwrap(), read(EXAMPLE).unwrap());
}

/// Builds a board string from the 26 numbers and the fields after them.
fn board(length: u32, scores: (u32, u32), cells: &[(usize, i32)], tail: &str) -> String {
    let mut numbers = [0i32; 26];
    for &(i, n) in cells {
        numbers[i] = n;
    }
    let numbers: Vec<String> = numbers.iter().map(i32::to_string).collect();
    format!(
        "board:me:you:{length}:{}:{}:{}:{tail}",
        scores.0,
        scores.1,
        numbers.join(":")
    )
}

#[test]
fn bars_cube_owner_and_score() {
    // O (the player, moving down) has one checker on its bar (position 25) and 14 on its
    // 6-point; X has one on its bar (position 0) and one on its own 1-point (position 24).
    // X owns a 2-cube (only X may double); X on turn with 31 at 2-4 in a 5-point match,
    // after the Crawford game (the post-Crawford flag, last, is 1).
    let text = board(
        5,
        (2, 4),
        &[(25, 1), (6, 14), (0, -1), (24, -1)],
        "-1:0:0:3:1:2:0:1:0:1:-1:0:25:0:13:1:1:2:0:0:1",
    );
    let p = from_fibs(&text, &cube_on()).unwrap();
    assert_eq!(
        p.to_fen(),
        "w=bar:1,6:14 b=bar:1,1:1 b 31 cube=2:b match=5 score=2-4"
    );
    // Written back the way the module writes every board: the same position.
    assert_eq!(from_fibs(&to_fibs(&p).unwrap(), &cube_on()).unwrap(), p);
}

#[test]
fn a_double_waits_for_the_other_sides_answer() {
    // O on turn with no roll and "was doubled" set: O doubled, X answers; cube centred at 1.
    let text = board(
        0,
        (0, 0),
        &[(6, 15), (19, -15)],
        "1:0:0:0:0:1:1:1:1:1:-1:0:25:0:0:0:0:0:0:0:0",
    );
    let p = from_fibs(&text, &cube_on()).unwrap();
    assert_eq!(p.to_fen(), "w=6:15 b=6:15 b - offered");
    // Without the cube in play the same board is refused.
    assert!(read(&text).is_err());
}

#[test]
fn crawford_and_finished_games() {
    // 4-2 in a 5-point match, both Crawford flags 0 (the "no Crawford rule" flag and the
    // post-Crawford flag, as GNU Backgammon reads them): the Crawford game.
    let at = |score: (u32, u32), flags: &str| {
        let tail = format!("1:0:0:0:0:1:0:0:0:1:-1:0:25:0:0:0:0:0:0:{flags}");
        read(&board(5, score, &[(6, 15), (19, -15)], &tail)).map(|p| p.to_fen())
    };
    let crawford = "w=6:15 b=6:15 w - match=5 score=4-2 crawford";
    assert_eq!(at((4, 2), "0:0").unwrap(), crawford);
    // After it (GNU Backgammon 1.07 writes 1:1), or without the rule (3 in the second last
    // field, FIBS): an ordinary game at the same score.
    let after = "w=6:15 b=6:15 w - match=5 score=4-2";
    assert_eq!(at((4, 2), "1:1").unwrap(), after);
    assert_eq!(at((4, 2), "3:0").unwrap(), after);
    // Before anyone is one point away the flags say nothing (GNU Backgammon writes 0:1), and
    // at 4-4, double match point, there is no Crawford game whatever they say.
    assert_eq!(
        at((2, 1), "0:1").unwrap(),
        "w=6:15 b=6:15 w - match=5 score=2-1"
    );
    assert_eq!(
        at((4, 4), "1:1").unwrap(),
        "w=6:15 b=6:15 w - match=5 score=4-4"
    );
    assert_eq!(
        at((4, 4), "0:0").unwrap(),
        "w=6:15 b=6:15 w - match=5 score=4-4"
    );
    // Written back the same way: the Crawford game with 0:0, a later game with 1 last.
    let written = |fen: &str| {
        let pos = Backgammon::from_fen(fen, &cube_on()).unwrap();
        to_fibs(&pos).unwrap()
    };
    assert!(written(crawford).ends_with(":0:0"));
    assert!(written(after).ends_with(":0:1"));
    assert_eq!(at((4, 2), "0:1").unwrap(), after);
    // Turn 0: the game is over; O has borne off all 15, so X is left "to move".
    let over = board(
        0,
        (0, 0),
        &[(19, -15)],
        "0:0:0:0:0:1:1:1:0:1:-1:0:25:15:0:0:0:0:0:0:0",
    );
    assert_eq!(read(&over).unwrap().to_fen(), "w=- b=6:15 b -");
}

#[test]
fn bad_boards_are_refused_with_a_reason() {
    let cases = [
        ("board:a:b:3", "fields"),
        (
            &EXAMPLE.replacen("board:", "bored:", 1)[..],
            "starts with 'board:'",
        ),
        (
            &EXAMPLE.replace(":6:2:0:0:1:1:1:", ":6:7:0:0:1:1:1:"),
            "dice",
        ),
        (&EXAMPLE.replace(":0:-2:0:", ":0:-2x:0:"), "not a number"),
        (&EXAMPLE.replace(":0:1:-1:0:25:", ":0:2:-1:0:25:"), "colour"),
        (
            &EXAMPLE.replace(":6:2:0:0:1:1:1:", ":6:2:0:0:3:1:1:"),
            "cube",
        ),
        (&EXAMPLE.replacen(":3:0:0:", ":3:3:0:", 1), "score"),
        (
            &EXAMPLE.replace(":-2:0:0:0:0:5:", ":-2:0:0:0:0:9:"),
            "more than 15",
        ),
        // A checker of the player on the opponent's bar (position 0 for direction -1).
        (&EXAMPLE.replacen(":0:0:0:-2:", ":0:0:1:-2:", 1), "bar"),
    ];
    for (text, reason) in cases {
        let error = read(text).unwrap_err().to_string();
        assert!(error.contains(reason), "{text}: {error}");
    }
}
