//! Tests of the network's inputs and weights and of duplicate matches.

use super::board::{Side26, BAR, OFF};
use super::features::{encode, escapes, longest_prime, shots, INPUTS, PER_SIDE};
use super::nn::{self, Net};
use super::*;
use crate::arena::backgammon_duplicate::{pair_results, Player};
use crate::game::{Dice, Game};
use crate::util::rng::Rng;

/// One side with `points` as (point, count) and the rest borne off.
fn side(points: &[(usize, u8)]) -> Side26 {
    let mut s = [0u8; 26];
    for &(p, n) in points {
        s[p] = n;
    }
    s[OFF] = 15 - points.iter().map(|&(_, n)| n).sum::<u8>();
    s
}

/// The chance that `them` hits one of `me`'s blots, in rolls of 36.
fn shot_rolls(me: &Side26, them: &Side26) -> f32 {
    shots(me, them).chance * 36.0
}

#[test]
fn hit_chances_are_the_textbook_shot_counts() {
    // A shooter on its 21 point is 6 pips from a blot on our 10 point (its 15 point): every
    // roll with a 6 (11), 51 and 42 (2 each), 33 and 22 (1 each) = 17 of 36.
    let shooter = side(&[(21, 1)]);
    assert_eq!(shot_rolls(&side(&[(10, 1)]), &shooter), 17.0);
    // 12 pips away: only 66, 44 and 33; 11 away: only 65 (2 ways).
    let far = side(&[(24, 1)]);
    assert_eq!(shot_rolls(&side(&[(13, 1)]), &far), 3.0);
    assert_eq!(shot_rolls(&side(&[(12, 1)]), &far), 2.0);
    // Holding the points 1 and 5 pips in front of the shooter stops 51 both ways.
    let blocked = side(&[(10, 1), (5, 2), (9, 2)]);
    assert_eq!(shot_rolls(&blocked, &shooter), 15.0);
    // From the bar only: 3 pips to our 3 point: any 3 (11), 21 (2), 11 (1).
    let on_bar = side(&[(25, 1), (6, 2)]);
    assert_eq!(shot_rolls(&side(&[(3, 1)]), &on_bar), 14.0);
    // A blot behind every opposing checker cannot be hit; a point is not a blot.
    assert_eq!(shot_rolls(&side(&[(10, 1)]), &side(&[(10, 1)])), 0.0);
    assert_eq!(shot_rolls(&side(&[(10, 2)]), &shooter), 0.0);
}

#[test]
fn pip_loss_counts_the_most_advanced_blot_a_roll_hits() {
    // The blot on our 10 point goes back 15 pips to the bar, with 17 rolls of 36.
    let shooter = side(&[(21, 1)]);
    let loss = shots(&side(&[(10, 1)]), &shooter).pip_loss;
    assert!((loss - 17.0 * 15.0 / 36.0).abs() < 1e-5);
    // Add a blot on our 5 point (its 20 point), 1 pip from the shooter: the 11 rolls with a
    // 1 hit it and cost 20 pips; 13 more hit only the other one (the 6s without a 1: 9; 42
    // both ways, 33, 22), costing 15.
    let two = shots(&side(&[(10, 1), (5, 1)]), &shooter);
    assert_eq!(two.chance * 36.0, 24.0);
    assert!((two.pip_loss - (11.0 * 20.0 + 13.0 * 15.0) / 36.0).abs() < 1e-5);
}

