//! What the input reader has read ahead of the session that matters to a running search:
//! `stop` and `quit` lines (which end a search the session is waiting for, so a long bounded
//! search never keeps them waiting) and `wait` lines (which shield the search they wait for
//! from the `stop` and `quit` lines after them: those act only when their turn comes).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// One line that matters, in input order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mark {
    /// `stop` or `quit`.
    Interrupt,
    /// `wait`.
    Wait,
}

impl Mark {
    fn of(line: &str) -> Option<Mark> {
        // Trimmed as the parser trims: `stop` with a vertical tab is an unknown command.
        match super::parse::trimmed(line) {
            "stop" | "quit" => Some(Mark::Interrupt),
            "wait" => Some(Mark::Wait),
            _ => None,
        }
    }
}

/// The `stop`, `quit` and `wait` lines the reader has read and the session not yet handled,
/// in order (shared between the reader thread and the session).
#[derive(Clone, Default)]
pub struct PendingStops(Arc<Mutex<VecDeque<Mark>>>);

impl PendingStops {
    fn marks(&self) -> std::sync::MutexGuard<'_, VecDeque<Mark>> {
        self.0.lock().unwrap_or_else(|poison| poison.into_inner())
    }

    /// The reader calls this for every line it reads, before the session sees it.
    pub fn note(&self, line: &str) {
        if let Some(mark) = Mark::of(line) {
            self.marks().push_back(mark);
        }
    }

    /// The session calls this for every line it handles, in the order they were read.
    pub(super) fn handled(&self, line: &str) {
        if let Some(mark) = Mark::of(line) {
            let mut marks = self.marks();
            if marks.front() == Some(&mark) {
                marks.pop_front();
            }
        }
    }

    /// True when a `stop` or `quit` waits in the input with no `wait` before it: the search
    /// the session is waiting for should end now.
    pub(super) fn interrupt_ahead(&self) -> bool {
        self.marks().front() == Some(&Mark::Interrupt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_shields_the_search_from_later_stops() {
        let pending = PendingStops::default();
        for line in ["go movetime 200", "wait", "quit"] {
            pending.note(line);
        }
        pending.handled("go movetime 200");
        assert!(!pending.interrupt_ahead());
        pending.handled("wait");
        assert!(pending.interrupt_ahead());
        pending.handled("quit");
        assert!(!pending.interrupt_ahead());
    }

    #[test]
    fn a_stop_before_any_wait_acts_at_once() {
        let pending = PendingStops::default();
        for line in ["position startpos", " stop ", "wait", "stop"] {
            pending.note(line);
        }
        assert!(pending.interrupt_ahead());
        pending.handled(" stop ");
        assert!(!pending.interrupt_ahead());
    }
}
