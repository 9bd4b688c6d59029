//! Tablebase tests: indexing, symmetries, and the 3v3 flying table checked position by
//! position against the engine's own rules (`legal_moves`, `play`, `outcome`).

use super::board::{pieces_in_mills, ADJACENT, MILLS};
use super::symmetry::{classes, rank, sets_of, symmetries, Symmetry, BINOMIAL};
use super::tablebase::{pairs, BuildSettings, Step, Tablebase, TbResult};
use super::{tables, Morris, Move, Options};
use crate::game::{Exact, Game, Proven, Side};
use std::path::Path;
use std::sync::LazyLock;
use std::time::Duration;

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

/// Whether the side to move can force a win within `plies` plies, by the rules alone (a plain
/// forward search, independent of the tables and of the retrograde builder).
fn wins_within(pos: &Morris, plies: u32) -> bool {
    if let Some(outcome) = pos.outcome() {
        return outcome.winner == Some(pos.side_to_move());
    }
    if plies == 0 {
        return false;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.into_iter().any(|mv| {
        let mut child = pos.clone();
        child.play(mv);
        loses_within(&child, plies - 1)
    })
}

/// Whether the side to move loses within `plies` plies against best play, by the rules alone.
fn loses_within(pos: &Morris, plies: u32) -> bool {
    if let Some(outcome) = pos.outcome() {
        return outcome.winner == Some(pos.side_to_move().opponent());
    }
    if plies == 0 {
        return false;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.into_iter().all(|mv| {
        let mut child = pos.clone();
        child.play(mv);
        wins_within(&child, plies - 1)
    })
}

/// The short results of the 3v3 tables (both rule sets) against a forward search of the
/// rules: a win in n plies is a forced win within n and not within n - 2, a loss likewise,
/// and a draw is no forced result within a few plies.
#[test]
fn short_results_agree_with_a_forward_search() {
    for flying in [true, false] {
        let mut tb = Tablebase::new(flying);
        tb.build_up_to(3, 6, |_, _, _| {});
        let options = Options {
            flying,
            nocapture: 0,
            repetition: 0,
            ..Options::default()
        };
        let mut checked = [0; 3];
        for (n, white) in sets_of(3).enumerate().step_by(7) {
            for black in sets_of(3)
                .filter(|&b| b & white == 0)
                .skip(n % 11)
                .step_by(97)
            {
                let pos = Morris::from_parts([white, black], [0, 0], Side::White, 0, options);
                let result = tb.probe_position(&pos).unwrap();
                let fen = pos.to_fen();
                match result {
                    TbResult::Win(p) if p <= 3 => {
                        assert!(
                            wins_within(&pos, p) && (p < 2 || !wins_within(&pos, p - 2)),
                            "{fen}"
                        );
                        checked[0] += 1;
                    }
                    TbResult::Loss(p) if p <= 2 => {
                        assert!(
                            loses_within(&pos, p) && (p < 2 || !loses_within(&pos, p - 2)),
                            "{fen}"
                        );
                        checked[1] += 1;
                    }
                    TbResult::Draw => {
                        assert!(!wins_within(&pos, 3) && !loses_within(&pos, 2), "{fen}");
                        checked[2] += 1;
                    }
                    _ => {}
                }
            }
        }
        // Flying 3v3 has few draws: [2476, 56, 5] sampled.
        assert!(
            checked.iter().all(|&c| c > 3),
            "flying={flying}: {checked:?}"
        );
    }
}

/// The same one-ply check for tables on disk, sampled, with short results checked by the
/// forward search too: `MORRIS_TB_DIR=tablebases MORRIS_TB_MAX=6 MORRIS_TB_FLYING=true
/// cargo test --lib -- --ignored stored_tables` (and `MORRIS_TB_FLYING=false`).
#[test]
#[ignore]
fn stored_tables_agree_with_the_rules() {
    let Ok(dir) = std::env::var("MORRIS_TB_DIR") else {
        return;
    };
    let max = std::env::var("MORRIS_TB_MAX").map_or(4, |m| m.parse().unwrap());
    let flying = std::env::var("MORRIS_TB_FLYING").map_or(true, |f| f == "true");
    let (tb, loaded) = Tablebase::load(dir.as_ref(), flying, max).unwrap();
    assert!(loaded > 0);
    let options = Options {
        flying,
        nocapture: 0,
        repetition: 0,
        ..Options::default()
    };
    for w in 3..=max {
        for b in 3..=max {
            if tb.table(w, b).is_none() || (w, b) == (3, 3) {
                continue;
            }
            let mut counts = [0; 4];
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
                    let searched = match stored {
                        TbResult::Win(p) if p <= 3 => {
                            wins_within(&pos, p) && (p < 2 || !wins_within(&pos, p - 2))
                        }
                        TbResult::Loss(p) if p <= 2 => {
                            loses_within(&pos, p) && (p < 2 || !loses_within(&pos, p - 2))
                        }
                        _ => false,
                    };
                    counts[3] += u32::from(searched);
                    counts[match stored {
                        TbResult::Win(_) => 0,
                        TbResult::Loss(_) => 1,
                        TbResult::Draw => 2,
                    }] += 1;
                }
            }
            eprintln!("{w}v{b}: wins, losses, draws sampled, short ones searched {counts:?}");
        }
    }
}

