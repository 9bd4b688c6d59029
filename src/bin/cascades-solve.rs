//! `cascades-solve [TOTAL_SECONDS [BOARD_SECONDS [BOARD ...]]]`: proves the value of Cascades
//! start positions and prints a markdown table row per board. A BOARD is `WxR` (both adjacency
//! rules) or `WxR:below` / `WxR:side-below`; without boards it tries every board from 2x2 up,
//! fewest cells first. Each board gets at most BOARD_SECONDS (default 60), all of them together
//! TOTAL_SECONDS (default 600).

use std::time::{Duration, Instant};

use tabula::games::cascades::prove::{self, SolveReport};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let total: u64 = args.next().map_or(Ok(600), |text| text.parse())?;
    let per_board: u64 = args.next().map_or(Ok(60), |text| text.parse())?;
    let specs: Vec<String> = args.collect();
    let boards = if specs.is_empty() {
        prove::all_boards()
    } else {
        let mut boards = Vec::new();
        for spec in &specs {
            boards.extend(prove::parse_board(spec).map_err(anyhow::Error::msg)?);
        }
        boards
    };
    let end = Instant::now() + Duration::from_secs(total);
    println!("{}", SolveReport::HEADER);
    for geometry in boards {
        let now = Instant::now();
        if now >= end {
            break;
        }
        let deadline = end.min(now + Duration::from_secs(per_board));
        println!("{}", prove::prove_start(geometry, deadline).table_row());
    }
    Ok(())
}
