//! `morris-tb [--max K] [--max-total T] [--flying true|false] [--dir DIR] [--threads N]
//! [--checkpoint-minutes M] [--placement]`: builds the Nine Men's Morris endgame tables with up to K pieces
//! a side (default 3) and T in all (6, the smallest table 3v3, up to 2K; default 2K), reusing
//! the tables already in DIR (default `tablebases/`) that verify, writes each pair there as
//! soon as it is done (so a stopped run resumes) and prints positions, slots, longest result,
//! build seconds and bytes per pair, with a progress line on stderr every ten seconds. Each
//! pair is built with N threads (default: the cores available); every M minutes (default 10,
//! 0 never) the state of the pair being built is saved to `DIR/morris-fly-MvO.partial`, which
//! a later run resumes from. `--only MvO` builds just the pair MvO and OvM from the smaller
//! tables already in DIR (one task of a distributed build: `scripts/cluster/`).
//! `--placement` (with `--max 9`) then builds the placement phase's tables from the complete
//! set, one file per ply from ply 17 down to 0 (`morris-fly-placing-17.tb`), reusing the
//! layer files that verify.

use anyhow::Context;
use clap::error::ErrorKind;
use clap::{ArgAction, CommandFactory, Parser};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tabula::games::morris::placement_table::{build_layers, Layer, LayerStep, PLIES};
use tabula::games::morris::tablebase::{pairs, BuildSettings, Step, Table, Tablebase};
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
    /// Threads building each pair (default: the cores available)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Minutes between two saves of the pair being built, resumed by a later run (0: never)
    #[arg(long, value_name = "M", default_value_t = 10)]
    checkpoint_minutes: u64,
    /// Then build the placement phase's tables, one file per ply (needs --max 9)
    #[arg(long, conflicts_with = "only")]
    placement: bool,
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

/// Prints a progress line now and then (to stderr): the pair, its stage, and an estimate of
/// the time left for the whole run from the slots done so far.
struct Progress {
    run_start: Instant,
    last: Instant,
    /// Slots of the pairs finished in this run, and of all the pairs this run builds.
    done: u64,
    total: u64,
}

impl Progress {
    fn new(total: u64) -> Progress {
        let now = Instant::now();
        Progress {
            run_start: now,
            last: now,
            done: 0,
            total,
        }
    }

    /// Reports `step` of the pair (m, o) with `slots` slots: what became of its checkpoints at
    /// once, how far it has come at most every ten seconds. Seeding counts for the first half
    /// of a pair's work, the levels for the second (about the split measured on the 5-piece
    /// tables), so the estimate is rough within a pair.
    fn report(&mut self, (m, o): (u32, u32), slots: u64, step: Step) {
        let name = pair_name(m, o);
        let (stage, fraction) = match step {
            Step::Resumed { path, level } => {
                eprintln!(
                    "morris-tb: resuming {m}v{o} from {} (level {level})",
                    path.display()
                );
                return;
            }
            Step::Refused(error) => {
                eprintln!("morris-tb: {error}; building {m}v{o} from the start");
                return;
            }
            Step::Saved {
                level,
                bytes,
                seconds,
            } => {
                eprintln!(
                    "morris-tb: {name}: checkpoint at level {level} saved ({bytes} bytes, {seconds:.1} s)"
                );
                return;
            }
            Step::NotSaved(error) => {
                eprintln!("morris-tb: {error}; going on without this checkpoint");
                return;
            }
            _ if self.last.elapsed().as_secs() < 10 => return,
            Step::Seeding { done, of } => (
                format!("seeding {:.0} %", 100.0 * done as f64 / of as f64),
                0.5 * done as f64 / of as f64,
            ),
            Step::Level { level, pending } => {
                (format!("level {level}, {pending} results pending"), 0.75)
            }
        };
        self.last = Instant::now();
        let done = self.done as f64 + fraction * slots as f64;
        let elapsed = self.run_start.elapsed().as_secs_f64();
        let left = elapsed / done.max(1.0) * (self.total as f64 - done).max(0.0);
        eprintln!(
            "morris-tb: {name}: {stage}; run {:.1} % done, {} elapsed, about {} left",
            100.0 * done / self.total as f64,
            clock(elapsed),
            clock(left)
        );
    }
}

