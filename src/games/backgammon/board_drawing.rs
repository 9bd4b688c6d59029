//! The `d` board of a backgammon position.

use super::board::{self, BAR, OFF};
use super::Backgammon;
use crate::game::{Game, Side};

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
