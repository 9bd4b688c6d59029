//! The engine's money cube decisions in pure races, measured against Keith's count, a public
//! rule of thumb for races that shares nothing with the engine's evaluation.
//!
//! Keith's count: pips, plus 2 for each checker beyond the first on the 1 point, 1 for each
//! beyond the first on the 2 point, 1 for each beyond the third on the 3 point, and 1 for each
//! empty 4, 5 and 6 point; the roller's count is raised by a seventh. The roller doubles when
//! its count exceeds the opponent's by at most 4; the opponent takes when the roller's count
//! exceeds its own by at least 2.
//!
//! Run with `cargo test --release --test strength backgammon_cube_keith:: -- --ignored --nocapture`
//! (about a minute). It prints the agreement rates; it asserts only that the engine agrees
//! with the rule on clear cases (a margin of 2 or more from the rule's thresholds) most of the
//! time, since the rule itself is an approximation.

use std::sync::atomic::AtomicBool;
use tabula::game::Game;
use tabula::games::backgammon::Backgammon;
use tabula::search::{Limits, Searcher, Table};
use tabula::strategy::backgammon::{decide_before_chance, Lookahead};
use tabula::strategy::Chosen;

fn keith(checkers: &[u8; 13]) -> f64 {
    let pips: u32 = (1..=12).map(|p| p as u32 * checkers[p] as u32).sum();
    let extra = |p: usize, free: u8, weight: u32| checkers[p].saturating_sub(free) as u32 * weight;
    let gaps = (4..=6).filter(|&p| checkers[p] == 0).count() as u32;
    f64::from(pips + extra(1, 1, 2) + extra(2, 1, 1) + extra(3, 3, 1) + gaps)
}

fn list(checkers: &[u8; 13]) -> String {
    let items: Vec<String> = (1..=12)
        .rev()
        .filter(|&p| checkers[p] > 0)
        .map(|p| format!("{p}:{}", checkers[p]))
        .collect();
    if items.is_empty() {
        "-".into()
    } else {
        items.join(",")
    }
}

/// A random race side: 15 checkers, some borne off, the rest on points 1-12 (no contact).
fn random_side(next: &mut impl FnMut() -> u64) -> [u8; 13] {
    let mut side = [0u8; 13];
    let on_board = 10 + (next() % 6) as usize;
    let top = 6 + (next() % 7) as usize;
    for _ in 0..on_board {
        side[1 + (next() as usize % top)] += 1;
    }
    side
}

#[test]
#[ignore]
fn cube_decisions_agree_with_keith_count_in_races() {
    let options = Backgammon::parse_options(&[("cube", "on")]).unwrap();
    let mut seed = 0x5EED_CAFE_F00D_1234u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let searcher = Lookahead;
    let (mut doubles, mut double_agree, mut clear_d, mut clear_d_agree) = (0, 0, 0, 0);
    let (mut takes, mut take_agree, mut clear_t, mut clear_t_agree) = (0, 0, 0, 0);
    for _ in 0..400 {
        let (w, b) = (random_side(&mut next), random_side(&mut next));
        let roller_white = next() % 2 == 0;
        let side = if roller_white { "w" } else { "b" };
        let fen = format!("w={} b={} {side} -", list(&w), list(&b));
        let pos = Backgammon::from_fen(&fen, &options).unwrap();
        let (roller, other) = if roller_white { (&w, &b) } else { (&b, &w) };
        let margin = keith(roller) * 8.0 / 7.0 - keith(other);
        let table = Table::new(16);
        let engine_doubles = matches!(
            decide_before_chance(&pos, &searcher, &limits, &table, &stop, &mut |_| {}).choice,
            Chosen::Move(_)
        );
        let rule_doubles = margin <= 4.0;
        doubles += 1;
        double_agree += usize::from(engine_doubles == rule_doubles);
        if (margin - 4.0).abs() >= 2.0 {
            if engine_doubles != rule_doubles {
                eprintln!(
                    "MISMATCH double engine {engine_doubles} margin {margin:.1} {fen} pips {:?}",
                    pos.pip_counts()
                );
            }
            clear_d += 1;
            clear_d_agree += usize::from(engine_doubles == rule_doubles);
        }
        // The take: asked whenever the rule says the double is at least close.
        if margin <= 8.0 {
            let mut doubled = pos.clone();
            doubled.play(doubled.parse_move("double").unwrap());
            let found = searcher.search(&doubled, &limits, &table, &stop, &mut |_| {});
            let engine_takes = doubled.format_move(found.best.unwrap()) != "drop";
            let rule_takes = margin >= 2.0;
            takes += 1;
            take_agree += usize::from(engine_takes == rule_takes);
            if (margin - 2.0).abs() >= 2.0 {
                if engine_takes != rule_takes {
                    eprintln!(
                        "MISMATCH take engine {engine_takes} margin {margin:.1} {fen} pips {:?}",
                        pos.pip_counts()
                    );
                }
                clear_t += 1;
                clear_t_agree += usize::from(engine_takes == rule_takes);
            }
        }
    }
    let pct = |a: usize, n: usize| 100.0 * a as f64 / n.max(1) as f64;
    println!(
        "double/no double: agree {double_agree}/{doubles} ({:.0}%), clear cases {clear_d_agree}/{clear_d} ({:.0}%)",
        pct(double_agree, doubles),
        pct(clear_d_agree, clear_d)
    );
    println!(
        "take/drop: agree {take_agree}/{takes} ({:.0}%), clear cases {clear_t_agree}/{clear_t} ({:.0}%)",
        pct(take_agree, takes),
        pct(clear_t_agree, clear_t)
    );
    assert!(pct(clear_d_agree, clear_d) >= 80.0);
    assert!(pct(clear_t_agree, clear_t) >= 80.0);
}
