//! `cascades-solve [SECONDS] [BOARD ...]`: proves the value of Cascades start positions within
//! a total time budget (default 600 s) and prints a markdown table row per board. A BOARD is
//! `WxR` (both adjacency rules) or `WxR:below` / `WxR:side-below`; without boards it walks
//! 2x2, 3x3, 4x4, ... with both rules until the budget runs out.

use std::time::{Duration, Instant};

use tabula::games::cascades::solver::{self, SolveReport};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let seconds: u64 = args.next().map_or(Ok(600), |text| text.parse())?;
    let specs: Vec<String> = args.collect();
    let boards = if specs.is_empty() {
        solver::square_boards()
    } else {
        let mut boards = Vec::new();
        for spec in &specs {
            boards.extend(solver::parse_board(spec).map_err(anyhow::Error::msg)?);
        }
        boards
    };
    let deadline = Instant::now() + Duration::from_secs(seconds);
    println!("{}", SolveReport::HEADER);
    for geometry in boards {
        let report = solver::prove_start(geometry, deadline);
        println!("{}", report.table_row());
        if report.value.is_none() {
            break;
        }
    }
    Ok(())
}