/// Seconds as `1h02m03s`.
fn clock(seconds: f64) -> String {
    let s = seconds as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}

/// `3v3`, `3v4 and 4v3`: the tables of the pair (m, o).
fn pair_name(m: u32, o: u32) -> String {
    if m == o {
        format!("{m}v{o}")
    } else {
        format!("{m}v{o} and {o}v{m}")
    }
}

/// Builds the pair (m, o), saves its files (then drops its checkpoint) and prints a line on
/// it.
fn build_and_save(
    tb: &mut Tablebase,
    dir: &Path,
    (m, o): (u32, u32),
    settings: &BuildSettings,
    progress: &mut Progress,
) -> anyhow::Result<()> {
    let timer = Instant::now();
    let tables: Vec<(u32, u32)> = if m == o {
        vec![(m, o)]
    } else {
        vec![(m, o), (o, m)]
    };
    let slots: u64 = tables.iter().map(|&(a, b)| Table::slots(a, b)).sum();
    let name = pair_name(m, o);
    let longest = tb
        .build_pair_with(m, o, settings, &mut |step| {
            progress.report((m, o), slots, step)
        })
        .map_err(anyhow::Error::msg)?;
    let seconds = timer.elapsed().as_secs_f64();
    let positions: u64 = tables.iter().map(|&(a, b)| positions(a, b)).sum();
    let classes: u64 = tables.iter().map(|&(a, b)| Table::classes(a, b)).sum();
    let mut bytes = 0;
    for &(a, b) in &tables {
        tb.save_table(dir, a, b)?;
        bytes += Tablebase::file_len(a, b);
    }
    Tablebase::remove_partial(dir, tb.flying(), m, o)?;
    progress.done += slots;
    println!(
        "built {name}: {positions} positions, {classes} classes, {slots} slots, longest result {longest} plies, \
         {seconds:.1} s, {bytes} bytes on disk"
    );
    Ok(())
}

/// Builds the pair (m, o) from the tables its captures lead into, read from `dir`.
fn build_only(
    dir: &Path,
    flying: bool,
    (m, o): (u32, u32),
    settings: &BuildSettings,
) -> anyhow::Result<()> {
    let needed = Tablebase::captures_into(m, o);
    let mut tb = Tablebase::load_only(dir, flying, &needed)
        .map_err(|e| anyhow::anyhow!("{m}v{o} needs the tables its captures lead into: {e}"))?;
    let slots = Table::slots(m, o) + if m == o { 0 } else { Table::slots(o, m) };
    build_and_save(&mut tb, dir, (m, o), settings, &mut Progress::new(slots))
}

/// Builds every pair up to the limits that `dir` does not hold yet. A pair whose files are
/// present and verify is loaded instead (and a checkpoint of it left by a run stopped just
/// after writing them is removed); a file that does not verify is reported, removed and
/// rebuilt.
fn build_all(
    dir: &Path,
    flying: bool,
    max: u32,
    max_total: u32,
    settings: &BuildSettings,
) -> anyhow::Result<Tablebase> {
    let mut tb = Tablebase::new(flying);
    let mut to_build = Vec::new();
    let mut reused = 0;
    for (m, o) in pairs(max, max_total) {
        let mut whole = true;
        for (a, b) in [(m, o), (o, m)] {
            let path = Tablebase::file_name(dir, flying, a, b);
            if !path.exists() {
                whole = false;
                continue;
            }
            match Table::read(&path, flying, a, b) {
                Ok(table) => {
                    tb.insert(table);
                    reused += 1;
                }
                Err(error) => {
                    eprintln!("morris-tb: {error}; building it again");
                    std::fs::remove_file(&path)
                        .with_context(|| format!("removing {}", path.display()))?;
                    whole = false;
                }
            }
        }
        if whole {
            Tablebase::remove_partial(dir, flying, m, o)?;
        } else {
            to_build.push((m, o));
        }
    }
    println!("reused {reused} tables from {}", dir.display());
    let total: u64 = to_build
        .iter()
        .map(|&(m, o)| Table::slots(m, o) + if m == o { 0 } else { Table::slots(o, m) })
        .sum();
    let mut progress = Progress::new(total);
    for pair in to_build {
        build_and_save(&mut tb, dir, pair, settings, &mut progress)?;
    }
    Ok(tb)
}

