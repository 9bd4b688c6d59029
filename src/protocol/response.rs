//! Every line the engine prints, formatted in one place, and the one writer that prints them.
//!
//! Output is line-atomic and flushed per line: the search thread and the input thread share
//! one [`Output`], whose lock also guards the "a search is running" flag so that a new `go`
//! right after a `bestmove` is never refused as "already searching". A failed write (stdout
//! closed) marks it closed, which ends the session.

use crate::game::Proven;
use crate::registry::RolloutStats;
use crate::search::Info;
use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

/// One protocol line (or a block of lines, for `d` and `help`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `id name ...` / `id author ...`
    Id(&'static str, String),
    /// `option name N type T default D ...`
    OptionLine(String),
    /// `ugiok` or `uciok`
    HandshakeOk {
        /// True for `uciok`.
        uci: bool,
    },
    /// `readyok`
    ReadyOk,
    /// `error MESSAGE`
    Error(String),
    /// `info string TEXT`
    InfoString(String),
    /// `info depth ...`; with `wdl`, the score's meaning as a chance: `wdl W 0 L` per mille
    /// after the score (UCI's win/draw/loss field), where the game's scores are chances.
    Info { info: Info, wdl: bool },
    /// `bestmove MOVE`
    BestMove(String),
    /// `bestmove MOVE ponder REPLY`: the reply the engine expects (with `Ponder` on).
    BestMovePonder(String, String),
    /// `response VALUE` (UGI query answers)
    Answer(&'static str),
    /// `legalmoves M ...`
    LegalMoves(Vec<String>),
    /// `perft D N`
    Perft(u32, u64),
    /// `divide D`'s answer: a `divide MOVE N` line per move, then `perft D TOTAL`, written
    /// as one block so that no other answer lands between its lines.
    Divide(u32, Vec<(String, u64)>),
    /// `rollout trials N mean X se Y wins ... time MS` (see protocol.md), or with `info string`
    /// before it as a progress line (`final` false: trials, mean and se only).
    Rollout {
        /// The trials' statistics.
        stats: RolloutStats,
        /// Milliseconds spent.
        time_ms: u64,
        /// The answer (true) or a progress line.
        last: bool,
    },
    /// `fen STRING`
    Fen(String),
    /// `result none` / `result white|black|draw REASON [points N]` (points when above 1).
    Result(Option<(&'static str, &'static str, u32)>),
    /// `FORMAT TEXT`: the position in one of the game's formats (`fen xgid`).
    InFormat(String, String),
    /// `solve win|loss|draw|unknown [plies N] bestmove M|none nodes N time MS`
    Solve {
        /// The proven value, `None` when unknown.
        value: Option<Proven>,
        /// A move keeping the value.
        best: Option<String>,
        /// Positions visited.
        nodes: u64,
        /// Milliseconds spent.
        time_ms: u64,
    },
    /// `eval CP`
    Eval(i32),
    /// `roll NN`
    Roll(String),
    /// `bench nodes N time MS nps X`
    Bench {
        /// Total nodes.
        nodes: u64,
        /// Total milliseconds.
        time_ms: u64,
    },
    /// Free text lines (`d`, `help`), printed as given.
    Text(Vec<String>),
}

/// The no-move token answered by a `go` that cannot search.
pub const NO_MOVE: &str = "0000";

/// Keeps user-supplied text printable: one line, ASCII, bounded.
fn clean(text: &str) -> String {
    let mut out: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .take(200)
        .collect();
    if text.chars().count() > 200 {
        out.push_str("...");
    }
    out.trim_end().to_owned()
}

impl Response {
    /// The lines this response prints.
    pub fn lines(&self) -> Vec<String> {
        let one = |s: String| vec![s];
        match self {
            Response::Id(key, value) => one(format!("id {key} {value}")),
            Response::OptionLine(text) => one(format!("option {text}")),
            Response::HandshakeOk { uci } => one(if *uci { "uciok" } else { "ugiok" }.into()),
            Response::ReadyOk => one("readyok".into()),
            Response::Error(message) => one(format!("error {}", clean(message))),
            Response::InfoString(text) => one(format!("info string {}", clean(text))),
            Response::Info { info, wdl } => {
                let multipv = info
                    .multipv
                    .map_or(String::new(), |line| format!(" multipv {line}"));
                let wdl = if *wdl {
                    let win = info.score.win_per_mille();
                    format!(" wdl {win} 0 {}", 1000 - win)
                } else {
                    String::new()
                };
                let mut line = format!(
                    "info depth {}{multipv} score {}{wdl} nodes {} nps {} time {}",
                    info.depth,
                    info.score,
                    info.nodes,
                    info.nps(),
                    info.time_ms
                );
                if !info.pv.is_empty() {
                    line.push_str(" pv ");
                    line.push_str(&info.pv.join(" "));
                }
                one(line)
            }
            Response::BestMove(mv) => one(format!("bestmove {mv}")),
            Response::BestMovePonder(mv, reply) => one(format!("bestmove {mv} ponder {reply}")),
            Response::Answer(value) => one(format!("response {value}")),
            Response::LegalMoves(moves) if moves.is_empty() => one("legalmoves".into()),
            Response::LegalMoves(moves) => one(format!("legalmoves {}", moves.join(" "))),
            Response::Perft(depth, count) => one(format!("perft {depth} {count}")),
            Response::Divide(depth, rows) => {
                let total: u64 = rows.iter().map(|(_, count)| count).sum();
                rows.iter()
                    .map(|(mv, count)| format!("divide {mv} {count}"))
                    .chain([format!("perft {depth} {total}")])
                    .collect()
            }
            Response::Rollout {
                stats,
                time_ms,
                last: false,
            } => one(format!(
                "info string rollout trials {} mean {:.1} se {:.1} time {time_ms}",
                stats.trials,
                stats.mean(),
                stats.standard_error()
            )),
            Response::Rollout {
                stats,
                time_ms,
                last: true,
            } => one(format!(
                "rollout trials {} mean {:.1} se {:.1} wins {} gammons {} backgammons {} \
                 losses {} lgammons {} lbackgammons {} draws {} unfinished {} time {time_ms}",
                stats.trials,
                stats.mean(),
                stats.standard_error(),
                stats.wins[0],
                stats.wins[1],
                stats.wins[2],
                stats.losses[0],
                stats.losses[1],
                stats.losses[2],
                stats.draws,
                stats.unfinished
            )),
            Response::Fen(fen) => one(format!("fen {fen}")),
            Response::Result(None) => one("result none".into()),
            Response::Result(Some((who, reason, points))) if *points > 1 => {
                one(format!("result {who} {reason} points {points}"))
            }
            Response::Result(Some((who, reason, _))) => one(format!("result {who} {reason}")),
            Response::InFormat(format, text) => one(format!("{format} {}", clean(text))),
            Response::Solve {
                value,
                best,
                nodes,
                time_ms,
            } => {
                let value = match value {
                    None => "unknown".to_owned(),
                    Some(Proven::Draw) => "draw".to_owned(),
                    Some(Proven::Win(0)) => "win".to_owned(),
                    Some(Proven::Loss(0)) => "loss".to_owned(),
                    Some(Proven::Win(plies)) => format!("win plies {plies}"),
                    Some(Proven::Loss(plies)) => format!("loss plies {plies}"),
                };
                let best = best.as_deref().unwrap_or("none");
                one(format!(
                    "solve {value} bestmove {best} nodes {nodes} time {time_ms}"
                ))
            }
            Response::Eval(cp) => one(format!("eval {cp}")),
            Response::Roll(roll) => one(format!("roll {roll}")),
            Response::Bench { nodes, time_ms } => one(format!(
                "bench nodes {nodes} time {time_ms} nps {}",
                nodes * 1000 / (*time_ms).max(1)
            )),
            Response::Text(lines) => lines.iter().map(|l| l.trim_end().to_owned()).collect(),
        }
    }
}

struct Sink {
    writer: Box<dyn Write + Send>,
    searching: bool,
    closed: bool,
    on_close: Option<Box<dyn FnOnce() + Send>>,
}

/// The engine's single output channel (cheap to clone; clones share the writer).
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Sink>>,
}

