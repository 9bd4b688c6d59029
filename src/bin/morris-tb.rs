//! `morris-tb [--max K] [--max-total T] [--flying true|false] [--dir DIR]`: builds the Nine
//! Men's Morris endgame tables with up to K pieces a side (default 3) and T in all (default
//! 2K), reusing the tables already in DIR (default `tablebases/`), writes them there and
//! prints positions, longest win, build seconds and bytes per table.

use clap::{ArgAction, Parser};
use std::path::PathBuf;
use std::time::Instant;
use tabula::games::morris::tablebase::Tablebase;

/// Builds the Nine Men's Morris endgame tables (docs/morris.md), reusing those already in DIR.
#[derive(Parser, Debug, PartialEq)]
#[command(name = "morris-tb")]
struct Args {
    /// Pieces a side, up to
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u32).range(3..=9))]
    max: u32,
    /// Pieces in all, up to (default 2K)
    #[arg(long, value_name = "T")]
    max_total: Option<u32>,
    /// Whether a side with three pieces flies
    #[arg(long, value_name = "true|false", default_value_t = true, action = ArgAction::Set)]
    flying: bool,
    /// Where the tables are read and written
    #[arg(long, value_name = "DIR", default_value = "tablebases")]
    dir: PathBuf,
}

fn main() -> anyhow::Result<()> {
    let Args {
        max,
        max_total,
        flying,
        dir,
    } = Args::parse();
    let max_total = max_total.unwrap_or(2 * max);
    std::fs::create_dir_all(&dir)?;
    let (mut tb, reused) = Tablebase::load(&dir, flying, max)?;
    println!("reused {reused} tables from {}", dir.display());
    // Save after each total so a long run keeps what it finished.
    for total in 6..=max_total.min(2 * max) {
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
        for (m, o, bytes) in tb.save(&dir)? {
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
        };
        assert_eq!(args, want);
        let args = parse("--max-total 7 --flying false").expect("parses");
        assert_eq!((args.max, args.max_total, args.flying), (3, Some(7), false));
        assert_eq!(args.dir, PathBuf::from("tablebases"));
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
        ] {
            let error = parse(line).expect_err(line);
            assert_eq!(error.exit_code(), 2, "{line}: {error}");
        }
    }
}
