//! Cascades perft and move lists, checked against a deliberately naive reference.
//!
//! How the numbers were obtained: the reference below shares no code with the engine. It keeps
//! the board as a `Vec<Vec<u8>>` grid, reads the position string with its own parser, tests
//! each cell's neighbours one by one with plain coordinates, builds two-stone moves by really
//! placing the first stone and trying every cell for the second, and removes duplicates by
//! putting the unordered pair in a `BTreeSet`. Every count asserted here is computed by both
//! the reference and the engine in the same test run and must equal the literal as well; the
//! literals were written down after both agreed.

use std::collections::BTreeSet;

use tabula::game::{Game, GameError, Harness};
use tabula::games::cascades::Cascades;

// ---------------------------------------------------------------- the naive reference

#[derive(Clone)]
struct Naive {
    below_only: bool,
    /// 0 empty, 1 white, 2 black; `grid[r][c]`, row 0 at the top.
    grid: Vec<Vec<u8>>,
    to_move: u8,
    passes: u8,
    first: bool,
}

type Stones = Vec<(usize, usize)>;

impl Naive {
    fn from_fen(fen: &str, below_only: bool) -> Naive {
        let parts: Vec<&str> = fen.split(' ').collect();
        let grid = parts[0]
            .split('/')
            .map(|row| {
                row.chars()
                    .map(|ch| match ch {
                        'w' => 1,
                        'b' => 2,
                        _ => 0,
                    })
                    .collect()
            })
            .collect();
        Naive {
            below_only,
            grid,
            to_move: if parts[1] == "w" { 1 } else { 2 },
            passes: parts[2].parse().unwrap(),
            first: parts[3] == "first",
        }
    }

    fn start(width: usize, rows: usize, below_only: bool) -> Naive {
        let mut grid: Vec<Vec<u8>> = (0..rows).map(|r| vec![0; width + r]).collect();
        for (c, cell) in grid[0].iter_mut().enumerate() {
            *cell = if c % 2 == 0 { 2 } else { 1 };
        }
        Naive {
            below_only,
            grid,
            to_move: 1,
            passes: 0,
            first: true,
        }
    }

    fn at(&self, r: isize, c: isize) -> u8 {
        if r < 0
            || c < 0
            || r as usize >= self.grid.len()
            || c as usize >= self.grid[r as usize].len()
        {
            return 0;
        }
        self.grid[r as usize][c as usize]
    }

    fn can_place(&self, r: usize, c: usize) -> bool {
        let (ri, ci, who) = (r as isize, c as isize, self.to_move);
        if self.grid[r][c] != 0 {
            return false;
        }
        let from_above = self.at(ri - 1, ci - 1) == who || self.at(ri - 1, ci) == who;
        let from_side = self.at(ri, ci - 1) == who || self.at(ri, ci + 1) == who;
        from_above || (!self.below_only && from_side)
    }

    fn winner_by_majority(&self) -> Option<u8> {
        let bottom = self.grid.last().unwrap();
        (1..=2).find(|&who| 2 * bottom.iter().filter(|&&x| x == who).count() > bottom.len())
    }

    fn is_over(&self) -> bool {
        self.winner_by_majority().is_some() || self.passes >= 2
    }

    fn cells(&self) -> Vec<(usize, usize)> {
        let mut out = vec![];
        for r in 0..self.grid.len() {
            for c in 0..self.grid[r].len() {
                out.push((r, c));
            }
        }
        out
    }

    /// Every move as the set of its stones (empty = pass).
    fn moves(&self) -> Vec<Stones> {
        if self.is_over() {
            return vec![];
        }
        let mut set: BTreeSet<Stones> = BTreeSet::new();
        set.insert(vec![]);
        for (r, c) in self.cells() {
            if !self.can_place(r, c) {
                continue;
            }
            set.insert(vec![(r, c)]);
            if self.first {
                continue;
            }
            let mut after = self.clone();
            after.grid[r][c] = self.to_move;
            for (r2, c2) in self.cells() {
                if after.can_place(r2, c2) {
                    let mut pair = vec![(r, c), (r2, c2)];
                    pair.sort();
                    set.insert(pair);
                }
            }
        }
        set.into_iter().collect()
    }

