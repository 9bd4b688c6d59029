//! The proof search on the small boards (values also recorded in docs/cascades.md), and a
//! cross-check of the proof search against a plain minimax on the smallest ones.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tabula::game::{Exact, Game, Proven};
use tabula::games::cascades::board::{Adjacency, Geometry};
use tabula::games::cascades::prove::prove_start;
use tabula::games::cascades::solver::Solver;
use tabula::games::cascades::Cascades;

fn board(width: u8, rows: u8, adjacency: Adjacency) -> Geometry {
    Geometry {
        width,
        rows,
        adjacency,
    }
}

/// Plain minimax without pruning or shortcuts, memoised on the position string: the value
/// for the side to move.
fn minimax(position: &Cascades, memo: &mut HashMap<String, i8>) -> i8 {
    let fen = position.to_fen();
    if let Some(&value) = memo.get(&fen) {
        return value;
    }
    let value = minimax_uncached(position, memo);
    memo.insert(fen, value);
    value
}

fn minimax_uncached(position: &Cascades, memo: &mut HashMap<String, i8>) -> i8 {
    if let Some(outcome) = position.outcome() {
        return match outcome.winner {
            None => 0,
            Some(w) if w == position.side_to_move() => 1,
            Some(_) => -1,
        };
    }
    let mut moves = vec![];
    position.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = position.clone();
            child.play(mv);
            -minimax(&child, memo)
        })
        .max()
        .unwrap()
}

#[test]
fn small_boards_have_the_recorded_values() {
    let deadline = Instant::now() + Duration::from_secs(60);
    let expected = [
        (2, 2, Adjacency::SideBelow, 1),
        (2, 2, Adjacency::Below, 1),
        (3, 3, Adjacency::SideBelow, -1),
        (3, 3, Adjacency::Below, -1),
        (4, 4, Adjacency::SideBelow, 1),
        (4, 4, Adjacency::Below, 1),
    ];
    for (width, rows, adjacency, value) in expected {
        let report = prove_start(board(width, rows, adjacency), deadline);
        assert_eq!(report.value, Some(value), "{}", report.table_row());
    }
}

#[test]
fn the_proof_search_agrees_with_plain_minimax() {
    for (width, rows) in [(2, 2), (3, 2), (2, 3), (3, 3), (4, 2), (2, 4), (4, 3)] {
        for adjacency in [Adjacency::SideBelow, Adjacency::Below] {
            let start = Cascades::start(&board(width, rows, adjacency));
            let mut memo = HashMap::new();
            let proof = Solver::new(u64::MAX, None).solve(&start).unwrap();
            assert_eq!(
                proof.value,
                minimax(&start, &mut memo),
                "{width}x{rows} {adjacency:?}"
            );
            // The proven move keeps the value.
            let mut after = start.clone();
            after.play(proof.best.unwrap());
            assert_eq!(-minimax(&after, &mut memo), proof.value);
        }
    }
}

/// The values `go` trusts (`proven_value`: wins in one and small endgames) match plain
/// minimax along random games.
#[test]
fn proven_values_match_plain_minimax() {
    let mut seed = 11u64;
    let mut checked = 0;
    for (width, rows) in [(3, 3), (4, 3), (3, 4), (5, 3)] {
        for adjacency in [Adjacency::SideBelow, Adjacency::Below] {
            let mut memo = HashMap::new();
            for _ in 0..5 {
                let mut p = Cascades::start(&board(width, rows, adjacency));
                while p.outcome().is_none() {
                    if let Some(proven) = p.proven_value() {
                        let value = match proven {
                            Proven::Win(_) => 1,
                            Proven::Draw => 0,
                            Proven::Loss(_) => -1,
                        };
                        assert_eq!(value, minimax(&p, &mut memo), "{}", p.to_fen());
                        checked += 1;
                    }
                    let mut moves = vec![];
                    p.legal_moves(&mut moves);
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let pick = 1 + (seed >> 33) as usize % (moves.len() - 1).max(1);
                    p.play(moves[pick.min(moves.len() - 1)]);
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} proven positions");
}

/// `Game::solve` (the protocol's `solve`) answers with the proof search: values agree with
/// plain minimax, the move keeps the value, and the deadline and the stop flag end it with an
/// unknown value instead of a fallback to the generic search.
#[test]
fn game_solve_proves_honours_the_deadline_and_stops() {
    let idle = AtomicBool::new(false);
    for (width, rows) in [(3, 3), (4, 3), (2, 4)] {
        let start = Cascades::start(&board(width, rows, Adjacency::SideBelow));
        let mut memo = HashMap::new();
        let expected = minimax(&start, &mut memo);
        let solution = start.solve(None, &idle).expect("cascades has a solver");
        let value = match solution.value.expect("proven") {
            Proven::Win(_) => 1,
            Proven::Draw => 0,
            Proven::Loss(_) => -1,
        };
        assert_eq!(value, expected, "{width}x{rows}");
        let mut after = start.clone();
        after.play(solution.best.expect("a move"));
        assert_eq!(-minimax(&after, &mut memo), expected);
    }
    // The 8x8 start is far beyond the solver: a stop flag or a past deadline ends it.
    let big = Cascades::start(&Geometry::default());
    let stopped = AtomicBool::new(true);
    let solution = big.solve(None, &stopped).expect("cascades has a solver");
    assert_eq!((solution.value, solution.best), (None, None));
    assert!(solution.nodes <= 4096 + 1, "{}", solution.nodes);
    let clock = Instant::now();
    let solution = big
        .solve(Some(clock + Duration::from_millis(200)), &idle)
        .expect("cascades has a solver");
    assert_eq!(solution.value, None);
    assert!(clock.elapsed() < Duration::from_secs(5));
}