/// Builds the placement layers from the complete set `tables` (ply 17 down to 0), reusing
/// the layer files in `dir` that verify, with a line per layer and a progress line every ten
/// seconds.
fn build_placement(dir: &Path, tables: &Tablebase, threads: usize) -> anyhow::Result<()> {
    let start = Instant::now();
    let mut last = Instant::now();
    let total: u64 = (0..PLIES).map(Layer::bytes).sum::<u64>() * 4;
    let mut finished = 0u64;
    build_layers(dir, tables, threads, &mut |step| match step {
        LayerStep::Reused(ply) => {
            finished += Layer::bytes(ply) * 4;
            println!("reused placement ply {ply}");
        }
        LayerStep::Refused(error) => eprintln!("morris-tb: {error}; building it again"),
        LayerStep::Building { ply, done, of } => {
            if last.elapsed().as_secs() >= 10 {
                last = Instant::now();
                let run = (finished + done) as f64;
                let elapsed = start.elapsed().as_secs_f64();
                let left = elapsed / run.max(1.0) * (total as f64 - run).max(0.0);
                eprintln!(
                    "morris-tb: placement ply {ply}: {:.1} %; run {:.2} % done, {} elapsed, \
                     about {} left",
                    100.0 * done as f64 / of as f64,
                    100.0 * run / total as f64,
                    clock(elapsed),
                    clock(left)
                );
            }
        }
        LayerStep::Written {
            ply,
            bytes,
            seconds,
        } => {
            finished += Layer::bytes(ply) * 4;
            println!("built placement ply {ply}: {seconds:.1} s, {bytes} bytes on disk");
        }
    })
    .map_err(anyhow::Error::msg)
}

fn main() -> anyhow::Result<()> {
    exit_on_closed_output();
    let Args {
        max,
        max_total,
        flying,
        dir,
        only,
        threads,
        checkpoint_minutes,
        placement,
    } = Args::parse();
    let max_total = total_up_to(max, max_total).unwrap_or_else(|message| {
        Args::command()
            .error(ErrorKind::ValueValidation, message)
            .exit()
    });
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let threads = threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let settings = BuildSettings {
        threads,
        checkpoints: Some(dir.clone()),
        checkpoint_every: (checkpoint_minutes > 0)
            .then(|| Duration::from_secs(60 * checkpoint_minutes)),
        stop_after_level: None,
    };
    let every = match checkpoint_minutes {
        0 => "no checkpoints".to_owned(),
        1 => "a checkpoint every minute".to_owned(),
        m => format!("a checkpoint every {m} minutes"),
    };
    let plural = if threads == 1 { "" } else { "s" };
    eprintln!("morris-tb: {threads} thread{plural}, {every}");
    if placement && (max, max_total) != (9, 18) {
        Args::command()
            .error(
                ErrorKind::ArgumentConflict,
                "--placement needs every table up to 9v9: --max 9 (and no lower --max-total)",
            )
            .exit()
    }
    let built = match only {
        Some(pair) => build_only(&dir, flying, pair, &settings),
        None => build_all(&dir, flying, max, max_total, &settings).and_then(|tables| {
            if placement {
                build_placement(&dir, &tables, threads)
            } else {
                Ok(())
            }
        }),
    };
    // A clear line naming the file (a missing input, a full disk), not a backtrace.
    if let Err(error) = built {
        eprintln!("morris-tb: {error:#}");
        std::process::exit(1);
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
            threads: None,
            checkpoint_minutes: 10,
            placement: false,
        };
        assert_eq!(args, want);
        let args = parse("--max-total 6 --flying false").expect("parses");
        assert_eq!((args.max, args.max_total, args.flying), (3, Some(6), false));
        assert_eq!(args.dir, PathBuf::from("tablebases"));
        let args = parse("--only 3v4 --dir t").expect("parses");
        assert_eq!(args.only, Some((3, 4)));
        let args = parse("--threads 3 --checkpoint-minutes 0").expect("parses");
        assert_eq!((args.threads, args.checkpoint_minutes), (Some(3), 0));
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
            "--threads 0",
            "--threads two",
            "--checkpoint-minutes -1",
            "--placement --only 3v4",
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
