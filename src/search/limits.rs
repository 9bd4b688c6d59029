//! Search limits (`go depth/nodes/movetime/clock/movestogo/mate/searchmoves/ponder/infinite`)
//! and the time budget derived from them.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The limits of one `go`, already resolved to the side to move's clock.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration to run.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Exact time for this move, in milliseconds.
    pub movetime: Option<i64>,
    /// Time left on the mover's clock, in milliseconds (may be zero or negative).
    pub time_left: Option<i64>,
    /// The mover's increment per move, in milliseconds.
    pub increment: i64,
    /// Moves until the next time control (`movestogo`): the clock is shared among them.
    pub moves_to_go: Option<u32>,
    /// Stop once a win in at most this many of the mover's moves is proven (`mate N`).
    pub mate: Option<u32>,
    /// Only these root moves are searched (`searchmoves`): their places in the root's
    /// legal-move list, in the move generator's order, ascending. The registry resolves the
    /// protocol's move texts once, so the searches compare places, not spellings.
    pub root_moves: Option<Vec<usize>>,
    /// Search until `stop`, whatever else is given.
    pub infinite: bool,
    /// `go ponder`: no time limit until [`PonderHit::hit`], then the time limits count from
    /// that instant; the answer is held back until then (or `stop`).
    pub ponder: Option<Arc<PonderHit>>,
    /// Milliseconds kept back for communication delays (`MoveOverhead`).
    pub overhead: i64,
    /// When the `go` arrived: the time limits count from here, not from when the search
    /// thread got going (on a loaded machine that can be tens of milliseconds later).
    /// `None`: from the start of the search.
    pub received: Option<Instant>,
    /// `Variety`: a seed that shuffles root moves of equal move-order hint before the first
    /// iteration, so that among root moves of equal score and hint a random one (fixed by
    /// the seed and the position) is played, not the first the generator lists.
    pub variety: Option<u64>,
    /// Search threads (`Threads`); 0 and 1 both mean one.
    pub threads: usize,
    /// Lines to report (`MultiPV`): the best `multipv` root moves each with its score and
    /// line; 0 and 1 both mean the best only.
    pub multipv: usize,
    /// `OwnBook`: the game's opening book may answer a timed search (`movetime`, a clock).
    pub own_book: bool,
    /// The value of the position at exactly `depth` is wanted, not only the best move: a
    /// searcher that may stop early when the choice is clear (one play worth comparing)
    /// searches on, so that values averaged over the rolls all come from the same depth.
    pub value_depth: bool,
}

/// The `ponderhit` of a `go ponder` search: the instant the opponent played the expected
/// move, set once by the protocol thread and watched by the search.
#[derive(Debug, Default)]
pub struct PonderHit(OnceLock<Instant>);

impl PonderHit {
    /// The opponent played the pondered move at `at`: the clock starts.
    pub fn hit(&self, at: Instant) {
        let _ = self.0.set(at);
    }

    /// When `ponderhit` came, if it did.
    pub fn at(&self) -> Option<Instant> {
        self.0.get().copied()
    }
}

impl Limits {
    /// True when nothing but `stop` can end the search (`mate N` alone ends only when it
    /// finds the win, so it counts as unbounded).
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.time_left.is_none())
    }

    /// True while a `go ponder` search waits for `ponderhit`.
    pub fn is_pondering(&self) -> bool {
        self.ponder.as_ref().is_some_and(|p| p.at().is_none())
    }

    /// Keeps the entries of `moves` (one per root legal move, in the move generator's order)
    /// that `searchmoves` allows, in the same order.
    pub fn keep_root_moves<T>(&self, moves: &mut Vec<T>) {
        if let Some(allowed) = &self.root_moves {
            let mut place = 0;
            moves.retain(|_| {
                place += 1;
                allowed.binary_search(&(place - 1)).is_ok()
            });
        }
    }

    /// True when `score` (in moves, as `info ... score mate M` reports it) is the win `mate N`
    /// asks for.
    pub fn mate_found(&self, mate_in: Option<i32>) -> bool {
        matches!((self.mate, mate_in), (Some(n), Some(m)) if m > 0 && m as u32 <= n)
    }
}

/// When the search must stop (hard) and when it should not start a new iteration (soft),
/// as offsets from the instant the clock starts: the `go`, or the `ponderhit` of a ponder
/// search (no deadline before it).
#[derive(Clone, Debug)]
pub struct Budget {
    start: Instant,
    ponder: Option<Arc<PonderHit>>,
    hard: Option<Duration>,
    soft: Option<Duration>,
}

