//! `arena merge FILE...`: the results files of a match's shards combined into the output of
//! one run: the game lines, the summary (W/L/D, Elo, points and ppg, reasons, SPRT decided
//! in game order) and, with `--record`, the records, all in game order. A game found in
//! several files (a shard run twice) counts once.

use super::record;
use super::report::{Counter, Report};
use super::results::{self, MatchFields};
use super::stats::Sprt;
use super::Summary;
use clap::Parser;
use std::collections::btree_map::{BTreeMap, Entry};
use std::io::Write;
use std::path::PathBuf;

/// The command line of `arena merge`.
#[derive(Parser, Debug)]
#[command(
    name = "arena merge",
    about = "Combines the results files (--results) of a match's shards into the output of one run.",
    after_help = "Exit status: 0 after the summary, 1 when a file cannot be read, belongs to \
                  another match, or games are missing (without --partial), 2 for a bad command line."
)]
pub struct MergeArgs {
    /// Results files written by `arena --shard I/N --results FILE`
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Write the records of all the games, in order
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// No line per game, only the summary
    #[arg(long)]
    quiet: bool,
    /// Count the games present from the first up to the first missing one (progress)
    #[arg(long)]
    partial: bool,
}

/// Parses the arguments after `merge`.
pub fn parse(args: &[String]) -> Result<MergeArgs, clap::Error> {
    MergeArgs::try_parse_from(std::iter::once("arena merge").chain(args.iter().map(String::as_str)))
}

/// Merges the files, printing what one run of the whole match would print to `out`, and
/// notes about duplicates or missing games to `notes`.
pub fn run(
    args: &MergeArgs,
    out: &mut dyn Write,
    notes: &mut dyn Write,
) -> Result<Summary, String> {
    let mut header: Option<MatchFields> = None;
    let mut games = BTreeMap::new();
    let mut duplicates = 0;
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let (fields, played) =
            results::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let same = |h: &MatchFields| without_shard(h) == without_shard(&fields);
        match &header {
            Some(h) if !same(h) => {
                return Err(format!("{}: a different match", path.display()));
            }
            Some(_) => {}
            None => header = Some(fields),
        }
        for game in played {
            let index = game.pairing.number - 1;
            match games.entry(index) {
                Entry::Occupied(_) => duplicates += 1,
                Entry::Vacant(slot) => {
                    slot.insert(game);
                }
            }
        }
    }
    let header = header.ok_or("no results file")?;
    let total: usize = results::number(&header, "games")?;
    let sprt = match header.get("sprt").map(String::as_str) {
        None | Some("none") => None,
        Some(spec) => Some(Sprt::parse(spec)?),
    };
    let field = |key: &str| header.get(key).map_or("", String::as_str);
    let report = Report {
        header: record::Header {
            game: field("game"),
            options: field("options"),
            engines: [field("first"), field("second")],
            time_controls: [field("tc1").to_owned(), field("tc2").to_owned()],
        },
        games: total,
        sprt,
        quiet: args.quiet,
    };
    let present = games.len();
    // A game missing before the match ends (an SPRT may end it early) fails the merge: found
    // by a dry count first, so that a failed merge prints and records nothing.
    if let Some(missing) = (0..total).find(|index| !games.contains_key(index)) {
        let mut sink = std::io::sink();
        let mut dry = Counter::new(report.clone(), &mut sink, None, None);
        let mut decided = false;
        for index in 0..missing {
            if dry.add(games[&index].clone())? {
                decided = true;
                break;
            }
        }
        if !decided && !args.partial {
            return Err(format!(
                "game {} is missing ({present} of {total} games present)",
                missing + 1
            ));
        }
    }
    let record = match &args.record {
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        ),
        None => None,
    };
    if duplicates > 0 {
        let _ = writeln!(
            notes,
            "arena merge: {duplicates} games found twice, counted once"
        );
    }
    let mut counter = Counter::new(report, out, record, None);
    for index in 0..total {
        let Some(game) = games.remove(&index) else {
            let _ = writeln!(
                notes,
                "arena merge: partial, {index} of {total} games in order ({present} present)"
            );
            break;
        };
        if counter.add(game)? {
            break;
        }
    }
    Ok(counter.finish())
}

fn without_shard(fields: &MatchFields) -> MatchFields {
    let mut fields = fields.clone();
    fields.remove("shard");
    fields
}
