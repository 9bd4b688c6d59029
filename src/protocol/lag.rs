//! The time a side's clock loses beyond the engine's own thinking: pipes, the arbiter and,
//! on a loaded machine, the wait for a core. It is read off consecutive clock readings of
//! the same side (the clock before a move, less the time from `go` to `bestmove`, plus the
//! increment, against the clock the next `go` reports), and every clock search keeps back
//! the larger of it and `MoveOverhead`, so a loaded machine makes the engine careful instead
//! of late.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The most lag believed: a clock that seems to lose more in one move was reset or changed
/// by the arbiter (a new game, a new time control) rather than lost.
const MAX_LAG_MS: i64 = 1000;

/// One clock search awaiting the next reading of its side's clock.
#[derive(Debug)]
struct Pending {
    left: i64,
    increment: i64,
    /// Milliseconds from `go` to the answer; negative until the search answers.
    elapsed: Arc<AtomicI64>,
}

/// The lag estimate of each side's clock (White, Black).
#[derive(Debug, Default)]
pub(super) struct LagMeter {
    pending: [Option<Pending>; 2],
    estimate: [i64; 2],
}

impl LagMeter {
    /// A clock search of side `index` (0 White, 1 Black) starts with `left` ms on its clock:
    /// learns from the previous one of that side, and returns the lag to keep back now and
    /// the cell the search fills with its own time when it answers.
    pub fn begin(&mut self, index: usize, left: i64, increment: i64) -> (i64, Arc<AtomicI64>) {
        if let Some(previous) = self.pending[index].take() {
            let elapsed = previous.elapsed.load(Ordering::Relaxed);
            if elapsed >= 0 {
                let lag = previous.left - elapsed + previous.increment - left;
                let estimate = &mut self.estimate[index];
                // New lag counts at once; old lag fades by an eighth a move.
                *estimate = if (0..=MAX_LAG_MS).contains(&lag) {
                    lag.max(*estimate - *estimate / 8)
                } else {
                    *estimate - *estimate / 8
                };
            }
        }
        let elapsed = Arc::new(AtomicI64::new(-1));
        self.pending[index] = Some(Pending {
            left,
            increment,
            elapsed: Arc::clone(&elapsed),
        });
        (self.estimate[index], elapsed)
    }

    /// A search that is not a clock search (or a new game): the next reading has nothing
    /// to compare with.
    pub fn forget(&mut self) {
        self.pending = [None, None];
    }
}

/// Records in `cell` the milliseconds since `received`: the search's own time.
pub(super) fn finish(cell: &AtomicI64, received: Instant) {
    cell.store(received.elapsed().as_millis() as i64, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays one move of side 0: `left` on the clock, answering after `elapsed` ms.
    fn play(meter: &mut LagMeter, left: i64, elapsed: i64) -> i64 {
        let (lag, cell) = meter.begin(0, left, 10);
        cell.store(elapsed, Ordering::Relaxed);
        lag
    }

    #[test]
    fn the_clock_lost_beyond_the_search_is_kept_back() {
        let mut meter = LagMeter::default();
        assert_eq!(play(&mut meter, 1000, 50), 0);
        // 1000 - 50 + 10 would leave 960: the clock says 900, so 60 ms went elsewhere.
        assert_eq!(play(&mut meter, 900, 40), 60);
        // A punctual move: the estimate fades by an eighth.
        assert_eq!(play(&mut meter, 870, 40), 53);
        // More lag counts at once.
        assert_eq!(play(&mut meter, 740, 40), 100);
    }

    #[test]
    fn resets_and_unanswered_searches_teach_nothing() {
        let mut meter = LagMeter::default();
        play(&mut meter, 1000, 50);
        // A clock that grew (a new game) or lost seconds (a new time control): no lag.
        assert_eq!(play(&mut meter, 60_000, 50), 0);
        assert_eq!(play(&mut meter, 1000, 50), 0);
        // A search that never answered (its cell still negative) is skipped.
        let (_, _unanswered) = meter.begin(0, 960, 10);
        assert_eq!(play(&mut meter, 500, 50), 0);
        meter.forget();
        assert_eq!(play(&mut meter, 100, 50), 0);
        // The other side's clock is its own.
        assert_eq!(meter.begin(1, 1000, 10).0, 0);
    }
}
