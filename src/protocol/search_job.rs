//! The search thread: one job at a time (`go`, `solve`, `perft`, `divide`) runs on a thread
//! of its own, on a copy of the game, so the input is read and answered meanwhile. This
//! module starts, stops and joins jobs; the session decides which commands wait for them.

use super::response::{Output, Response};
use crate::registry::AnyGame;
use crate::search::PonderHit;
use crate::util::threads::spawn_with;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A job running on the search thread.
pub(super) struct SearchJob {
    stop: Arc<AtomicBool>,
    /// `None` when no thread could be started and the job was answered at once.
    handle: Option<JoinHandle<()>>,
    /// Only `stop` ends it (`go infinite`, a bare `go`, `go mate N` alone).
    unbounded: bool,
    /// The ponderhit signal of a `go ponder` search.
    ponder: Option<Arc<PonderHit>>,
    /// `isready` waits for its answer (a count: `perft`, `divide`).
    ready_waits: bool,
}

/// How a job ends, for [`SearchJob::start`].
pub(super) struct Ending {
    /// Nothing but `stop` ends it.
    pub unbounded: bool,
    /// `go ponder`: endless until `ponderhit`.
    pub ponder: Option<Arc<PonderHit>>,
    /// `isready` waits for its answer: the conformance counts (`perft`, `divide`), which
    /// tools follow with `isready` to know the count has come (searches answer at once).
    pub ready_waits: bool,
}

impl SearchJob {
    /// Runs `work` on a copy of `game` on a new thread; the response it returns ends the job
    /// (it is printed and the search marked finished in one step, so a `go` right after it
    /// is never refused).
    pub fn start<F>(game: &dyn AnyGame, out: &Output, ending: Ending, work: F) -> SearchJob
    where
        F: FnOnce(&dyn AnyGame, &AtomicBool, &Output) -> Response + Send + 'static,
    {
        let stop = Arc::new(AtomicBool::new(false));
        let game = game.boxed_clone();
        let thread_out = out.clone();
        let flag = Arc::clone(&stop);
        out.begin_search();
        let task = (work, game, flag, thread_out);
        let handle = match spawn_with("search", task, run_task) {
            Ok(handle) => Some(handle),
            Err((task, error)) => {
                // The system refused a thread (a thread or memory limit): the job is answered
                // here and at once, as if stopped straight away (a search still gives a legal
                // move), after an `error` line that says why; a count has only the error.
                let why = format!("cannot start the search thread: {error}");
                if ending.ready_waits {
                    out.end_search(&Response::Error(why));
                } else {
                    out.send(&Response::Error(why));
                    stop.store(true, Ordering::Relaxed);
                    run_task(task);
                }
                None
            }
        };
        SearchJob {
            stop,
            handle,
            unbounded: ending.unbounded,
            ponder: ending.ponder,
            ready_waits: ending.ready_waits,
        }
    }

    /// Tells the job to end as soon as it can; it still answers.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True when `isready` must wait for the job's answer: it was told to stop (its answer
    /// comes within milliseconds), or it is a count.
    pub fn delays_ready(&self) -> bool {
        self.ready_waits || self.is_stopped()
    }

    /// True once the job has been told to stop.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// True when only `stop` can end the job now (it has not been told to stop, and is
    /// unbounded or pondering before `ponderhit`).
    pub fn is_endless(&self) -> bool {
        let pondering = self.ponder.as_ref().is_some_and(|p| p.at().is_none());
        !self.is_stopped() && (self.unbounded || pondering)
    }

    /// `ponderhit`: a pondering search becomes the timed search it was given, its clock
    /// starting now. Ignored by other jobs.
    pub fn ponder_hit(&self, at: Instant) {
        if let Some(ponder) = &self.ponder {
            ponder.hit(at);
        }
    }

    /// Waits for the job's thread to end; whenever `interrupt` says so, the job is stopped.
    pub fn join(self, interrupt: impl Fn() -> bool) {
        let Some(handle) = self.handle else {
            return;
        };
        while !handle.is_finished() {
            if interrupt() {
                self.stop.store(true, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        if handle.join().is_err() {
            log::error!("the search thread ended abnormally");
        }
    }
}

/// Runs the job's work on its game and prints its answer, which ends the job.
fn run_task<F>((work, game, stop, out): (F, Box<dyn AnyGame>, Arc<AtomicBool>, Output))
where
    F: FnOnce(&dyn AnyGame, &AtomicBool, &Output) -> Response,
{
    // A bug must not leave the session waiting for an answer that never comes.
    let last = catch_unwind(AssertUnwindSafe(|| work(game.as_ref(), &stop, &out)))
        .unwrap_or_else(|_| Response::Error("internal error while running this command".into()));
    out.end_search(&last);
}
