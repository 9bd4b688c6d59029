//! The commands that run as jobs on the search thread: `go`, `solve`, `perft`, `divide` and
//! `rollout`. Each answers with exactly one final line (`bestmove`, `solve`, `perft`,
//! `rollout` or an `error`).

use super::clock;
use super::command::{GoParams, RolloutParams};
use super::lag;
use super::options::Player;
use super::response::{Response, NO_MOVE};
use super::search_job::{Ending, SearchJob};
use super::session::Session;
use crate::game::{Proven, Side};
use crate::registry::AnyGame;
use crate::registry::RolloutLimits;
use crate::search::{Limits, Score};
use crate::util::rng::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Trials of a `rollout` without `trials`: every pair of first rolls once (36 x 36).
const DEFAULT_TRIALS: u64 = 1296;

/// A job that ends by itself.
const BOUNDED: Ending = Ending {
    unbounded: false,
    ponder: None,
    ready_waits: false,
};

/// A count (`perft`, `divide`): it ends by itself and `isready` waits for it.
const COUNT: Ending = Ending {
    ready_waits: true,
    ..BOUNDED
};

impl Session {
    /// `go`: a search (or a sparring partner's move) on the search thread; one that cannot
    /// start answers an `error` and `bestmove 0000`.
    pub(super) fn go(&mut self, params: &GoParams) {
        let received = Instant::now();
        if let Err(message) = self.start_go(params, received) {
            self.error(message);
            self.send(Response::BestMove(NO_MOVE.into()));
        }
    }

    fn start_go(&mut self, params: &GoParams, received: Instant) -> Result<(), String> {
        if let Some((who, reason, _)) = self.result() {
            return Err(format!("the game is over ({who} {reason})"));
        }
        let before_roll = self.game.awaits_chance();
        if before_roll && self.game.pre_chance_moves().is_empty() {
            return Err("no roll yet: send dice ROLL or roll first".into());
        }
        let white = self.game.side_to_move() == Side::White;
        let mut limits = clock::limits(params, white, &self.options, received);
        // A clock search keeps back the lag its clock has shown, when that beats the option.
        // A pondering search is measured too, from its `ponderhit` (the side's clock runs
        // from then on); one ended by `stop` before it teaches nothing. Otherwise a GUI that
        // always ponders would never let the engine learn its lag.
        let own_clock = if white {
            params.white_time
        } else {
            params.black_time
        };
        // An empty clock standing for one not given teaches no lag.
        let answered = match limits.time_left.filter(|_| own_clock.is_some()) {
            Some(left) => {
                let (lag, cell) = self.lag.begin(usize::from(!white), left, limits.increment);
                limits.overhead = limits.overhead.max(lag);
                Some(cell)
            }
            None => {
                self.lag.forget();
                None
            }
        };
        let ponder = limits.ponder.clone();
        let answered = move || {
            if let Some(cell) = &answered {
                match ponder.as_ref().map(|hit| hit.at()) {
                    None => lag::finish(cell, received),
                    Some(Some(hit)) => lag::finish(cell, hit),
                    Some(None) => {}
                }
            }
        };
        if !params.search_moves.is_empty() {
            if before_roll {
                return Err("searchmoves needs the roll to be known".into());
            }
            let places = self
                .game
                .root_move_places(&params.search_moves)
                .map_err(|error| format!("bad searchmoves: {error}"))?;
            limits.root_moves = Some(places);
        }
        let unbounded = limits.is_unbounded();
        let ending = Ending {
            unbounded,
            ponder: limits.ponder.clone(),
            ready_waits: false,
        };
        match self.options.player {
            Player::Random => {
                let pick = random_move(self.game.as_ref(), &limits, &mut self.rng, before_roll);
                // Still a search to the GUI: `go infinite` and `go ponder` answer on `stop`.
                self.start_job(ending, move |_, stop, _| {
                    hold_answer(&limits, unbounded, stop);
                    answered();
                    Response::BestMove(pick)
                });
                return Ok(());
            }
            Player::Greedy => {
                limits = Limits {
                    depth: Some(1),
                    nodes: None,
                    movetime: None,
                    time_left: None,
                    mate: None,
                    ..limits
                };
            }
            Player::Search => {}
        }
        let name_reply = self.options.ponder;
        self.start_job(ending, move |game, stop, out| {
            let wdl = game.scores_are_chances();
            let mut pv = Vec::new();
            let mut mate_in = None;
            let found = catch_unwind(AssertUnwindSafe(|| {
                game.search(&limits, stop, &mut |info| {
                    // With MultiPV the reply to name is line 1's, whatever line came last.
                    if info.multipv.is_none_or(|k| k == 1) {
                        pv.clone_from(&info.pv);
                    }
                    mate_in = match info.score {
                        Score::Mate(moves) => Some(moves),
                        Score::Cp(_) => None,
                    };
                    out.send(&Response::Info {
                        info: info.clone(),
                        wdl,
                    })
                })
            }));
            hold_answer(&limits, unbounded && !limits.mate_found(mate_in), stop);
            let best = match found {
                Ok(found) => {
                    for note in found.notes {
                        out.send(&Response::InfoString(note));
                    }
                    found.best.unwrap_or_else(|| NO_MOVE.to_owned())
                }
                Err(_) => {
                    log::error!("the search panicked; answering the null move");
                    NO_MOVE.to_owned()
                }
            };
            answered();
            match pv.get(1) {
                Some(reply) if name_reply && pv[0] == best => {
                    Response::BestMovePonder(best, reply.clone())
                }
                _ => Response::BestMove(best),
            }
        });
        Ok(())
    }