    fn play(&mut self, stones: &Stones) {
        for &(r, c) in stones {
            self.grid[r][c] = self.to_move;
        }
        self.passes = if stones.is_empty() {
            self.passes + 1
        } else {
            0
        };
        self.to_move = 3 - self.to_move;
        self.first = false;
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut child = self.clone();
                child.play(m);
                child.perft(depth - 1)
            })
            .sum()
    }

    fn name((r, c): (usize, usize)) -> String {
        format!("{}{}", (b'a' + r as u8) as char, c + 1)
    }

    /// The spellings of a move that are legal stone by stone.
    fn legal_spellings(&self, stones: &Stones) -> Vec<String> {
        match stones[..] {
            [] => vec!["pass".to_owned()],
            [one] => vec![Naive::name(one)],
            [a, b] => [(a, b), (b, a)]
                .into_iter()
                .filter(|&(x, y)| {
                    let mut after = self.clone();
                    let ok = after.can_place(x.0, x.1);
                    after.grid[x.0][x.1] = self.to_move;
                    ok && after.can_place(y.0, y.1)
                })
                .map(|(x, y)| format!("{},{}", Naive::name(x), Naive::name(y)))
                .collect(),
            _ => unreachable!(),
        }
    }

    fn canonical_names(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .moves()
            .iter()
            .map(|m| self.legal_spellings(m).into_iter().min().unwrap())
            .collect();
        out.sort();
        out
    }
}

// ---------------------------------------------------------------- helpers

fn engine(options: &[(&str, &str)], fen: Option<&str>) -> Cascades {
    let opts = Cascades::parse_options(options).unwrap();
    match fen {
        Some(f) => Cascades::from_fen(f, &opts).unwrap(),
        None => Cascades::start(&opts),
    }
}

fn engine_names(p: &Cascades) -> Vec<String> {
    let mut moves = vec![];
    p.legal_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|&m| p.format_move(m)).collect();
    out.sort();
    out
}

/// Asserts engine == reference == expected at every depth.
fn check(engine: &Cascades, naive: &Naive, expected: &[u64]) {
    if std::env::var("PERFT_SHOW").is_ok() {
        for depth in 1..=expected.len() as u32 {
            eprintln!(
                "show perft({depth}): reference {} engine {}",
                naive.perft(depth),
                engine.perft(depth)
            );
        }
    }
    assert_eq!(
        engine.to_fen().split(' ').next(),
        Some(
            naive
                .grid
                .iter()
                .map(|r| r
                    .iter()
                    .map(|&x| ['.', 'w', 'b'][x as usize])
                    .collect::<String>())
                .collect::<Vec<_>>()
                .join("/")
                .as_str()
        )
    );
    for (i, &want) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        let reference = naive.perft(depth);
        let counted = engine.perft(depth);
        eprintln!("perft({depth}): reference {reference} engine {counted}");
        assert_eq!(reference, want, "reference perft({depth})");
        assert_eq!(counted, want, "engine perft({depth})");
        if depth <= 3 {
            assert_eq!(listed(engine, depth), want, "engine listed perft({depth})");
        }
    }
}

/// The engine's perft by listing every move (no bulk count at the last ply).
fn listed<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play(mv);
            listed(&child, depth - 1)
        })
        .sum()
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_start_8x8_side_below() {
    check(
        &engine(&[], None),
        &Naive::start(8, 8, false),
        &[9, 414, 20_669, 1_152_908],
    );
}

#[test]
fn perft_start_8x8_below() {
    check(
        &engine(&[("adjacency", "below")], None),
        &Naive::start(8, 8, true),
        &[9, 407, 19_197, 945_653],
    );
}

/// 5x5 after `b3 b1,c1 c3,d4 b2 e5`: Black's `d1,e1` only works in that order.
const SECOND_NEEDS_FIRST: &str = "bwbwb/bbw.../b.w..../...w..../....w.... b 0 -";

#[test]
fn perft_second_stone_needs_first() {
    let p = engine(&[("width", "5"), ("rows", "5")], Some(SECOND_NEEDS_FIRST));
    check(
        &p,
        &Naive::from_fen(SECOND_NEEDS_FIRST, false),
        &[34, 1_355, 52_112, 1_874_303],
    );
}

/// 4x4, White holds 3 of the 7 bottom cells and takes the majority with `d4`.
const MAJORITY: &str = "bwbw/bw.w./bw..w./bww..w. w 0 -";

#[test]
fn perft_majority_end_side_below() {
    let p = engine(&[("width", "4"), ("rows", "4")], Some(MAJORITY));
    check(&p, &Naive::from_fen(MAJORITY, false), &[37, 41, 784, 602]);
}

