//! Tests of the cube rules (beavers, Jacoby, Crawford), the match equity model and the
//! engine's own cube decisions on positions whose right decision is known.

use super::*;
use crate::search::{Limits, Table};
use crate::strategy::backgammon::{decide_answer, decide_before_chance, Lookahead};
use crate::strategy::Chosen;
use std::sync::atomic::AtomicBool;

fn options(pairs: &[(&str, &str)]) -> Options {
    Backgammon::parse_options(pairs).unwrap()
}

fn at(fen: &str, pairs: &[(&str, &str)]) -> Backgammon {
    Backgammon::from_fen(fen, &options(pairs)).expect(fen)
}

fn played(mut p: Backgammon, tokens: &[&str]) -> Backgammon {
    for t in tokens {
        let mv = p.parse_move(t).expect(t);
        p.play(mv);
    }
    p
}

fn limits(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

/// The engine's choice before the roll at a fixed depth: `double` or `roll`.
fn before_roll(p: &Backgammon, depth: u32) -> String {
    let table = Table::new(16);
    let stop = AtomicBool::new(false);
    let searcher = Lookahead;
    match decide_before_chance(p, &searcher, &limits(depth), &table, &stop, &mut |_| {}).choice {
        Chosen::Roll => "roll".into(),
        Chosen::Move(mv) => p.format_move(mv),
    }
}

/// The engine's answer to a double (`take`, `drop` or `beaver`) at a fixed depth.
fn answer(p: &Backgammon, depth: u32) -> String {
    let doubled = played(p.clone(), &["double"]);
    let table = Table::new(16);
    let stop = AtomicBool::new(false);
    let found = decide_answer(
        &doubled,
        &Lookahead,
        &limits(depth),
        &table,
        &stop,
        &mut |_| {},
    );
    doubled.format_move(found.best.unwrap())
}

const CUBE: &[(&str, &str)] = &[("cube", "on")];

#[test]
fn no_double_early_in_the_game() {
    let p = played(Backgammon::start(&options(CUBE)), &["31:8/5,6/5"]);
    assert!(p.may_double());
    assert_eq!(before_roll(&p, 1), "roll");
    assert_eq!(answer(&p, 1), "take");
}

/// The cube decisions take their chances from the cube network and checker play from the
/// shipped one: where the networks apply (contact) the values differ, in an all-home race both
/// are the bear-off database's; and the two never share a table entry.
#[test]
fn cube_decisions_value_positions_with_the_cube_network() {
    let contact = played(Backgammon::start(&options(CUBE)), &["31:8/5,6/5"]);
    let decider = contact.for_cube_decision();
    assert!(decider.uses_cube_net() && !contact.uses_cube_net());
    assert_ne!(decider.hash(), contact.hash());
    // Two networks can round to the same thousandth in one position, not in most.
    let others = [
        "w=10:1,8:2,6:3,5:3,4:2,3:2,1:2 b=bar:1,23:5,13:3,6:4,4:2 b -",
        "w=17:1,15:1,13:3,8:2,6:4,2:2,1:2 b=bar:1,21:2,20:1,13:2,7:3,6:5,3:1 w -",
    ];
    let positions = others
        .iter()
        .map(|fen| at(fen, CUBE))
        .chain([contact.clone()]);
    let differ = positions
        .filter(|p| p.for_cube_decision().evaluate() != p.evaluate())
        .count();
    assert!(
        differ >= 2,
        "the networks agree in {} of 3 positions",
        3 - differ
    );
    // The flag goes with every position searched from it.
    let child = played(decider.clone(), &["43:24/21,13/9"]);
    assert!(child.uses_cube_net());
    let home = at("w=6:4,5:4,4:4,3:3 b=6:4,5:4,4:4,3:3 w -", CUBE);
    assert_eq!(home.for_cube_decision().evaluate(), home.evaluate());
}

/// Races judged by the pip count alone: a lead of about 8% at 100 pips is a double and a
/// take, above about 12% a drop (the usual race rules of thumb, e.g. Keith's count).
#[test]
fn race_doubles_take_and_drop() {
    // 98 against 108 pips, on roll: double, take.
    let close = at("w=9:3,8:3,6:4,5:3,4:2 b=13:2,8:4,6:5,5:4 w -", CUBE);
    assert_eq!(close.pip_counts(), (98, 108));
    assert_eq!(before_roll(&close, 1), "double");
    assert_eq!(answer(&close, 2), "take");
    // 88 against 108: double, drop.
    let far = at("w=8:4,6:4,5:4,4:3 b=13:2,8:4,6:5,5:4 w -", CUBE);
    assert_eq!(far.pip_counts(), (88, 108));
    assert_eq!(before_roll(&far, 1), "double");
    assert_eq!(answer(&far, 1), "drop");
    // A short bear-off, 59 against 78 pips: double, drop.
    let short = at("w=6:2,5:3,4:4,3:4,2:2 b=8:2,6:4,5:4,4:3,3:2 w -", CUBE);
    assert_eq!(short.pip_counts(), (59, 78));
    assert_eq!(before_roll(&short, 1), "double");
    assert_eq!(answer(&short, 1), "drop");
}

/// All home against a side still at the start: winning is sure, a gammon likely, so
/// doubling (which the opponent drops) would give the gammon away: too good, play on.
#[test]
fn too_good_to_double_plays_for_the_gammon() {
    let p = at("w=6:3,5:3,4:3,3:3,2:3 b=24:2,13:5,8:3,6:5 w -", CUBE);
    assert_eq!(before_roll(&p, 1), "roll");
    assert_eq!(answer(&p, 1), "drop");
}

#[test]
fn never_double_when_it_is_illegal() {
    let far = "w=8:4,6:4,5:4,4:3 b=13:2,8:4,6:5,5:4 w -";
    let pre = |p: &Backgammon| {
        let mut out = Vec::new();
        p.pre_chance_moves(&mut out);
        out.len()
    };
    assert_eq!(pre(&at(far, CUBE)), 1);
    for (fen, pairs) in [
        (far, &[][..]),                                           // no cube in play
        (&format!("{far} cube=2:b")[..], CUBE),                   // black owns it
        (&far.replace(" -", " 31")[..], CUBE),                    // already rolled
        (&format!("{far} cube=64:w")[..], CUBE),                  // at 64
        (&format!("{far} match=5 score=4-1 crawford")[..], CUBE), // Crawford game
    ] {
        let p = Backgammon::from_fen(fen, &options(pairs)).unwrap();
        assert_eq!(pre(&p), 0, "{fen}");
        let mut all = Vec::new();
        p.legal_moves(&mut all);
        assert!(all.iter().all(|m| m.cube == CubeAction::None), "{fen}");
    }
    let opening = Backgammon::start(&options(CUBE));
    assert_eq!(pre(&opening), 0);
}

#[test]
fn beaver_takes_and_redoubles_keeping_the_cube() {
    let money = options(&[("cube", "on"), ("beaver", "on")]);
    let p = played(Backgammon::start(&money), &["31:8/5,6/5", "double"]);
    let mut answers: Vec<String> = {
        let mut out = Vec::new();
        p.legal_moves(&mut out);
        out.iter().map(|&m| p.format_move(m)).collect()
    };
    answers.sort();
    assert_eq!(answers, ["beaver", "drop", "take"]);
    let b = played(p, &["beaver"]);
    // Black doubled, white beavered: a 4-cube white keeps, black rolls.
    assert_eq!(b.side_to_move(), Side::Black);
    assert_eq!((b.cube().value(), b.cube().owner), (4, Some(Side::White)));
    assert!(b.to_fen().ends_with("b - cube=4:w"));
    assert!(b.parse_move("double").is_err());
    // Without the option, in a match, or past 64: no beaver.
    let plain = played(Backgammon::start(&options(CUBE)), &["31:8/5,6/5", "double"]);
    let refusal = plain.parse_move("beaver").unwrap_err().to_string();
    assert!(refusal.contains("beaver=on"), "{refusal}");
    let high = Backgammon::from_fen(
        "w=8:4,6:4,5:4,4:3 b=13:2,8:4,6:5,5:4 b - cube=32:w offered",
        &money,
    )
    .unwrap();
    assert!(high.parse_move("beaver").is_err());
    assert!(
        Backgammon::parse_options(&[("cube", "on"), ("beaver", "on"), ("match", "5")]).is_err()
    );
    assert!(Backgammon::parse_options(&[("beaver", "on")]).is_err());
}

#[test]
fn jacoby_gammons_count_single_until_the_cube_turns() {
    let jacoby = &[("cube", "on"), ("jacoby", "on")][..];
    let finish = |fen: &str, pairs| {
        let p = played(at(fen, pairs), &["21:1/off"]);
        p.outcome().unwrap()
    };
    let centred = finish("w=1:1 b=6:15 w 21", jacoby);
    assert_eq!((centred.reason, centred.points), ("gammon", 1));
    let turned = finish("w=1:1 b=6:15 w 21 cube=2:w", jacoby);
    assert_eq!((turned.reason, turned.points), ("gammon", 4));
    let without = finish("w=1:1 b=6:15 w 21", CUBE);
    assert_eq!((without.reason, without.points), ("gammon", 2));
}

#[test]
fn crawford_game_has_no_doubling_and_post_crawford_has() {
    let m = &[("cube", "on"), ("match", "5")][..];
    let fen = "w=8:4,6:4,5:4,4:3 b=13:2,8:4,6:5,5:4 b -";
    let crawford = at(&format!("{fen} match=5 score=4-1 crawford"), m);
    assert_eq!(
        crawford.parse_move("double").unwrap_err().to_string(),
        "illegal move double: no doubling in the Crawford game"
    );
    let post = at(&format!("{fen} match=5 score=4-1"), m);
    assert!(post.may_double());
    // The trailer doubles at once after the Crawford game: it has nothing to lose.
    let even = "w=13:2,8:4,6:5,5:4 b=13:2,8:4,6:5,5:4 b -";
    assert_eq!(
        before_roll(&at(&format!("{even} match=5 score=4-2"), m), 1),
        "double"
    );
    // At double match point the cube is dead: no reason to double.
    let dmp = at(
        "w=13:2,8:4,6:5,5:4 b=13:2,8:4,6:5,5:4 w - match=5 score=4-4",
        m,
    );
    assert_eq!(before_roll(&dmp, 1), "roll");
    for bad in [
        "match=5 score=3-1 crawford", // nobody is 1-away
        "match=5 score=4-4 crawford", // both are
        "match=5 score=5-1",          // the match is over
        "score=4-1",
        "match=5",
        "match=65 score=0-0",
    ] {
        assert!(
            Backgammon::from_fen(&format!("{fen} {bad}"), &options(m)).is_err(),
            "{bad}"
        );
    }
}

/// The margin a double must beat rolling by: a trailer's double after the Crawford game
/// needs only tie (-1); a double that is dropped needs only beat rolling; one that is taken
/// must beat it by `DOUBLE_MARGIN` of a normalized cube: for money 0.06 of the cube, in a
/// match 0.06 of half the gap between winning and losing the cube in `2 MWC - 1`.
#[test]
fn the_margin_a_double_must_beat_rolling_by() {
    let m = &[("cube", "on"), ("match", "5")][..];
    let even = "w=13:2,8:4,6:5,5:4 b=13:2,8:4,6:5,5:4";
    let double = Move::cube_action(CubeAction::Double);
    let take = Some(Move::cube_action(CubeAction::Take));
    let drop = Some(Move::cube_action(CubeAction::Drop));
    let margin = |fen: &str, pairs, answer| at(fen, pairs).pre_chance_margin(double, answer);
    for answer in [take, drop] {
        assert_eq!(
            margin(&format!("{even} b - match=5 score=4-2"), m, answer),
            -1
        );
        assert_eq!(
            margin(&format!("{even} w - match=5 score=2-4"), m, answer),
            -1
        );
    }
    // A free double with the cube owned: black took at 2 and white, 2-away, wins the match
    // with any win at 2; not free when white is 3-away.
    let owned = |score: &str| format!("{even} b - cube=2:b match=5 score={score}");
    assert_eq!(margin(&owned("3-0"), m, take), -1);
    assert!(margin(&owned("2-0"), m, take) > 0);
    for score in ["4-2", "4-4", "1-2"] {
        let fen = format!("{even} w - match=5 score={score}");
        assert_eq!(margin(&fen, m, drop), 0, "{score}");
    }
    // Double match point: winning the cube wins the match (+1), losing it loses (-1).
    assert_eq!(
        margin(&format!("{even} w - match=5 score=4-4"), m, take),
        60
    );
    // 4-away against 3-away: winning 1 point reaches 3-away all (0.5, so 0 in 2 MWC - 1),
    // losing it 4-away against 2-away (Kazaross-XG2: 0.33130, so -0.3374, -337 in
    // evaluation units): 0.06 * 337 / 2 = 10.1, rounded 10.
    assert_eq!(
        margin(&format!("{even} w - match=5 score=1-2"), m, take),
        10
    );
    assert_eq!(margin(&format!("{even} w -"), CUBE, take), 60);
    assert_eq!(margin(&format!("{even} w - cube=4:w"), CUBE, take), 240);
    assert_eq!(margin(&format!("{even} w - cube=4:w"), CUBE, drop), 0);
}

/// A free double: black owns the cube at 2 after taking white's double at 2-away (score
/// 3-0 of 5), so white's wins are the match whatever the cube and black's redouble to 4 costs
/// it nothing. Black, on roll with its last two checkers on its 4 and 3 points, bears both
/// off with 17 of the 36 rolls (both dice 3 or more and one 4 or more: 12; the doubles 22 to
/// 66: 5), and white then wins with its one checker on the 1 point. Black redoubles: white
/// takes (its wins are the match, +1; dropping loses 2 points, 3-away/2-away, Kazaross-XG2
/// 0.40053 for black, -0.19894 in 2 MWC - 1), and black's win at 4 reaches 1-away/2-away in
/// the Crawford game (0.67736: +0.35472). Black's value: 17/36 * 0.35472 - 19/36 = -0.3603,
/// where not doubling would be worth 17/36 * -0.19894 - 19/36 = -0.6217.
#[test]
fn a_free_redouble_is_taken_at_once() {
    let m = &[("cube", "on"), ("match", "5")][..];
    let black = at("w=1:1 b=4:1,3:1 b - cube=2:b match=5 score=3-0", m);
    let want = (17.0 * 0.35472 - 19.0) / 36.0 * 1000.0;
    assert!(
        (f64::from(black.evaluate()) - want).abs() <= 1.0,
        "{} {want}",
        black.evaluate()
    );
    // Rolling first would leave black's win at 2 points (-0.6217): black doubles.
    assert_eq!(before_roll(&black, 1), "double");
}

/// The leader's double at 2-away that hands the trailer a free redouble: tabula doubled this
/// position (5-point match, 3-0, white 2-away on roll, 70% to win and 28% gammons) in a match
/// against gnubg 0-ply, and gnubg 2-ply judged it no double, take: the double/take +0.174
/// EMG against +0.689 for no double, as the trailer redoubles to 4 at once (the take at 4
/// then loses the match on any gammon and leaves 1-away/2-away Crawford on a single loss).
/// Before `cubeful::free_double` the engine valued double/take +0.862 and no double +0.844.
#[test]
fn no_double_that_gives_a_free_redouble() {
    let m = &[("cube", "on"), ("match", "5")][..];
    let p = ids::from_gnubg_id("TM/CADSw28gBSA:cAmgAAAAGAAE", &options(m)).unwrap();
    assert_eq!(p.score.away(p.side_to_move()), 2);
    assert_eq!(p.score.away(p.side_to_move().opponent()), 5);
    assert_eq!(before_roll(&p, 1), "roll");
    assert_eq!(before_roll(&p, 2), "roll");
}

/// A race take (98 against 109 pips; gnubg 2-ply: double/take for money, double/pass at this
/// score) is a take for money and a drop 3-away against a doubler 2-away:
/// dropping leaves the Crawford game at 3-away/1-away (24.9% by the Kazaross-XG2 table);
/// taking loses the match on any loss, and a win only reaches 1-away/2-away post-Crawford
/// (51.2%) or, by redoubling, the match: even with a fully live cube the take needs about 30%.
#[test]
fn match_score_changes_the_take() {
    let fen = "w=9:3,8:3,6:4,5:3,4:2 b=13:2,8:4,7:1,6:4,5:4 w -";
    let money = at(fen, CUBE);
    assert_eq!(answer(&money, 2), "take");
    let m = &[("cube", "on"), ("match", "7")][..];
    let trailing = at(&format!("{fen} match=7 score=5-4"), m);
    assert!((met::table().mwc(3, 1, true) - (1.0 - 0.75076)).abs() < 1e-9);
    assert_eq!(answer(&trailing, 2), "drop");
}

/// Cube efficiency: 0.68 while the sides can hit each other; in a race 0.55 plus 0.00125 a pip
/// of the side to move, within 0.6 and 0.7 (80 pips: 0.55 + 0.1 = 0.65; 69 pips: 0.63625);
/// 0.6 once both sides are all home.
#[test]
fn cube_efficiency_follows_the_race_length() {
    let start = Backgammon::start(&options(CUBE));
    assert_eq!(cubeful::efficiency(&start), 0.68);
    let race = |fen: &str, pips: u32| {
        let p = at(fen, CUBE);
        assert_eq!(p.pip_counts().0, pips, "{fen}");
        cubeful::efficiency(&p)
    };
    // 69 pips on roll (4 x 6 + 4 x 5 + 4 x 4 + 3 x 3) in a race.
    let x = race("w=6:4,5:4,4:4,3:3 b=13:2,8:4,6:5,5:4 w -", 69);
    assert!((x - 0.63625).abs() < 1e-12, "{x}");
    // Short: 14 pips, the floor.
    assert_eq!(race("w=2:4,1:6 b=13:2,8:4,6:5,5:4 w -", 14), 0.6);
    // Long: 130 pips (10 x 13), the ceiling.
    assert_eq!(race("w=13:10 b=8:4,6:5,5:4 w -", 130), 0.7);
    // Both sides all home: 0.6 whatever the pips (the race rule would give 0.63625 at 69).
    assert_eq!(race("w=6:4,5:4,4:4,3:3 b=6:4,5:4,4:4,3:3 w -", 69), 0.6);
}

#[test]
fn match_results_and_values() {
    let m = &[("cube", "on"), ("match", "7")][..];
    // White, 1 point from the match, wins: the value is the whole match.
    let p = played(at("w=1:1 b=6:1 w 21 match=7 score=6-3", m), &["21:1/off"]);
    let outcome = p.outcome().unwrap();
    assert_eq!(
        p.terminal_value(&outcome),
        Some(-1000),
        "black to move has lost"
    );
    let start = Backgammon::start(&options(m));
    assert_eq!(
        start.to_fen(),
        format!(
            "{} match=7 score=0-0",
            Backgammon::start(&Options::default()).to_fen()
        )
    );
    assert!(
        start.evaluate().abs() < 100,
        "an even start is worth about 0"
    );
}

/// Properties every match equity table must have, checked on the engine's (the published
/// Kazaross-XG2 table up to 25 away, the model beyond).
#[test]
fn match_equity_table_is_consistent() {
    let t = met::table();
    let g = met::GAMMON_RATE;
    for a in 1..=25 {
        for b in 1..=25 {
            let m = t.mwc(a, b, false);
            assert!((m + t.mwc(b, a, false) - 1.0).abs() < 1e-9, "{a} {b}");
            if a > 1 {
                // Post-Crawford, 2n and 2n-1 away are worth the same to the trailer.
                let closer = t.mwc(a - 1, b, a - 1 == 1 && b > 1);
                assert!(m <= closer + 1e-12, "closer is better {a} {b}");
                if b > 1 {
                    assert!(m < closer, "closer is better {a} {b}");
                }
            }
        }
    }
    assert_eq!(t.mwc(1, 1, false), 0.5);
    assert_eq!(t.mwc(2, 2, false), 0.5);
    // The published values, read as GNU Backgammon's met/Kazaross-XG2.xml gives them: the
    // leader 1-away against 2-away in the Crawford game (first row), the trailer 2-away
    // against 1-away post-Crawford (the post-Crawford row; below 50% as the leader's free
    // drop in a game the trailer doubles at once is worth something), and 25-away each.
    assert_eq!(t.mwc(1, 2, true), 0.67736);
    assert!((t.mwc(2, 1, false) - 0.48803).abs() < 1e-12);
    assert!((t.mwc(1, 2, false) - (1.0 - 0.48803)).abs() < 1e-12);
    assert_eq!(t.mwc(25, 25, false), 0.5);
    assert_eq!(t.mwc(24, 25, false), 0.53086);
    // Beyond the table the model continues from it: still a chance between the neighbours.
    let beyond = t.mwc(26, 25, false);
    assert!(
        beyond < t.mwc(25, 25, false) && beyond > t.mwc(27, 25, false),
        "{beyond}"
    );
    // Crawford game, 1-away/2-away, by the model on the table's values (the leader wins the
    // match by winning, loses a single into double match point, a gammon outright):
    let crawford = 0.5 + 0.5 * ((1.0 - g) * t.mwc(1, 1, false) + g * 0.0);
    assert!((t.mwc(1, 2, true) - crawford).abs() < 0.02);
    // At long even scores the match take point tends to the money take point with a live
    // cube, (2L - 1) / (4L + 1) with L = 1 + gammon rate (Janowski's formula).
    let l = 1.0 + g;
    assert!((t.take_point(40, 40, 0) - (2.0 * l - 1.0) / (4.0 * l + 1.0)).abs() < 0.01);
    // 2-away/2-away: the double is for the match, the take needs the chance that the
    // Crawford game's loss leaves (1 - 0.6875).
    assert!((t.take_point(2, 2, 0) - (1.0 - t.mwc(1, 2, true))).abs() < 1e-6);
}

/// Past a cash point a side plays on and cashes if its chance falls back, so the live value
/// runs on from the cash to the game's end (Janowski's line, GNU Backgammon's `MoneyLive`),
/// not the cash or the dead game, whichever is more: worked by hand for money, centred cube,
/// wins worth 1.3 and losses 1.05 on average (take point 0.55 / 2.85, cash point 2.05 / 2.85).
#[test]
fn too_good_plays_on_along_the_line_to_the_game_end() {
    use super::met::Live;
    let (w, l) = (1.3, 1.05);
    let (tp, cp) = ((l - 0.5) / (w + l + 0.5), (l + 1.0) / (w + l + 0.5));
    let live = Live {
        lose: -l,
        win: w,
        opp_cash: Some((tp, -1.0)),
        my_cash: Some((cp, 1.0)),
    };
    let dead = |p: f64| p * w - (1.0 - p) * l;
    // 1 + 0.3 (0.85 - 0.719298) / 0.280702; before: the cash, 1 (the dead game 0.9475).
    assert!((live.at(0.85, dead(0.85)) - 1.139688).abs() < 1e-6);
    // The opponent too good: -1.05 + 0.05 x 0.1 / 0.192982; before: the drop, -1.
    assert!((live.at(0.1, dead(0.1)) + 1.024091).abs() < 1e-6);
    // Between the points the line from the take to the cash point, as before.
    assert!((live.at(0.5, dead(0.5)) - (-1.0 + 2.0 * (0.5 - tp) / (cp - tp))).abs() < 1e-12);
}

/// A trailer 4-away doubled by a leader 2-away can redouble to 4 for nothing (losing 2 already
/// loses it the match), so its take is for the match and its take point is what the drop
/// leaves, 4-away/1-away Crawford (Kazaross-XG2 1 - 0.81436), not the 30% a take at 2 with no
/// redouble would need (0.18564 / (0.75 x 0.5 + 0.25), a quarter of the wins gammons). The
/// model gets this without naming the free redouble: it lets the taker redouble at the
/// leader's take point, where the leader's take at 4 (dead) is worth its drop, so below it the
/// taker's line is that dead game's. The leader's cash point is the same take point's other
/// side, 0.81436: at 75% with no gammons, centred cube, contact (x = 0.68), it plays for the
/// line from its take point (0.19894 in both p and equity: dropping leaves 2-away/3-away,
/// 0.59947; a take at 2 plays 2-away/2-away for the match) to the cash (1-away/4-away
/// Crawford, 0.62872): 0.68 x 0.583774 + 0.32 x (0.75 x 0.62872 + 0.25 x 0.19894).
#[test]
fn a_free_recube_is_in_the_take_point() {
    let t = met::table();
    assert_eq!(t.mwc(4, 1, true), 1.0 - 0.81436);
    assert!((t.take_point(4, 2, 0) - (1.0 - 0.81436)).abs() < 1e-12);
    let m = &[("cube", "on"), ("match", "5")][..];
    let p = at(
        "w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w - match=5 score=3-1",
        m,
    );
    assert_eq!(cubeful::efficiency(&p), cubeful::CUBE_EFFICIENCY);
    let ch = cubeful::Chances {
        win: 0.75,
        win_gammon: 0.0,
        win_backgammon: 0.0,
        lose_gammon: 0.0,
        lose_backgammon: 0.0,
    };
    let live: f64 = 0.19894 + (0.62872 - 0.19894) * (0.75 - 0.19894) / (0.81436 - 0.19894);
    let want = 0.68 * live + 0.32 * (0.75 * 0.62872 + 0.25 * 0.19894);
    assert!((want - 0.563774).abs() < 1e-6);
    let got = cubeful::equity(&p, &ch);
    assert!((got - want).abs() < 1e-9, "{got} {want}");
}

/// The match model's take and cash points are found exactly on its piecewise-linear equity
/// lines: the same points as a plain bisection finds, on random lines of every shape (either
/// side able to cash, both, or neither).
#[test]
fn live_cube_crossings_match_a_bisection() {
    use super::met::Live;
    let mut rng = crate::util::rng::Rng::new(0x5EED_F7A4);
    let mut unit = move || rng.unit();
    // The bisection the model used before: the smallest `p` with `f(p) >= level` (`above`),
    // else the largest with `f(p) <= level`.
    let bisect = |f: &dyn Fn(f64) -> f64, level: f64, above: bool| {
        let (mut lo, mut hi) = (0.0, 1.0);
        if above {
            if f(0.0) >= level {
                return 0.0;
            }
            if f(1.0) < level {
                return 1.0;
            }
        } else {
            if f(1.0) <= level {
                return 1.0;
            }
            if f(0.0) > level {
                return 0.0;
            }
        }
        for _ in 0..60 {
            let mid = (lo + hi) / 2.0;
            let high = if above {
                f(mid) >= level
            } else {
                f(mid) > level
            };
            if high {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        if above {
            hi
        } else {
            lo
        }
    };
    for case in 0..2000 {
        let lose = -0.2 - 0.8 * unit();
        let win = 0.2 + 0.8 * unit();
        let chord_at = |p: f64| lose + (win - lose) * p;
        let q = 0.5 * unit();
        let c = 0.5 + 0.5 * unit();
        let live = Live {
            lose,
            win,
            opp_cash: (case % 4 >= 2).then(|| (q, chord_at(q) - 0.3 * unit())),
            my_cash: (case % 2 == 1).then(|| (c, chord_at(c) + 0.3 * unit())),
        };
        let f = |p: f64| live.model_at(p);
        let level = lose + (win - lose) * (1.4 * unit() - 0.2);
        let (exact, reference) = (live.model_inf_above(level), bisect(&f, level, true));
        assert!(
            (exact - reference).abs() < 1e-9,
            "{live:?} {level}: {exact} {reference}"
        );
        let (exact, reference) = (live.model_sup_below(level), bisect(&f, level, false));
        assert!(
            (exact - reference).abs() < 1e-9,
            "{live:?} {level}: {exact} {reference}"
        );
    }
}

/// Random match games: the position string, XGID and GNU IDs keep the score and the
/// Crawford flag, and hashes differ between scores.
#[test]
fn match_states_round_trip() {
    let m = options(&[("cube", "on"), ("match", "9")]);
    let mut rng = crate::util::rng::Rng::new(0x0DDB_A11C_0FFE_E000u64);
    let mut next = move || rng.next_u64();
    let mut checked = 0;
    for game in 0..12u16 {
        let mut p = Backgammon::start(&m);
        let white = game % 9;
        let crawford = white == 8;
        p.set_match_score(score::MatchScore {
            length: 9,
            score: [white, (game * 5) % 8],
            crawford,
        });
        while p.outcome().is_none() {
            let fen = p.to_fen();
            assert_eq!(Backgammon::from_fen(&fen, &m).unwrap(), p, "{fen}");
            let x = ids::to_xgid(&p);
            assert_eq!(ids::from_xgid(&x, &m).unwrap(), p, "{x}");
            let g = ids::to_gnubg_id(&p);
            assert_eq!(ids::from_gnubg_id(&g, &m).unwrap(), p, "{g}");
            if let Some(f) = fibs::to_fibs(&p) {
                assert_eq!(fibs::from_fibs(&f, &m).unwrap(), p, "{f}");
            }
            checked += 1;
            if p.cube().offered {
                let pick = if next() % 3 == 0 { "drop" } else { "take" };
                p = played(p, &[pick]);
            } else if p.may_double() && next() % 5 == 0 {
                p = played(p, &["double"]);
            } else {
                let mut events = Vec::new();
                p.chance_events(&mut events);
                p.apply_chance(events[next() as usize % events.len()].event);
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
                p.play(moves[next() as usize % moves.len()]);
            }
        }
    }
    assert!(checked > 300);
    let a = at("w=6:2 b=6:2 w - match=5 score=1-2", CUBE);
    let b = at("w=6:2 b=6:2 w - match=5 score=2-1", CUBE);
    assert_ne!(a.hash(), b.hash());
}

/// Random text in the shape of the outside formats: reading never panics, and whatever is
/// accepted writes back to a string that reads to the same position.
#[test]
fn random_ids_are_rejected_or_round_trip() {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let opts = options(CUBE);
    let mut rng = crate::util::rng::Rng::new(0xFEED_5EED_0BAD_C0DEu64);
    let mut next = move || rng.next_u64();
    let start = ids::to_gnubg_id(&Backgammon::start(&opts));
    let (mut accepted, mut tries) = (0, 0);
    for _ in 0..3000 {
        // Mutate one to three characters of a valid ID, so some results stay valid.
        let mut text = start.clone().into_bytes();
        for _ in 0..1 + next() % 3 {
            let at = next() as usize % text.len();
            if text[at] != b':' {
                text[at] = B64[next() as usize % 64];
            }
        }
        let text = String::from_utf8(text).unwrap();
        tries += 1;
        if let Ok(p) = ids::from_gnubg_id(&text, &opts) {
            accepted += 1;
            let again = ids::to_gnubg_id(&p);
            assert_eq!(ids::from_gnubg_id(&again, &opts).unwrap(), p, "{text}");
            let x = ids::to_xgid(&p);
            if !p.cube().dropped {
                assert_eq!(ids::from_xgid(&x, &opts).unwrap(), p, "{text} {x}");
            }
        }
    }
    for _ in 0..3000 {
        let fields = [
            "0", "1", "-1", "2", "6", "7", "D", "00", "31", "66", "x", "", "9",
        ];
        let mut x = String::from("XGID=-b----E-C---eE---c-e----B-");
        for _ in 0..9 {
            x.push(':');
            x.push_str(fields[next() as usize % fields.len()]);
        }
        tries += 1;
        if let Ok(p) = ids::from_xgid(&x, &opts) {
            accepted += 1;
            assert_eq!(ids::from_xgid(&ids::to_xgid(&p), &opts).unwrap(), p, "{x}");
        }
    }
    assert!(accepted > 50 && accepted < tries, "{accepted} of {tries}");
}

/// The cube action named from the doubler's three equities, for every order of them (and
/// the ties): the doubled side answers with the lowest (take on a tie), the doubler doubles
/// when that beats rolling strictly, and a position worth more than the cash is too good.
#[test]
fn cube_action_from_every_order_of_the_equities() {
    use cube::Answers;
    let verdict = |nd: f64, dt: f64, dp: f64| {
        Answers {
            take: dt,
            pass: dp,
            beaver: None,
        }
        .verdict(nd, nd)
    };
    // gnubg's example: no double +0.412, double/pass +1.000, double/take +0.586.
    assert_eq!(verdict(0.412, 0.586, 1.0), "double-take");
    let (low, mid, high) = (0.2, 0.6, 1.0);
    for (nd, dt, dp, expected) in [
        (low, mid, high, "double-take"),    // ND < DT < DP
        (low, high, mid, "double-pass"),    // ND < DP < DT
        (mid, low, high, "no-double-take"), // DT < ND < DP
        (high, low, mid, "too-good-take"),  // DT < DP < ND
        (mid, high, low, "too-good-pass"),  // DP < ND < DT
        (high, mid, low, "too-good-pass"),  // DP < DT < ND
        (mid, mid, high, "no-double-take"), // ND = DT < DP: rolling on a tie
        (mid, high, mid, "too-good-pass"),  // ND = DP < DT
        (low, mid, mid, "double-take"),     // ND < DT = DP: take on a tie
        (high, mid, mid, "too-good-take"),  // DT = DP < ND
        (mid, mid, mid, "no-double-take"),  // all equal
    ] {
        assert_eq!(verdict(nd, dt, dp), expected, "nd {nd} dt {dt} dp {dp}");
    }
    // A beaver is the answer only when it is the lowest; then the double is wrong unless
    // even the beaver beats rolling.
    let with_beaver = |nd: f64, dt: f64, db: f64| {
        Answers {
            take: dt,
            pass: 1.0,
            beaver: Some(db),
        }
        .verdict(nd, nd)
    };
    assert_eq!(with_beaver(-0.2, -0.6, -1.2), "no-double-beaver");
    assert_eq!(with_beaver(-0.2, -0.1, -0.15), "double-beaver");
    assert_eq!(with_beaver(0.4, 0.6, 1.2), "double-take");
    assert_eq!(with_beaver(0.4, 0.6, 0.6), "double-take");
    // The engine's margin: a double must leave more than `beat`, the rest is as before.
    let margin = |nd: f64, dt: f64, beat: f64| {
        Answers {
            take: dt,
            pass: 1.0,
            beaver: None,
        }
        .verdict(nd, beat)
    };
    assert_eq!(margin(0.50, 0.55, 0.56), "no-double-take");
    assert_eq!(margin(0.50, 0.57, 0.56), "double-take");
    assert_eq!(margin(0.50, 0.50, 0.4999), "double-take");
    assert_eq!(margin(1.05, 1.2, 1.11), "too-good-pass");
}

#[test]
fn cube_notes_are_signed_three_decimal_equities() {
    use cube::{signed, Answers};
    assert_eq!(signed(0.4124), "+0.412");
    assert_eq!(signed(-1.0), "-1.000");
    assert_eq!(signed(-0.0001), "+0.000");
    let answers = Answers {
        take: 0.586,
        pass: 1.0,
        beaver: None,
    };
    assert_eq!(
        answers.doubler_note(0.412, 0.412),
        "cube nodouble +0.412 doubletake +0.586 doublepass +1.000 action double-take"
    );
    assert_eq!(
        answers.taker_note(),
        "cube take -0.586 pass -1.000 action take"
    );
    let beavered = Answers {
        beaver: Some(-1.3),
        take: -0.65,
        ..answers
    };
    assert_eq!(
        beavered.taker_note(),
        "cube take +0.650 pass -1.000 beaver +1.300 action beaver"
    );
}

/// Normalized equities: money divides by the cube; in a match losing the cube's value is
/// -1 and winning it +1, whatever the score, and the rest is linear in winning chances.
#[test]
fn normalized_equities_put_the_cash_at_one() {
    let money = at(
        "w=9:3,8:3,6:4,5:3,4:2 b=13:2,8:4,6:5,5:4 w - cube=2:w",
        CUBE,
    );
    assert_eq!(cubeful::normalized(&money, 2000), 1.0);
    assert_eq!(cubeful::normalized(&money, -1000), -0.5);
    let m = &[("cube", "on"), ("match", "7")][..];
    for score in ["5-4", "0-0", "3-5"] {
        let fen = |turn: &str| {
            format!("w=9:3,8:3,6:4,5:3,4:2 b=13:2,8:4,6:5,5:4 {turn} - match=7 score={score}")
        };
        // What the doubler gets from a drop, as the search scores the finished game.
        let cash = |p: &Backgammon| {
            let end = played(p.clone(), &["double", "drop"]);
            end.terminal_value(&end.outcome().unwrap()).unwrap()
        };
        let (white, black) = (at(&fen("w"), m), at(&fen("b"), m));
        assert_eq!(cubeful::normalized(&white, cash(&white)), 1.0, "{score}");
        assert_eq!(cubeful::normalized(&white, -cash(&black)), -1.0, "{score}");
        // Halfway between the two, within the rounding of the thousandths.
        let even = f64::from(cash(&white) - cash(&black)) / 2.0;
        let half_step = 1.0 / f64::from(cash(&white) + cash(&black));
        let mid = cubeful::normalized(&white, even.floor() as i32);
        assert!(mid <= 0.0 && mid >= -2.0 * half_step, "{score}: {mid}");
    }
}

/// Through the registry, as `go` sees it: the line comes from the deepest completed depth
/// (the last roll from the 5 and 1 points: 23 of 36 rolls win), and none without one.
#[test]
fn the_cube_line_comes_from_a_completed_depth() {
    let mut game = crate::registry::new_game("backgammon", CUBE, 16).unwrap();
    game.set_position(Some("w=5:1,1:1 b=1:1 w -"), &[]).unwrap();
    let stopped = AtomicBool::new(true);
    let none = game.search(&limits(3), &stopped, &mut |_| {});
    assert_eq!(none.best.as_deref(), Some("roll"));
    assert!(none.notes.is_empty());
    let stop = AtomicBool::new(false);
    let found = game.search(&limits(2), &stop, &mut |_| {});
    assert_eq!(found.best.as_deref(), Some("double"));
    assert_eq!(
        found.notes,
        ["cube nodouble +0.278 doubletake +0.556 doublepass +1.000 action double-take"]
    );
    game.play("double").unwrap();
    let answer = game.search(&limits(2), &stop, &mut |_| {});
    assert_eq!(answer.best.as_deref(), Some("take"));
    assert_eq!(answer.notes, ["cube take -0.556 pass -1.000 action take"]);
}

/// The chances remembered per board are those of the board asked about: the side to move and
/// the network (a cube decision's) are part of what is remembered, the cube is not.
#[test]
fn remembered_chances_are_the_boards_own() {
    let fen = "w=24:2,13:5,8:2,6:4,5:2 b=24:1,18:1,13:4,8:3,6:4,4:2 w -";
    let white = at(fen, CUBE);
    let black = at(&fen.replace(" w -", " b -"), CUBE);
    let cube_net = white.for_cube_decision();
    let owned = at(&format!("{fen} cube=2:b"), CUBE);
    // The sides' and the networks' own chances differ, so a memo mixing them would show.
    assert_ne!(
        cubeful::network_chances(&white),
        cubeful::network_chances(&black)
    );
    assert_ne!(
        cubeful::network_chances(&white),
        cubeful::network_chances(&cube_net)
    );
    for _ in 0..2 {
        for pos in [&white, &black, &cube_net, &owned] {
            assert_eq!(cubeful::chances(pos), cubeful::network_chances(pos));
        }
    }
    assert_eq!(cubeful::chances(&owned), cubeful::chances(&white));
}

/// The deepest depth each decision of a timed `go` reaches, with time to spare.
fn timed_depths(p: &Backgammon) -> u32 {
    let table = Table::new(16);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        movetime: Some(60_000),
        ..Limits::default()
    };
    let mut deepest = 0;
    let mut report = |info: &crate::search::Info| deepest = deepest.max(info.depth);
    if p.answers_pre_chance() {
        decide_answer(p, &Lookahead, &limits, &table, &stop, &mut report);
    } else {
        decide_before_chance(p, &Lookahead, &limits, &table, &stop, &mut report);
    }
    deepest
}

/// Without `go depth` a cube decision stops at depth 3, in a bear-off at depth 2, however much
/// time is left. Black's redouble here is wrong (gnubg 2-ply: no double +0.224, double/take
/// +0.012); searched to depth 3 the bear-off plays out with the cube dead, and the redouble
/// came out at twice the cubeless equity (+0.244 against +0.122). White's take in the match
/// is right (gnubg 2-ply: 11.57% MWC taking, 9.28% passing): Black's win ends the match at
/// any cube, so White, owning the cube at 4, redoubles for nothing and each of its wins (one
/// game in nine) takes the match; at depth 3 the game ends in the search with the cube left at
/// 4, its wins worth only 4-4 (5.8%), and White passes.
#[test]
fn timed_cube_decisions_stop_at_their_depth() {
    let bear_off = "w=2:3 b=5:1,4:2 b - cube=4:b";
    assert_eq!(timed_depths(&at(bear_off, CUBE)), 2);
    assert_eq!(before_roll(&at(bear_off, CUBE), 2), "roll");
    assert_eq!(timed_depths(&played(at(bear_off, CUBE), &["double"])), 2);
    let contact = "w=24:1,13:4,8:3,6:4,5:2,3:1 b=24:2,13:4,8:2,6:5,4:2 b -";
    assert_eq!(timed_depths(&played(at(contact, CUBE), &["double"])), 3);
    let race = "w=9:3,8:3,6:4,5:3,4:2 b=13:2,8:4,7:1,6:4,5:4 w - cube=2:w";
    assert_eq!(timed_depths(&at(race, CUBE)), 3);
    let free_redouble = at(
        "w=2:1,1:3 b=1:3 b - cube=2:b match=7 score=0-4",
        &[("cube", "on"), ("match", "7")],
    );
    let doubled = played(free_redouble.clone(), &["double"]);
    assert_eq!(timed_depths(&doubled), 2);
    assert_eq!(answer(&free_redouble, 2), "take");
}
