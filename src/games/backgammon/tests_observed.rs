//! A match rebuilt from the boards one side was shown (`observed.rs`), checked against the
//! match really played: random matches where Black is shown a FIBS board (written and read
//! back) each time it must act, as GNU Backgammon shows its external player, and White's
//! turns, its cube actions and resignations are never shown.

use super::fibs::{from_fibs, to_fibs};
use super::matfile::{self, Action, GameRecord, MatchRecord, Scoreboard};
use super::move_text::{from_plain, to_plain};
use super::observed::Observed;
use super::Backgammon;
use crate::game::{Game, Side};
use crate::util::rng::Rng;

/// What the observer is shown: its position as a FIBS board, read back.
fn shown(pos: &Backgammon) -> Backgammon {
    let text = to_fibs(pos).expect("a board");
    let options = Backgammon::parse_options(&[("cube", "on")]).unwrap();
    from_fibs(&text, &options).expect("reads back")
}

/// Plays a random match, feeding Black's boards and answers to an observer; returns the
/// match as played and the observer's record.
fn observed_match(length: u16, seed: u64) -> (MatchRecord, MatchRecord) {
    let mut rng = Rng::new(seed);
    let mut observer = Observed::new("me", "them");
    let mut board = Scoreboard::default();
    let mut games = Vec::new();
    while !board.over(length) {
        let crawford = board.next_is_crawford(length);
        let opener = [Side::White, Side::Black][rng.below(2) as usize];
        let mut pos = matfile::game_start(length, board.score, crawford, opener).unwrap();
        let mut actions = Vec::new();
        let mut resigned = None;
        while pos.outcome().is_none() {
            let black = pos.side_to_move() == Side::Black;
            // White resigns now and then before its roll (worth the cube times 1, 2 or 3).
            if !black && pos.dice().is_none() && !pos.cube().offered && rng.below(60) == 0 {
                resigned = Some(pos.cube().value() * (1 + rng.below(3) as u32));
                break;
            }
            let may_double = pos.dice().is_none() && pos.may_double();
            // Black rolls at once when it may not double, as gnubg rolls for its external
            // player: the board then shows the roll.
            if black && pos.dice().is_none() && !pos.cube().offered && !may_double {
                let roll = pos.random_roll(&mut rng);
                pos.set_dice(roll);
            }
            if black {
                observer.board(&shown(&pos));
            }
            let token = if pos.cube().offered {
                if rng.below(3) == 0 { "drop" } else { "take" }.to_owned()
            } else if may_double && rng.below(6) == 0 {
                "double".to_owned()
            } else {
                if pos.dice().is_none() {
                    if black {
                        observer.answer("roll");
                    }
                    let roll = pos.random_roll(&mut rng);
                    pos.set_dice(roll);
                    if black {
                        observer.board(&shown(&pos));
                    }
                }
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                pos.format_move(moves[rng.below(moves.len() as u64) as usize])
            };
            if black {
                observer.answer(&to_plain(&token));
            }
            let mv = pos.parse_move(&token).unwrap();
            actions.push(Action {
                side: pos.side_to_move(),
                token,
            });
            pos.play(mv);
        }
        let (winner, points) = match (pos.outcome(), resigned) {
            (Some(o), _) => (o.winner.unwrap(), o.points),
            (None, Some(points)) => (Side::Black, points),
            (None, None) => unreachable!("the game goes on"),
        };
        board.add(winner, points);
        games.push(GameRecord {
            actions,
            winner,
            points,
        });
    }
    let played = MatchRecord {
        length,
        names: ["them".into(), "me".into()],
        games,
        unfinished: Vec::new(),
        comments: Vec::new(),
    };
    (played, observer.record().expect("a record"))
}

/// The positions after each action of a game, replayed from its start.
fn positions(game: &[Action], length: u16, board: &mut Scoreboard) -> Vec<Backgammon> {
    let crawford = board.next_is_crawford(length);
    let opener = game.first().map_or(Side::White, |a| a.side);
    let mut pos = matfile::game_start(length, board.score, crawford, opener).unwrap();
    game.iter()
        .map(|action| {
            if let Some((roll, _)) = action.token.split_once(':') {
                let roll = super::move_text::parse_roll(roll).unwrap();
                pos.set_dice(roll);
            }
            let mv = pos.parse_move(&action.token).unwrap();
            pos.play(mv);
            pos.clone()
        })
        .collect()
}

