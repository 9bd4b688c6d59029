//! The clock side of `go`: its parameters resolved to the limits of the side to move.

use super::command::GoParams;
use super::options::EngineOptions;
use crate::search::{Limits, PonderHit};
use std::sync::Arc;
use std::time::Instant;

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
    Limits {
        depth: params.depth,
        nodes: params.nodes,
        movetime: params.movetime,
        time_left,
        increment: increment.unwrap_or(0).max(0),
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
}
