//! Unit tests of the rules, notation and formats; perft against a naive reference is in
//! `tests/perft/backgammon.rs`.

use super::*;
use crate::game::{Dice, Game, Harness};

fn pos(fen: &str) -> Backgammon {
    Backgammon::from_fen(fen, &Options::default()).expect(fen)
}

fn moves(p: &Backgammon) -> Vec<String> {
    let mut out = Vec::new();
    p.legal_moves(&mut out);
    let mut v: Vec<String> = out.iter().map(|&m| p.format_move(m)).collect();
    v.sort();
    v
}

#[test]
fn start_fen_round_trips() {
    let start = Backgammon::start(&Options::default());
    let fen = start.to_fen();
    assert_eq!(fen, "w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w - opening");
    assert_eq!(pos(&fen), start);
}

fn err(p: &Backgammon, token: &str) -> String {
    p.parse_move(token).expect_err(token).to_string()
}

fn with_dice(fen: &str, roll: u32) -> Backgammon {
    let mut p = pos(fen);
    p.apply_chance(roll);
    p
}

#[test]
fn every_spelling_of_a_play_is_accepted() {
    let mut p = Backgammon::start(&Options::default());
    p.apply_chance(31);
    let canonical = p.parse_move("31:8/5,6/5").unwrap();
    for spelling in ["31:6/5,8/5", "8/5,6/5", "13:8/5,6/5", "31:8/5*,6/5"] {
        assert_eq!(p.parse_move(spelling), Ok(canonical), "{spelling}");
    }
    let run = p.parse_move("31:24/21,21/20").unwrap();
    for spelling in ["31:24/20", "31:24/23,23/20", "24/21/20"] {
        assert_eq!(p.parse_move(spelling), Ok(run), "{spelling}");
    }
    let mut d = Backgammon::start(&Options::default());
    d.play(canonical);
    d.apply_chance(66);
    let double = d.parse_move("66:24/18,24/18,13/7,13/7").unwrap();
    assert_eq!(d.format_move(double), "66:24/18,24/18,13/7,13/7");
    for spelling in [
        "66:24/18(2),13/7(2)",
        "13/7,24/18,13/7,24/18",
        "66:13/7,13/7,24/18,24/18",
    ] {
        assert_eq!(d.parse_move(spelling), Ok(double), "{spelling}");
    }
}

#[test]
fn tokens_without_dice_carry_the_roll() {
    let p = Backgammon::start(&Options::default());
    let mv = p.parse_move("31:8/5,6/5").unwrap();
    assert_eq!(p.format_move(mv), "31:8/5,6/5");
    assert_eq!(
        err(&p, "8/5,6/5"),
        "bad move 8/5,6/5: no dice are set: write the roll first, e.g. 31:8/5,6/5"
    );
    assert_eq!(
        err(&p, "33:8/5,8/5,6/3,6/3"),
        "illegal move 33:8/5,8/5,6/3,6/3: the opening roll cannot be a double"
    );
}

