//! Match files (`.mat`): random matches written and read back, the exact layout of a small
//! game, and errors that name the file and the line.

use super::matfile::*;
use crate::game::{Game, Side};
use crate::util::rng::Rng;

/// A match of random legal plays, with a double taken and one dropped now and then.
fn random_match(length: u16, seed: u64) -> MatchRecord {
    random_match_and_positions(length, seed).0
}

/// [`random_match`] and the position string each action of it was played from.
fn random_match_and_positions(length: u16, seed: u64) -> (MatchRecord, Vec<Vec<String>>) {
    let mut fens = Vec::new();
    let mut rng = Rng::new(seed);
    let mut board = Scoreboard::default();
    let mut games = Vec::new();
    while !board.over(length) {
        let crawford = board.next_is_crawford(length);
        let opener = if rng.below(2) == 0 {
            Side::White
        } else {
            Side::Black
        };
        let mut pos = game_start(length, board.score, crawford, opener).unwrap();
        let mut actions = Vec::new();
        let mut seen = Vec::new();
        while pos.outcome().is_none() {
            seen.push(pos.to_fen());
            let token = if pos.cube().offered {
                if rng.below(3) == 0 { "drop" } else { "take" }.to_owned()
            } else if pos.dice().is_none() && pos.may_double() && rng.below(8) == 0 {
                "double".to_owned()
            } else {
                if pos.dice().is_none() {
                    let roll = pos.random_roll(&mut rng);
                    pos.set_dice(roll);
                }
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                pos.format_move(moves[rng.below(moves.len() as u64) as usize])
            };
            let mv = pos.parse_move(&token).unwrap();
            actions.push(Action {
                side: pos.side_to_move(),
                token,
            });
            pos.play(mv);
        }
        fens.push(seen);
        let o = pos.outcome().unwrap();
        board.add(o.winner.unwrap(), o.points);
        games.push(GameRecord {
            actions,
            winner: o.winner.unwrap(),
            points: o.points,
        });
    }
    let record = MatchRecord {
        length,
        names: ["alice".into(), "bob".into()],
        games,
        unfinished: Vec::new(),
        comments: Vec::new(),
    };
    (record, fens)
}

#[test]
fn random_matches_round_trip() {
    for seed in 1..=12 {
        let record = random_match(5, seed);
        let text = write(&record);
        assert_eq!(read(&text, "m.mat"), Ok(record), "{text}");
    }
}

/// A record read back gives each action the position it was played from: the positions the
/// match was generated in (the score carried from game to game, the Crawford game marked, a
/// roll before its play), also for a last game still in play.
#[test]
fn each_action_comes_with_the_position_it_was_played_from() {
    let mut crawford_games = 0;
    for seed in 1..=12 {
        let (record, fens) = random_match_and_positions(5, seed);
        let read_back = read(&write(&record), "m.mat").expect("reads");
        let seen: Vec<Vec<String>> = read_back
            .positions()
            .expect("replays")
            .iter()
            .map(|game| game.iter().map(|(pos, _)| pos.to_fen()).collect())
            .collect();
        assert_eq!(seen, fens, "seed {seed}");
        crawford_games += fens.iter().filter(|g| g[0].ends_with(" crawford")).count();
        let mut stopped = record.clone();
        let last = stopped.games.pop().expect("a game");
        stopped.unfinished = last.actions[..3].to_vec();
        let positions = stopped.positions().expect("replays");
        let in_play: Vec<String> = positions
            .last()
            .unwrap()
            .iter()
            .map(|(p, _)| p.to_fen())
            .collect();
        assert_eq!(in_play, fens.last().unwrap()[..3], "seed {seed}");
    }
    assert!(crawford_games > 0, "no Crawford game was looked at");
}