#[test]
fn perft_majority_end_below() {
    let p = engine(
        &[("width", "4"), ("rows", "4"), ("adjacency", "below")],
        Some(MAJORITY),
    );
    check(&p, &Naive::from_fen(MAJORITY, true), &[19, 30, 350, 364]);
}

/// 4x4, White has just passed: a black pass ends the game.
const AFTER_A_PASS: &str = "bwbw/.w.b./....../....... b 1 -";

#[test]
fn perft_double_pass_end() {
    let p = engine(&[("width", "4"), ("rows", "4")], Some(AFTER_A_PASS));
    check(
        &p,
        &Naive::from_fen(AFTER_A_PASS, false),
        &[26, 487, 13_429, 272_668],
    );
}

// ---------------------------------------------------------------- move lists and spellings

/// A small deterministic generator, so the random games are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Along random games on many boards, the engine lists exactly the reference's moves, each in
/// the byte-smallest spelling that is legal stone by stone, and accepts every legal spelling
/// of each as the same move.
#[test]
fn move_lists_match_the_reference_along_random_games() {
    let mut rng = Lcg(7);
    let boards = [
        (2, 2),
        (3, 3),
        (2, 5),
        (5, 2),
        (4, 6),
        (8, 8),
        (9, 7),
        (16, 3),
        (3, 16),
    ];
    for (width, rows) in boards {
        for below_only in [false, true] {
            let adjacency = if below_only { "below" } else { "side-below" };
            let (w, r) = (width.to_string(), rows.to_string());
            let options = [
                ("width", w.as_str()),
                ("rows", r.as_str()),
                ("adjacency", adjacency),
            ];
            for _game in 0..6 {
                let mut p = engine(&options, None);
                let mut naive = Naive::start(width, rows, below_only);
                loop {
                    let listed = engine_names(&p);
                    assert_eq!(listed, naive.canonical_names(), "moves at {}", p.to_fen());
                    let naive_moves = naive.moves();
                    if naive_moves.is_empty() {
                        assert!(p.outcome().is_some());
                        break;
                    }
                    for stones in &naive_moves {
                        let spellings = naive.legal_spellings(stones);
                        let first = p.parse_move(&spellings[0]).unwrap();
                        for spelling in &spellings {
                            assert_eq!(p.parse_move(spelling), Ok(first), "{spelling}");
                        }
                    }
                    // Passing rarely keeps the games long enough to reach the bottom row.
                    let pick = if rng.below(20) == 0 {
                        0
                    } else {
                        rng.below(naive_moves.len())
                    };
                    let stones = &naive_moves[pick];
                    let token = naive.legal_spellings(stones).pop().unwrap();
                    let mv = p.parse_move(&token).unwrap();
                    p.play(mv);
                    naive.play(stones);
                    assert!(p.is_consistent());
                    let reparsed = Cascades::from_fen(
                        &p.to_fen(),
                        &Cascades::parse_options(&options).unwrap(),
                    )
                    .unwrap();
                    assert_eq!(reparsed.hash(), p.hash());
                }
            }
        }
    }
}

#[test]
fn the_second_stone_may_need_the_first() {
    let p = engine(&[("width", "5"), ("rows", "5")], Some(SECOND_NEEDS_FIRST));
    let names = engine_names(&p);
    assert!(names.contains(&"d1,e1".to_owned()));
    assert!(!names.contains(&"e1,d1".to_owned()));
    assert!(matches!(
        p.parse_move("e1,d1"),
        Err(GameError::IllegalMove { .. })
    ));
    // Both legal alone: the byte-smallest order, whatever order is typed.
    assert!(names.contains(&"b4,d1".to_owned()));
    assert_eq!(p.format_move(p.parse_move("d1,b4").unwrap()), "b4,d1");
}

#[test]
fn two_digit_columns_sort_by_bytes() {
    // 8x8, White to move with b9: c9 and c10 are both open, c8 and d10 only through c9.
    let mut p = engine(&[], None);
    for token in ["b9", "b1"] {
        let mv = p.parse_move(token).unwrap();
        p.play(mv);
    }
    let canonical = |token: &str| p.format_move(p.parse_move(token).unwrap());
    assert_eq!(canonical("c9,c10"), "c10,c9");
    assert_eq!(canonical("c10,c9"), "c10,c9");
    assert_eq!(canonical("c9,c8"), "c9,c8");
    assert_eq!(canonical("c9,d10"), "c9,d10");
    assert_eq!(canonical("c10,d11"), "c10,d11");
    assert!(matches!(
        p.parse_move("c8,c9"),
        Err(GameError::IllegalMove { .. })
    ));
}
