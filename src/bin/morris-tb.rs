//! `morris-tb [--max K] [--max-total T] [--flying true|false] [--dir DIR]`: builds the Nine
//! Men's Morris endgame tables with up to K pieces a side (default 3) and T in all (6, the
//! smallest table 3v3, up to 2K; default 2K), reusing the tables already in DIR (default `tablebases/`), writes them there and
//! prints positions, longest win, build seconds and bytes per table. `--only MvO` builds just
//! the pair MvO and OvM from the smaller tables already in DIR (one task of a distributed
//! build: `scripts/cluster/`).

use anyhow::Context;
use clap::error::ErrorKind;
use clap::{ArgAction, CommandFactory, Parser};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tabula::games::morris::tablebase::Tablebase;
use tabula::util::cli::exit_on_closed_output;

/// Builds the Nine Men's Morris endgame tables (docs/morris.md), reusing those already in DIR.
#[derive(Parser, Debug, PartialEq)]
#[command(name = "morris-tb")]
struct Args {
    /// Pieces a side, up to
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u32).range(3..=9), conflicts_with = "only")]
    max: u32,
    /// Pieces in all, up to: 6 (3v3) to 2K (default 2K)
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(6..=18), conflicts_with = "only")]
    max_total: Option<u32>,
    /// Whether a side with three pieces flies
    #[arg(long, value_name = "true|false", default_value_t = true, action = ArgAction::Set)]
    flying: bool,
    /// Where the tables are read and written
    #[arg(long, value_name = "DIR", default_value = "tablebases")]
    dir: PathBuf,
    /// Build only the pair MvO and OvM (M <= O), from the tables its captures lead into
    #[arg(long, value_name = "MvO", value_parser = parse_pair)]
    only: Option<(u32, u32)>,
}

/// `MvO` with 3 <= M <= O <= 9.
fn parse_pair(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("expected MvO with 3 <= M <= O <= 9, not {text}");
    let (m, o) = text.split_once('v').ok_or_else(bad)?;
    let (m, o): (u32, u32) = (m.parse().map_err(|_| bad())?, o.parse().map_err(|_| bad())?);
    if !(3..=9).contains(&m) || !(m..=9).contains(&o) {
        return Err(bad());
    }
    Ok((m, o))
}

/// The total of pieces to build up to: `max_total`, which must lie from 6 (the smallest
/// table, 3v3) to `2 * max` (the largest with `max` pieces a side; a larger total would be
/// silently capped there), or `2 * max`.
fn total_up_to(max: u32, max_total: Option<u32>) -> Result<u32, String> {
    match max_total {
        None => Ok(2 * max),
        Some(total) if (6..=2 * max).contains(&total) => Ok(total),
        Some(total) => Err(format!(
            "--max-total {total} with --max {max}: the total must be from 6 (3v3) to {} \
             (twice --max); raise --max for more pieces",
            2 * max
        )),
    }
}

/// Builds the pair (m, o) from the tables its captures lead into, read from `dir`.
fn build_only(dir: &Path, flying: bool, m: u32, o: u32) -> anyhow::Result<()> {
    let needed = Tablebase::captures_into(m, o);
    let mut tb = Tablebase::load_only(dir, flying, &needed)
        .map_err(|e| anyhow::anyhow!("{m}v{o} needs the tables its captures lead into: {e}"))?;
    let timer = Instant::now();
    let longest = tb.build_pair(m, o);
    println!(
        "built {m}v{o}: longest result {longest} plies, {:.1} s",
        timer.elapsed().as_secs_f64()
    );
    let saved = tb
        .save(dir)
        .with_context(|| format!("saving the tables in {}", dir.display()))?;
    for (a, b, bytes) in saved {
        println!("saved {a}v{b}: {bytes} bytes on disk");
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    exit_on_closed_output();
    let Args {
        max,
        max_total,
        flying,
        dir,
        only,
    } = Args::parse();
    let max_total = total_up_to(max, max_total).unwrap_or_else(|message| {
        Args::command()
            .error(ErrorKind::ValueValidation, message)
            .exit()
    });
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    if let Some((m, o)) = only {
        // A clear line for a missing input table (a driver's bug), not a backtrace.
        if let Err(error) = build_only(&dir, flying, m, o) {
            eprintln!("morris-tb: {error:#}");
            std::process::exit(1);
        }
        return Ok(());
    }
    let (mut tb, reused) = Tablebase::load(&dir, flying, max)
        .with_context(|| format!("reading the tables in {}", dir.display()))?;
    println!("reused {reused} tables from {}", dir.display());
    // Save after each total so a long run keeps what it finished.
    for total in 6..=max_total {
        let mut timer = Instant::now();
        tb.build_up_to(max, total, |m, o, longest| {
            let seconds = timer.elapsed().as_secs_f64();
            let positions: u64 = [(m, o), (o, m)]
                .iter()
                .take(if m == o { 1 } else { 2 })
                .map(|&(a, b)| positions(a, b))
                .sum();
            let pair = if m == o { String::new() } else { format!(" and {o}v{m}") };
            println!(
                "built {m}v{o}{pair}: {positions} positions, longest result {longest} plies, {seconds:.1} s"
            );
            timer = Instant::now();
        });
        let saved = tb
            .save(&dir)
            .with_context(|| format!("saving the tables in {}", dir.display()))?;
        for (m, o, bytes) in saved {
            let table = tb.table(m, o).map_or(0, |t| t.positions());
            println!("saved {m}v{o}: {table} positions, {bytes} bytes on disk");
        }
    }
    Ok(())
}

/// Positions with `mover` pieces to move against `other`: C(24, m) * C(24 - m, o).
fn positions(mover: u32, other: u32) -> u64 {
    let c = |n: u64, k: u64| (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
    c(24, u64::from(mover)) * c(24 - u64::from(mover), u64::from(other))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("morris-tb").chain(line.split_whitespace()))
    }

    #[test]
    fn the_documented_spellings() {
        let args = parse("--max 4 --flying true --dir tables").expect("parses");
        let want = Args {
            max: 4,
            max_total: None,
            flying: true,
            dir: "tables".into(),
            only: None,
        };
        assert_eq!(args, want);
        let args = parse("--max-total 6 --flying false").expect("parses");
        assert_eq!((args.max, args.max_total, args.flying), (3, Some(6), false));
        assert_eq!(args.dir, PathBuf::from("tablebases"));
        let args = parse("--only 3v4 --dir t").expect("parses");
        assert_eq!(args.only, Some((3, 4)));
    }

    #[test]
    fn mistakes_are_usage_errors() {
        for line in [
            "--max 2",
            "--max 10",
            "--flying yes",
            "--max",
            "--depth 3",
            "4",
            "--only 4v3",
            "--only 3v10",
            "--only 3x4",
            "--max-total 5",
            "--max-total 19",
            "--only 3v4 --max 4",
            "--only 3v4 --max-total 7",
        ] {
            let error = parse(line).expect_err(line);
            assert_eq!(error.exit_code(), 2, "{line}: {error}");
        }
    }

    #[test]
    fn totals_run_from_3v3_to_twice_the_side() {
        assert_eq!(total_up_to(3, None), Ok(6));
        assert_eq!(total_up_to(5, None), Ok(10));
        assert_eq!(total_up_to(5, Some(9)), Ok(9));
        assert_eq!(total_up_to(4, Some(6)), Ok(6));
        assert!(total_up_to(3, Some(7)).is_err());
        assert!(total_up_to(4, Some(9)).is_err());
    }
}
