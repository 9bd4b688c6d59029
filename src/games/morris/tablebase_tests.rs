//! Tablebase tests: indexing, symmetries, and the 3v3 flying table checked position by
//! position against the engine's own rules (`legal_moves`, `play`, `outcome`).

use super::board::{pieces_in_mills, ADJACENT, MILLS};
use super::symmetry::{classes, rank, sets_of, symmetries, Symmetry, BINOMIAL};
use super::tablebase::{Tablebase, TbResult};
use super::{tables, Morris, Move, Options};
use crate::game::{Exact, Game, Proven, Side};
use std::sync::LazyLock;

/// The 3v3 flying table, built once for all tests (a few seconds).
static FLYING_3V3: LazyLock<Tablebase> = LazyLock::new(|| {
    let mut tb = Tablebase::new(true);
    tb.build_up_to(3, 6, |_, _, _| {});
    tb
});

#[test]
fn ranks_follow_enumeration_order() {
    for k in [1, 3, 4] {
        let sets: Vec<u32> = sets_of(k).collect();
        assert_eq!(sets.len() as u64, BINOMIAL[24][k as usize]);
        assert!(sets.iter().enumerate().all(|(i, &s)| rank(s) == i as u64));
    }
}

#[test]
fn symmetries_preserve_lines() {
    let perms = symmetries();
    assert_eq!(perms.len(), 16);
    let symmetry = Symmetry::new();
    for (s, perm) in perms.iter().enumerate() {
        for (p, &adjacent) in ADJACENT.iter().enumerate() {
            assert_eq!(symmetry.apply(s, adjacent), ADJACENT[perm[p]]);
        }
        let mut images: Vec<u32> = MILLS.iter().map(|&m| symmetry.apply(s, m)).collect();
        let mut mills = MILLS.to_vec();
        images.sort();
        mills.sort();
        assert_eq!(images, mills);
    }
    let mut distinct = perms.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 16);
    // Mills are preserved, so which pieces stand in mills is too.
    let set = 0b111 | 1 << 9 | 1 << 20;
    for s in 0..16 {
        assert_eq!(
            symmetry.apply(s, pieces_in_mills(set)),
            pieces_in_mills(symmetry.apply(s, set))
        );
    }
}

/// Every stored result must agree with one ply of the real rules: the best child result,
/// read through `probe_position`, and the game's own outcome for finished children.
#[test]
fn flying_3v3_agrees_with_the_rules() {
    let tb = &*FLYING_3V3;
    let options = Options {
        flying: true,
        ..Options::default()
    };
    let (mut wins, mut losses, mut draws, mut checked) = (0, 0, 0, 0);
    for (n, white) in sets_of(3).enumerate() {
        for black in sets_of(3)
            .filter(|&b| b & white == 0)
            .skip(n % 7)
            .step_by(41)
        {
            let pos = Morris::from_parts([white, black], [0, 0], Side::White, 0, options);
            let stored = tb.probe_position(&pos).unwrap();
            let best = tb.best_move(&pos).map(|(_, r)| r);
            let expected = match pos.outcome() {
                Some(_) => TbResult::Loss(0),
                None => best.unwrap(),
            };
            assert_eq!(stored, expected, "{}", pos.to_fen());
            match stored {
                TbResult::Win(_) => wins += 1,
                TbResult::Loss(_) => losses += 1,
                TbResult::Draw => draws += 1,
            }
            checked += 1;
        }
    }
    assert!(checked > 30_000 && wins > 0 && losses > 0 && draws > 0);
}

