//! The placement proof search against a plain minimax over the same leaves.

use super::placement::{prove, value_keeping_moves, Bounds};
use super::tablebase::{Tablebase, TbResult};
use super::{board, tables, Morris, Options};
use crate::game::{Exact, Game, Proven, Side};
use std::sync::atomic::AtomicBool;
use std::sync::LazyLock;

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
        let result = tables.probe(pos.pieces(me), pos.pieces(me.opponent()));
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
    let mut stream = Stream(5);
    let mut open = 0;
    for _ in 0..40 {
        let white = stream.points(2, 0);
        let black = stream.points(2, white);
        let pos = Morris::from_parts([white, black], [2, 2], Side::White, 0, rules(0));
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

/// The moves the search may choose near the end of placement: exactly those whose minimax
/// value is the best, when all values are exact and not all lose.
#[test]
fn value_keeping_moves_are_the_minimax_best() {
    let mut restricted = 0;
    for pos in positions(13, 200, rules(0)) {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let values: Vec<i8> = moves
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.play(mv);
                -minimax(&child).0
            })
            .collect();
        let best = values.iter().copied().max().unwrap();
        let expected: Vec<_> = moves
            .iter()
            .zip(&values)
            .filter(|&(_, &v)| v == best)
            .map(|(&mv, _)| mv)
            .collect();
        let kept = value_keeping_moves(&pos);
        if best == -1 {
            assert_eq!(kept, None, "{}", pos.to_fen());
        } else {
            assert_eq!(kept.as_ref(), Some(&expected), "{}", pos.to_fen());
            restricted += usize::from(expected.len() < moves.len());
        }
    }
    assert!(restricted >= 20, "only {restricted} positions lose a move");
}
