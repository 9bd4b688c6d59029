//! `morris-sparring [--depth N] [--eval full|material]` (depth 1 to 30, default 8; `full`
//! by default): an independent Nine Men's Morris opponent for matches.
//!
//! A plain fixed-depth alpha-beta with its own men-mills-and-mobility evaluation
//! (`eval.rs`, `search.rs`); it shares the rules with the engine (legal moves, playing them,
//! the outcome) but none of its evaluation or search, so the engine's gains against it are
//! not gains against its own blind spots. It speaks the part of the protocol `arena` uses:
//! `ugi` (or `uci`), `isready`, `setoption` (`GameOptions`, e.g. `flying=true`; `Depth`;
//! `Seed`: when not 0, equally scored root moves are chosen by it, so games differ; `Eval`:
//! `full` or `material`, men alone), `uginewgame`, `position startpos|fen ... [moves ...]`,
//! `go ...` (always searched to the fixed depth) and `quit`. Anything else, or one of these
//! malformed, gets an `error ...` line, as gipf-sparring answers.

mod eval;
mod geometry;
mod search;

use clap::{Parser, ValueEnum};
use tabula::games::morris::{Morris, Move};
use tabula::protocol::sparring::{run, Partner};
use tabula::util::cli::exit_on_closed_output;

const DEFAULT_DEPTH: u32 = 8;
const MAX_DEPTH: u32 = 30;

/// An independent fixed-depth Nine Men's Morris opponent speaking the engine protocol on
/// stdin/stdout (docs/morris.md).
#[derive(Parser)]
#[command(name = "morris-sparring")]
struct Args {
    /// Plies searched for every `go`, 1 to 30 (as `setoption name Depth`)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    depth: u32,
    /// The evaluation (as `setoption name Eval`)
    #[arg(long, value_enum, default_value_t = eval::Kind::Full)]
    eval: eval::Kind,
}

/// The searcher with the seed that orders its root moves.
struct Sparring {
    searcher: search::Searcher,
    seed: u64,
}

impl Partner for Sparring {
    type Game = Morris;
    const NAME: &'static str = "morris-sparring";
    const MAX_DEPTH: u32 = MAX_DEPTH;
    const OPTIONS: &'static [(&'static str, &'static str)] = &[
        ("Seed", "type spin default 0 min 0 max 9223372036854775807"),
        ("Eval", "type combo default full var full var material"),
    ];

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            // Arena draws seeds below 2^62: any non-negative 64-bit signed value is taken.
            "Seed" => {
                self.seed = value
                    .parse::<i64>()
                    .ok()
                    .filter(|&n| n >= 0)
                    .ok_or_else(|| format!("bad seed {value}"))? as u64;
            }
            "Eval" => {
                self.searcher.eval =
                    eval::Kind::from_str(value, false).map_err(|_| format!("bad eval {value}"))?;
            }
            _ => return Err(format!("unknown option {name}")),
        }
        Ok(())
    }

    fn clear(&mut self) {
        self.searcher.clear();
    }

    fn best_move(&mut self, pos: &Morris, depth: u32) -> Option<(Move, i32, u64)> {
        let (mv, score) = self.searcher.best_move(pos, depth, self.seed)?;
        Some((mv, score, self.searcher.nodes))
    }
}

fn main() -> anyhow::Result<()> {
    exit_on_closed_output();
    let args = Args::parse();
    let mut searcher = search::Searcher::new();
    searcher.eval = args.eval;
    run(Sparring { searcher, seed: 0 }, args.depth, DEFAULT_DEPTH)
}