#[test]
fn matches_are_rebuilt_from_one_sides_boards() {
    let mut guessed = 0;
    let mut plays = 0;
    for seed in 1..=40 {
        let (played, seen) = observed_match(5, seed);
        let context = format!("seed {seed}:\n{}", matfile::write(&seen));
        assert!(
            !seen
                .comments
                .iter()
                .any(|c| c.starts_with("recording stopped")),
            "{context}"
        );
        // Every game but the last is whole; the last lacks only what followed Black's last
        // answer (White's winning play, its drop or its resignation), unless Black ended it.
        let last = played.games.len() - 1;
        assert_eq!(seen.names, played.names, "{context}");
        let mut board = Scoreboard::default();
        for (i, game) in played.games.iter().enumerate() {
            let seen_actions = match seen.games.get(i) {
                Some(g) => {
                    assert_eq!(
                        (g.winner, g.points),
                        (game.winner, game.points),
                        "{context}"
                    );
                    &g.actions
                }
                None => {
                    assert_eq!(i, last, "{context}");
                    &seen.unfinished
                }
            };
            let tail = &game.actions[seen_actions.len()..];
            assert!(tail.iter().all(|a| a.side == Side::White), "{context}");
            let truth = positions(&game.actions, 5, &mut board.clone());
            let rebuilt = positions(seen_actions, 5, &mut board);
            for (k, (a, b)) in game.actions.iter().zip(seen_actions).enumerate() {
                assert_eq!(a.side, b.side, "{context}");
                assert!(a.side == Side::White || a.token == b.token, "{context}");
                assert_eq!(truth[k].to_fen(), rebuilt[k].to_fen(), "{context}");
                if a.side == Side::White && a.token.contains(':') {
                    plays += 1;
                    guessed += usize::from(a.token != b.token);
                }
            }
            board.add(game.winner, game.points);
        }
        // The file reads back as the same record.
        let text = matfile::write(&seen);
        let read = matfile::read(&text, "seen.mat").expect("reads");
        assert_eq!((read.games, read.unfinished), (seen.games, seen.unfinished));
    }
    // Some plays hide their roll, but most do not.
    assert!(guessed > 0 && guessed * 2 < plays, "{guessed} of {plays}");
}

/// Boards of another match, or a first board in the middle of one, stop the record with a
/// reason instead of writing a wrong one.
#[test]
fn what_cannot_be_rebuilt_stops_the_record() {
    let options = Backgammon::parse_options(&[("cube", "on")]).unwrap();
    let at = |fen: &str| Backgammon::from_fen(fen, &options).unwrap();
    let start = "w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w 31 opening match=5";
    let mut late = Observed::new("me", "them");
    late.board(&at(&format!("{start} score=2-0")));
    assert!(late.stopped().unwrap().contains("already under way"));
    assert!(late.record().is_none());

    let mut jump = Observed::new("me", "them");
    jump.board(&at(&format!("{start} score=0-0")));
    jump.answer("8/5 6/5");
    jump.board(&at("w=6:15 b=6:15 w 31 match=5 score=0-0"));
    assert!(
        jump.stopped().unwrap().contains("cannot tell"),
        "{:?}",
        jump.stopped()
    );
    // What came before stays: the opening play.
    let record = jump.record().unwrap();
    assert_eq!(record.unfinished.len(), 1);
    assert!(record
        .comments
        .last()
        .unwrap()
        .starts_with("recording stopped"));
}

/// UBGI's plain format: one from/to pair per die, `bar` and `off`, the empty line for a roll
/// that cannot be played; cube actions unchanged; and back with the roll.
#[test]
fn plays_are_written_one_pair_per_die_and_read_back() {
    let cases = [
        ("31:8/5,6/5", "8/5 6/5"),
        ("66:bar/19,19/13,13/7,7/1", "bar/19 19/13 13/7 7/1"),
        ("21:2/off,1/off", "2/off 1/off"),
        ("64:pass", ""),
    ];
    for (token, plain) in cases {
        assert_eq!(to_plain(token), plain);
        let roll = super::move_text::parse_roll(&token[..2]).unwrap();
        assert_eq!(from_plain(roll, plain), token);
    }
    assert_eq!(to_plain("double"), "double");
    assert_eq!(to_plain("take"), "take");
}