#[test]
fn tables_survive_disk() {
    let dir = std::env::temp_dir().join(format!("morris-tb-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tb = &*FLYING_3V3;
    let sizes = tb.save(&dir).unwrap();
    assert_eq!(sizes.len(), 1);
    let (back, loaded) = Tablebase::load(&dir, true, 3).unwrap();
    assert_eq!(loaded, 1);
    for white in sets_of(3).step_by(13) {
        for black in sets_of(3).filter(|&b| b & white == 0) {
            assert_eq!(back.probe(white, black), tb.probe(white, black));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same one-ply check for flying tables on disk, sampled:
/// `MORRIS_TB_DIR=/tmp/tb MORRIS_TB_MAX=5 cargo test --release -- --ignored stored_tables`.
#[test]
#[ignore]
fn stored_tables_agree_with_the_rules() {
    let Ok(dir) = std::env::var("MORRIS_TB_DIR") else {
        return;
    };
    let max = std::env::var("MORRIS_TB_MAX").map_or(4, |m| m.parse().unwrap());
    let (tb, loaded) = Tablebase::load(dir.as_ref(), true, max).unwrap();
    assert!(loaded > 0);
    let options = Options {
        flying: true,
        ..Options::default()
    };
    for w in 3..=max {
        for b in 3..=max {
            if tb.table(w, b).is_none() || (w, b) == (3, 3) {
                continue;
            }
            let mut counts = [0; 3];
            let step = BINOMIAL[24][w as usize] as usize / 300;
            for (n, white) in sets_of(w).enumerate().step_by(step) {
                for black in sets_of(b)
                    .filter(|&s| s & white == 0)
                    .skip(n % 5)
                    .step_by(301)
                {
                    let pos = Morris::from_parts([white, black], [0, 0], Side::White, 0, options);
                    let stored = tb.probe_position(&pos).unwrap();
                    let expected = match pos.outcome() {
                        Some(_) => TbResult::Loss(0),
                        None => tb.best_move(&pos).unwrap().1,
                    };
                    assert_eq!(stored, expected, "{}", pos.to_fen());
                    counts[match stored {
                        TbResult::Win(_) => 0,
                        TbResult::Loss(_) => 1,
                        TbResult::Draw => 2,
                    }] += 1;
                }
            }
            eprintln!("{w}v{b}: wins, losses, draws sampled {counts:?}");
        }
    }
}

/// Burnside's count of symmetry classes against counting canonical positions one by one
/// (3v3, 3v4) and against the file sizes the builder wrote (docs/morris.md, larger tables).
#[test]
fn class_counts_match_the_stored_positions() {
    let symmetry = Symmetry::new();
    for (m, o) in [(3, 3), (3, 4)] {
        let mut canonical = 0;
        for mover in sets_of(m) {
            for other in sets_of(o).filter(|&s| s & mover == 0) {
                canonical += u64::from(symmetry.canonical(mover, other) == (mover, other));
            }
        }
        assert_eq!(classes(m, o), canonical, "{m}v{o}");
        // The shortcut the loader takes finds the same positions.
        let mut by_rows = 0;
        for mover in sets_of(m) {
            if let Some(stabilizer) = symmetry.stabilizer_if_least(mover) {
                for other in sets_of(o).filter(|&s| s & mover == 0) {
                    let least = symmetry.is_least(&stabilizer, other);
                    assert_eq!(least, symmetry.canonical(mover, other) == (mover, other));
                    by_rows += u64::from(least);
                }
            }
        }
        assert_eq!(by_rows, canonical, "{m}v{o}");
    }
    assert_eq!(classes(3, 3), 169_626);
    assert_eq!(classes(4, 3), 760_398);
    assert_eq!(classes(4, 4), 3_225_597);
    assert_eq!(classes(5, 3), 2_580_390);
    assert_eq!(classes(5, 4), 10_310_496);
    assert_eq!(classes(5, 5), 30_914_424);
}

/// The draw rules limit what the tables claim: a win in n plies only while the no-capture
/// counter leaves room for it, and only while no position since the last capture has
/// occurred `repetition - 1` times already. Table draws always stand.
#[test]
fn table_values_respect_the_draw_rules() {
    let dir = std::env::temp_dir().join(format!("morris-tb-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    FLYING_3V3.save(&dir).unwrap();
    let (tables, _) = tables::attach(&dir, true, Box::new(|_| {}));
    let tables = tables.expect("the 3v3 file is usable");
    tables.wait();
    let rules = |nocapture, repetition| Options {
        flying: true,
        nocapture,
        repetition,
        tables: Some(tables),
    };
    // A won position without mills (so moving a piece back never closes one).
    let (white, black, plies) = sets_of(3)
        .flat_map(|w| sets_of(3).map(move |b| (w, b)))
        .filter(|&(w, b)| w & b == 0 && pieces_in_mills(w) == 0 && pieces_in_mills(b) == 0)
        .find_map(|(w, b)| match FLYING_3V3.probe(w, b) {
            Some(TbResult::Win(n)) if n >= 5 => Some((w, b, n)),
            _ => None,
        })
        .unwrap();
    let at =
        |quiet, options| Morris::from_parts([white, black], [0, 0], Side::White, quiet, options);
    let win = Some(Proven::Win(plies));
    assert_eq!(at(0, rules(100, 3)).proven_value(), win);
    assert_eq!(at(100 - plies, rules(100, 3)).proven_value(), win);
    assert_eq!(at(101 - plies, rules(100, 3)).proven_value(), None);
    assert_eq!(at(101 - plies, rules(0, 3)).proven_value(), win);
    // There and back: the best move, any black reply, both undone; then the best move again.
    for repetition in [3, 0] {
        let mut pos = at(0, rules(100, repetition));
        let (best, _) = FLYING_3V3.best_move(&pos).unwrap();
        pos.play(best);
        let after_best = pos.proven_value();
        assert_eq!(after_best, Some(Proven::Loss(plies - 1)));
        let mut replies = Vec::new();
        pos.legal_moves(&mut replies);
        let reply = replies
            .into_iter()
            .find(|m| !m.is_capture() && m.to != best.from)
            .unwrap();
        pos.play(reply);
        pos.play(Move::step(best.to as usize, best.from as usize));
        pos.play(Move::step(reply.to as usize, reply.from as usize));
        assert_eq!(
            pos.position_key(),
            at(0, rules(100, repetition)).position_key()
        );
        assert_eq!(pos.proven_value(), win, "each position once before");
        pos.play(best);
        // The start position has occurred twice: a third time would draw. Keys do not say
        // whether the winning line can reach it, so the value is left to the search.
        let expected = if repetition == 0 { after_best } else { None };
        assert_eq!(pos.proven_value(), expected, "repetition={repetition}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
