//! Tests of the placement tables against the game's own rules: the values of the corner of
//! the placement phase that the tables up to 4v4 close (few pieces left on the board near
//! the end of placement) against a plain minimax over `legal_moves`, the bounds on the
//! materials against random games, and the files.

use super::placement_table::{hands, materials, ply_of, Layer, Loaded, Next, PLIES};
use super::symmetry::sets_of;
use super::tablebase::{Tablebase, TbResult};
use super::{tables, Morris, Options, NO_POINT};
use crate::game::{Exact, Game, Hints, Proven, Side};
use crate::util::rng::splitmix64;
use std::sync::atomic::AtomicBool;
use std::sync::LazyLock;

/// The tables up to 4v4 of each rule set (index: `flying`).
static SMALL: LazyLock<[Tablebase; 2]> = LazyLock::new(|| {
    [false, true].map(|flying| {
        let mut tb = Tablebase::new(flying);
        tb.build_up_to(4, 8, |_, _, _| {});
        tb
    })
});

fn pure(flying: bool) -> Options {
    Options {
        flying,
        nocapture: 0,
        repetition: 0,
        ..Options::default()
    }
}

/// The game position at `ply` with these sets for the side to move and the other side.
fn position(ply: u32, mover: u32, other: u32, flying: bool) -> Morris {
    let (mine, theirs) = hands(ply);
    let (mine, theirs) = (mine as u8, theirs as u8);
    if ply.is_multiple_of(2) {
        Morris::from_parts([mover, other], [mine, theirs], Side::White, 0, pure(flying))
    } else {
        Morris::from_parts([other, mover], [theirs, mine], Side::Black, 0, pure(flying))
    }
}

/// The value for the side to move by the rules alone: a minimax over `legal_moves` to the
/// end of placement, then the moving-phase tables (and the rules where a side is down to
/// two pieces, which the tables leave out).
fn by_the_rules(pos: &Morris, tables: &Tablebase) -> i8 {
    if let Some(outcome) = pos.outcome() {
        return match outcome.winner {
            None => 0,
            Some(w) if w == pos.side_to_move() => 1,
            Some(_) => -1,
        };
    }
    if pos.in_hand(Side::White) + pos.in_hand(Side::Black) == 0 {
        if let Some(result) = tables.probe_position(pos) {
            return match result {
                TbResult::Win(_) => 1,
                TbResult::Draw => 0,
                TbResult::Loss(_) => -1,
            };
        }
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play(mv);
            -by_the_rules(&child, tables)
        })
        .max()
        .expect("a side placing always has a move")
}

/// A random set of `k` points outside `taken`.
fn random_set(k: u32, taken: u32, seed: &mut u64) -> u32 {
    let mut set = 0u32;
    while set.count_ones() < k {
        *seed = splitmix64(*seed);
        let point = (*seed % 24) as u32;
        if (taken | set) & 1 << point == 0 {
            set |= 1 << point;
        }
    }
    set
}

fn square(
    movers: std::ops::RangeInclusive<u32>,
    others: std::ops::RangeInclusive<u32>,
) -> Vec<(u32, u32)> {
    movers
        .flat_map(|m| others.clone().map(move |o| (m, o)))
        .collect()
}

#[test]
fn hands_and_plies_agree() {
    assert_eq!(hands(0), (9, 9));
    assert_eq!(hands(1), (9, 8));
    assert_eq!(hands(17), (1, 0));
    for ply in 0..PLIES {
        let (mine, theirs) = hands(ply);
        assert_eq!(ply_of(mine, theirs), Some(ply));
    }
    for (mine, theirs) in [(0, 0), (0, 1), (9, 7), (3, 5), (10, 9), (1, 2)] {
        assert_eq!(ply_of(mine, theirs), None, "{mine} {theirs}");
    }
}

#[test]
fn materials_hold_every_position_of_random_games() {
    assert_eq!(materials(0), vec![(0, 0)]);
    assert_eq!(materials(4), vec![(2, 2)]);
    // The other side has placed three and may have closed one mill.
    assert_eq!(materials(5), vec![(1, 3), (2, 3)]);
    let mut seed = 42;
    let mut captures = 0;
    for _ in 0..3000 {
        let mut pos = Morris::from_parts([0, 0], [9, 9], Side::White, 0, pure(false));
        for ply in 0..PLIES {
            if pos.outcome().is_some() {
                break;
            }
            let me = pos.side_to_move();
            let material = (
                pos.pieces(me).count_ones(),
                pos.pieces(me.opponent()).count_ones(),
            );
            assert!(
                materials(ply).contains(&material),
                "ply {ply}: {material:?}"
            );
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            // Mill closes first half the time, so that captures are common.
            seed = splitmix64(seed);
            let closes: Vec<_> = moves.iter().filter(|m| m.capture != NO_POINT).collect();
            let mv = if !closes.is_empty() && seed % 2 == 0 {
                *closes[(seed >> 8) as usize % closes.len()]
            } else {
                moves[(seed >> 8) as usize % moves.len()]
            };
            captures += usize::from(mv.capture != NO_POINT);
            pos.play(mv);
        }
    }
    assert!(captures > 3000, "{captures}");
}

