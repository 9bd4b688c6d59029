//! GIPF playing strength and game statistics (issue 5, "must show").
//!
//! The matches take minutes, so they are ignored by default; run them with
//! `cargo test --release --test strength gipf_play:: -- --ignored --nocapture`. Results are in docs/gipf.md.

use std::sync::atomic::AtomicBool;
use tabula::game::{Game, Side};
use tabula::games::gipf::{Gipf, Move, Options, Variant};
use tabula::search::{search, Limits, Table};
use tabula::util::rng::Rng;

/// Who chooses the moves of one side.
#[derive(Copy, Clone)]
enum Player {
    Random,
    Depth(u32),
    MoveTime(i64),
}

fn choose(pos: &Gipf, player: Player, table: &Table, rng: &mut Rng) -> Move {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let limits = match player {
        Player::Random => return moves[rng.below(moves.len() as u64) as usize],
        Player::Depth(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        Player::MoveTime(ms) => Limits {
            movetime: Some(ms),
            ..Limits::default()
        },
    };
    let stop = AtomicBool::new(false);
    search(pos, &limits, table, &stop, &mut |_| {})
        .best
        .expect("a legal move")
}

/// Games still running after this many plies are stopped and count as lost for both sides:
/// in basic GIPF two careful players can recycle their pieces for ever.
const MAX_PLIES: usize = 600;

/// Plays one game from `pos`; returns the winner (`None` when stopped), the plies played and
/// the reason the game ended.
fn play(
    mut pos: Gipf,
    white: Player,
    black: Player,
    rng: &mut Rng,
) -> (Option<Side>, usize, &'static str) {
    let tables = [Table::new(16), Table::new(16)];
    let mut plies = 0;
    loop {
        if let Some(outcome) = pos.outcome() {
            return (outcome.winner, plies, outcome.reason);
        }
        if plies >= MAX_PLIES {
            println!("stopped: {}", pos.to_fen());
            return (None, plies, "stopped");
        }
        let side = pos.side_to_move();
        let player = if side == Side::White { white } else { black };
        let mv = choose(&pos, player, &tables[side.index()], rng);
        pos.play(mv);
        plies += 1;
    }
}

/// A start position of `variant` after `n` random plies, so that deterministic players vary
/// their games.
fn opening(variant: Variant, rng: &mut Rng, n: usize) -> Gipf {
    let mut pos = Gipf::start(&Options { variant });
    for _ in 0..n {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        pos.play(moves[rng.below(moves.len() as u64) as usize]);
    }
    pos
}

/// Runs `games` basic games, the tested player alternating colours; returns its score.
fn match_score(games: usize, tested: Player, other: Player, random_plies: usize) -> f64 {
    variant_match_score(Variant::Basic, games, tested, other, random_plies)
}

/// Runs `games` games of `variant`, the tested player alternating colours; returns its score
/// in points and prints how the games ended.
fn variant_match_score(
    variant: Variant,
    games: usize,
    tested: Player,
    other: Player,
    random_plies: usize,
) -> f64 {
    let mut rng = Rng::new(20261122);
    let mut won = 0;
    let mut reasons = std::collections::BTreeMap::new();
    let mut plies = 0;
    for g in 0..games {
        let pos = opening(variant, &mut rng, random_plies);
        let tested_side = if g % 2 == 0 { Side::White } else { Side::Black };
        let (white, black) = if tested_side == Side::White {
            (tested, other)
        } else {
            (other, tested)
        };
        let (winner, n, reason) = play(pos, white, black, &mut rng);
        *reasons.entry(reason).or_insert(0) += 1;
        plies += n;
        if winner == Some(tested_side) {
            won += 1;
        }
    }
    println!(
        "{}: won {won} of {games}, average game length {:.1} plies, ends {reasons:?}",
        variant.name(),
        plies as f64 / games as f64
    );
    won as f64 / games as f64
}

#[test]
#[ignore]
fn movetime_100_beats_random() {
    assert_eq!(
        match_score(100, Player::MoveTime(100), Player::Random, 0),
        1.0
    );
}

#[test]
#[ignore]
fn movetime_100_beats_depth_1() {
    assert!(match_score(40, Player::MoveTime(100), Player::Depth(1), 4) >= 0.8);
}

/// Branching factor and game length over random games and depth-1 self-play.
#[test]
#[ignore]
fn branching_factor_and_game_length() {
    let mut rng = Rng::new(7);
    for (label, player) in [("random", Player::Random), ("depth 1", Player::Depth(1))] {
        let (mut plies, mut moves_total, mut with_choices) = (0usize, 0usize, 0usize);
        let mut unfinished = 0;
        let games = 100;
        for g in 0..games {
            let mut pos = opening(Variant::Basic, &mut rng, if g % 2 == 0 { 2 } else { 3 });
            let table = Table::new(4);
            let mut game_plies = 0;
            while pos.outcome().is_none() {
                game_plies += 1;
                if game_plies > 1000 {
                    unfinished += 1;
                    break;
                }
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                moves_total += moves.len();
                with_choices += moves
                    .iter()
                    .filter(|&&m| pos.format_move(m).contains('x'))
                    .count();
                let mv = choose(&pos, player, &table, &mut rng);
                pos.play(mv);
                plies += 1;
            }
        }
        println!(
            "{label}: {games} games ({unfinished} stopped at 1000 plies), average length {:.1} \
             plies, average branching {:.2}, moves with a written choice {:.3}%",
            plies as f64 / games as f64,
            moves_total as f64 / plies as f64,
            100.0 * with_choices as f64 / moves_total as f64
        );
    }
}

/// Quick smoke test of the same code paths (runs in CI).
#[test]
fn depth_2_beats_random_in_a_few_games() {
    assert_eq!(match_score(4, Player::Depth(2), Player::Random, 0), 1.0);
}

/// Self-play at equal strength: how long do games between two searching players last?
#[test]
#[ignore]
fn self_play_length() {
    match_score(6, Player::MoveTime(50), Player::MoveTime(50), 4);
}

/// `go movetime 100` against a random mover in the standard game (results in docs/gipf.md).
#[test]
#[ignore]
fn standard_movetime_100_beats_random() {
    let score = variant_match_score(
        Variant::Standard,
        20,
        Player::MoveTime(100),
        Player::Random,
        0,
    );
    assert_eq!(score, 1.0);
}

/// `go movetime 100` against a random mover in the tournament game (results in docs/gipf.md).
#[test]
#[ignore]
fn tournament_movetime_100_beats_random() {
    let score = variant_match_score(
        Variant::Tournament,
        20,
        Player::MoveTime(100),
        Player::Random,
        0,
    );
    assert_eq!(score, 1.0);
}

/// Quick smoke test of the variants' search paths (runs in CI).
#[test]
fn variants_depth_2_beat_random_in_a_few_games() {
    for variant in [Variant::Standard, Variant::Tournament] {
        assert_eq!(
            variant_match_score(variant, 2, Player::Depth(2), Player::Random, 0),
            1.0
        );
    }
}

/// `go movetime 100` against `go depth 1` in both variants, 4 random opening plies (results
/// in docs/gipf.md).
#[test]
#[ignore]
fn variants_movetime_100_beat_depth_1() {
    for variant in [Variant::Standard, Variant::Tournament] {
        let score = variant_match_score(variant, 20, Player::MoveTime(100), Player::Depth(1), 4);
        assert!(score >= 0.8, "{}: {score}", variant.name());
    }
}
