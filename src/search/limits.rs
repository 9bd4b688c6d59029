//! Search limits (`go depth/nodes/movetime/clock/infinite`) and the time budget derived from them.

use std::time::{Duration, Instant};

/// The limits of one `go`, already resolved to the side to move's clock.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// Search until `stop`, whatever else is given.
    pub infinite: bool,
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
}

impl Limits {
    /// True when nothing but `stop` can end the search.
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.time_left.is_none())
    }
}

/// When the search must stop (hard) and when it should not start a new iteration (soft).
#[derive(Copy, Clone, Debug)]
pub struct Budget {
    /// Never search past this instant.
    pub hard: Option<Instant>,
    /// Do not begin a new iteration after this instant.
    pub soft: Option<Instant>,
}

impl Budget {
    /// Derives the budget from the limits, counting from `start`.
    pub fn new(limits: &Limits, start: Instant) -> Budget {
        if limits.infinite {
            return Budget {
                hard: None,
                soft: None,
            };
        }
        let at = |ms: i64| start + Duration::from_millis(ms.max(0) as u64);
        let mut hard: Option<i64> = None;
        let mut soft: Option<i64> = None;
        if let Some(movetime) = limits.movetime {
            let ms = movetime - limits.overhead;
            hard = Some(ms);
            soft = Some(ms);
        }
        if let Some(left) = limits.time_left {
            let usable = left - limits.overhead;
            // A slice of the clock plus most of the increment, never more than half of it.
            let slice = (usable / 25 + limits.increment * 3 / 4).min(usable / 2);
            let clock_hard = (slice * 3).min(usable / 2);
            hard = Some(hard.map_or(clock_hard, |h| h.min(clock_hard)));
            soft = Some(soft.map_or(slice, |s| s.min(slice)));
        }
        Budget {
            hard: hard.map(at),
            soft: soft.map(at),
        }
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
        assert_eq!(budget.hard, Some(start + Duration::from_millis(90)));
    }

    #[test]
    fn an_empty_clock_gives_no_time() {
        let start = Instant::now();
        let limits = Limits {
            time_left: Some(-50),
            ..Limits::default()
        };
        let budget = Budget::new(&limits, start);
        assert_eq!(budget.hard, Some(start));
    }

    #[test]
    fn bare_go_is_unbounded() {
        assert!(Limits::default().is_unbounded());
        let depth = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        assert!(!depth.is_unbounded());
    }
}
