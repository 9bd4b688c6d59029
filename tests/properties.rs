//! Seeded property tests from random positions of every game, with per-game rules read from the
//! public position strings (never from the engine's internals):
//! - a random position (random plies from the start, rolls included) written with `fen` and
//!   loaded into a fresh game gives the same string and the same legal moves;
//! - from there a random game goes on; at every ply, for every listed move (up to a bound):
//!   the move applies, the text of the applied move played on a reloaded copy of the parent
//!   gives the same position, and the pieces change exactly as the game's rules say;
//! - `undo` gives the position back, `perft 1` counts the listed moves;
//! - the game is over exactly when no move is listed, and every rule that ends a game (read
//!   from the position string) agrees with the reported outcome.
//!
//! `conformance.rs` runs the generic battery from the start; this file adds what depends on
//! each game's rules. Run time is bounded by the constants below (a few seconds).

use tabula::registry::{new_game, AnyGame, GAMES};
use tabula::util::rng::Rng;

/// Random positions per game.
const POSITIONS_PER_GAME: u64 = 48;
/// At most this many random plies reach a start position for the checks.
const MAX_LEAD_IN: u64 = 80;
/// Plies played (and checked) after the reload.
const CHECKED_PLIES: usize = 40;
/// Listed moves checked in full at each position.
const MOVES_PER_POSITION: usize = 24;

/// Pieces of White and Black that the rules keep track of, read from a position string.
fn pieces(game: &str, fen: &str) -> [i64; 2] {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let count = |text: &str, c: char| text.chars().filter(|&x| x == c).count() as i64;
    let number = |i: usize| -> i64 { fields[i].parse().expect("a number field") };
    match game {
        // Pieces on the board.
        "bombardment" | "cascades" => [count(fields[0], 'w'), count(fields[0], 'b')],
        // Board plus hand.
        "morris" => [
            count(fields[0], 'W') + number(2),
            count(fields[0], 'B') + number(3),
        ],
        // Board plus reserve.
        "gipf" => [
            count(fields[0], 'w') + number(2),
            count(fields[0], 'b') + number(3),
        ],
        // Checkers on the points and the bar (those borne off are not written).
        "backgammon" => {
            let side = |label: &str| -> i64 {
                let field = fields
                    .iter()
                    .find_map(|f| f.strip_prefix(label))
                    .expect("both sides are written");
                field
                    .split(',')
                    .filter(|s| !s.is_empty() && *s != "-")
                    .map(|s| {
                        let n = s.split(':').nth(1);
                        n.unwrap_or_else(|| panic!("point:count in {fen}"))
                            .parse::<i64>()
                            .unwrap()
                    })
                    .sum()
            };
            [side("w="), side("b=")]
        }
        other => panic!("no piece rule for {other}"),
    }
}

/// Index 0 when White is to move, 1 for Black.
fn mover(game: &str, fen: &str) -> usize {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let side = match game {
        "backgammon" => fields[2],
        _ => fields[1],
    };
    match side {
        "w" => 0,
        "b" => 1,
        other => panic!("{game}: side field {other:?} in {fen}"),
    }
}

/// The Bombardment board as rows from the top, one char per square.
fn bombardment_rows(fen: &str) -> Vec<Vec<char>> {
    let board = fen.split_whitespace().next().unwrap();
    board
        .split('/')
        .map(|rank| {
            let mut row = Vec::new();
            let mut digits = String::new();
            for c in rank.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                } else {
                    if !digits.is_empty() {
                        row.extend(std::iter::repeat_n('.', digits.parse().unwrap()));
                        digits.clear();
                    }
                    row.push(c);
                }
            }
            if !digits.is_empty() {
                row.extend(std::iter::repeat_n('.', digits.parse().unwrap()));
            }
            row
        })
        .collect()
}