#[test]
fn the_layout_is_jellyfish() {
    let record = MatchRecord {
        length: 1,
        names: ["alice".into(), "bob".into()],
        games: vec![GameRecord {
            actions: vec![
                Action {
                    side: Side::Black,
                    token: "21:13/11,24/23".into(),
                },
                Action {
                    side: Side::White,
                    token: "66:bar/19,19/13,13/7,7/1".into(),
                },
            ],
            winner: Side::Black,
            points: 1,
        }],
        unfinished: Vec::new(),
        comments: Vec::new(),
    };
    // Black opens: the left column of line 1 stays empty; bar is 25; a resignation-like
    // ending (the game is not over) in Black's column, beside White's last action as gnubg
    // writes a win after the other side's drop (on a line of its own, gnubg's import reads
    // it as more of the game: a "Beavers => 4" and a second result in its export).
    assert_eq!(
        write(&record),
        " 1 point match\n\n Game 1\n alice : 0                      bob : 0\n  1)                             21: 13/11 24/23\n  2) 66: 25/19 19/13 13/7 7/1     Wins 1 point and the match\n\n"
    );
}

/// The Crawford game is the game after exactly one side first reaches one point from the
/// match: never in a 1-point match, where both start there.
#[test]
fn the_crawford_game_needs_exactly_one_side_one_away() {
    let mut one = Scoreboard::default();
    assert!(!one.next_is_crawford(1));
    let mut three = Scoreboard::default();
    assert!(!three.next_is_crawford(3));
    three.add(Side::White, 2);
    assert!(three.next_is_crawford(3));
    three.add(Side::Black, 1);
    assert!(!three.next_is_crawford(3));
    three.add(Side::Black, 1);
    // 2-2: double match point, after the Crawford game.
    assert!(!three.next_is_crawford(3));
}

#[test]
fn errors_name_the_file_and_line() {
    let text = write(&random_match(3, 7));
    let lines: Vec<&str> = text.lines().collect();
    let with = |n: usize, line: &str| {
        let mut l = lines.clone();
        l[n] = line;
        l.join("\n")
    };
    let error = |t: String| read(&t, "x.mat").unwrap_err();
    assert!(error(with(0, " 3 points match")).starts_with("x.mat:1: expected 'N point match'"));
    assert!(error(with(3, " alice : 1                      bob : 0"))
        .starts_with("x.mat:4: the score 1-0 should be 0-0"));
    // Line 5 is the first numbered line: an illegal play there.
    let bad = with(4, "  1) 21: 24/20                     ");
    let e = error(bad);
    assert!(e.starts_with("x.mat:5: "), "{e}");
    assert!(error(with(4, "  1) hello")).starts_with("x.mat:5: 'hello' is not a roll"));
    assert!(read("", "x.mat")
        .unwrap_err()
        .starts_with("x.mat:1: no 'N point match'"));
}

/// A match stopped part-way: its last game has no `Wins` line and reads back as in play, with
/// the comments; only the last game may be unfinished, and a finished game needs its line.
#[test]
fn a_match_stopped_part_way_round_trips() {
    let mut record = random_match(3, 5);
    let last = record.games.pop().expect("a game");
    record.unfinished = last.actions[..last.actions.len() / 2].to_vec();
    record.comments = vec!["stopped by a test".into()];
    let text = write(&record);
    assert!(
        text.starts_with("; stopped by a test\n 3 point match\n"),
        "{text}"
    );
    assert!(!text.trim_end().ends_with("match"), "{text}");
    let read_back = read(&text, "m.mat").expect("reads");
    assert_eq!(read_back, record);
    assert!(read_back.summary().contains("and one in play"));
    // The same game without its Wins line, but not the last one: refused.
    let mut two = record.clone();
    two.games.push(GameRecord {
        actions: record.unfinished.clone(),
        winner: Side::White,
        points: 1,
    });
    let text = write(&two);
    let without: Vec<&str> = text.lines().filter(|l| !l.contains("Wins")).collect();
    let e = read(&without.join("\n"), "m.mat").unwrap_err();
    assert!(e.contains("no 'Wins N point(s)' line"), "{e}");
    // A finished game that lacks its line at the end of the file is refused too.
    let full = random_match(3, 5);
    let text = write(&full);
    let cut = text.rfind("Wins").expect("a result");
    let e = read(&text[..cut], "m.mat").unwrap_err();
    assert!(e.contains("the game is over"), "{e}");
}