/// The shots of `them` at `me` counted roll by roll, the plain way: each of the 36 rolls moves
/// every shooter (the bar alone while `them` has a checker there) by one die, by the two dice
/// in either order through an open landing point, or by up to four steps of a double until a
/// held point stops it; the roll costs the most advanced blot it reaches. (hitting rolls,
/// pips lost summed over them).
fn shots_roll_by_roll(me: &Side26, them: &Side26) -> (u32, u32) {
    let at = |r: i32| {
        if (1..=24).contains(&r) {
            me[(25 - r) as usize]
        } else {
            0
        }
    };
    let shooters: Vec<i32> = if them[BAR] > 0 {
        vec![BAR as i32]
    } else {
        (1..=24).filter(|&q| them[q as usize] > 0).collect()
    };
    let (mut hits, mut loss) = (0, 0);
    for hi in 1..=6 {
        for lo in 1..=6 {
            let mut worst = 0;
            let reach = |r: i32, worst: &mut i32| {
                if at(r) == 1 {
                    *worst = (*worst).max(r);
                }
                r >= 1 && at(r) < 2
            };
            for &q in &shooters {
                if hi == lo {
                    let mut r = q;
                    for _ in 0..4 {
                        r -= hi;
                        if r < 1 || !reach(r, &mut worst) {
                            break;
                        }
                    }
                } else {
                    for (first, second) in [(hi, lo), (lo, hi)] {
                        if q - first >= 1 && reach(q - first, &mut worst) && q - first - second >= 1
                        {
                            reach(q - first - second, &mut worst);
                        }
                    }
                }
            }
            if worst > 0 {
                hits += 1;
                loss += worst as u32;
            }
        }
    }
    (hits, loss)
}

#[test]
fn shots_agree_with_counting_roll_by_roll() {
    let mut rng = Rng::new(43);
    for _ in 0..20_000 {
        // Random sides, checkers on points 1..=24 and now and then the bar; blots are common.
        let mut sides = [[0u8; 26]; 2];
        for side in &mut sides {
            for _ in 0..15 {
                let point = if rng.below(20) == 0 {
                    BAR
                } else {
                    1 + rng.below(24) as usize
                };
                side[point] += 1;
            }
        }
        let [me, them] = sides;
        let got = shots(&me, &them);
        let (hits, loss) = shots_roll_by_roll(&me, &them);
        assert_eq!((got.chance * 36.0).round() as u32, hits, "{me:?} {them:?}");
        assert_eq!(
            (got.pip_loss * 36.0).round() as u32,
            loss,
            "{me:?} {them:?}"
        );
    }
}

#[test]
fn escapes_counted_by_hand() {
    let open = side(&[(1, 2)]);
    assert_eq!(escapes(&open, 20), 36);
    // One held point right in front: only 11 fails.
    let one = side(&[(25 - 19, 2)]);
    assert_eq!(escapes(&one, 20), 35);
    // A full prime in front (our points 19 down to 14 are its 6..11): nothing gets past.
    let prime = side(&[(6, 2), (7, 2), (8, 2), (9, 2), (10, 2), (11, 2)]);
    assert_eq!(escapes(&prime, 20), 0);
    // Held 1..5 and 7 pips ahead, 6 open: 62, 63, 64, 65 both ways and 66 jump the block.
    let gap = side(&[(6, 2), (7, 2), (8, 2), (9, 2), (10, 2), (12, 2)]);
    assert_eq!(escapes(&gap, 20), 9);
    // Points more than 12 pips ahead do not count, points past the end neither.
    let far = side(&[(25 - 7, 2)]);
    assert_eq!(escapes(&far, 20), 36);
    assert_eq!(escapes(&one, 1), 36);
}

