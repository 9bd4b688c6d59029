//! `cascades-solve [TOTAL_SECONDS [BOARD_SECONDS [BOARD ...]]]`: proves the value of Cascades
//! start positions and prints a markdown table row per board. A BOARD is `WxR` (both adjacency
//! rules) or `WxR:below` / `WxR:side-below`; without boards it tries every board from 2x2 up,
//! fewest cells first. Each board gets at most BOARD_SECONDS (default 60), all of them together
//! TOTAL_SECONDS (default 600); both from 1 to 10^7 (0 would prove nothing, and a clock far
//! in the future does not fit an `Instant`).

use std::time::{Duration, Instant};

use clap::Parser;
use tabula::games::cascades::board::Geometry;
use tabula::games::cascades::prove::{self, SolveReport};
use tabula::util::cli::exit_on_closed_output;

/// The most seconds either time may be: 10^7 s is almost four months, far beyond any proof
/// this solver finishes, and far below what overflows an `Instant`.
const MAX_SECONDS: u64 = 10_000_000;

/// Proves the value of Cascades start positions (docs/cascades.md) and prints a markdown table
/// row per board.
#[derive(Parser, Debug)]
#[command(name = "cascades-solve")]
struct Args {
    /// Time for all the boards together, 1 to 10000000 seconds
    #[arg(value_name = "TOTAL_SECONDS", default_value_t = 600, value_parser = seconds())]
    total: u64,
    /// Time for each board, 1 to 10000000 seconds
    #[arg(value_name = "BOARD_SECONDS", default_value_t = 60, value_parser = seconds())]
    per_board: u64,
    /// WxR (both adjacency rules), WxR:below or WxR:side-below; without boards every board
    /// from 2x2 up, fewest cells first
    #[arg(value_name = "BOARD", value_parser = boards)]
    boards: Vec<Boards>,
}

/// The boards one BOARD argument names (`WxR` names two).
#[derive(Clone, Debug)]
struct Boards(Vec<Geometry>);

/// A time in seconds, 1 to [`MAX_SECONDS`].
fn seconds() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=MAX_SECONDS)
}

fn boards(spec: &str) -> Result<Boards, String> {
    prove::parse_board(spec).map(Boards)
}

fn main() {
    exit_on_closed_output();
    let args = Args::parse();
    let boards = if args.boards.is_empty() {
        prove::all_boards()
    } else {
        args.boards.into_iter().flat_map(|b| b.0).collect()
    };
    let end = Instant::now() + Duration::from_secs(args.total);
    println!("{}", SolveReport::HEADER);
    for geometry in boards {
        let now = Instant::now();
        if now >= end {
            break;
        }
        let deadline = end.min(now + Duration::from_secs(args.per_board));
        println!("{}", prove::prove_start(geometry, deadline).table_row());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("cascades-solve").chain(line.split_whitespace()))
    }

    #[test]
    fn positional_times_and_boards() {
        let args = parse("").expect("parses");
        assert_eq!(
            (args.total, args.per_board, args.boards.len()),
            (600, 60, 0)
        );
        let args = parse("600 60").expect("parses");
        assert_eq!((args.total, args.per_board), (600, 60));
        let args = parse("10000000 1").expect("the largest time parses");
        assert_eq!((args.total, args.per_board), (MAX_SECONDS, 1));
        let args = parse("30 5 4x4 5x3:below").expect("parses");
        assert_eq!((args.total, args.per_board), (30, 5));
        let boards: Vec<Geometry> = args.boards.into_iter().flat_map(|b| b.0).collect();
        assert_eq!(boards.len(), 3, "4x4 under both rules, 5x3 under one");
        assert_eq!((boards[2].width, boards[2].rows), (5, 3));
    }

    #[test]
    fn mistakes_are_usage_errors() {
        for line in [
            "ten",
            "60 1 4x",
            "60 1 4x4:diagonal",
            "--boards 4x4",
            "0 0 2x2",
            "60 0",
            "0 60",
            "10000001 1",
            "1 10000001",
            "18446744073709551615 2 2x2",
            "9223372036854775807 2 2x2",
            "-1 2",
        ] {
            let error = parse(line).expect_err(line);
            assert_eq!(error.exit_code(), 2, "{line}: {error}");
        }
    }
}
