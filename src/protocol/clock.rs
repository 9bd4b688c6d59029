//! The clock side of `go`: its parameters resolved to the limits of the side to move.

use super::command::GoParams;
use super::options::EngineOptions;
use crate::search::{Limits, PonderHit};
use std::sync::Arc;
use std::time::Instant;

/// The largest clock reading believed, either way: 10^12 ms, some 31 years. Readings beyond
/// count as this, so that no sum or difference of clock readings can overflow.
const CLOCK_LIMIT_MS: i64 = 1_000_000_000_000;

/// A clock reading within the believed range.
fn believed(ms: i64) -> i64 {
    ms.clamp(-CLOCK_LIMIT_MS, CLOCK_LIMIT_MS)
}

/// The limits of `go params` for the side to move (`white`), the time counted from `received`.
/// Root moves (`searchmoves`) need the game to be read and are left to the caller.
pub(super) fn limits(
    params: &GoParams,
    white: bool,
    options: &EngineOptions,
    received: Instant,
) -> Limits {
    let (time_left, increment) = if white {
        (params.white_time, params.white_increment)
    } else {
        (params.black_time, params.black_increment)
    };
    // Any clock word makes a clock search, so that no subset of them leaves the search
    // endless: a clock not given (only the opponent's, only increments, `movestogo` alone)
    // is an empty one, and the move is answered at once, as UCI engines do.
    let clock_words = [
        params.white_time,
        params.black_time,
        params.white_increment,
        params.black_increment,
    ];
    let time_left = match time_left {
        None if clock_words.iter().any(Option::is_some) || params.moves_to_go.is_some() => Some(0),
        given => given,
    };
    Limits {
        depth: params.depth,
        nodes: params.nodes,
        movetime: params.movetime.map(believed),
        time_left: time_left.map(believed),
        increment: believed(increment.unwrap_or(0).max(0)),
        moves_to_go: params.moves_to_go,
        mate: params.mate,
        root_moves: None,
        infinite: params.infinite,
        ponder: params.ponder.then(|| Arc::new(PonderHit::default())),
        overhead: options.move_overhead,
        received: Some(received),
        variety: options.variety.then_some(options.seed),
        threads: options.threads,
        multipv: options.multipv,
        own_book: options.own_book,
        value_depth: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_side_to_move_gets_its_own_clock() {
        let params = GoParams {
            white_time: Some(1000),
            black_time: Some(2000),
            white_increment: Some(10),
            black_increment: Some(-5),
            moves_to_go: Some(3),
            ponder: true,
            ..GoParams::default()
        };
        let options = EngineOptions::default();
        let now = Instant::now();
        let black = limits(&params, false, &options, now);
        assert_eq!((black.time_left, black.increment), (Some(2000), 0));
        assert_eq!(black.moves_to_go, Some(3));
        assert!(black.is_pondering());
        let white = limits(&params, true, &options, now);
        assert_eq!((white.time_left, white.increment), (Some(1000), 10));
        assert_eq!(white.overhead, options.move_overhead);
    }

    /// Every subset of the clock words without the side to move's clock ends by itself: the
    /// missing clock is an empty one (answered at once), never an endless search.
    #[test]
    fn a_missing_clock_of_the_side_to_move_is_an_empty_one() {
        let options = EngineOptions::default();
        let now = Instant::now();
        let subsets = [
            GoParams {
                black_time: Some(60_000),
                ..GoParams::default()
            },
            GoParams {
                white_increment: Some(1000),
                black_increment: Some(1000),
                ..GoParams::default()
            },
            GoParams {
                moves_to_go: Some(5),
                ..GoParams::default()
            },
        ];
        for params in &subsets {
            let white = limits(params, true, &options, now);
            assert_eq!(white.time_left, Some(0), "{params:?}");
            assert!(!white.is_unbounded());
        }
        let black = limits(&subsets[0], false, &options, now);
        assert_eq!(black.time_left, Some(60_000));
        let bare = limits(&GoParams::default(), true, &options, now);
        assert_eq!(bare.time_left, None);
        assert!(bare.is_unbounded());
    }

    /// Readings at the integer limits neither overflow (a panic in a debug build) nor wrap
    /// round (a clock of -2^63 ms once gave a search of centuries): the least ones answer at
    /// once, the greatest leave a deadline years away.
    #[test]
    fn clocks_at_the_integer_limits_neither_overflow_nor_wrap() {
        use crate::search::Budget;
        use std::time::Duration;
        let options = EngineOptions::default();
        let now = Instant::now();
        let deadline = |params: GoParams| {
            let limits = limits(&params, true, &options, now);
            Budget::new(&limits, now).hard().expect("a deadline") - now
        };
        let least = [
            GoParams {
                white_time: Some(i64::MIN),
                white_increment: Some(i64::MAX),
                ..GoParams::default()
            },
            GoParams {
                movetime: Some(i64::MIN),
                ..GoParams::default()
            },
        ];
        for params in least {
            assert_eq!(deadline(params), Duration::ZERO);
        }
        let greatest = [
            GoParams {
                white_time: Some(i64::MAX),
                white_increment: Some(i64::MAX),
                moves_to_go: Some(1),
                ..GoParams::default()
            },
            GoParams {
                movetime: Some(i64::MAX),
                ..GoParams::default()
            },
        ];
        for params in greatest {
            let years = deadline(params).as_secs() / (365 * 24 * 3600);
            assert!((1..=31).contains(&years), "{years} years");
        }
    }
}