#[test]
fn illegal_moves_say_which_rule() {
    let mut p = Backgammon::start(&Options::default());
    p.apply_chance(31);
    assert_eq!(
        err(&p, "31:8/2"),
        "illegal move 31:8/2: 8/2 needs 6 pips; the dice left (3 1) cannot make it"
    );
    assert_eq!(
        err(&p, "31:8/5"),
        "illegal move 31:8/5: both dice of 31 can be played, so both must be used"
    );
    assert_eq!(
        err(&p, "42:8/4,6/4"),
        "illegal move 42:8/4,6/4: the roll is 31, not 42"
    );
    assert_eq!(
        err(&p, "31:7/4,6/5"),
        "illegal move 31:7/4,6/5: no white checker on 7"
    );
    assert_eq!(
        err(&p, "31:pass"),
        "illegal move 31:pass: 31 can be played, so passing is not allowed"
    );
    assert_eq!(
        err(&p, "31:8/5,6/5,5/4"),
        "illegal move 31:8/5,6/5,5/4: no dice of 31 are left for 5/4"
    );
    assert!(matches!(
        p.parse_move("31:8-5"),
        Err(GameError::BadMove { .. })
    ));
    assert!(matches!(
        p.parse_move("31:5/8"),
        Err(GameError::BadMove { .. })
    ));
    assert!(matches!(
        p.parse_move("71:8/1"),
        Err(GameError::BadMove { .. })
    ));
    // Black holds its 6 point, which is white's 19.
    let blocked = with_dice("w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w -", 51);
    assert_eq!(
        err(&blocked, "51:24/19,6/5"),
        "illegal move 51:24/19,6/5: 24/19: point 19 is blocked by black"
    );
    let bar = with_dice("w=bar:1,24:1,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w -", 31);
    assert_eq!(
        err(&bar, "31:8/5,6/5"),
        "illegal move 31:8/5,6/5: white has a checker on the bar, which must enter first"
    );
    assert!(bar.parse_move("31:bar/22,8/7").is_ok());
    assert!(bar.parse_move("31:bar/24,24/21").is_ok());
    let early = with_dice("w=7:1,6:5,5:5,4:4 b=24:2,13:5,8:3,6:5 w -", 64);
    assert_eq!(
        err(&early, "64:6/off,5/1"),
        "illegal move 64:6/off,5/1: cannot bear off while white has checkers outside the home board"
    );
    let higher = with_dice("w=5:1,3:2 b=24:2,13:5,8:3,6:5 b -", 0);
    let mut higher = higher;
    higher.play(higher.parse_move("21:13/11,13/12").unwrap());
    higher.apply_chance(64);
    assert_eq!(
        err(&higher, "64:3/off,5/1"),
        "illegal move 64:3/off,5/1: cannot bear off from 3 with a 4 while a checker stands on 5"
    );
    assert!(higher.parse_move("64:5/off,3/off").is_ok());
    let larger = with_dice("w=24:1,1:2 b=13:7,9:2,8:2,7:2,4:2 w -", 42);
    assert_eq!(
        err(&larger, "42:24/22"),
        "illegal move 42:24/22: only one die of 42 can be played, and it must be the larger (4)"
    );
    let passing = with_dice("w=24:1,1:2 b=13:7,9:2,8:2,7:2,4:2 w -", 63);
    assert_eq!(
        passing.format_move(passing.parse_move("pass").unwrap()),
        "63:pass"
    );
    assert_eq!(
        err(&passing, "63:24/18"),
        "illegal move 63:24/18: 24/18: point 18 is blocked by black"
    );
}

#[test]
fn results_single_gammon_backgammon() {
    let finish = |fen: &str, token: &str| {
        let mut p = pos(fen);
        let mv = p.parse_move(token).unwrap();
        p.play(mv);
        let mut none = Vec::new();
        p.legal_moves(&mut none);
        assert!(none.is_empty());
        p.outcome().unwrap()
    };
    let single = finish("w=1:1 b=6:14 w -", "21:1/off");
    assert_eq!(
        (single.winner, single.points, single.reason),
        (Some(Side::White), 1, "single")
    );
    let gammon = finish("w=1:1 b=6:15 w -", "21:1/off");
    assert_eq!((gammon.points, gammon.reason), (2, "gammon"));
    let bg = finish("w=1:1 b=20:1,6:14 w -", "21:1/off");
    assert_eq!((bg.points, bg.reason), (3, "backgammon"));
    let bar = finish("w=1:1 b=bar:1,6:14 w -", "21:1/off");
    assert_eq!(bar.points, 3);
    let black = finish("w=6:15 b=2:1 b -", "21:2/off");
    assert_eq!((black.winner, black.points), (Some(Side::Black), 2));
}