/// What the pieces of each side must be after `token` is played from `before`, by the rules.
fn expected_after(game: &str, before: &str, token: &str) -> [i64; 2] {
    let mut counts = pieces(game, before);
    let me = mover(game, before);
    match game {
        // A step keeps every piece; a detonation removes every piece on its 3x3 block.
        "bombardment" => {
            if let Some(square) = token.strip_prefix('x') {
                let rows = bombardment_rows(before);
                let size = rows.len() as i64;
                let file = (square.as_bytes()[0] - b'a') as i64;
                let rank: i64 = square[1..].parse().unwrap();
                let row = size - rank;
                for r in row - 1..=row + 1 {
                    for f in file - 1..=file + 1 {
                        if (0..size).contains(&r) && (0..size).contains(&f) {
                            match rows[r as usize][f as usize] {
                                'w' => counts[0] -= 1,
                                'b' => counts[1] -= 1,
                                _ => {}
                            }
                        }
                    }
                }
            }
        }
        // The mover keeps its pieces (placing moves one from hand to board); a capture takes
        // exactly one of the opponent's.
        "morris" => counts[1 - me] -= token.contains('x') as i64,
        // Stones are only ever added: one per cell named.
        "cascades" => {
            if token != "pass" {
                counts[me] += token.split(',').count() as i64;
            }
        }
        // Checked by conservation with the captured counts instead (see `gipf_conserves`).
        "gipf" => {}
        // The mover loses exactly the checkers it bears off; a hit only moves the opponent's
        // checker to the bar.
        "backgammon" => counts[me] -= borne_off(token),
        other => panic!("no move rule for {other}"),
    }
    counts
}

/// Checkers a backgammon play bears off: each `/off` step, times its `(n)` repeat if any.
fn borne_off(token: &str) -> i64 {
    let Some((_, steps)) = token.split_once(':') else {
        return 0;
    };
    steps
        .split(',')
        .filter(|step| step.contains("/off"))
        .map(|step| {
            step.split_once('(')
                .map_or(1, |(_, n)| n.trim_end_matches(')').parse().unwrap())
        })
        .sum()
}

/// GIPF (basic game): each side's pieces on the board, in reserve, and captured by the
/// opponent always add up to 15; captured counts never go down.
fn gipf_conserves(fen: &str) -> [i64; 2] {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let captured = |i: usize| -> i64 { fields[i].parse().unwrap() };
    let [white, black] = pieces("gipf", fen);
    [white + captured(5), black + captured(4)]
}

/// Rules that end the game, read from the position string: `Some(true)` when the rules say
/// the game is over, `Some(false)` when they say it goes on, `None` when the string alone
/// cannot tell (history-dependent draws, blocked positions).
fn rules_say_over(game: &str, fen: &str) -> Option<bool> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let [white, black] = pieces(game, fen);
    match game {
        // Exactly: a side without pieces, or a piece on its far rank.
        "bombardment" => {
            let rows = bombardment_rows(fen);
            let far = rows[0].contains(&'w') || rows[rows.len() - 1].contains(&'b');
            Some(white == 0 || black == 0 || far)
        }
        // Exactly: one side has borne off all 15.
        "backgammon" => Some(white == 0 || black == 0),
        // Fewer than three pieces loses; otherwise blocked/draw rules may still end it.
        "morris" => (white < 3 || black < 3).then_some(true),
        // Two passes in a row end it; otherwise a full board may.
        "cascades" => (fields[2] == "2").then_some(true),
        // The side to move with pieces in reserve can always push.
        "gipf" => {
            let reserve: i64 = fields[2 + mover(game, fen)].parse().unwrap();
            (reserve > 0).then_some(false)
        }
        other => panic!("no end rule for {other}"),
    }
}

/// Plays `plies` random moves (rolling dice when due); stops early at the end of the game.
fn random_plies(game: &mut dyn AnyGame, plies: u64, rng: &mut Rng) {
    for _ in 0..plies {
        if game.awaits_chance() {
            game.roll(rng).expect("a pending roll can be rolled");
        }
        let legal = game.legal_moves();
        if legal.is_empty() {
            return;
        }
        let pick = &legal[rng.below(legal.len() as u64) as usize];
        game.play(pick).expect("listed move plays");
    }
}

/// A fresh game of `name` set to `fen`.
fn reload(name: &str, fen: &str) -> Box<dyn AnyGame> {
    let mut game = new_game(name, &[], 1).expect("builds");
    game.set_position(Some(fen), &[])
        .unwrap_or_else(|e| panic!("{name}: {fen} does not load: {e}"));
    game
}