impl Output {
    /// An output writing to `writer`.
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Sink {
                writer,
                searching: false,
                closed: false,
                on_close: None,
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Sink> {
        self.sink
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// Prints a response, flushing each line. A failed write (the reader closed stdout)
    /// marks the output closed: nobody hears the engine any more, so the session ends.
    pub fn send(&self, response: &Response) {
        let mut sink = self.lock();
        write_lines(&mut sink, response);
    }

    /// Calls `hook` (once) when a write fails, so the input loop can end the session at once.
    pub fn on_close(&self, hook: Box<dyn FnOnce() + Send>) {
        self.lock().on_close = Some(hook);
    }

    /// True once a write has failed.
    pub fn is_closed(&self) -> bool {
        self.lock().closed
    }

    /// Marks a search as started.
    pub fn begin_search(&self) {
        self.lock().searching = true;
    }

    /// Prints the search's `bestmove` and marks it finished, in one step.
    pub fn end_search(&self, bestmove: &Response) {
        let mut sink = self.lock();
        write_lines(&mut sink, bestmove);
        sink.searching = false;
    }

    /// True while a search has not printed its `bestmove`.
    pub fn is_searching(&self) -> bool {
        self.lock().searching
    }
}

fn write_lines(sink: &mut Sink, response: &Response) {
    if sink.closed {
        return;
    }
    let written = response
        .lines()
        .iter()
        .try_for_each(|line| writeln!(sink.writer, "{line}"))
        .and_then(|()| sink.writer.flush());
    if let Err(error) = written {
        log::info!("output closed ({error}): ending the session");
        sink.closed = true;
        if let Some(hook) = sink.on_close.take() {
            hook();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_is_one_block_ending_in_its_total() {
        let rows = vec![
            ("a1".to_owned(), 2),
            ("b1".to_owned(), 2),
            ("b2".to_owned(), 1),
        ];
        assert_eq!(
            Response::Divide(2, rows).lines(),
            ["divide a1 2", "divide b1 2", "divide b2 1", "perft 2 5"]
        );
    }

    /// A writer whose reader has gone away.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_closes_the_output_and_calls_the_hook_once() {
        let out = Output::new(Box::new(Closed));
        let calls = Arc::new(Mutex::new(0));
        let counter = Arc::clone(&calls);
        out.on_close(Box::new(move || *counter.lock().unwrap() += 1));
        assert!(!out.is_closed());
        out.send(&Response::ReadyOk);
        out.send(&Response::ReadyOk);
        assert!(out.is_closed());
        assert_eq!(*calls.lock().unwrap(), 1);
    }
}