#[test]
fn the_corner_the_small_tables_close_agrees_with_the_rules() {
    for flying in [false, true] {
        let tables = &SMALL[usize::from(flying)];
        let build = |ply, materials, next: &Next| {
            Layer::build_materials(ply, flying, materials, next, 2, &mut |_, _| {}).unwrap()
        };
        // Each layer's moves lead into the materials of the one after it.
        let l17 = build(17, square(1..=3, 3..=4), &Next::Moving(tables));
        let l16 = build(16, square(2..=3, 2..=3), &Next::Placing(&l17));
        let l15 = build(15, square(1..=2, 3..=3), &Next::Placing(&l16));
        let l14 = build(14, square(2..=2, 2..=2), &Next::Placing(&l15));
        let mut seed = u64::from(flying);
        for (layer, samples) in [(&l17, 600), (&l16, 300), (&l15, 60), (&l14, 12)] {
            let mut counts = [0; 3];
            for &(m, o) in &layer.materials() {
                for _ in 0..samples {
                    let mover = random_set(m, 0, &mut seed);
                    let other = random_set(o, mover, &mut seed);
                    let pos = position(layer.ply(), mover, other, flying);
                    let stored = layer.value(mover, other).unwrap();
                    assert_eq!(stored, by_the_rules(&pos, tables), "{}", pos.to_fen());
                    counts[(stored + 1) as usize] += 1;
                }
            }
            eprintln!(
                "flying={flying} ply {}: losses, draws, wins {counts:?}",
                layer.ply()
            );
            if layer.ply() >= 16 {
                assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
            }
        }
    }
}