/// Tables of the previous format (one byte per canonical position in index order, no header)
/// agree with these on every position they hold:
/// `MORRIS_TB_OLD=/tmp/old MORRIS_TB_DIR=tablebases MORRIS_TB_FLYING=true
/// cargo test --lib -- --ignored earlier_format`.
#[test]
#[ignore]
fn earlier_format_tables_agree() {
    let (Ok(old), Ok(dir)) = (
        std::env::var("MORRIS_TB_OLD"),
        std::env::var("MORRIS_TB_DIR"),
    ) else {
        return;
    };
    let flying = std::env::var("MORRIS_TB_FLYING").map_or(true, |f| f == "true");
    let symmetry = Symmetry::new();
    let mut compared_tables = 0;
    for m in 3..=9 {
        for o in 3..=9 {
            let Ok(bytes) = std::fs::read(Tablebase::file_name(old.as_ref(), flying, m, o)) else {
                continue;
            };
            let path = Tablebase::file_name(dir.as_ref(), flying, m, o);
            if !path.exists() {
                continue;
            }
            let table = super::tablebase::Table::read(&path, flying, m, o).unwrap();
            let mut next = bytes.iter();
            let mut compared = 0u64;
            for mover in sets_of(m) {
                if (0..16).any(|s| symmetry.apply(s, mover) < mover) {
                    continue;
                }
                let fixing: Vec<usize> = (1..16)
                    .filter(|&s| symmetry.apply(s, mover) == mover)
                    .collect();
                for other in sets_of(o).filter(|&s| s & mover == 0) {
                    if symmetry.is_least(&fixing, other) {
                        let old = *next.next().expect("the old file is long enough");
                        assert_eq!(table.value(mover, other), old, "{m}v{o}");
                        compared += 1;
                    }
                }
            }
            assert!(next.next().is_none());
            assert_eq!(compared, classes(m, o));
            eprintln!("{m}v{o}: {compared} classes agree");
            compared_tables += 1;
        }
    }
    assert!(compared_tables > 0);
}

/// Among moves of the best result, the tables' move leaves the opponent the most replies that
/// lose ground, counted here from the rules' children and the tables' values.
#[test]
fn equal_moves_prefer_the_most_ways_to_go_wrong() {
    // Without flying, 3v3 has many draws and many wins of equal length.
    let mut tb = Tablebase::new(false);
    tb.build_up_to(3, 6, |_, _, _| {});
    let tb = &tb;
    let options = Options::default();
    let worse_replies = |child: &Morris| {
        let own = tb.probe_position(child).unwrap();
        let rank = |r: TbResult| match r {
            TbResult::Win(n) => 1000 - n as i64,
            TbResult::Draw => 0,
            TbResult::Loss(n) => n as i64 - 1000,
        };
        let mut replies = Vec::new();
        child.legal_moves(&mut replies);
        replies
            .into_iter()
            .filter(|&r| {
                let mut next = child.clone();
                next.play(r);
                // The replier's result is the negation of the next mover's.
                let after = match tb.probe_position(&next).unwrap() {
                    TbResult::Win(n) => TbResult::Loss(n + 1),
                    TbResult::Loss(n) => TbResult::Win(n + 1),
                    TbResult::Draw => TbResult::Draw,
                };
                rank(after) < rank(own)
            })
            .count()
    };
    let mut ties = [0, 0];
    for (n, white) in sets_of(3).enumerate().step_by(5) {
        for black in sets_of(3)
            .filter(|&b| b & white == 0)
            .skip(n % 13)
            .step_by(211)
        {
            let pos = Morris::from_parts([white, black], [0, 0], Side::White, 0, options);
            if pos.outcome().is_some() {
                continue;
            }
            let value = tb.probe_position(&pos).unwrap();
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let counts: Vec<(Move, usize)> = moves
                .into_iter()
                .filter_map(|mv| {
                    let mut child = pos.clone();
                    child.play(mv);
                    let kept = match tb.probe_position(&child).unwrap() {
                        TbResult::Win(n) => TbResult::Loss(n + 1),
                        TbResult::Loss(n) => TbResult::Win(n + 1),
                        TbResult::Draw => TbResult::Draw,
                    };
                    (kept == value).then(|| (mv, worse_replies(&child)))
                })
                .collect();
            let most = counts.iter().map(|c| c.1).max().unwrap();
            let (best, result) = tb.best_move(&pos).unwrap();
            assert_eq!(result, value);
            let chosen = counts.iter().find(|c| c.0 == best).unwrap().1;
            assert_eq!(chosen, most, "{}", pos.to_fen());
            ties[usize::from(value == TbResult::Draw)] +=
                usize::from(counts.iter().any(|c| c.1 != most));
        }
    }
    assert!(
        ties.iter().all(|&t| t > 10),
        "{ties:?} won and drawn positions where it mattered"
    );
}

