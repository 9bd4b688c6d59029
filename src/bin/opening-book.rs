//! `opening-book --game morris|gipf [--plies P] [--nodes N] [--hash MIB] [--sides S] [--out FILE]`:
//! writes a game's opening book from deep searches (docs/morris.md, docs/gipf.md). For each side
//! asked for (both by default) it
//! walks the positions of the first P plies that its own book moves and every reply of the
//! opponent reach, searches each of its positions once per book key (Morris: once per class
//! under the board's 16 symmetries, the move written in the class's canonical frame) with N
//! nodes on one thread, and writes the best moves. Positions are searched ply by ply and the
//! file is rewritten after each search, so a run cut short leaves a book of the plies it
//! finished. Arguments that leave the book empty (`--plies 0`; `--sides black --plies 1`,
//! whose first Black position is at ply 1) are usage errors, and the file is opened before
//! the first search so that a path that cannot be written fails at once.

use anyhow::Context;
use clap::builder::RangedU64ValueParser;
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, ValueEnum};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;
use tabula::game::{Complete, Game, Side};
use tabula::games::{gipf, morris};
use tabula::search::{walk_book, BookEntry, Limits, Table};
use tabula::util::cli::exit_on_closed_output;

/// Writes a game's opening book from deep searches.
#[derive(Parser, Debug)]
#[command(name = "opening-book")]
struct Args {
    /// The game
    #[arg(long, value_enum)]
    game: BookGame,
    /// Positions with fewer plies than this from the start are in the book (at least 1, the
    /// start; at least 2 for --sides black)
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    plies: u32,
    /// Nodes searched per position
    #[arg(long, default_value_t = 4_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Transposition table in MiB (kept from one position to the next)
    #[arg(long, default_value_t = 64, value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    hash: usize,
    /// The sides whose moves the book holds
    #[arg(long, value_enum, default_value_t = BookSides::Both)]
    sides: BookSides,
    /// Where the book is written (default: the game's book.txt under src/games/)
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The games with a book.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum BookGame {
    /// Nine Men's Morris
    Morris,
    /// GIPF, basic game
    Gipf,
}

/// Whose moves a book holds: a side whose deep-search moves lose to an outside opponent is
/// better left to the timed search (docs/morris.md, sixth round).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum BookSides {
    /// Both sides
    Both,
    /// The first player only
    White,
    /// The second player only
    Black,
}

impl BookSides {
    /// The value as written on the command line.
    fn name(self) -> String {
        self.to_possible_value()
            .map_or_else(String::new, |value| value.get_name().to_owned())
    }

    fn sides(self) -> &'static [Side] {
        match self {
            BookSides::Both => &[Side::White, Side::Black],
            BookSides::White => &[Side::White],
            BookSides::Black => &[Side::Black],
        }
    }
}

/// What differs between the games' books.
struct Style<G: Complete> {
    /// The file's title.
    title: &'static str,
    /// How positions are merged, for the file's header.
    classes: &'static str,
    /// What a line holds, for the file's header.
    line: &'static str,
    /// The book key of a position and its frame.
    key: fn(&G) -> (String, usize),
    /// The move written for a searched position.
    spell: fn(&G, &BookEntry<G::Move>) -> String,
}

fn main() -> anyhow::Result<()> {
    exit_on_closed_output();
    let args = Args::parse();
    match args.game {
        BookGame::Morris => build(
            &args,
            "morris",
            Style {
                title: "Nine Men's Morris opening book",
                classes: " (canonical under the 16 symmetries)",
                line: "position without the counter, best move in that frame",
                key: morris::book::canonical,
                spell: |pos: &morris::Morris, entry| {
                    pos.format_move(morris::book::to_canonical(entry.best, entry.frame))
                },
            },
        ),
        BookGame::Gipf => build(
            &args,
            "gipf",
            Style {
                title: "GIPF opening book (basic game)",
                classes: "",
                line: "position string, best move",
                key: gipf::book::key,
                spell: |pos: &gipf::Gipf, entry| pos.format_move(entry.best),
            },
        ),
    }
}

/// Walks and writes the book of the game `name` from its default start.
fn build<G: Complete>(args: &Args, name: &str, style: Style<G>) -> anyhow::Result<()> {
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("src/games/{name}/book.txt")));
    let start = G::start(&G::Options::default());
    // A side's first book position is its first move: ply 0 for the side that starts, ply 1
    // for the other, whose book alone is empty unless the walk reaches ply 1 (--plies 2).
    if args.plies < 2 && !args.sides.sides().contains(&start.side_to_move()) {
        Args::command()
            .error(
                ErrorKind::ArgumentConflict,
                format!(
                    "--sides {} --plies {}: the book would be empty (that side first moves at \
                     ply 1, so it needs --plies 2 or more)",
                    args.sides.name(),
                    args.plies
                ),
            )
            .exit();
    }
    // The whole file, header and lines, as written after each search.
    let render = |entries: &BTreeMap<String, String>, seconds: f64| {
        let mut text = format!(
            "# {}: opening-book --game {name} --plies {} --nodes {} --hash {}{}\n\
             # {} positions{} in {seconds:.0} s. Line: {}, # depth and score reached.\n",
            style.title,
            args.plies,
            args.nodes,
            args.hash,
            match args.sides {
                BookSides::Both => String::new(),
                sides => format!(" --sides {}", sides.name()),
            },
            entries.len(),
            style.classes,
            style.line,
        );
        for (key, line) in entries {
            text.push_str(&format!("{key} {line}\n"));
        }
        text
    };
    // A path that cannot be written fails now, not after the first (long) search. An
    // existing book is kept until that search replaces it; a new file starts as an empty
    // book, valid if the run is cut short.
    let cannot_write = || format!("cannot write {}", out.display());
    if out.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(&out)
            .with_context(cannot_write)?;
    } else {
        std::fs::write(&out, render(&BTreeMap::new(), 0.0)).with_context(cannot_write)?;
    }
    let limits = Limits {
        nodes: Some(args.nodes),
        threads: 1,
        ..Limits::default()
    };
    let table = Table::new(args.hash);
    let started = Instant::now();
    // Book line (move, depth, score) per key.
    let mut entries = BTreeMap::new();
    walk_book(
        &start,
        args.plies,
        args.sides.sides(),
        &limits,
        &table,
        &style.key,
        &mut |pos, entry| {
            let seconds = started.elapsed().as_secs_f64();
            let line = format!(
                "{} # depth {} {}",
                (style.spell)(pos, entry),
                entry.depth,
                entry.score
            );
            eprintln!(
                "{:>4} {seconds:>7.1}s {} {line}",
                entries.len() + 1,
                entry.key
            );
            entries.insert(entry.key.clone(), line);
            std::fs::write(&out, render(&entries, seconds)).with_context(cannot_write)?;
            Ok(())
        },
    )?;
    println!("wrote {} positions to {}", entries.len(), out.display());
    Ok(())
}
