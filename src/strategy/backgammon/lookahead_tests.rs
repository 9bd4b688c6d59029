//! Tests of the lookahead searcher on backgammon (`lookahead.rs`): each pass scores its choice
//! exactly as a separate, naive computation of the same depth does, and limits fall back a
//! pass. (Test code may name a game; the searcher itself does not.)

use super::lookahead;
use crate::arena::backgammon_duplicate as matchplay;
use crate::game::{Dice, Game};
use crate::games::backgammon::{Backgammon, Move, Options};
use crate::search::{Limits, Score, SearchResult};
use std::sync::atomic::AtomicBool;

/// A position with the roll set, from a position string.
fn rolled(fen: &str, roll: u32) -> Backgammon {
    let mut p = Backgammon::from_fen(fen, &Options::default()).unwrap();
    p.apply_chance(roll);
    p
}

fn value_of(pos: &Backgammon) -> i32 {
    match pos.outcome() {
        Some(o) => pos.terminal_value(&o).unwrap(),
        None => pos.evaluate(),
    }
}

/// A separate 2-ply: the average over the rolls of the roller's best reply by evaluation.
fn naive_two_ply(pos: &Backgammon) -> i32 {
    if pos.outcome().is_some() {
        return value_of(pos);
    }
    let mut rolls = Vec::new();
    pos.chance_events(&mut rolls);
    let total: f64 = rolls
        .iter()
        .map(|c| {
            let mut r = pos.clone();
            r.apply_chance(c.event);
            let mut replies = Vec::new();
            r.legal_moves(&mut replies);
            let best = replies.iter().map(|&m| {
                let mut q = r.clone();
                q.play(m);
                -value_of(&q)
            });
            c.probability * best.max().unwrap() as f64
        })
        .sum();
    total.round() as i32
}

fn after(pos: &Backgammon, mv: Move) -> Backgammon {
    let mut p = pos.clone();
    p.play(mv);
    p
}

