//! Tests of the network's inputs and training, the 2-ply search and duplicate matches.

use super::board::{Side26, OFF};
use super::features::{encode, hit_chance, longest_prime, INPUTS};
use super::matchplay::{duplicate_match, pair_results, Player};
use super::nn::{self, Net, TrainConfig};
use super::*;
use crate::game::Game;
use crate::search::{Limits, Score};
use std::sync::atomic::AtomicBool;

/// One side with `points` as (point, count) and the rest borne off.
fn side(points: &[(usize, u8)]) -> Side26 {
    let mut s = [0u8; 26];
    for &(p, n) in points {
        s[p] = n;
    }
    s[OFF] = 15 - points.iter().map(|&(_, n)| n).sum::<u8>();
    s
}

#[test]
fn hit_chances_are_the_textbook_shot_counts() {
    // A shooter on its 21 point is 6 pips from a blot on our 10 point (its 15 point): every
    // roll with a 6 (11), 51 and 42 (2 each), 33 and 22 (1 each) = 17 of 36.
    let shooter = side(&[(21, 1)]);
    assert_eq!(hit_chance(&side(&[(10, 1)]), &shooter) * 36.0, 17.0);
    // 12 pips away: only 66, 44 and 33; 11 away: only 65 (2 ways).
    let far = side(&[(24, 1)]);
    assert_eq!(hit_chance(&side(&[(13, 1)]), &far) * 36.0, 3.0);
    assert_eq!(hit_chance(&side(&[(12, 1)]), &far) * 36.0, 2.0);
    // Holding the points 1 and 5 pips in front of the shooter stops 51 both ways.
    let blocked = side(&[(10, 1), (5, 2), (9, 2)]);
    assert_eq!(hit_chance(&blocked, &shooter) * 36.0, 15.0);
    // From the bar only: 3 pips to our 3 point: any 3 (11), 21 (2), 11 (1).
    let on_bar = side(&[(25, 1), (6, 2)]);
    assert_eq!(hit_chance(&side(&[(3, 1)]), &on_bar) * 36.0, 14.0);
    // A blot behind every opposing checker cannot be hit; a point is not a blot.
    assert_eq!(hit_chance(&side(&[(10, 1)]), &side(&[(10, 1)])), 0.0);
    assert_eq!(hit_chance(&side(&[(10, 2)]), &shooter), 0.0);
}

#[test]
fn primes_and_start_inputs() {
    assert_eq!(longest_prime(&board::START), 1);
    let prime = side(&[(4, 2), (5, 2), (6, 3), (7, 2), (8, 2), (9, 2), (11, 2)]);
    assert_eq!(longest_prime(&prime), 6);
    let start = Backgammon::start(&Options::default());
    let mut x = Vec::new();
    encode(&start, &mut x);
    // Per side 13 board units (24:2 -> 2, 13:5 -> 4, 8:3 -> 3, 6:5 -> 4) and its pips; then
    // the side to move and the contact flag.
    assert_eq!(x.len(), 2 * 14 + 2);
    assert!(x.iter().all(|&(i, _)| i < INPUTS));
    let value = |i: usize| x.iter().find(|&&(j, _)| j == i).map(|&(_, v)| v);
    assert_eq!(value(198), Some(1.67));
    assert_eq!(value(201), Some(1.67));
    assert_eq!(value(196), Some(1.0));
    assert_eq!(value(204), Some(1.0));
}

#[test]
fn network_text_round_trip_and_bad_files() {
    let mut rng = crate::util::rng::Rng::new(3);
    let net = Net::new(5, &mut rng);
    let text = net.to_text();
    let back = Net::from_text(&text).unwrap();
    let start = Backgammon::start(&Options::default());
    let mut scratch = Vec::new();
    assert!((back.equity(&start, &mut scratch) - net.equity(&start, &mut scratch)).abs() < 1e-3);
    let short: String = text.lines().take(10).map(|l| format!("{l}\n")).collect();
    assert!(Net::from_text(&short).is_none());
    assert!(Net::from_text(&text.replace("hidden 5", "hidden 0")).is_none());
    assert!(Net::from_text(&text.replacen("0.", "x", 1)).is_none());
}

