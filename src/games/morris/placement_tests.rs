//! The placement proof search against a plain minimax over the same leaves.

use super::placement::{moves_not_lost, prove, value_keeping_moves, Bounds};
use super::proof_table::ProofTable;
use super::tablebase::{Tablebase, TbResult};
use super::{board, tables, Morris, Move, Options};
use crate::game::{Exact, Game, Proven, Side};
use std::sync::atomic::AtomicBool;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// The flying tables up to 7 men (3v3, 3v4, 4v3), built once and attached from a temporary
/// directory (a few seconds).
static TABLES: LazyLock<tables::Tables> = LazyLock::new(|| {
    let mut tb = Tablebase::new(true);
    tb.build_up_to(4, 7, |_, _, _| {});
    let dir = std::env::temp_dir().join(format!("morris-placement-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    tb.save(&dir).unwrap();
    let (tables, _) = tables::attach(&dir, true, Box::new(|_| {}));
    let tables = tables.expect("the files just written are usable");
    tables.wait();
    // Loaded into memory: the files are no longer needed.
    let _ = std::fs::remove_dir_all(&dir);
    tables
});

/// The exact range of values of `pos` for its side to move, by full-width negamax without
/// pruning or transpositions: a leaf's range from the table and the draw rules read
/// directly (a win the no-capture rule may cut is 0..1, a loss -1..0, a missing table
/// -1..1), a parent's range the best of its children's, negated.
fn minimax(pos: &Morris) -> (i8, i8) {
    if let Some(outcome) = pos.outcome() {
        let v = match outcome.winner {
            None => 0,
            Some(w) if w == pos.side_to_move() => 1,
            Some(_) => -1,
        };
        return (v, v);
    }
    let me = pos.side_to_move();
    if pos.in_hand(me) + pos.in_hand(me.opponent()) == 0 {
        let tables = TABLES.get().unwrap();
        let result = tables
            .moving
            .probe(pos.pieces(me), pos.pieces(me.opponent()));
        let nocapture = pos.options().nocapture;
        let fits = |n: u32| nocapture == 0 || pos.quiet_plies() + n <= nocapture;
        return match result {
            None => (-1, 1),
            Some(TbResult::Draw) => (0, 0),
            Some(TbResult::Win(n)) if fits(n) => (1, 1),
            Some(TbResult::Win(_)) => (0, 1),
            Some(TbResult::Loss(n)) if fits(n) => (-1, -1),
            Some(TbResult::Loss(_)) => (-1, 0),
        };
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let (mut low, mut high) = (-1, -1);
    for mv in moves {
        let mut child = pos.clone();
        child.play(mv);
        let (l, h) = minimax(&child);
        low = low.max(-h);
        high = high.max(-l);
    }
    (low, high)
}

/// A deterministic stream of numbers (xorshift), so failures replay.
struct Stream(u64);

impl Stream {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    /// `count` points chosen among those not in `taken`.
    fn points(&mut self, count: u32, taken: board::Points) -> board::Points {
        let mut set = taken;
        while (set & !taken).count_ones() < count {
            set |= 1 << self.below(24);
        }
        set & !taken
    }
}

/// Positions with pieces in hand whose placement ends in 7 men or fewer (hands of 1 or 2,
/// the side to move the one placing next), under `options`.
fn positions(seed: u64, count: usize, options: Options) -> Vec<Morris> {
    let mut stream = Stream(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let black_hand = 1 + stream.below(2) as u8;
        let side = if stream.below(2) == 0 {
            Side::White
        } else {
            Side::Black
        };
        // White places first: with White to move the hands are equal, else White has one less.
        let white_hand = if side == Side::White {
            black_hand
        } else {
            black_hand - 1
        };
        let totals = [3 + stream.below(2) as u32, 3];
        let (white_total, black_total) = if stream.below(2) == 0 {
            (totals[0], totals[1])
        } else {
            (totals[1], totals[0])
        };
        let (Some(white_board), Some(black_board)) = (
            white_total.checked_sub(u32::from(white_hand)),
            black_total.checked_sub(u32::from(black_hand)),
        ) else {
            continue;
        };
        let white = stream.points(white_board, 0);
        let black = stream.points(black_board, white);
        let quiet = stream.below(8) as u32;
        out.push(Morris::from_parts(
            [white, black],
            [white_hand, black_hand],
            side,
            quiet,
            options,
        ));
    }
    out
}

/// Positions with two men of each side on the board and two in each hand, White to move,
/// under the pure rules: unless men are taken, placement ends in the 4v4 table, which the
/// test tables do not have.
fn ending_in_4v4(seed: u64, count: usize) -> Vec<Morris> {
    let mut stream = Stream(seed);
    (0..count)
        .map(|_| {
            let white = stream.points(2, 0);
            let black = stream.points(2, white);
            Morris::from_parts([white, black], [2, 2], Side::White, 0, rules(0))
        })
        .collect()
}

fn rules(nocapture: u32) -> Options {
    Options {
        flying: true,
        repetition: 0,
        nocapture,
        tables: Some(*TABLES),
    }
}

fn proof(pos: &Morris) -> Bounds {
    prove(pos, None, &AtomicBool::new(false)).expect("tables attached, pieces in hand")
}

/// Under the pure game (no draw rules) every leaf is exact, and the proof's value is the
/// minimax value; its move keeps it.
#[test]
fn proofs_agree_with_minimax() {
    let mut values = [0; 3];
    for pos in positions(7, 300, rules(0)) {
        let (low, high) = minimax(&pos);
        assert_eq!(low, high, "{}", pos.to_fen());
        let bounds = proof(&pos);
        assert_eq!((bounds.low, bounds.high), (low, high), "{}", pos.to_fen());
        values[(low + 1) as usize] += 1;
        let best = bounds.best.expect("a move keeps the value");
        let mut child = pos.clone();
        child.play(best);
        let (l, h) = minimax(&child);
        assert_eq!((-h, -l), (low, low), "{} {best:?}", pos.to_fen());
    }
    // The sample holds every value, so the comparison is not one-sided.
    assert!(values.iter().all(|&n| n >= 10), "{values:?}");
}

/// With a short no-capture rule some table results may be cut to draws: the proof's two
/// bounds are the ends of the range the leaves allow.
#[test]
fn bounds_agree_with_minimax_under_the_draw_rules() {
    let mut open = 0;
    for pos in positions(11, 300, rules(14)) {
        let range = minimax(&pos);
        let bounds = proof(&pos);
        assert_eq!((bounds.low, bounds.high), range, "{}", pos.to_fen());
        open += usize::from(range.0 != range.1);
    }
    assert!(open >= 10, "only {open} positions with an open range");
}

/// Where placement ends in 8 men (the 4v4 table is missing) a value is proven only when
/// placement decides it, and the bounds are still those of the minimax.
#[test]
fn missing_tables_leave_values_open() {
    let mut open = 0;
    for pos in ending_in_4v4(5, 40) {
        let range = minimax(&pos);
        let bounds = proof(&pos);
        assert_eq!((bounds.low, bounds.high), range, "{}", pos.to_fen());
        open += usize::from(range == (-1, 1));
    }
    assert!(open >= 5, "only {open} open values");
}

/// `solve` (the protocol's command) reaches the proof with pieces in hand: a proven value
/// without a distance, or none while the bounds are open.
#[test]
fn solve_uses_the_proof_while_placing() {
    let stop = AtomicBool::new(false);
    for pos in positions(3, 40, rules(14)) {
        let solution = pos.solve(None, &stop).expect("the proof applies");
        let expected = match minimax(&pos) {
            (1, 1) => Some(Proven::Win(0)),
            (0, 0) => Some(Proven::Draw),
            (-1, -1) => Some(Proven::Loss(0)),
            _ => None,
        };
        assert_eq!(solution.value, expected, "{}", pos.to_fen());
        assert_eq!(solution.best.is_some(), expected.is_some());
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let start = Morris::from_parts([0, 0], [9, 9], Side::White, 0, rules(0));
    let stopped = start.solve(None, &stop).expect("the proof applies");
    assert_eq!((stopped.value, stopped.best), (None, None));
}

/// Bounds the kept table holds from earlier proofs serve later ones unchanged: with every
/// child of a position proven first (its table entries in place, open ones among them), the
/// position's own proof still finds the minimax range, and the second run is not skipped.
#[test]
fn kept_bounds_serve_later_proofs() {
    let mut open = 0;
    for options in [rules(0), rules(14)] {
        for pos in positions(17, 120, options) {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            for &mv in &moves {
                let mut child = pos.clone();
                child.play(mv);
                if child.hand != [0, 0] && child.outcome().is_none() {
                    proof(&child);
                }
            }
            let range = minimax(&pos);
            let bounds = proof(&pos);
            assert_eq!((bounds.low, bounds.high), range, "{}", pos.to_fen());
            open += usize::from(range.0 != range.1);
        }
    }
    assert!(open >= 5, "only {open} positions with an open range");
}

/// The moves `value_keeping_moves` answers, as a set: the moves whose value is at least the
/// root's lower bound with every open leaf at the root's worse end, each minimax range read
/// from the child's side.
fn expected_keepers(pos: &Morris) -> Option<Vec<Move>> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let worst: Vec<i8> = moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            -minimax(&child).1
        })
        .collect();
    let low = worst.iter().copied().max()?;
    (low > -1).then(|| {
        let mut keep: Vec<Move> = moves
            .iter()
            .zip(&worst)
            .filter(|&(_, &v)| v == low)
            .map(|(&mv, _)| mv)
            .collect();
        keep.sort_by_key(|mv| format!("{mv:?}"));
        keep
    })
}

fn keepers(pos: &Morris, deadline: Option<Instant>) -> Option<Vec<Move>> {
    let mut keep = value_keeping_moves(pos, deadline, &AtomicBool::new(false))?;
    keep.sort_by_key(|mv| format!("{mv:?}"));
    Some(keep)
}

/// The moves the search may choose while placing: exactly those keeping the best value the
/// root is sure of, with a fixed budget (a fresh table) and with a deadline (the kept
/// table), under the pure rules and a short no-capture rule; none where placement ends in a
/// missing table (4v4) unless men are taken, which leaves the time to the search.
#[test]
fn value_keeping_moves_keep_the_proven_value() {
    let later = Instant::now() + Duration::from_secs(600);
    let mut restricted = 0;
    let missing = ending_in_4v4(23, 30);
    for pos in &missing {
        assert_eq!(keepers(pos, None), None, "{}", pos.to_fen());
        assert_eq!(keepers(pos, Some(later)), None, "{}", pos.to_fen());
    }
    let samples = [positions(13, 150, rules(0)), positions(19, 150, rules(14))];
    for pos in samples.iter().flatten() {
        let expected = expected_keepers(pos);
        assert_eq!(keepers(pos, None), expected, "{}", pos.to_fen());
        assert_eq!(keepers(pos, Some(later)), expected, "{}", pos.to_fen());
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        restricted += usize::from(expected.is_some_and(|keep| keep.len() < moves.len()));
    }
    assert!(restricted >= 40, "only {restricted} positions lose a move");
}

/// What a timed search keeps when the root's value is not proven: the moves after which
/// the opponent does not win even at the worse end of every open range, when some (not all)
/// moves lose.
#[test]
fn moves_not_lost_leave_out_the_proven_losses() {
    let later = Instant::now() + Duration::from_secs(600);
    let stop = AtomicBool::new(false);
    let mut pruned = 0;
    let missing = ending_in_4v4(29, 30);
    for pos in [positions(31, 150, rules(14)), missing].iter().flatten() {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut rest: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                let mut child = pos.clone();
                child.play(mv);
                minimax(&child).0 < 1
            })
            .collect();
        rest.sort_by_key(|mv| format!("{mv:?}"));
        let expected = (!rest.is_empty() && rest.len() < moves.len()).then_some(rest);
        let mut table = ProofTable::for_position(pos);
        let mut found = moves_not_lost(pos, &mut table, later, &stop);
        if let Some(found) = found.as_mut() {
            found.sort_by_key(|mv| format!("{mv:?}"));
        }
        assert_eq!(found, expected, "{}", pos.to_fen());
        pruned += usize::from(expected.is_some());
    }
    assert!(pruned >= 20, "only {pruned} positions with a lost move");
}

/// Out of time, the moves found so far: none before the root's value is proven.
#[test]
fn value_keeping_moves_stop_at_the_deadline() {
    let start = Morris::from_parts([0, 0], [9, 9], Side::White, 0, rules(0));
    let past = Instant::now();
    assert_eq!(
        value_keeping_moves(&start, Some(past), &AtomicBool::new(false)),
        None
    );
    let stopped = AtomicBool::new(true);
    assert_eq!(value_keeping_moves(&start, None, &stopped), None);
}