/// A separate 3-ply: the average over the rolls of the 2-ply value of the roller's best reply
/// by evaluation.
fn naive_three_ply(pos: &Backgammon) -> i32 {
    if pos.outcome().is_some() {
        return value_of(pos);
    }
    let mut rolls = Vec::new();
    pos.chance_events(&mut rolls);
    let total: f64 = rolls
        .iter()
        .map(|c| {
            let mut r = pos.clone();
            r.apply_chance(c.event);
            let mut replies = Vec::new();
            r.legal_moves(&mut replies);
            let reply = replies
                .iter()
                .min_by_key(|&&m| value_of(&after(&r, m)))
                .unwrap();
            c.probability * -naive_two_ply(&after(&r, *reply)) as f64
        })
        .sum();
    total.round() as i32
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn go(pos: &Backgammon, limits: &Limits) -> SearchResult<Move> {
    lookahead::search(pos, true, limits, &AtomicBool::new(false), &mut |_| {}).unwrap()
}

/// Positions (roll set) where the search goes to 3 plies: every roll of three positions,
/// keeping those where at least two plays reach the 3-ply pass.
fn deep_positions() -> Vec<Backgammon> {
    let fens = [
        "w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w - opening",
        "w=24:1,13:5,9:1,8:2,6:5,5:1 b=24:2,13:4,11:1,8:3,6:5 w -",
        "w=bar:1,13:4,8:3,6:4,4:2,3:1 b=20:2,13:4,8:3,6:4,5:2 w -",
    ];
    let mut found = Vec::new();
    for fen in fens {
        for roll in [21, 31, 42, 53, 61, 62, 64, 65, 11, 33] {
            let base = Backgammon::from_fen(fen, &Options::default()).unwrap();
            if base.parse_chance(&roll.to_string()).is_err() {
                continue; // a double at the opening
            }
            let pos = rolled(fen, roll);
            if go(&pos, &Limits::default()).info.unwrap().depth == 3 {
                found.push(pos);
            }
        }
    }
    found
}

#[test]
fn each_pass_scores_its_choice_exactly_and_beats_the_pass_before() {
    let positions = deep_positions();
    assert!(positions.len() >= 3, "{}", positions.len());
    for pos in positions.into_iter().take(4) {
        let mut plays = Vec::new();
        pos.legal_moves(&mut plays);
        let one = go(&pos, &depth(1));
        let info = one.info.unwrap();
        assert_eq!(info.depth, 1);
        let best_one = plays.iter().map(|&m| -value_of(&after(&pos, m))).max();
        let chosen_one = -value_of(&after(&pos, one.best.unwrap()));
        assert_eq!(Some(chosen_one), best_one);
        assert_eq!(info.score, Score::Cp(chosen_one));

        let two = go(&pos, &depth(2));
        let info = two.info.unwrap();
        assert_eq!(info.depth, 2);
        let chosen = -naive_two_ply(&after(&pos, two.best.unwrap()));
        assert_eq!(info.score, Score::Cp(chosen));
        assert!(chosen >= -naive_two_ply(&after(&pos, one.best.unwrap())));

        // Without limits the search goes to 3 plies (`go depth 3` is the same search).
        let three = go(&pos, &Limits::default());
        assert_eq!(three.best, go(&pos, &depth(3)).best);
        let info = three.info.unwrap();
        assert_eq!(info.depth, 3);
        let chosen = -naive_three_ply(&after(&pos, three.best.unwrap()));
        assert_eq!(info.score, Score::Cp(chosen));
        assert!(chosen >= -naive_three_ply(&after(&pos, two.best.unwrap())));
    }
}

#[test]
fn search_limits_and_positions_it_leaves_to_the_generic_search() {
    let pos = deep_positions().remove(0);
    let stop = AtomicBool::new(false);
    assert!(lookahead::search(&pos, true, &depth(4), &stop, &mut |_| {}).is_none());
    let unrolled = Backgammon::start(&Options::default());
    assert!(lookahead::search(
        &unrolled,
        unrolled.checker_play(),
        &Limits::default(),
        &stop,
        &mut |_| {}
    )
    .is_none());
    // Out of nodes in the 2-ply pass: the 1-ply choice stands.
    let few = Limits {
        nodes: Some(30),
        ..Limits::default()
    };
    let cut = go(&pos, &few);
    assert_eq!(cut.info.unwrap().depth, 1);
    let one = go(&pos, &depth(1));
    assert_eq!(cut.best, one.best);
    // Out of nodes in the 3-ply pass: the 2-ply choice stands.
    let two = go(&pos, &depth(2));
    let cut = go(
        &pos,
        &Limits {
            nodes: Some(two.nodes + 100),
            ..Limits::default()
        },
    );
    assert_eq!(cut.info.unwrap().depth, 2);
    assert_eq!(cut.best, two.best);
    // Stopped before it starts the 2-ply pass: the 1-ply choice.
    let stopped = AtomicBool::new(true);
    let r = lookahead::search(&pos, true, &Limits::default(), &stopped, &mut |_| {}).unwrap();
    assert_eq!(r.best, one.best);
    // The engine's default level: its choice is that of the last pass it finished, or of a
    // 3-ply pass over some of the 2-ply candidates (the first few of that pass's ranking,
    // more when the clock allows), scored exactly. (How far it gets in 100 ms depends on the
    // machine's load, so that is not asserted here.)
    let r = go(&pos, &matchplay::default_limits());
    let info = r.info.unwrap();
    if info.depth < 3 {
        assert_eq!(r.best, go(&pos, &depth(info.depth)).best);
    } else {
        let best = pos.format_move(r.best.unwrap());
        assert!(two_ply_candidates(&pos).contains(&best), "{best}");
        let chosen = -naive_three_ply(&after(&pos, r.best.unwrap()));
        assert_eq!(info.score, Score::Cp(chosen));
    }
}

/// The plays of the 2-ply pass, best first (`MultiPV` lines of `go depth 2`).
fn two_ply_candidates(pos: &Backgammon) -> Vec<String> {
    let mut ranked = Vec::new();
    let lines = Limits {
        multipv: lookahead::CANDIDATES,
        ..depth(2)
    };
    lookahead::search(pos, true, &lines, &AtomicBool::new(false), &mut |info| {
        if info.depth == 2 {
            ranked.push(info.pv[0].clone())
        }
    });
    ranked
}

/// The plays a search scores at 3 plies (its `MultiPV` lines of depth 3).
fn three_ply_plays(pos: &Backgammon, limits: &Limits) -> Vec<String> {
    let mut plays = Vec::new();
    let lines = Limits {
        multipv: lookahead::CANDIDATES,
        ..limits.clone()
    };
    lookahead::search(pos, true, &lines, &AtomicBool::new(false), &mut |info| {
        if info.depth == 3 {
            plays.push(info.pv[0].clone())
        }
    });
    plays
}

#[test]
fn a_clock_with_time_left_takes_every_2_ply_candidate_to_3_plies() {
    // A minute is far more than the whole pass needs: the search ends when every candidate
    // is done, with the play that is best at 3 plies among all of them.
    let minute = Limits {
        movetime: Some(60_000),
        ..Limits::default()
    };
    let mut wider = 0;
    for pos in deep_positions().into_iter().take(4) {
        let mut candidates = two_ply_candidates(&pos);
        let mut timed = three_ply_plays(&pos, &minute);
        let narrow = three_ply_plays(&pos, &depth(3));
        assert!(narrow.len() <= lookahead::DEEP_CANDIDATES);
        if timed.len() > narrow.len() {
            wider += 1;
        }
        candidates.sort();
        timed.sort();
        assert_eq!(timed, candidates);
        let values: Vec<i32> = candidates
            .iter()
            .map(|text| -naive_three_ply(&after(&pos, pos.parse_move(text).unwrap())))
            .collect();
        let r = go(&pos, &minute);
        let info = r.info.unwrap();
        assert_eq!(info.depth, 3);
        let chosen = -naive_three_ply(&after(&pos, r.best.unwrap()));
        assert_eq!(info.score, Score::Cp(chosen));
        assert_eq!(Some(&chosen), values.iter().max());
    }
    assert!(wider > 0, "the clock widened no 3-ply pass");
}

#[test]
fn two_threads_choose_and_score_exactly_as_one() {
    for pos in deep_positions().into_iter().take(3) {
        for d in [2, 3] {
            let one = go(&pos, &depth(d));
            let two = go(
                &pos,
                &Limits {
                    threads: 2,
                    ..depth(d)
                },
            );
            assert_eq!(two.best, one.best);
            assert_eq!(two.nodes, one.nodes);
            let (one, two) = (one.info.unwrap(), two.info.unwrap());
            assert_eq!((two.depth, two.score), (one.depth, one.score));
        }
    }
}

#[test]
fn a_value_at_a_depth_is_searched_there_even_with_one_play_to_choose() {
    // White on the bar dances with 55: the pass is the only play.
    let pos = rolled("w=bar:1,13:5,8:4,6:5 b=13:5,5:2,4:2,3:2,2:2,1:2 w -", 55);
    let mut plays = Vec::new();
    pos.legal_moves(&mut plays);
    assert_eq!(plays.len(), 1);
    let only = after(&pos, plays[0]);
    // A choice needs no deeper pass: the search stops at 1 ply.
    assert_eq!(go(&pos, &depth(2)).info.unwrap().depth, 1);
    for (d, naive) in [(2, naive_two_ply(&only)), (3, naive_three_ply(&only))] {
        let limits = Limits {
            value_depth: true,
            ..depth(d)
        };
        let info = go(&pos, &limits).info.unwrap();
        assert_eq!(
            (info.depth, info.score),
            (d, Score::Cp(-naive)),
            "depth {d}"
        );
    }
}

/// The plays that go on to the 2-ply pass are those within [`lookahead::MARGIN`] of the best
/// 1-ply play in equity normalized to the stake, at most [`lookahead::CANDIDATES`]: in money
/// play with the cube at 1 and at 4, and in a match, where a point of `2 MWC - 1` is worth
/// several money points. A margin in raw evaluation units would pass every play of a match
/// position to the slow pass, and too few with a high cube.
#[test]
fn the_2_ply_margin_is_measured_in_equity_normalized_to_the_stake() {
    let board = "w=24:1,13:5,9:1,8:2,6:5,5:1 b=24:2,13:4,11:1,8:3,6:5";
    let settings: [(&str, &[(&str, &str)]); 3] = [
        ("w -", &[("cube", "on")]),
        ("w - cube=4:b", &[("cube", "on")]),
        ("w - match=7 score=2-3", &[("cube", "on"), ("match", "7")]),
    ];
    let mut units = Vec::new();
    // Per setting: rolls whose candidates were compared, and those where a margin of 0.16 in
    // raw evaluation units would have passed other plays (so the check can tell them apart).
    let mut compared = [0; 3];
    let mut raw_differs = [0; 3];
    for (k, (rest, options)) in settings.into_iter().enumerate() {
        let options = Backgammon::parse_options(options).unwrap();
        for roll in [21, 31, 42, 53, 64] {
            let mut pos = Backgammon::from_fen(&format!("{board} {rest}"), &options).unwrap();
            pos.apply_chance(roll);
            let unit = pos.equity_unit();
            let margin = (lookahead::MARGIN * unit).round() as i32;
            let mut plays = Vec::new();
            pos.legal_moves(&mut plays);
            let mut scored: Vec<(i32, String)> = plays
                .iter()
                .map(|&mv| (-value_of(&after(&pos, mv)), pos.format_move(mv)))
                .collect();
            scored.sort_by_key(|&(score, _)| -score);
            let best = scored[0].0;
            let within = |margin: i32| -> Vec<String> {
                let mut plays: Vec<String> = scored
                    .iter()
                    .take_while(|(score, _)| *score >= best - margin)
                    .take(lookahead::CANDIDATES)
                    .map(|(_, play)| play.clone())
                    .collect();
                plays.sort();
                plays
            };
            let expected = within(margin);
            if within(160) != expected {
                raw_differs[k] += 1;
            }
            let mut found = two_ply_candidates(&pos);
            if expected.len() < 2 {
                // One play compares nothing: the pass is not run.
                assert!(found.is_empty(), "{rest} {roll}: {found:?}");
                continue;
            }
            found.sort();
            assert_eq!(found, expected, "{rest} {roll}");
            compared[k] += 1;
        }
        let mut pos = Backgammon::from_fen(&format!("{board} {rest}"), &options).unwrap();
        pos.apply_chance(21);
        units.push(pos.equity_unit());
    }
    // Money: the cube's value in thousandths of a point. 7-point match at 5-away/4-away: a
    // single game's swing in `2 MWC - 1` is a few tenths, far below a money point.
    assert_eq!(units[..2], [1000.0, 4000.0]);
    assert!(compared.iter().all(|&n| n > 0), "{compared:?}");
    assert_eq!(raw_differs[0], 0);
    assert!(raw_differs[1] > 0 && raw_differs[2] > 0, "{raw_differs:?}");
    assert!(units[2] > 100.0 && units[2] < 300.0, "{}", units[2]);
}