/// Checks one position and every listed move (up to the bound); returns the moves checked.
fn check_position(game: &dyn AnyGame, name: &str) -> u64 {
    let fen = game.fen();
    let legal = game.legal_moves();
    let outcome = game.outcome();
    assert_eq!(
        outcome.is_some(),
        legal.is_empty(),
        "{name} {fen}: over exactly when no move"
    );
    assert_eq!(game.perft(1), legal.len() as u64, "{name} {fen}: perft 1");
    if let Some(over) = rules_say_over(name, &fen) {
        assert_eq!(
            outcome.is_some(),
            over,
            "{name} {fen}: the end rule disagrees ({outcome:?})"
        );
    }
    if name == "gipf" {
        assert_eq!(
            gipf_conserves(&fen),
            [15, 15],
            "{name} {fen}: pieces not conserved"
        );
    }
    if name == "backgammon" {
        let [white, black] = pieces(name, &fen);
        assert!(
            (0..=15).contains(&white) && (0..=15).contains(&black),
            "{fen}"
        );
    }
    let mut checked = 0;
    for token in legal.iter().take(MOVES_PER_POSITION) {
        let mut child = game.boxed_clone();
        child
            .play(token)
            .unwrap_or_else(|e| panic!("{name} {fen}: listed {token} refused: {e}"));
        let after = child.fen();
        let text = child.last_move().expect("a move was played");
        // The applied move's text, read again by a game that only knows the position string.
        let mut again = reload(name, &fen);
        again
            .play(&text)
            .unwrap_or_else(|e| panic!("{name} {fen}: text {text} of {token} refused: {e}"));
        assert_eq!(again.fen(), after, "{name} {fen}: {text} read back differs");
        assert!(child.undo(), "{name} {fen}: undo after {token}");
        assert_eq!(child.fen(), fen, "{name} {fen}: undo after {token}");
        if name == "gipf" {
            let [before_w, before_b] = gipf_captured(&fen);
            let [after_w, after_b] = gipf_captured(&after);
            assert!(after_w >= before_w && after_b >= before_b, "{fen} {token}");
        } else {
            assert_eq!(
                pieces(name, &after),
                expected_after(name, &fen, &text),
                "{name} {fen}: pieces after {text}"
            );
        }
        checked += 1;
    }
    checked
}

/// GIPF's captured counts (White's, Black's).
fn gipf_captured(fen: &str) -> [i64; 2] {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    [fields[4].parse().unwrap(), fields[5].parse().unwrap()]
}

#[test]
fn random_positions_of_every_game_follow_the_rules() {
    let (mut positions, mut moves) = (0u64, 0u64);
    for entry in GAMES {
        for seed in 0..POSITIONS_PER_GAME {
            let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9) ^ 0xC0FFEE);
            let mut original = (entry.new)(&[], 1).expect("default options build");
            let lead_in = rng.below(MAX_LEAD_IN + 1);
            random_plies(original.as_mut(), lead_in, &mut rng);
            let fen = original.fen();
            let mut game = reload(entry.name, &fen);
            assert_eq!(game.fen(), fen, "{}: fen round trip", entry.name);
            if original.outcome().is_none_or(|o| o.reason != "repetition") {
                assert_eq!(game.legal_moves(), original.legal_moves(), "{fen}");
            }
            for _ in 0..CHECKED_PLIES {
                if game.awaits_chance() {
                    game.roll(&mut rng).expect("a pending roll can be rolled");
                }
                moves += check_position(game.as_ref(), entry.name);
                positions += 1;
                let legal = game.legal_moves();
                if legal.is_empty() {
                    break;
                }
                game.play(&legal[rng.below(legal.len() as u64) as usize])
                    .expect("listed move plays");
            }
        }
    }
    println!("{positions} positions and {moves} moves checked");
    assert!(
        positions > 1000,
        "the battery ran too few cases: {positions}"
    );
}

#[test]
fn the_piece_rules_read_positions_right() {
    // Independent checks of the readers on hand-written positions.
    assert_eq!(
        pieces(
            "bombardment",
            "bbbbbbbb/bbbbbbbb/8/8/8/8/wwwwwwww/wwwwwwww w"
        ),
        [16, 16]
    );
    assert_eq!(
        expected_after("bombardment", "8/8/8/8/8/2b5/1www4/8 w", "xc2"),
        [0, 0]
    );
    assert_eq!(
        pieces("morris", ".../.../.../....../.../.../... w 9 9 0"),
        [9, 9]
    );
    assert_eq!(
        pieces("backgammon", "w=bar:2,6:3 b=24:2,13:5,8:3,6:5 w -"),
        [5, 15]
    );
    assert_eq!(borne_off("64:6/off,5/1"), 1);
    assert_eq!(borne_off("66:6/off(4)"), 4);
    assert_eq!(gipf_conserves("b2w/5/6/w5b/6/5/b2w w 12 12 0 0"), [15, 15]);
    assert_eq!(
        rules_say_over("bombardment", "w7/8/8/8/8/8/8/b7 b"),
        Some(true)
    );
}