#[test]
fn bad_position_strings_are_rejected() {
    for fen in [
        "",
        "w=24:2 b=24:2",
        "w=24:2 b=24:2 x -",
        "w=25:1 b=24:2 w -",
        "w=24:16 b=24:2 w -",
        "w=24:8,13:8 b=24:2 w -",
        "w=24:2,24:1 b=24:2 w -",
        "w=1:2 b=24:2 w -",
        "w=24:2 b=24:2 w 77",
        "w=24:2 b=24:2 w 33 opening",
        "w=24:2 b=24:2 w - later",
        "w=- b=- w -",
        "w=- b=6:1 w -",
        "w=- b=6:1 b 31",
        "w=24:0 b=6:1 w -",
        "x=24:2 b=6:1 w -",
    ] {
        assert!(
            matches!(
                Backgammon::from_fen(fen, &Options::default()),
                Err(GameError::BadPosition(_))
            ),
            "{fen}"
        );
    }
}

#[test]
fn chance_events_and_rolls() {
    let start = Backgammon::start(&Options::default());
    let mut events = Vec::new();
    start.chance_events(&mut events);
    assert_eq!(events.len(), 15);
    assert!((events.iter().map(|c| c.probability).sum::<f64>() - 1.0).abs() < 1e-12);
    assert_eq!(start.parse_chance("13"), Ok(31));
    assert!(start.parse_chance("44").is_err());
    assert!(start.parse_chance("70").is_err());
    let mut later = start.clone();
    later.play(later.parse_move("31:8/5,6/5").unwrap());
    events.clear();
    later.chance_events(&mut events);
    assert_eq!(events.len(), 21);
    assert!((events.iter().map(|c| c.probability).sum::<f64>() - 1.0).abs() < 1e-12);
    assert_eq!(later.parse_chance("44"), Ok(44));
    assert_ne!(later.hash(), start.hash());
    let mut rolled = later.clone();
    rolled.apply_chance(44);
    assert_ne!(rolled.hash(), later.hash());
    assert_eq!(
        rolled.to_fen(),
        "w=24:2,13:5,8:2,6:4,5:2 b=24:2,13:5,8:3,6:5 b 44"
    );
}

/// Random games: fen, XGID and GNU IDs round-trip at every position, hashes follow the fen.
#[test]
fn formats_round_trip_in_random_games() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut seen = 0;
    for _ in 0..30 {
        let mut p = Backgammon::start(&Options::default());
        while p.outcome().is_none() {
            let mut events = Vec::new();
            p.chance_events(&mut events);
            for q in [p.clone(), {
                let mut r = p.clone();
                r.apply_chance(events[next() as usize % events.len()].event);
                r
            }] {
                assert!(q.is_consistent());
                let fen = q.to_fen();
                assert_eq!(pos(&fen), q, "{fen}");
                let x = ids::to_xgid(&q);
                assert_eq!(ids::from_xgid(&x, &Options::default()).unwrap(), q, "{x}");
                let g = ids::to_gnubg_id(&q);
                assert_eq!(
                    ids::from_gnubg_id(&g, &Options::default()).unwrap(),
                    q,
                    "{g}"
                );
                let f = fibs::to_fibs(&q).unwrap();
                assert_eq!(fibs::from_fibs(&f, &Options::default()).unwrap(), q, "{f}");
                assert_eq!(pos(&fen).hash(), q.hash());
                seen += 1;
            }
            let ev = events[next() as usize % events.len()].event;
            p.apply_chance(ev);
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            for &m in &moves {
                assert_eq!(p.parse_move(&p.format_move(m)), Ok(m));
            }
            p.play(moves[next() as usize % moves.len()]);
        }
        let fen = p.to_fen();
        assert_eq!(pos(&fen), p);
        assert_eq!(
            ids::from_xgid(&ids::to_xgid(&p), &Options::default()).unwrap(),
            p
        );
    }
    assert!(seen > 1000);
}

