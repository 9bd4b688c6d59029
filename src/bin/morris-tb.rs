//! `morris-tb [--max K] [--max-total T] [--flying true|false] [--dir DIR]`: builds the Nine
//! Men's Morris endgame tables with up to K pieces a side (default 3) and T in all (default
//! 2K), reusing the tables already in DIR (default `tablebases/`), writes them there and prints positions, longest win, build seconds and bytes per table.

use std::time::Instant;
use tabula::games::morris::tablebase::Tablebase;

const USAGE: &str = "usage: morris-tb [--max K] [--max-total T] [--flying true|false] [--dir DIR]";

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return Ok(());
    }
    // Every flag takes a value; anything else is a mistake, not something to ignore while
    // a long build runs with the defaults.
    for pair in args.chunks(2) {
        let known = ["--max", "--max-total", "--flying", "--dir"].contains(&pair[0].as_str());
        anyhow::ensure!(known && pair.len() == 2, "{USAGE}");
    }
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let max: u32 = value("--max").map_or(Ok(3), |v| v.parse())?;
    anyhow::ensure!((3..=9).contains(&max), "--max must be 3..9");
    let max_total: u32 = value("--max-total").map_or(Ok(2 * max), |v| v.parse())?;
    let flying = match value("--flying").as_deref() {
        None | Some("true") => true,
        Some("false") => false,
        Some(other) => anyhow::bail!("--flying must be true or false, not {other}"),
    };
    let dir = std::path::PathBuf::from(value("--dir").unwrap_or_else(|| "tablebases".to_owned()));
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