impl Budget {
    /// Derives the budget from the limits, counting from `start` (or from the ponderhit).
    pub fn new(limits: &Limits, start: Instant) -> Budget {
        let mut budget = Budget {
            start,
            ponder: limits.ponder.clone(),
            hard: None,
            soft: None,
        };
        if limits.infinite {
            return budget;
        }
        let mut hard: Option<i64> = None;
        let mut soft: Option<i64> = None;
        if let Some(movetime) = limits.movetime {
            let ms = movetime - limits.overhead;
            hard = Some(ms);
            soft = Some(ms);
        }
        if let Some(left) = limits.time_left {
            /// The least part of a clock kept untouched (`MoveOverhead` x 5 when more). At
            /// load 15 on two cores single answers came up to 150 ms late; with 100 ms, 1000
            /// games at 1+0.01 under two concurrent games plus other jobs lost 2-5 on time
            /// (GIPF, Cascades: long games that sit near the floor).
            const MIN_FLOOR_MS: i64 = 200;
            let overhead = limits.overhead.max(0);
            // A floor of the clock is never planned for: it absorbs the answers that come
            // late because the machine is loaded (tens of milliseconds waiting for a core).
            let spare = left - (overhead * 5).max(MIN_FLOOR_MS);
            // This move's share: 1/25 of the spare clock in sudden death, 1/N of it with N
            // moves to go, plus most of the increment, but the increment only as far as the
            // clock already holds it (it comes after the move). Never more than a quarter of
            // the spare clock, since later moves need time too, except for the last move
            // before the control (the clock refills then). The share pays for the move's
            // overhead too, so that is kept back on every move, not once from the whole clock.
            let moves = limits
                .moves_to_go
                .filter(|&n| n > 0)
                .map_or(25, |n| n.min(25)) as i64;
            let cap = if moves == 1 { spare * 3 / 4 } else { spare / 4 };
            let share = (spare / moves + limits.increment * 3 / 4).min(cap);
            let clock_soft = share - overhead;
            let clock_hard = (share * 3).min(cap) - overhead;
            hard = Some(hard.map_or(clock_hard, |h| h.min(clock_hard)));
            soft = Some(soft.map_or(clock_soft, |s| s.min(clock_soft)));
        }
        let span = |ms: i64| Duration::from_millis(ms.max(0) as u64);
        budget.hard = hard.map(span);
        budget.soft = soft.map(span);
        budget
    }

    /// The instant the clock started: `None` while a ponder search waits for `ponderhit`.
    fn clock_start(&self) -> Option<Instant> {
        match &self.ponder {
            None => Some(self.start),
            Some(ponder) => ponder.at(),
        }
    }

    /// Never search past this instant (`None`: no deadline, or not yet).
    pub fn hard(&self) -> Option<Instant> {
        Some(self.clock_start()? + self.hard?)
    }