#[test]
fn outside_formats_of_known_positions() {
    let start = Backgammon::start(&Options::default());
    assert_eq!(
        ids::to_xgid(&start),
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    );
    assert_eq!(ids::to_gnubg_id(&start), "4HPwATDgc/ABMA:MAEAAAAAAAAA");
    assert_eq!(
        ids::from_gnubg_id("4HPwATDgc/ABMA", &Options::default()).unwrap(),
        start
    );
    // What GNU Backgammon itself shows after its player 0 opens 31 with 8/5 6/5 (its Position
    // ID writes the opponent of the player on roll first, whatever its manual says).
    let mut after = Backgammon::start(&Options::default());
    after.play(after.parse_move("31:8/5,6/5").unwrap());
    assert_eq!(ids::to_gnubg_id(&after), "sGfwATDgc/ABMA:cAkAAAAAAAAA");
    assert_eq!(
        ids::from_gnubg_id("sGfwATDgc/ABMA:cAkAAAAAAAAA", &Options::default()).unwrap(),
        after
    );
    // A position from the GNU Backgammon mailing list: black on roll with 51 in a 9-point match;
    // the checkers are those gnubg's `board()` gives after reading it.
    let p = ids::from_gnubg_id("g9vBASSYZ8wBBg:cIkmAQAAAAAA", &Options::default()).unwrap();
    assert_eq!(
        p.to_fen(),
        "w=24:1,22:1,13:3,8:3,7:2,6:3,1:2 b=21:2,13:3,11:2,8:2,6:4,4:2 b 51 match=9 score=0-0"
    );
    assert!(ids::from_xgid(
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",
        &Options::default()
    )
    .is_err());
    assert!(ids::from_xgid(
        "XGID=-b----E-C---eE---c-e----Bz:0:0:1:00:0:0:0:0:10",
        &Options::default()
    )
    .is_err());
    assert!(ids::from_gnubg_id("4HPwATDgc/AB", &Options::default()).is_err());
    assert!(ids::from_gnubg_id("////////////////", &Options::default()).is_err());
}

#[test]
fn opening_31_lists_each_play_once_in_player_order() {
    let mut p = Backgammon::start(&Options::default());
    p.apply_chance(31);
    let list = moves(&p);
    assert_eq!(list.len(), 16);
    assert!(list.contains(&"31:8/5,6/5".to_owned()));
    assert!(list.contains(&"31:24/21,21/20".to_owned()));
    assert!(!list.contains(&"31:24/23,23/20".to_owned()));
}

#[test]
fn network_weights_round_trip_and_load() {
    let mut rng = crate::util::rng::Rng::new(5);
    let net = nn::Net::new(3, &mut rng);
    let back = nn::Net::from_text(&net.to_text()).unwrap();
    let start = Backgammon::start(&Options::default());
    let mut scratch = Vec::new();
    assert!((back.equity(&start, &mut scratch) - net.equity(&start, &mut scratch)).abs() < 1e-4);
    assert!(nn::Net::from_text("tabula-backgammon-td hidden 3\n0.5\n").is_none());
    let opts = Backgammon::parse_options(&[("eval", "neural")]).unwrap();
    let p = Backgammon::start(&opts);
    assert!(p.evaluate().abs() < 3000);
    assert_eq!(
        Backgammon::format_options(&opts),
        "eval=neural cube=off beaver=off jacoby=off match=0"
    );
}