#[test]
fn td0_training_is_reproducible_and_learns() {
    let config = TrainConfig {
        games: 30,
        hidden: 8,
        alpha: 0.1,
        lambda: 0.0,
        seed: 4,
    };
    assert_eq!(nn::train(config, |_, _| {}), nn::train(config, |_, _| {}));
    let trained = nn::train(
        TrainConfig {
            games: 600,
            ..config
        },
        |_, _| {},
    );
    let untrained = nn::train(TrainConfig { games: 0, ..config }, |_, _| {});
    let (a, b): (&'static Net, &'static Net) =
        (Box::leak(Box::new(trained)), Box::leak(Box::new(untrained)));
    let result = duplicate_match(Player::Net(a), Player::Net(b), 40, 1);
    assert!(result.ppg > 0.3, "{result:?}");
}

#[test]
fn duplicate_pairs_do_not_depend_on_threads() {
    let (a, b) = (Player::OnePly(EvalKind::Neural), Player::Pubeval);
    assert_eq!(
        pair_results(a, b, 0..6, 3, 1),
        pair_results(a, b, 0..6, 3, 2)
    );
}

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

fn go(pos: &Backgammon, limits: &Limits) -> crate::search::SearchResult<Move> {
    lookahead::search(pos, limits, &AtomicBool::new(false), &mut |_| {}).unwrap()
}

#[test]
fn two_ply_search_scores_its_choice_exactly_and_beats_one_ply() {
    let positions = [
        rolled("w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w - opening", 42),
        rolled(
            "w=24:1,13:5,9:1,8:2,6:5,5:1 b=24:2,13:4,11:1,8:3,6:5 w -",
            63,
        ),
        rolled(
            "w=bar:1,13:4,8:3,6:4,4:2,3:1 b=20:2,13:4,8:3,6:4,5:2 w -",
            51,
        ),
    ];
    for pos in positions {
        let mut plays = Vec::new();
        pos.legal_moves(&mut plays);
        let one = go(
            &pos,
            &Limits {
                depth: Some(1),
                ..Limits::default()
            },
        );
        let info = one.info.unwrap();
        assert_eq!(info.depth, 1);
        let best_one = plays.iter().map(|&m| -value_of(&after(&pos, m))).max();
        let chosen_one = -value_of(&after(&pos, one.best.unwrap()));
        assert_eq!(Some(chosen_one), best_one);
        assert_eq!(info.score, Score::Cp(chosen_one));

        let two = go(&pos, &Limits::default());
        let info = two.info.unwrap();
        assert_eq!(info.depth, 2);
        let chosen = -naive_two_ply(&after(&pos, two.best.unwrap()));
        assert_eq!(info.score, Score::Cp(chosen));
        assert!(chosen >= -naive_two_ply(&after(&pos, one.best.unwrap())));
    }
}

#[test]
fn search_limits_and_positions_it_leaves_to_the_generic_search() {
    let pos = rolled("w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w - opening", 31);
    let stop = AtomicBool::new(false);
    let deep = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    assert!(lookahead::search(&pos, &deep, &stop, &mut |_| {}).is_none());
    let unrolled = Backgammon::start(&Options::default());
    assert!(lookahead::search(&unrolled, &Limits::default(), &stop, &mut |_| {}).is_none());
    // Out of nodes in the 2-ply pass: the 1-ply choice stands.
    let few = Limits {
        nodes: Some(30),
        ..Limits::default()
    };
    let cut = go(&pos, &few);
    assert_eq!(cut.info.unwrap().depth, 1);
    let one = go(
        &pos,
        &Limits {
            depth: Some(1),
            ..Limits::default()
        },
    );
    assert_eq!(cut.best, one.best);
    // Stopped before it starts the 2-ply pass: the same.
    let stopped = AtomicBool::new(true);
    let r = lookahead::search(&pos, &Limits::default(), &stopped, &mut |_| {}).unwrap();
    assert_eq!(r.best, one.best);
    // The engine's default level finishes the 2-ply pass within its movetime.
    let r = go(&pos, &matchplay::default_limits());
    let unlimited = go(&pos, &Limits::default());
    assert_eq!(r.best, unlimited.best);
    assert_eq!(r.info.unwrap().depth, unlimited.info.unwrap().depth);
}
