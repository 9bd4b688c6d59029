//! `gipf-sparring [--depth N]`: an independent GIPF opponent for matches.
//!
//! A plain fixed-depth alpha-beta (`search.rs`) with its own material evaluation (`eval.rs`);
//! it shares the rules with the engine (legal moves, playing them, the outcome, move spelling,
//! `variant=`) but none of its evaluation or search, so the engine's gains against it are not
//! gains against its own blind spots. It speaks the part of the protocol `arena` uses: `ugi`
//! (or `uci`), `isready`, `setoption` (`GameOptions`, e.g. `variant=standard`; `Depth`),
//! `uginewgame`, `position startpos|fen ... [moves ...]`, `go ...` (always searched to the
//! fixed depth) and `quit`.

mod eval;
mod search;

use clap::Parser;
use tabula::games::gipf::{Gipf, Move};
use tabula::protocol::sparring::{run, Partner};
use tabula::util::cli::exit_on_closed_output;

const DEFAULT_DEPTH: u32 = 4;
const MAX_DEPTH: u32 = 20;

/// An independent fixed-depth GIPF opponent speaking the engine protocol on stdin/stdout.
#[derive(Parser)]
#[command(name = "gipf-sparring")]
struct Args {
    /// Plies searched for every `go`.
    #[arg(long, default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    depth: u32,
}

impl Partner for search::Searcher {
    type Game = Gipf;
    const NAME: &'static str = "gipf-sparring";
    const MAX_DEPTH: u32 = MAX_DEPTH;
    const OPTIONS: &'static [(&'static str, &'static str)] = &[];

    fn set_option(&mut self, name: &str, _: &str) -> Result<(), String> {
        Err(format!("unknown option {name}"))
    }

    fn clear(&mut self) {
        search::Searcher::clear(self);
    }

    fn best_move(&mut self, pos: &Gipf, depth: u32) -> Option<(Move, i32, u64)> {
        let (mv, score) = search::Searcher::best_move(self, pos, depth)?;
        Some((mv, score, self.nodes))
    }
}

fn main() -> anyhow::Result<()> {
    exit_on_closed_output();
    run(search::Searcher::new(), Args::parse().depth, DEFAULT_DEPTH)
}
