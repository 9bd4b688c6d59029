//! The search hooks: tactical moves and the evaluation's sense of mobility.

use super::*;
use crate::game::{Game, Hints};

fn pos(fen: &str) -> Morris {
    Morris::from_fen(fen, &Options::default()).unwrap()
}

/// `tactical_moves` are exactly the legal moves that take a man, along pseudo-random games
/// with both flying settings.
#[test]
fn tactical_moves_are_the_mill_closes() {
    let mut seed = 0x9e37_79b9_u64;
    let mut captures = 0;
    for flying in [false, true] {
        let options = Options {
            flying,
            ..Options::default()
        };
        for _game in 0..6 {
            let mut p = Morris::start(&options);
            loop {
                let mut legal = Vec::new();
                p.legal_moves(&mut legal);
                let mut tactical = Vec::new();
                p.tactical_moves(&mut tactical);
                legal.retain(|m| m.is_capture());
                assert_eq!(tactical, legal, "{}", p.to_fen());
                captures += tactical.len();
                let mut all = Vec::new();
                p.legal_moves(&mut all);
                if all.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                p.play(all[(seed >> 33) as usize % all.len()]);
            }
        }
    }
    assert!(captures > 100);
}

/// White's three corner men with one step left (a7d7) against the same men with six: a side
/// that cannot move loses, so the cramped position must score far lower for White, though
/// men and mills are equal.
#[test]
fn few_steps_score_worse() {
    let cramped = pos("W../.../.../B....B/.../.../WBW w 0 0 0");
    let free = pos("W../.../B../....../B.B/.../W.W w 0 0 0");
    assert!(
        cramped.evaluate() + 200 < free.evaluate(),
        "{} vs {}",
        cramped.evaluate(),
        free.evaluate()
    );
}

/// Move ordering puts every mill close before every other move.
#[test]
fn captures_are_tried_first() {
    // White a1 a4, Black b2 b4, White to place: a7 closes the file-a mill.
    let p = pos(".../.../.../WB..../.../.B./W.. w 7 7 4");
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let worst_capture = moves
        .iter()
        .filter(|m| m.is_capture())
        .map(|&m| p.move_order_hint(m))
        .min()
        .unwrap();
    assert!(moves
        .iter()
        .filter(|m| !m.is_capture())
        .all(|&m| p.move_order_hint(m) < worst_capture));
}

fn count(p: &Morris, name: &str) -> i32 {
    let index = eval::TERM_NAMES.iter().position(|&n| n == name).unwrap();
    eval::terms(p)[index]
}

/// The mover-relative terms: a placing opponent's open lines (one to block, or two: a fork),
/// and the tempo of the side to move in its phase.
#[test]
fn terms_of_the_opponents_open_lines_and_the_tempo() {
    // White d7 g7 (gap a7) and a1 d1 (gap g1), Black b2 c5 e4, Black to place: two gaps
    // against.
    let fork = pos(".WW/.../B../....B./.../B../WW. b 5 6 7");
    assert_eq!(count(&fork, "gaps-against"), 1);
    assert_eq!(count(&fork, "one-gap-against"), 0);
    assert_eq!(count(&fork, "placing-gaps"), -2);
    assert_eq!(count(&fork, "tempo-placing"), 1);
    assert_eq!(count(&fork, "men-in-hand"), 1);
    // White d7 g7 a1, Black b2 e4: one gap against.
    let one = pos(".WW/.../.../....B./.../B../W.. b 6 7 5");
    assert_eq!(count(&one, "gaps-against"), 0);
    assert_eq!(count(&one, "one-gap-against"), 1);
    // White to move instead: its own gaps are not "against" it.
    let mover = pos(".WW/.B./B../....B./.../B../WW. w 5 5 8");
    assert_eq!(count(&mover, "gaps-against"), 0);
    assert_eq!(count(&mover, "placing-gaps"), 2);
    // Both hands empty: the tempo of the moving phase.
    let moving = pos("W../.../.../B....B/.../.../WBW w 0 0 0");
    assert_eq!(count(&moving, "tempo-moving"), 1);
    assert_eq!(count(&moving, "tempo-placing"), 0);
}
