//! `morris-book [--plies P] [--nodes N] [--out FILE]`: writes the Nine Men's Morris opening
//! book (docs/morris.md). For each side it walks the positions of the first P plies that its
//! own book moves and every reply of the opponent reach, searches each position where it is to
//! move once per class under the board's symmetries (N nodes, one thread), and writes the best
//! move of each class in its canonical frame. Positions are searched ply by ply and the file is
//! rewritten after each search, so a run cut short leaves a book of the plies it finished.

use clap::Parser;
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use tabula::game::{Game, Side};
use tabula::games::morris::{book, Morris, Move};
use tabula::search::{search, Info, Limits, Table};

/// Writes the Nine Men's Morris opening book from deep searches.
#[derive(Parser, Debug)]
#[command(name = "morris-book")]
struct Args {
    /// Positions with fewer plies than this from the start are in the book
    #[arg(long, default_value_t = 5)]
    plies: u32,
    /// Nodes searched per position
    #[arg(long, default_value_t = 4_000_000)]
    nodes: u64,
    /// Transposition table in MiB (kept from one position to the next)
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Where the book is written
    #[arg(long, default_value = "src/games/morris/book.txt")]
    out: PathBuf,
}

/// The walk's state: what it searches with and what it found.
struct Builder {
    args: Args,
    limits: Limits,
    table: Table,
    /// Book line (move, depth, score) per canonical position.
    entries: BTreeMap<String, String>,
    started: Instant,
}

impl Builder {
    /// Walks the book's positions ply by ply for both sides at once, so that a book cut short
    /// still covers every position up to some ply.
    fn run(&mut self) -> anyhow::Result<()> {
        let start = Morris::start(&Default::default());
        let mut level = vec![(start.clone(), Side::White), (start, Side::Black)];
        // Canonical positions already walked, per book side.
        let mut seen = [HashSet::new(), HashSet::new()];
        for _ in 0..self.args.plies {
            let mut next = Vec::new();
            for (pos, book_side) in level {
                if pos.outcome().is_some() {
                    continue;
                }
                let (key, s) = book::canonical(&pos);
                if !seen[book_side.index()].insert(key.clone()) {
                    continue;
                }
                let mut moves = Vec::new();
                if pos.side_to_move() == book_side {
                    moves.push(self.book_move(&pos, &key, s)?);
                } else {
                    pos.legal_moves(&mut moves);
                }
                for mv in moves {
                    let mut child = pos.clone();
                    child.play(mv);
                    next.push((child, book_side));
                }
            }
            level = next;
        }
        Ok(())
    }

    /// Searches `pos` (whose canonical key is `key`, reached by symmetry `s`), records its
    /// best move and rewrites the book file.
    fn book_move(&mut self, pos: &Morris, key: &str, s: usize) -> anyhow::Result<Move> {
        let stop = AtomicBool::new(false);
        let mut last: Option<Info> = None;
        let result = search(pos, &self.limits, &self.table, &stop, &mut |info| {
            last = Some(info.clone())
        });
        let mv = result.best.expect("a placing position has moves");
        let (depth, score) = last.map_or((0, String::new()), |i| (i.depth, i.score.to_string()));
        let canonical = pos.format_move(book::to_canonical(mv, s));
        eprintln!(
            "{:>4} {:>7.1}s {key} {canonical} depth {depth} {score}",
            self.entries.len() + 1,
            self.started.elapsed().as_secs_f64()
        );
        self.entries.insert(
            key.to_owned(),
            format!("{canonical} # depth {depth} {score}"),
        );
        self.write()?;
        Ok(mv)
    }

    /// Writes the book as far as it goes.
    fn write(&self) -> anyhow::Result<()> {
        let mut text = format!(
            "# Nine Men's Morris opening book: morris-book --plies {} --nodes {} --hash {}\n\
             # {} positions (canonical under the 16 symmetries) in {:.0} s. Line: position \
             without the counter, best move in that frame, # depth and score reached.\n",
            self.args.plies,
            self.args.nodes,
            self.args.hash,
            self.entries.len(),
            self.started.elapsed().as_secs_f64()
        );
        for (key, line) in &self.entries {
            text.push_str(&format!("{key} {line}\n"));
        }
        std::fs::write(&self.args.out, text)?;
        Ok(())
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let mut builder = Builder {
        limits: Limits {
            nodes: Some(args.nodes),
            threads: 1,
            ..Limits::default()
        },
        table: Table::new(args.hash),
        args,
        entries: BTreeMap::new(),
        started: Instant::now(),
    };
    builder.run()?;
    println!(
        "wrote {} positions to {}",
        builder.entries.len(),
        builder.args.out.display()
    );
    Ok(())
}
