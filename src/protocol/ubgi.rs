//! UBGI, the Universal Backgammon Interface (Øystein Schønning-Johansen's draft 0.01): a
//! session whose first line is `ubgi` speaks it instead of the engine's own protocol.
//!
//! The front end sends a position (an XGID or a FIBS rawboard string) and the engine answers
//! the best action on one line: a move in the draft's plain format (`8/5 6/5`, one from/to
//! pair per die, no hit marks, `bar` and `off`), `double`, `roll`, `take`, `drop`, or a blank
//! line when there is no legal move. `ubgi` answers `id name`, `id author`, `id version` and
//! `readyok`; `isready` answers `readyok`; `stop` ends the running search (its answer comes at
//! once); `quit` ends the session. Anything else, and any malformed position, is answered
//! `sorry` and changes nothing. The game is money or match play with the cube as the position
//! gives it (no beavers, no Jacoby rule); the protocol has no options, so the time per answer
//! comes from the environment (`TABULA_UBGI_MOVETIME`, milliseconds).

use super::lines::Line;
use super::response::{Output, Response};
use crate::registry::{self, backgammon_plain_move, AnyGame};
use crate::search::Limits;
use crate::util::threads::spawn_with;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::thread::JoinHandle;

/// The line that starts a UBGI session.
pub const HANDSHAKE: &str = "ubgi";
/// The game every UBGI position is read into.
const GAME: &str = "backgammon";
/// Transposition table size in MiB.
const HASH_MIB: usize = 64;
/// Thinking time per answer unless `TABULA_UBGI_MOVETIME` says otherwise, in milliseconds.
const DEFAULT_MOVETIME: i64 = 1000;
/// The answer to anything not understood.
const SORRY: &str = "sorry";

/// A search running on its own thread; it prints its answer itself.
struct Job {
    stop: Arc<AtomicBool>,
    /// Set by `quit`: the search ends without an answer.
    silent: Arc<AtomicBool>,
    /// `None` when no thread could be started and the answer was given at once.
    thread: Option<JoinHandle<()>>,
}

impl Job {
    fn finish(self) {
        // The thread catches its own panics (answering `sorry`), so joining cannot fail.
        if let Some(thread) = self.thread {
            let _ = thread.join();
        }
    }
}

/// Runs a UBGI session over the lines still to come (the `ubgi` line itself was read);
/// returns the exit code.
pub(super) fn serve(lines: &Receiver<Line>, out: &Output) -> i32 {
    let Ok(mut game) = registry::new_game(GAME, &[("cube", "on")], HASH_MIB) else {
        send(out, SORRY);
        return 1;
    };
    let movetime = std::env::var("TABULA_UBGI_MOVETIME")
        .ok()
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|&ms| ms > 0)
        .unwrap_or(DEFAULT_MOVETIME);
    handshake(out);
    let mut job: Option<Job> = None;
    loop {
        let text = match lines.recv() {
            Ok(Line::Text(text)) => text,
            Ok(Line::TooLong(_)) => {
                send(out, SORRY);
                continue;
            }
            Ok(Line::End | Line::OutputClosed) | Err(_) => break,
        };
        let line = text.trim();
        if line == "stop" {
            if let Some(job) = &job {
                job.stop.store(true, Ordering::Relaxed);
            }
            continue;
        }
        if let Some(running) = job.take() {
            if line == "quit" {
                running.silent.store(true, Ordering::Relaxed);
                running.stop.store(true, Ordering::Relaxed);
            }
            running.finish();
        }
        match line {
            "quit" => return 0,
            HANDSHAKE => handshake(out),
            "isready" => send(out, "readyok"),
            _ => match catch_unwind(AssertUnwindSafe(|| set_position(game.as_mut(), line))) {
                Ok(Ok(())) => job = Some(start(game.boxed_clone(), movetime, out.clone())),
                _ => send(out, SORRY),
            },
        }
        if out.is_closed() {
            break;
        }
    }
    if let Some(running) = job {
        running.finish();
    }
    0
}

fn send(out: &Output, line: &str) {
    out.send(&Response::Text(vec![line.to_owned()]));
}

fn handshake(out: &Output) {
    send(out, "id name tabula");
    send(out, "id author the tabula developers");
    send(out, &format!("id version {}", env!("CARGO_PKG_VERSION")));
    send(out, "readyok");
}

/// Reads an XGID (`XGID=...`, or its bare 26-character board and fields) or a FIBS board.
fn set_position(game: &mut dyn AnyGame, line: &str) -> Result<(), ()> {
    let format = if line.starts_with("board:") {
        "fibs"
    } else if line.starts_with("XGID=") || line.split(':').next().is_some_and(|b| b.len() == 26) {
        "xgid"
    } else {
        return Err(());
    };
    game.set_position_from(format, line, &[]).map_err(|error| {
        log::info!("UBGI position refused: {error}");
    })
}

/// What a search thread needs.
struct Task {
    game: Box<dyn AnyGame>,
    /// Thinking time in milliseconds.
    movetime: i64,
    stop: Arc<AtomicBool>,
    /// Set by `quit`: no answer is sent.
    silent: Arc<AtomicBool>,
    out: Output,
}

fn start(game: Box<dyn AnyGame>, movetime: i64, out: Output) -> Job {
    let stop = Arc::new(AtomicBool::new(false));
    let silent = Arc::new(AtomicBool::new(false));
    let task = Task {
        game,
        movetime,
        stop: Arc::clone(&stop),
        silent: Arc::clone(&silent),
        out,
    };
    let thread = match spawn_with("ubgi search", task, answer) {
        Ok(thread) => Some(thread),
        // No thread to be had (a thread or memory limit): answered here, as if stopped at once.
        Err((task, _)) => {
            task.stop.store(true, Ordering::Relaxed);
            answer(task);
            None
        }
    };
    Job {
        stop,
        silent,
        thread,
    }
}

/// Searches for `movetime` (or until `stop`) and sends the best action, unless `quit`
/// silenced it meanwhile.
fn answer(task: Task) {
    let limits = Limits {
        movetime: Some(task.movetime),
        ..Limits::default()
    };
    // A bug must not leave the front end waiting: it hears `sorry`.
    let answer = catch_unwind(AssertUnwindSafe(|| {
        best_action(task.game.as_ref(), &limits, &task.stop)
    }));
    if !task.silent.load(Ordering::Relaxed) {
        send(&task.out, answer.as_deref().unwrap_or(SORRY));
    }
}

/// The answer for the position in `game`.
fn best_action(game: &dyn AnyGame, limits: &Limits, stop: &AtomicBool) -> String {
    if game.outcome().is_some() {
        return String::new();
    }
    // Before the roll the choice is doubling or rolling; with doubling not allowed (the
    // opponent owns the cube, the Crawford game, the opening) there is only the roll.
    if game.awaits_chance() && game.pre_chance_moves().is_empty() {
        return "roll".into();
    }
    // A cube action is its own answer; a play is written in the plain format.
    let best = game.search(limits, stop, &mut |_| {}).best;
    best.as_deref().map_or(String::new(), backgammon_plain_move)
}