#[test]
fn primes_and_start_inputs() {
    assert_eq!(longest_prime(&board::START), 1);
    let prime = side(&[(4, 2), (5, 2), (6, 3), (7, 2), (8, 2), (9, 2), (11, 2)]);
    assert_eq!(longest_prime(&prime), 6);
    let start = Backgammon::start(&Options::default());
    let mut x = Vec::new();
    encode(&start, &mut x);
    // Per side 13 board units (24:2 -> 2, 13:5 -> 4, 8:3 -> 3, 6:5 -> 4) and 5 expert units:
    // pips 167, longest prime 1, the back checkers trapped (from 24 the opponent holds the
    // points 5, 7 and 12 pips ahead: no roll passes the 12), the containment (the freest
    // opposing checker, on its 15 point, faces our 13 point 3 ahead: 11, 21, 12, 33 fail),
    // the 24 point anchor; no blots, nobody on the bar. Then the contact flag.
    assert_eq!(x.len(), 2 * 18 + 1);
    assert!(x.iter().all(|&(i, _)| i < INPUTS));
    let value = |i: usize| x.iter().find(|&&(j, _)| j == i).map(|&(_, v)| v);
    for base in [196, 196 + PER_SIDE] {
        assert_eq!(value(base), Some(1.67));
        assert_eq!(value(base + 3), Some(1.0 / 6.0));
        assert_eq!(value(base + 4), Some(1.0));
        assert_eq!(value(base + 5), Some(1.0 - 32.0 / 36.0));
        assert_eq!(value(base + 6), Some(1.0));
    }
    assert_eq!(value(INPUTS - 1), Some(1.0));
}

/// A random roll and a random play of it.
fn random_turn(pos: &mut Backgammon, rng: &mut Rng, moves: &mut Vec<Move>) {
    let mut rolls = Vec::new();
    pos.chance_events(&mut rolls);
    pos.apply_chance(rolls[rng.below(rolls.len() as u64) as usize].event);
    moves.clear();
    pos.legal_moves(moves);
    pos.play(moves[rng.below(moves.len() as u64) as usize]);
}

#[test]
fn inputs_and_values_do_not_depend_on_colour() {
    let net = nn::shipped();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut rng = crate::util::rng::Rng::new(11);
    let mut pos = Backgammon::start(&Options::default());
    let mut moves = Vec::new();
    for _ in 0..200 {
        if pos.outcome().is_some() {
            pos = Backgammon::start(&Options::default());
        }
        encode(&pos, &mut a);
        encode(&pos.mirrored(), &mut b);
        assert_eq!(a, b);
        assert_eq!(
            net.equity(&pos, &mut a),
            net.equity(&pos.mirrored(), &mut b)
        );
        random_turn(&mut pos, &mut rng, &mut moves);
    }
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
    // What a diverged training run writes is no network.
    let weight = text.lines().nth(1).expect("a weight line");
    for bad in ["NaN", "inf", "-inf"] {
        assert!(
            Net::from_text(&text.replacen(weight, bad, 1)).is_none(),
            "{bad}"
        );
    }
}

#[test]
fn widening_keeps_the_values_and_the_old_units() {
    let net = nn::shipped();
    let wide = net.widened(256, &mut Rng::new(4));
    assert_eq!(wide.hidden(), 256);
    // Asking for fewer units than it has changes nothing.
    assert_eq!(&net.widened(8, &mut Rng::new(4)), net);
    let mut rng = Rng::new(12);
    let mut pos = Backgammon::start(&Options::default());
    let (mut moves, mut scratch) = (Vec::new(), Vec::new());
    let mut worst = 0f32;
    for _ in 0..300 {
        if pos.outcome().is_some() {
            pos = Backgammon::start(&Options::default());
        }
        let (a, b) = (
            net.outputs(&pos, &mut scratch),
            wide.outputs(&pos, &mut scratch),
        );
        for (x, y) in a.iter().zip(b) {
            worst = worst.max((x - y).abs());
        }
        random_turn(&mut pos, &mut rng, &mut moves);
    }
    // 128 new units of activation at most 1 and output weights below 0.001 move a sum by
    // at most 0.128 and a sigmoid output by at most a quarter of that; typically far less.
    assert!(worst < 0.032, "{worst}");
    assert!(worst > 0.0, "the new units must count for something");
}

#[test]
fn duplicate_pairs_do_not_depend_on_threads() {
    let (a, b) = (Player::OnePly(EvalKind::Neural), Player::Pubeval);
    assert_eq!(
        pair_results(a, b, 0..6, 3, 1),
        pair_results(a, b, 0..6, 3, 2)
    );
}
