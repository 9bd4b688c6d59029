//! `arena merge FILE...`: the results files of a match's shards combined into the output of
//! one run: the game lines, the summary (W/L/D, Elo, points and ppg, reasons, SPRT decided
//! in game order) and, with `--record`, the records, all in game order. A game found in
//! several files (a shard run twice) counts once.

use super::engine::printable;
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
                  another match, or games are missing (without --partial), or the output \
                  cannot be written, 2 for a bad command line."
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
    // The first file's match line, and that file (to name it when another differs).
    let mut header: Option<(MatchFields, &PathBuf)> = None;
    let mut games = BTreeMap::new();
    let mut duplicates = 0;
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let (fields, played) =
            results::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        match &header {
            Some((first, first_path)) => {
                if let Some(difference) = difference(first, &fields) {
                    return Err(format!(
                        "{}: a different match than {}: {difference}",
                        path.display(),
                        first_path.display()
                    ));
                }
            }
            None => header = Some((fields, path)),
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
    let (header, _) = header.ok_or("no results file")?;
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
    counter.finish()
}

/// How the match line `other` differs from `first` other than in `shard`, naming the first
/// differing field with both values (so that a wrong seed or engine option is found without
/// reading the files), or `None` when they are the same match.
fn difference(first: &MatchFields, other: &MatchFields) -> Option<String> {
    let keys: std::collections::BTreeSet<&String> = first.keys().chain(other.keys()).collect();
    let differing: Vec<&String> = keys
        .into_iter()
        .filter(|key| *key != "shard" && first.get(*key) != other.get(*key))
        .collect();
    let (key, rest) = differing.split_first()?;
    let value = |fields: &MatchFields| {
        fields
            .get(*key)
            .map_or("(none)".to_owned(), |v| format!("`{}`", printable(v)))
    };
    let mut text = format!("{key} is {}, not {}", value(other), value(first));
    if !rest.is_empty() {
        let rest: Vec<&str> = rest.iter().map(|k| k.as_str()).collect();
        text.push_str(&format!(" (and {} differ)", rest.join(", ")));
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> MatchFields {
        text.split(' ')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    }

    #[test]
    fn a_different_match_names_the_fields_that_differ() {
        let first = fields("game=nim seed=1 games=8 shard=0/2");
        assert_eq!(
            difference(&first, &fields("game=nim seed=1 games=8 shard=1/2")),
            None
        );
        assert_eq!(
            difference(&first, &fields("game=nim seed=2 games=8 shard=1/2")).as_deref(),
            Some("seed is `2`, not `1`")
        );
        assert_eq!(
            difference(&first, &fields("game=nim seed=2 games=9 tc1=x shard=0/2")).as_deref(),
            Some("games is `9`, not `8` (and seed, tc1 differ)")
        );
    }
}