    /// Do not begin a new iteration after this instant.
    pub fn soft(&self) -> Option<Instant> {
        Some(self.clock_start()? + self.soft?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_keeps_the_overhead_back() {
        let start = Instant::now();
        let limits = Limits {
            movetime: Some(100),
            overhead: 10,
            ..Limits::default()
        };
        let budget = Budget::new(&limits, start);
        assert_eq!(budget.hard(), Some(start + Duration::from_millis(90)));
    }

    #[test]
    fn an_empty_clock_gives_no_time() {
        let start = Instant::now();
        let limits = Limits {
            time_left: Some(-50),
            ..Limits::default()
        };
        let budget = Budget::new(&limits, start);
        assert_eq!(budget.hard(), Some(start));
    }

    #[test]
    fn moves_to_go_share_the_clock() {
        let start = Instant::now();
        let clock = |moves_to_go| {
            let limits = Limits {
                time_left: Some(10_000),
                moves_to_go,
                ..Limits::default()
            };
            let budget = Budget::new(&limits, start);
            let ms = |at: Option<Instant>| (at.unwrap() - start).as_millis();
            (ms(budget.soft()), ms(budget.hard()))
        };
        // 9800 ms above the 200 ms floor. Sudden death: 1/25 of it (hard: three times
        // that); 5 moves to go: 1/5 (hard at most a quarter of it); the last move before the
        // control may use 3/4 of it.
        assert_eq!(clock(None), (392, 1176));
        assert_eq!(clock(Some(5)), (1960, 2450));
        assert_eq!(clock(Some(1)), (7350, 7350));
        assert_eq!(clock(Some(40)), (392, 1176));
        // `movestogo 0` is how some runners say "not given": sudden death, not the last move.
        assert_eq!(clock(Some(0)), (392, 1176));
    }

    #[test]
    fn a_ponder_search_has_no_deadline_until_ponderhit() {
        let start = Instant::now();
        let ponder = Arc::new(PonderHit::default());
        let limits = Limits {
            movetime: Some(100),
            ponder: Some(Arc::clone(&ponder)),
            ..Limits::default()
        };
        let budget = Budget::new(&limits, start);
        assert!(limits.is_pondering());
        assert_eq!(budget.hard(), None);
        let hit = start + Duration::from_millis(500);
        ponder.hit(hit);
        assert!(!limits.is_pondering());
        assert_eq!(budget.hard(), Some(hit + Duration::from_millis(100)));
        assert_eq!(budget.soft(), Some(hit + Duration::from_millis(100)));
    }

    /// Milliseconds from `start` to `at` (zero when there is no limit).
    fn ms(start: Instant, at: Option<Instant>) -> i64 {
        at.map_or(0, |at| at.duration_since(start).as_millis() as i64)
    }

    /// Plays `moves` moves on a clock of `base` + `inc`, each taking `used(soft, hard)` plus
    /// `delay` (the time lost outside the search), and returns the least time left after a
    /// move (before its increment is added).
    fn least_left(base: i64, inc: i64, delay: i64, moves: usize, used: fn(i64, i64) -> i64) -> i64 {
        let start = Instant::now();
        let (mut left, mut least) = (base, base);
        for _ in 0..moves {
            let limits = Limits {
                time_left: Some(left),
                increment: inc,
                overhead: 10,
                ..Limits::default()
            };
            let budget = Budget::new(&limits, start);
            left -= used(ms(start, budget.soft()), ms(start, budget.hard())) + delay;
            least = least.min(left);
            left += inc;
        }
        least
    }

    #[test]
    fn moves_that_use_their_whole_hard_limit_never_eat_into_the_floor() {
        // Each move runs to its hard limit and loses the whole MoveOverhead besides: the
        // untouched floor (200 ms at MoveOverhead 10) is still there after every move, as
        // long as the increment pays for the overhead (without one, 400 moves lose 4 s to
        // it whatever the budget).
        for (base, inc) in [(1000, 10), (300, 10), (60_000, 10), (5000, 100)] {
            let least = least_left(base, inc, 10, 400, |_, hard| hard);
            assert!(least >= 200, "{base}+{inc}: {least} ms left");
        }
    }

    #[test]
    fn the_clock_stays_well_above_the_floor_at_one_second_plus_ten_ms() {
        // Moves that stop at the soft limit and lose the overhead settle far above the
        // 15-30 ms the old budget left (two of 125 games lost on time on a loaded machine).
        let least = least_left(1000, 10, 10, 400, |soft, _| soft);
        assert!(least >= 250, "{least} ms left");
    }

    #[test]
    fn the_increment_is_not_spent_before_it_is_on_the_clock() {
        // 210 ms left: 10 above the floor. A huge increment does not buy this move any time.
        let start = Instant::now();
        let limits = Limits {
            time_left: Some(210),
            increment: 1000,
            overhead: 10,
            ..Limits::default()
        };
        let budget = Budget::new(&limits, start);
        assert_eq!(budget.hard(), Some(start));
        assert_eq!(budget.soft(), Some(start));
    }

    #[test]
    fn the_overhead_is_kept_back_from_every_move() {
        // At 1+0.01, a move gets its share (1/25 of the spare clock plus 3/4 of the
        // increment: 800 / 25 + 7 = 39 ms) less the overhead, which every move pays.
        let start = Instant::now();
        let limits = |overhead| Limits {
            time_left: Some(1000),
            increment: 10,
            overhead,
            ..Limits::default()
        };
        let budget = Budget::new(&limits(10), start);
        assert_eq!(ms(start, budget.soft()), 39 - 10);
        assert!(ms(start, budget.hard()) <= 800 / 4 - 10);
        // MoveOverhead 100 keeps a floor of 500 ms: a share of 500 / 25 + 7 = 27 ms does
        // not pay for the overhead, so the move is answered at once.
        let budget = Budget::new(&limits(100), start);
        assert_eq!(budget.hard(), Some(start));
    }

    #[test]
    fn a_long_clock_gives_about_a_twenty_fifth() {
        let start = Instant::now();
        let limits = Limits {
            time_left: Some(60_000),
            overhead: 10,
            ..Limits::default()
        };
        let soft = ms(start, Budget::new(&limits, start).soft());
        assert!((2300..=2400).contains(&soft), "{soft}");
    }

    #[test]
    fn bare_go_is_unbounded() {
        assert!(Limits::default().is_unbounded());
        let depth = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        assert!(!depth.is_unbounded());
        let mate = Limits {
            mate: Some(2),
            ..Limits::default()
        };
        assert!(mate.is_unbounded());
    }

    #[test]
    fn root_moves_and_mate() {
        let limits = Limits {
            root_moves: Some(vec![1, 3]),
            mate: Some(2),
            ..Limits::default()
        };
        let mut moves = vec!["a1", "b2", "c3", "d4", "e5"];
        limits.keep_root_moves(&mut moves);
        assert_eq!(moves, ["b2", "d4"]);
        let mut all = vec!["c3"];
        Limits::default().keep_root_moves(&mut all);
        assert_eq!(all, ["c3"]);
        assert!(limits.mate_found(Some(2)) && !limits.mate_found(Some(3)));
        assert!(!limits.mate_found(Some(-1)) && !limits.mate_found(None));
    }
}