    /// `solve`: proves the value on the search thread, so `stop` and `isready` still work.
    /// Without a time limit it runs until it is done (or stopped): end of input waits for it.
    pub(super) fn solve(&mut self, movetime: Option<i64>) {
        if let Some(outcome) = self.game.outcome() {
            let value = match outcome.winner {
                None => Proven::Draw,
                Some(w) if w == self.game.side_to_move() => Proven::Win(0),
                Some(_) => Proven::Loss(0),
            };
            self.send(Response::Solve {
                value: Some(value),
                best: None,
                nodes: 0,
                time_ms: 0,
            });
            return;
        }
        if self.game.awaits_chance() {
            self.error("solve needs a position without a pending roll");
            return;
        }
        let limits = Limits {
            movetime,
            ..Limits::default()
        };
        self.start_job(BOUNDED, move |game, flag, out| {
            let start = Instant::now();
            let wdl = game.scores_are_chances();
            let solved = catch_unwind(AssertUnwindSafe(|| {
                game.solve(&limits, flag, &mut |info| {
                    out.send(&Response::Info {
                        info: info.clone(),
                        wdl,
                    })
                })
            }));
            let (value, best, nodes) = match solved {
                Ok(solved) => (solved.value, solved.best, solved.nodes),
                Err(_) => {
                    log::error!("the solver panicked; answering unknown");
                    (None, None, 0)
                }
            };
            Response::Solve {
                value,
                best,
                nodes,
                time_ms: start.elapsed().as_millis() as u64,
            }
        });
    }

    /// `perft D`: counted on the search thread; `stop` ends it with `error perft stopped`.
    pub(super) fn perft(&mut self, depth: u32) {
        self.start_job(COUNT, move |game, stop, _| {
            match game.perft_until_stopped(depth, stop) {
                Some(count) => Response::Perft(depth, count),
                None => Response::Error("perft stopped".into()),
            }
        });
    }

    /// `divide D`: like `perft`; its rows come only once every move is counted, in one block
    /// with the total.
    pub(super) fn divide(&mut self, depth: u32) {
        self.start_job(COUNT, move |game, stop, _| match game.divide(depth, stop) {
            Some(rows) => Response::Divide(depth, rows),
            None => Response::Error("divide stopped".into()),
        });
    }

    /// `rollout`: the position played out many times on the search thread (`Threads` share
    /// the trials), a progress line about once a second; `stop` ends it with the trials so far.
    pub(super) fn rollout(&mut self, params: RolloutParams) {
        let limits = RolloutLimits {
            trials: params.trials.unwrap_or(DEFAULT_TRIALS),
            plies: params.plies.unwrap_or(0),
            seed: params.seed.unwrap_or(self.options.seed),
            threads: self.options.threads,
            luck: params.luck.unwrap_or(false),
        };
        self.start_job(BOUNDED, move |game, stop, out| {
            let start = Instant::now();
            let elapsed = || start.elapsed().as_millis() as u64;
            let stats = game.rollout(&limits, stop, &mut |stats| {
                out.send(&Response::Rollout {
                    stats: stats.clone(),
                    time_ms: elapsed(),
                    last: false,
                })
            });
            Response::Rollout {
                stats,
                time_ms: elapsed(),
                last: true,
            }
        });
    }

    /// Starts `work` as the job (any earlier job has answered: the caller waited for it).
    fn start_job<F>(&mut self, ending: Ending, work: F)
    where
        F: FnOnce(&dyn AnyGame, &AtomicBool, &super::response::Output) -> Response + Send + 'static,
    {
        self.join_job(false);
        self.job = Some(SearchJob::start(
            self.game.as_ref(),
            &self.out,
            ending,
            work,
        ));
    }
}

/// The random player's move: `roll` before the dice (it never doubles), else a uniformly
/// random legal move among those `searchmoves` allows.
fn random_move(game: &dyn AnyGame, limits: &Limits, rng: &mut Rng, before_roll: bool) -> String {
    if before_roll {
        return "roll".into();
    }
    let mut moves = game.allowed_moves(limits);
    moves.swap_remove(rng.below(moves.len() as u64) as usize)
}

/// Waits for `stop` (polled every millisecond, as the searches' own holds are).
/// UCI's waiting rule, the one place it is kept: a search that finished early still answers
/// `go infinite` only after `stop`, `go ponder` only after `ponderhit` or `stop`, and a bare
/// `go` (`endless`: no limit at all, or `go mate N` that found no such win) only after `stop`.
fn hold_answer(limits: &Limits, endless: bool, stop: &AtomicBool) {
    while (endless || limits.infinite || limits.is_pondering()) && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
}