#[test]
fn doubling_cube_offer_take_drop() {
    let opts = Backgammon::parse_options(&[("cube", "on")]).unwrap();
    let start = Backgammon::start(&opts);
    assert!(
        start.parse_move("double").is_err(),
        "no doubling at the opening"
    );
    let mut p = start.clone();
    p.play(p.parse_move("31:8/5,6/5").unwrap());
    let mut all = Vec::new();
    p.legal_moves(&mut all);
    assert_eq!(p.format_move(all[0]), "double");
    assert_eq!(p.perft(1), all.len() as u64);
    p.play(p.parse_move("double").unwrap());
    assert_eq!(p.side_to_move(), Side::White);
    assert_eq!(moves(&p), ["drop", "take"]);
    assert!(p.parse_chance("31").is_err());
    assert_eq!(
        err(&p, "31:8/5,6/5"),
        "illegal move 31:8/5,6/5: a double is offered: the answer is take or drop"
    );
    let mut dropped = p.clone();
    dropped.play(dropped.parse_move("drop").unwrap());
    let o = dropped.outcome().unwrap();
    assert_eq!(
        (o.winner, o.points, o.reason),
        (Some(Side::Black), 1, "drop")
    );
    let reread = Backgammon::from_fen(&dropped.to_fen(), &opts).expect("a dropped game");
    assert_eq!(reread.outcome(), Some(o));
    p.play(p.parse_move("take").unwrap());
    assert_eq!(p.side_to_move(), Side::Black);
    assert_eq!(p.cube().value(), 2);
    assert_eq!(
        p.to_fen(),
        "w=24:2,13:5,8:2,6:4,5:2 b=24:2,13:5,8:3,6:5 b - cube=2:w"
    );
    assert_eq!(
        err(&p, "double"),
        "illegal move double: white owns the cube"
    );
    assert_eq!(err(&p, "take"), "illegal move take: no double is offered");
    let off = Backgammon::start(&Options::default());
    let mut q = off.clone();
    q.play(q.parse_move("31:8/5,6/5").unwrap());
    assert!(err(&q, "double").contains("cube=on"));
    // A gammon with a 4-cube is worth 8.
    let mut g = Backgammon::from_fen("w=1:1 b=6:15 w 21 cube=4:b", &opts).unwrap();
    g.play(g.parse_move("21:1/off").unwrap());
    assert_eq!(g.outcome().unwrap().points, 8);
}

/// Random cube games: the position string, XGID and GNU IDs keep the cube state.
#[test]
fn cube_states_round_trip() {
    let opts = Backgammon::parse_options(&[("cube", "on")]).unwrap();
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut offers = 0;
    for _ in 0..40 {
        let mut p = Backgammon::start(&opts);
        while p.outcome().is_none() {
            let fen = p.to_fen();
            assert_eq!(Backgammon::from_fen(&fen, &opts).unwrap(), p, "{fen}");
            let x = ids::to_xgid(&p);
            assert_eq!(ids::from_xgid(&x, &opts).unwrap(), p, "{x} {fen}");
            let g = ids::to_gnubg_id(&p);
            assert_eq!(ids::from_gnubg_id(&g, &opts).unwrap(), p, "{g} {fen}");
            let f = fibs::to_fibs(&p).unwrap();
            assert_eq!(fibs::from_fibs(&f, &opts).unwrap(), p, "{f} {fen}");
            let mut events = Vec::new();
            p.chance_events(&mut events);
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            if p.cube().offered {
                offers += 1;
                let pick = if next() % 4 == 0 { "drop" } else { "take" };
                p.play(p.parse_move(pick).unwrap());
            } else if p.may_double() && next() % 6 == 0 {
                p.play(p.parse_move("double").unwrap());
            } else {
                p.apply_chance(events[next() as usize % events.len()].event);
                moves.clear();
                p.legal_moves(&mut moves);
                p.play(moves[next() as usize % moves.len()]);
            }
        }
        let fen = p.to_fen();
        assert_eq!(Backgammon::from_fen(&fen, &opts).unwrap(), p, "{fen}");
        if !p.cube().dropped {
            // XGID has no field for a game ended by a dropped double.
            assert_eq!(ids::from_xgid(&ids::to_xgid(&p), &opts).unwrap(), p);
        }
        assert_eq!(ids::from_gnubg_id(&ids::to_gnubg_id(&p), &opts).unwrap(), p);
    }
    assert!(offers > 20);
}