/// The engine with the corner of the placement layers attached: `solve` answers from them,
/// and the moves the search may choose are those keeping their value, under the pure rules
/// and under the default draw rules (where a table draw is still a draw).
#[test]
fn the_engine_plays_and_solves_by_the_layers() {
    let mut with_layers = Tablebase::new(false);
    with_layers.build_up_to(4, 8, |_, _, _| {});
    let small = &SMALL[0];
    let l17 = Layer::build_materials(
        17,
        false,
        square(1..=3, 3..=4),
        &Next::Moving(small),
        2,
        &mut |_, _| {},
    )
    .unwrap();
    let l16 = Layer::build_materials(
        16,
        false,
        square(2..=3, 2..=3),
        &Next::Placing(&l17),
        2,
        &mut |_, _| {},
    )
    .unwrap();
    let mut with_layers = Loaded::new(with_layers);
    with_layers.insert_layer(l17);
    with_layers.insert_layer(l16);
    let attached = tables::attached(with_layers);
    let stop = AtomicBool::new(false);
    let mut seed = 99;
    let mut seen = [0; 3];
    for _ in 0..200 {
        let (m, o) = (2 + (seed % 2) as u32, 2 + (seed / 2 % 2) as u32);
        let mover = random_set(m, 0, &mut seed);
        let other = random_set(o, mover, &mut seed);
        let mut pos = position(16, mover, other, false);
        let value = by_the_rules(&pos, small);
        seen[(value + 1) as usize] += 1;
        for draw_rules in [false, true] {
            pos.options = if draw_rules {
                Options::default()
            } else {
                pure(false)
            };
            pos.options.tables = Some(attached);
            let solution = pos.solve(None, &stop).expect("placing, with tables");
            let keeping = pos.value_keeping_moves(None, &stop);
            let proven = [Proven::Loss(0), Proven::Draw, Proven::Win(0)][(value + 1) as usize];
            if draw_rules && value != 0 {
                // A result under the pure rules may be cut to a draw: the proof decides.
                let allowed = [Some(proven), Some(Proven::Draw), None];
                assert!(allowed.contains(&solution.value), "{}", pos.to_fen());
            } else {
                assert_eq!(solution.value, Some(proven), "{}", pos.to_fen());
                // One probe, no proof search.
                assert_eq!(solution.nodes, 1);
            }
            if value == -1 {
                assert_eq!(keeping, None);
                continue;
            }
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let expected: Vec<_> = moves
                .into_iter()
                .filter(|&mv| {
                    let mut child = pos.clone();
                    child.play(mv);
                    -by_the_rules(&child, small) == value
                })
                .collect();
            assert_eq!(keeping, Some(expected.clone()), "{}", pos.to_fen());
            if !draw_rules || value == 0 {
                assert!(expected.contains(&solution.best.unwrap()));
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
}

#[test]
fn a_missing_table_is_named() {
    let tables = &SMALL[0];
    let error = Layer::build_materials(
        17,
        false,
        vec![(4, 5)],
        &Next::Moving(tables),
        1,
        &mut |_, _| {},
    )
    .err()
    .expect("5v5 is not in the small tables");
    assert!(
        error.contains("missing") && error.contains("5v5"),
        "{error}"
    );
}

#[test]
fn layer_files_round_trip_and_bad_ones_are_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("morris-pl-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Ply 1: the first man of White on the board, Black to place: every value filled in
    // from a pattern (the file format is what is tested here, not the values).
    let layer = Layer::filled(1, true, |slot| (slot % 3) as i8 - 1);
    layer.save(&dir).unwrap();
    let path = Layer::file_name(&dir, true, 1);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), Layer::file_len(1));
    let back = Layer::read(&path, true, 1).unwrap();
    for other in sets_of(1) {
        assert_eq!(back.value(0, other), layer.value(0, other));
    }
    let bytes = std::fs::read(&path).unwrap();
    let refused = |bytes: &[u8], flying: bool, ply: u32| {
        std::fs::write(&path, bytes).unwrap();
        let error = Layer::read(&path, flying, ply)
            .err()
            .expect("refused")
            .to_string();
        assert!(error.contains("morris-fly-placing-1.tb"), "{error}");
        error
    };
    let mut changed = bytes.clone();
    *changed.last_mut().unwrap() ^= 1;
    assert!(refused(&changed, true, 1).contains("checksum"));
    assert!(refused(&bytes[..bytes.len() - 1], true, 1).contains("cut short"));
    assert!(refused(&bytes[..10], true, 1).contains("cut short"));
    assert!(refused(&bytes, false, 1).contains("flying=true"));
    let mut other_ply = bytes.clone();
    other_ply[13] = 2;
    assert!(refused(&other_ply, true, 1).contains("ply 2"));
    let mut foreign = bytes.clone();
    foreign[..8].copy_from_slice(b"MORRISTB");
    assert!(refused(&foreign, true, 1).contains("not a placement table"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `TablebasePath` finds layer files beside the moving-phase tables, names them, loads them
/// and answers from them; a file of the wrong length is skipped with its name.
#[test]
fn layer_files_are_attached_with_the_tables() {
    let dir = std::env::temp_dir().join(format!("morris-pl-attach-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    SMALL[1].save(&dir).unwrap();
    // Ply 1 filled with draws, ply 2 with wins for the side to move.
    Layer::filled(1, true, |_| 0).save(&dir).unwrap();
    Layer::filled(2, true, |_| 1).save(&dir).unwrap();
    std::fs::write(Layer::file_name(&dir, true, 3), b"MORRISPL").unwrap();
    let (handle, note) = tables::attach(&dir, true, Box::new(|_| {}));
    assert!(note.contains("placement plies 1 2"), "{note}");
    assert!(
        note.contains("morris-fly-placing-3.tb has 8 bytes"),
        "{note}"
    );
    let tb = handle.unwrap().wait();
    assert!(tb.layer(1).is_some() && tb.layer(2).is_some() && tb.layer(3).is_none());
    let mut pos = position(2, 1 << 4, 1 << 9, true);
    assert_eq!(tb.placing_value(&pos), Some(1));
    pos.options.flying = false;
    assert_eq!(tb.placing_value(&pos), None, "the other rule set's layers");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The stored layers against the rules, one ply at a time: each sampled position's value is
/// the best over its legal moves (the game's own generation) of the next layer's values, or
/// of the moving-phase tables' after the last placement; the last plies also against the
/// minimax to the end of placement:
/// `MORRIS_TB_DIR=DIR MORRIS_TB_FLYING=true cargo test --lib -- --ignored stored_layers`.
#[test]
#[ignore]
fn stored_layers_agree_with_the_rules() {
    let Ok(dir) = std::env::var("MORRIS_TB_DIR") else {
        return;
    };
    let flying = std::env::var("MORRIS_TB_FLYING").map_or(true, |f| f == "true");
    let (moving, _) = Tablebase::load(dir.as_ref(), flying, 9).unwrap();
    let mut tables = Loaded::new(moving);
    for ply in 0..PLIES {
        let path = Layer::file_name(dir.as_ref(), flying, ply);
        tables.insert_layer(Layer::read(&path, flying, ply).unwrap());
    }
    let value_after = |child: &Morris| -> i8 {
        if let Some(outcome) = child.outcome() {
            return if outcome.winner.is_none() { 0 } else { -1 };
        }
        match tables.placing_value(child) {
            Some(v) => v,
            None => by_the_rules(child, &tables.moving),
        }
    };
    let mut seed = 7;
    for ply in (0..PLIES).rev() {
        let mut counts = [0; 3];
        for &(m, o) in &materials(ply) {
            let samples = if ply >= 12 {
                200
            } else {
                2000 / materials(ply).len()
            };
            for _ in 0..samples {
                let mover = random_set(m, 0, &mut seed);
                let other = random_set(o, mover, &mut seed);
                let pos = position(ply, mover, other, flying);
                let stored = tables.placing_value(&pos).unwrap();
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                let best = if pos.outcome().is_some() {
                    -1
                } else {
                    moves
                        .iter()
                        .map(|&mv| {
                            let mut child = pos.clone();
                            child.play(mv);
                            -value_after(&child)
                        })
                        .max()
                        .unwrap()
                };
                assert_eq!(stored, best, "ply {ply}: {}", pos.to_fen());
                if ply == 17 {
                    assert_eq!(stored, by_the_rules(&pos, &tables.moving));
                }
                counts[(stored + 1) as usize] += 1;
            }
        }
        eprintln!("ply {ply}: losses, draws, wins sampled {counts:?}");
    }
}
