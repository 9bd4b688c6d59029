//! The `Variety` option: equally scored root moves are chosen by `Seed`, so engine-vs-engine
//! games differ, while the score (the strength) is the one the plain search finds.

use crate::common;

use common::Engine;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// The `go depth 1` score and best move after the given set-up lines.
fn depth_one(engine: &mut Engine, setup: &[&str]) -> (String, String) {
    for line in setup {
        engine.send(line);
    }
    engine.send("go depth 1");
    let info = engine.until("info depth 1 ", WAIT);
    let score = info
        .split(" nodes")
        .next()
        .expect("a score before the nodes")
        .to_owned();
    let best = engine.until("bestmove", WAIT);
    (score, best)
}

#[test]
fn variety_picks_among_equal_scores_by_seed() {
    // After `b5` many Black replies tie at depth 1 (the race evaluation counts stones and
    // turns, so scores are coarse).
    let position = "position startpos moves b5";
    let mut engine = Engine::start(&[]);
    engine.send("newgame cascades");
    let (plain_score, plain_best) = depth_one(&mut engine, &[position]);
    let mut chosen = Vec::new();
    for seed in 1..=12 {
        let seed_line = format!("setoption name Seed value {seed}");
        let setup = ["setoption name Variety value true", &seed_line, position];
        let (score, best) = depth_one(&mut engine, &setup);
        assert_eq!(score, plain_score, "seed {seed}: Variety changed the score");
        let (_, again) = depth_one(&mut engine, &[position]);
        assert_eq!(
            again, best,
            "seed {seed}: the same seed and position, another move"
        );
        chosen.push(best);
    }
    chosen.sort();
    chosen.dedup();
    assert!(chosen.len() >= 3, "only {chosen:?} over 12 seeds");
    let (score, best) = depth_one(
        &mut engine,
        &["setoption name Variety value false", position],
    );
    assert_eq!((score, best), (plain_score, plain_best));
    engine.send("setoption name Variety value maybe");
    assert_eq!(
        engine.until("error", WAIT),
        "error bad value for Variety: expected true or false"
    );
    assert!(engine.finish().success());
}