/// Bad files are refused with an error naming the file: cut short, one byte changed, another
/// table's file, a file without the header (an older format), and a directory that cannot be
/// written (as a full disk would fail) leaves no file behind under the final name.
#[test]
fn bad_files_are_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("morris-tb-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tb = &*FLYING_3V3;
    tb.save(&dir).unwrap();
    let path = Tablebase::file_name(&dir, true, 3, 3);
    let name = path.display().to_string();
    let good = std::fs::read(&path).unwrap();
    let read = || {
        super::tablebase::Table::read(&path, true, 3, 3)
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    std::fs::write(&path, &good[..good.len() - 1]).unwrap();
    assert!(
        read().starts_with(&format!("{name}: cut short")),
        "{}",
        read()
    );
    let mut flipped = good.clone();
    *flipped.last_mut().unwrap() ^= 1;
    std::fs::write(&path, &flipped).unwrap();
    assert_eq!(
        read(),
        format!("{name}: checksum mismatch: the file is corrupt")
    );
    std::fs::write(&path, &good[32..]).unwrap();
    assert!(
        read().contains("not a table file of this format"),
        "{}",
        read()
    );
    std::fs::write(&path, &good).unwrap();
    let wrong = super::tablebase::Table::read(&path, false, 3, 3)
        .map(|_| ())
        .unwrap_err();
    assert!(
        wrong
            .to_string()
            .contains("holds the 3v3 table for flying=true"),
        "{wrong}"
    );
    let (back, loaded) = Tablebase::load(&dir, true, 3).unwrap();
    assert_eq!((loaded, back.probe(7, 7 << 3)), (1, tb.probe(7, 7 << 3)));
    // A "directory" that is a file: nothing can be written there.
    let blocked = dir.join("not-a-dir");
    std::fs::write(&blocked, b"x").unwrap();
    let error = tb.save(&blocked).unwrap_err().to_string();
    let target = Tablebase::file_name(&blocked, true, 3, 3)
        .display()
        .to_string();
    assert!(
        error.starts_with(&format!("{target}: cannot write the table")),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every slot's position ranks back to the slot, and every position of a table (here 3v4
/// and 4v3) maps to the slot of its canonical image.
#[test]
fn slots_and_positions_correspond() {
    for (m, o) in [(3, 4), (4, 3)] {
        let table = super::tablebase::Table::zeroed(m, o).unwrap();
        let symmetry = Symmetry::new();
        let mut canonical_slots = 0;
        for slot in 0..table.values.len() {
            let (mover, other) = table.position_at(slot);
            assert_eq!(table.slot_of(mover, other), slot);
            assert_eq!(
                (mover.count_ones(), other.count_ones(), mover & other),
                (m, o, 0)
            );
            canonical_slots += u64::from(symmetry.canonical(mover, other) == (mover, other));
        }
        assert_eq!(canonical_slots, classes(m, o));
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
        // The shortcut the builder takes (a least mover set, then only the symmetries fixing
        // it on the other set) finds the same positions, and the stabilizer sizes the
        // canonical form reports are the symmetries that fix the position.
        let mut by_rows = 0;
        for mover in sets_of(m) {
            let fixing: Vec<usize> = (0..16)
                .filter(|&s| symmetry.apply(s, mover) == mover)
                .collect();
            let least_mover = (0..16).all(|s| symmetry.apply(s, mover) >= mover);
            for other in sets_of(o).filter(|&s| s & mover == 0) {
                let least = least_mover && symmetry.is_least(&fixing, other);
                assert_eq!(least, symmetry.canonical(mover, other) == (mover, other));
                by_rows += u64::from(least);
                let fixed = (0..16)
                    .filter(|&s| {
                        (symmetry.apply(s, mover), symmetry.apply(s, other)) == (mover, other)
                    })
                    .count() as u32;
                assert_eq!(symmetry.canonical_with_stabilizer(mover, other).2, fixed);
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

/// Builds the pair (m, o) into `tb` with `settings`; returns the result and the steps told.
fn build_with(
    tb: &mut Tablebase,
    (m, o): (u32, u32),
    settings: &BuildSettings,
) -> (Result<u32, String>, Vec<Step>) {
    let mut steps = Vec::new();
    let result = tb.build_pair_with(m, o, settings, &mut |step| {
        if !matches!(step, Step::Seeding { .. } | Step::Level { .. }) {
            steps.push(step);
        }
    });
    (result, steps)
}

/// Asserts that `a` and `b` hold the same bytes for the tables of the pair (m, o).
fn assert_same_pair(a: &Tablebase, b: &Tablebase, (m, o): (u32, u32), what: &str) {
    for (x, y) in [(m, o), (o, m)] {
        let left: &[u8] = &a.table(x, y).expect("built").values;
        let right: &[u8] = &b.table(x, y).expect("built").values;
        assert!(left == right, "{what}: table {x}v{y} differs");
    }
}

/// Settings that checkpoint into `dir` at every chance.
fn checkpointing(dir: &Path, threads: usize, stop_after_level: Option<u32>) -> BuildSettings {
    BuildSettings {
        threads,
        checkpoints: Some(dir.to_path_buf()),
        checkpoint_every: Some(Duration::ZERO),
        stop_after_level,
    }
}

/// The tables do not depend on the number of threads: every pair up to 8 men (3v3 .. 5v3,
/// 4v4) of both rule sets, built with one thread and with three (more than the cores of the
/// machines this runs on, so the threads interleave at random), byte for byte.
#[test]
fn threads_build_the_same_tables() {
    for flying in [true, false] {
        let mut one = Tablebase::new(flying);
        let mut three = Tablebase::new(flying);
        for pair in pairs(5, 8) {
            let (a, _) = build_with(&mut one, pair, &BuildSettings::default());
            let settings = BuildSettings {
                threads: 3,
                ..BuildSettings::default()
            };
            let (b, _) = build_with(&mut three, pair, &settings);
            assert_eq!(a, b, "flying={flying} {pair:?}: longest result");
            assert_same_pair(&one, &three, pair, &format!("flying={flying}"));
        }
    }
}

/// A build stopped after a level and resumed from its checkpoint (twice, with other numbers
/// of threads) gives the tables of a build that never stopped: for a pair of one table
/// (3v3 without flying, 39 levels) and one of two (3v4 and 4v3 flying, from 3v3).
#[test]
fn resumed_builds_give_the_same_tables() {
    let dir = std::env::temp_dir().join(format!("morris-tb-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (flying, pair, stops) in [(false, (3, 3), [0, 20]), (true, (3, 4), [4, 17])] {
        let mut whole = Tablebase::new(flying);
        whole.build_up_to(3, 6, |_, _, _| {});
        let mut parts = Tablebase::new(flying);
        parts.build_up_to(3, 6, |_, _, _| {});
        let longest = whole.build_pair(pair.0, pair.1);
        let partial = Tablebase::partial_name(&dir, flying, pair.0, pair.1);
        let (result, steps) = build_with(&mut parts, pair, &checkpointing(&dir, 3, Some(stops[0])));
        assert_eq!(result, Err(format!("stopped after level {}", stops[0])));
        assert!(
            matches!(steps[0], Step::Saved { level: 0, .. }),
            "{steps:?}"
        );
        assert!(partial.exists());
        let (result, steps) = build_with(&mut parts, pair, &checkpointing(&dir, 1, Some(stops[1])));
        assert_eq!(result, Err(format!("stopped after level {}", stops[1])));
        assert!(
            matches!(&steps[0], Step::Resumed { path, level } if *path == partial && *level == stops[0] + 1),
            "{steps:?}"
        );
        let settings = BuildSettings {
            threads: 2,
            checkpoints: Some(dir.clone()),
            ..BuildSettings::default()
        };
        let (result, steps) = build_with(&mut parts, pair, &settings);
        assert_eq!(result, Ok(longest));
        assert!(
            matches!(&steps[..], [Step::Resumed { level, .. }] if *level == stops[1] + 1),
            "{steps:?}"
        );
        assert_same_pair(&whole, &parts, pair, &format!("flying={flying}"));
        Tablebase::remove_partial(&dir, flying, pair.0, pair.1).unwrap();
        assert!(!partial.exists());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpoint that does not verify (one byte changed, cut short, another rule set's or
/// another pair's) is refused by name, removed, and the pair is built from the start with
/// the right tables; a checkpoint that cannot be written is reported by name and the build
/// goes on.
#[test]
fn bad_checkpoints_are_refused_and_rebuilt() {
    let dir = std::env::temp_dir().join(format!("morris-tb-badpart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The uninterrupted builds of 3v4 and 4v3, with their longest result, by rule set.
    let references: Vec<(Tablebase, u32)> = [false, true]
        .into_iter()
        .map(|flying| {
            let mut tb = Tablebase::new(flying);
            tb.build_up_to(3, 6, |_, _, _| {});
            let longest = tb.build_pair(3, 4);
            (tb, longest)
        })
        .collect();
    let stopped = |flying: bool, pair: (u32, u32)| {
        let mut tb = Tablebase::new(flying);
        tb.build_up_to(3, 6, |_, _, _| {});
        let (result, _) = build_with(&mut tb, pair, &checkpointing(&dir, 2, Some(3)));
        assert!(result.is_err());
        std::fs::read(Tablebase::partial_name(&dir, flying, pair.0, pair.1)).unwrap()
    };
    let good = stopped(true, (3, 4));
    let mut changed = good.clone();
    changed[good.len() / 2] ^= 1;
    let cases = [
        (
            true,
            (3, 4),
            changed,
            "checksum mismatch: the checkpoint is corrupt",
        ),
        (true, (3, 4), good[..good.len() - 1].to_vec(), "cut short"),
        (
            false,
            (3, 4),
            good.clone(),
            "holds the checkpoint of 3v4 for flying=true, not 3v4 for flying=false",
        ),
        (
            true,
            (3, 4),
            stopped(true, (3, 3)),
            "holds the checkpoint of 3v3 for flying=true, not 3v4",
        ),
    ];
    for (flying, pair, bytes, why) in cases {
        let path = Tablebase::partial_name(&dir, flying, pair.0, pair.1);
        std::fs::write(&path, bytes).unwrap();
        let mut tb = Tablebase::new(flying);
        tb.build_up_to(3, 6, |_, _, _| {});
        let settings = BuildSettings {
            checkpoints: Some(dir.clone()),
            ..BuildSettings::default()
        };
        let (result, steps) = build_with(&mut tb, pair, &settings);
        let [Step::Refused(error)] = &steps[..] else {
            panic!("{why}: {steps:?}");
        };
        assert!(
            error.starts_with(&format!("{}: {why}", path.display())),
            "{error}"
        );
        assert!(!path.exists(), "{why}: removed");
        let (whole, longest) = &references[usize::from(flying)];
        assert_eq!(result, Ok(*longest));
        assert_same_pair(whole, &tb, pair, why);
    }
    // A "directory" that is a file: no checkpoint can be written there.
    let blocked = dir.join("not-a-dir");
    std::fs::write(&blocked, b"x").unwrap();
    let mut tb = Tablebase::new(true);
    tb.build_up_to(3, 6, |_, _, _| {});
    let (result, steps) = build_with(&mut tb, (3, 4), &checkpointing(&blocked, 1, None));
    let (reference, longest) = &references[1];
    assert_eq!(result, Ok(*longest));
    let target = Tablebase::partial_name(&blocked, true, 3, 4);
    assert!(
        !steps.is_empty()
            && steps.iter().all(|s| matches!(s, Step::NotSaved(e)
            if e.starts_with(&format!("{}: cannot write the checkpoint", target.display())))),
        "{steps:?}"
    );
    assert_same_pair(reference, &tb, (3, 4), "checkpoints not written");
    std::fs::remove_dir_all(&dir).unwrap();
}
