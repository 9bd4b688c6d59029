//! Perft for Nine Men's Morris, every count checked against an independent reference.
//!
//! How the numbers were obtained: each asserted count is computed twice, by the engine
//! (`Game::perft`, bitboards, precomputed tables, bulk counting) and by [`Reference`] below, a
//! deliberately naive implementation written separately from the engine: a 7x7 grid of
//! coordinates, mills and adjacency derived from the geometry of three concentric squares
//! (not from the engine's tables), its own position-string parser, moves as coordinate
//! triples, repetition by comparing whole grids. The test asserts that both agree with the
//! literal numbers below; the literals were written down only after both implementations
//! produced them. From the start, depths 1-4 are also plain products (24, 24*23, 24*23*22,
//! 24*23*22*21): no mill can close before ply 5.

use std::sync::LazyLock;
use tabula::game::Game;
use tabula::games::morris::{Morris, Options};

static POINTS: LazyLock<Vec<Point>> = LazyLock::new(board_points);
static MILLS: LazyLock<Vec<[Point; 3]>> = LazyLock::new(mills);
/// The mills through each grid cell (x * 7 + y).
static MILLS_AT: LazyLock<Vec<Vec<[Point; 3]>>> = LazyLock::new(|| {
    (0..49)
        .map(|i| {
            let p = (i / 7, i % 7);
            MILLS.iter().copied().filter(|m| m.contains(&p)).collect()
        })
        .collect()
});

type Point = (usize, usize);

/// The naive rules: everything recomputed from coordinates every time.
#[derive(Clone)]
struct Reference {
    grid: [[u8; 7]; 7],
    hand: [u32; 3],
    side: u8,
    quiet: u32,
    /// Earlier (grid, side, hands) since the start of the record.
    seen: Vec<([[u8; 7]; 7], u8, [u32; 3])>,
    flying: bool,
    repetition: usize,
    nocapture: u32,
}

/// The 24 points: the corners and side midpoints of three concentric squares.
fn board_points() -> Vec<Point> {
    let mut out = Vec::new();
    for k in 0..3 {
        for x in [k, 3, 6 - k] {
            for y in [k, 3, 6 - k] {
                if (x, y) != (3, 3) {
                    out.push((x, y));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    assert_eq!(out.len(), 24);
    out
}

/// Lines of three: points on one row (or column), the middle row and column split by the centre.
fn mills() -> Vec<[Point; 3]> {
    let pts = board_points();
    let mut out = Vec::new();
    for fixed in 0..7 {
        for horizontal in [true, false] {
            let mut line: Vec<Point> = pts
                .iter()
                .copied()
                .filter(|&(x, y)| if horizontal { y == fixed } else { x == fixed })
                .collect();
            line.sort();
            for part in line.chunks(3) {
                out.push([part[0], part[1], part[2]]);
            }
        }
    }
    assert_eq!(out.len(), 16);
    out
}

fn adjacent(a: Point, b: Point) -> bool {
    MILLS.iter().any(|m| {
        (m[0] == a && m[1] == b)
            || (m[1] == a && m[0] == b)
            || (m[1] == a && m[2] == b)
            || (m[2] == a && m[1] == b)
    })
}

/// True when the piece on `p` completes a line of three of its colour.
fn in_mill(grid: &[[u8; 7]; 7], p: Point) -> bool {
    let who = grid[p.0][p.1];
    MILLS_AT[p.0 * 7 + p.1]
        .iter()
        .any(|m| m.iter().all(|&q| grid[q.0][q.1] == who))
}

fn name(p: Point) -> String {
    format!("{}{}", (b'a' + p.0 as u8) as char, p.1 + 1)
}

/// (from, to, capture)
type RefMove = (Option<Point>, Point, Option<Point>);

impl Reference {
    fn new(fen: &str, flying: bool, repetition: usize, nocapture: u32) -> Reference {
        let f: Vec<&str> = fen.split(' ').collect();
        let mut grid = [[0u8; 7]; 7];
        for (i, row) in f[0].split('/').enumerate() {
            let rank = 6 - i;
            let mut files: Vec<usize> =
                POINTS.iter().filter(|p| p.1 == rank).map(|p| p.0).collect();
            files.sort();
            for (c, x) in row.chars().zip(files) {
                grid[x][rank] = match c {
                    'W' => 1,
                    'B' => 2,
                    _ => 0,
                };
            }
        }
        Reference {
            grid,
            hand: [0, f[2].parse().unwrap(), f[3].parse().unwrap()],
            side: if f[1] == "w" { 1 } else { 2 },
            quiet: f[4].parse().unwrap(),
            seen: Vec::new(),
            flying,
            repetition,
            nocapture,
        }
    }

    fn at(&self, p: Point) -> u8 {
        self.grid[p.0][p.1]
    }

    fn count(&self, who: u8) -> u32 {
        POINTS.iter().filter(|&&p| self.at(p) == who).count() as u32
    }

    fn in_mill(&self, p: Point) -> bool {
        in_mill(&self.grid, p)
    }

    fn moves(&self) -> Vec<RefMove> {
        let me = self.side;
        let them = 3 - me;
        let pts: &[Point] = &POINTS;
        if self.hand[me as usize] + self.count(me) < 3 {
            return vec![];
        }
        let mut bases: Vec<(Option<Point>, Point)> = Vec::new();
        let fly = self.flying && self.hand[me as usize] == 0 && self.count(me) == 3;
        for &to in pts.iter().filter(|&&p| self.at(p) == 0) {
            if self.hand[me as usize] > 0 {
                bases.push((None, to));
            } else {
                for &from in pts.iter().filter(|&&p| self.at(p) == me) {
                    if fly || adjacent(from, to) {
                        bases.push((Some(from), to));
                    }
                }
            }
        }
        if bases.is_empty() {
            return vec![];
        }
        if self.nocapture > 0 && self.quiet >= self.nocapture {
            return vec![];
        }
        let key = (self.grid, self.side, self.hand);
        if self.repetition > 0
            && self.seen.iter().filter(|&&k| k == key).count() + 1 >= self.repetition
        {
            return vec![];
        }
        let theirs: Vec<Point> = pts
            .iter()
            .copied()
            .filter(|&p| self.at(p) == them)
            .collect();
        let free: Vec<Point> = theirs
            .iter()
            .copied()
            .filter(|&p| !self.in_mill(p))
            .collect();
        let targets = if free.is_empty() { theirs } else { free };
        let mut out = Vec::new();
        for (from, to) in bases {
            let mut after = self.grid;
            if let Some(f) = from {
                after[f.0][f.1] = 0;
            }
            after[to.0][to.1] = me;
            if in_mill(&after, to) && !targets.is_empty() {
                for &c in &targets {
                    out.push((from, to, Some(c)));
                }
            } else {
                out.push((from, to, None));
            }
        }
        out
    }

    fn play(&mut self, (from, to, capture): RefMove) {
        let me = self.side;
        self.seen.push((self.grid, self.side, self.hand));
        match from {
            Some(f) => self.grid[f.0][f.1] = 0,
            None => self.hand[me as usize] -= 1,
        }
        self.grid[to.0][to.1] = me;
        match capture {
            Some(c) => {
                self.grid[c.0][c.1] = 0;
                self.quiet = 0;
            }
            None => self.quiet += 1,
        }
        self.side = 3 - me;
    }

    fn play_token(&mut self, token: &str) {
        let mv = self
            .moves()
            .into_iter()
            .find(|&(f, t, c)| {
                let text = format!(
                    "{}{}{}",
                    f.map(name).unwrap_or_default(),
                    name(t),
                    c.map(|c| format!("x{}", name(c))).unwrap_or_default()
                );
                text == token
            })
            .unwrap_or_else(|| panic!("reference: {token} not legal"));
        self.play(mv);
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
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }
}

/// Checks engine == reference == expected at every depth 1..=expected.len().
fn check(fen: &str, moves: &str, options: &[(&str, &str)], expected: &[u64]) {
    let opts = Morris::parse_options(options).unwrap();
    let mut engine = Morris::from_fen(fen, &opts).unwrap();
    let Options {
        flying,
        repetition,
        nocapture,
        ..
    } = opts;
    let mut reference = Reference::new(fen, flying, repetition as usize, nocapture);
    for token in moves.split_whitespace() {
        let mv = engine.parse_move(token).unwrap();
        engine.play(mv);
        reference.play_token(token);
    }
    for (i, &want) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        let by_engine = engine.perft(depth);
        let by_reference = reference.perft(depth);
        assert_eq!(
            by_engine, by_reference,
            "{fen} {moves}: depth {depth}, engine vs reference"
        );
        assert_eq!(by_engine, want, "{fen} {moves}: depth {depth}");
    }
}

const START: &str = ".../.../.../....../.../.../... w 9 9 0";

/// Both depth-6 start checks dominate the test time (the reference takes ~10 s each).
#[test]
fn start_no_flying() {
    check(START, "", &[], &[24, 552, 12144, 255024, 5140800, 99274176]);
}

/// Nobody finishes placing within 6 plies, so flying cannot change these counts; the test
/// guards that the option does not disturb the placement phase.
#[test]
fn start_flying() {
    check(
        START,
        "",
        &[("flying", "true")],
        &[24, 552, 12144, 255024, 5140800, 99274176],
    );
}

/// Moving phase, 8 pieces each, several mills one step away.
#[test]
fn moving_phase() {
    check(
        "W.B/BW./.WB/WB..BW/B.W/.BW/W.B w 0 0 20",
        "",
        &[],
        &[14, 193, 2327, 24123, 306417],
    );
}

/// White flies with 3 pieces against 6 sliding black pieces.
#[test]
fn flying_phase() {
    check(
        "..B/.W./B.B/W...B./..B/.../W.B w 0 0 30",
        "",
        &[("flying", "true")],
        &[50, 820, 26742, 368261],
    );
}

/// Both sides fly with 3 pieces: every mill closed ends the game.
#[test]
fn both_flying() {
    check(
        "W../.B./..W/B...../.../..W/..B w 0 0 40",
        "",
        &[("flying", "true")],
        &[54, 2916, 159576, 8554776],
    );
}

/// The no-capture counter at 97 of 100: quiet lines end after 3 plies (compare depth 4 and 5
/// with `moving_phase`, the same board at counter 20).
#[test]
fn near_no_capture_draw() {
    check(
        "W.B/BW./.WB/WB..BW/B.W/.BW/W.B w 0 0 97",
        "",
        &[],
        &[14, 193, 2327, 18651, 246674],
    );
}

/// The start position of the record has occurred twice; shuffling back reaches the third.
#[test]
fn near_repetition_draw() {
    check(
        "BBB/.W./B../.W...W/..B/.../WW. w 0 0 10",
        "b4c4 c5d5 c4b4 d5c5",
        &[],
        &[13, 63, 699, 4743, 46731],
    );
}

/// The last placements, with mills to close, into the moving phase.
#[test]
fn end_of_placement() {
    check(
        "WB./.W./B.W/.B..W./..B/W../B.W w 2 2 5",
        "",
        &[],
        &[13, 156, 2266, 28480, 388680],
    );
}

/// White places its last piece and then flies with three, or slides without flying.
#[test]
fn placement_into_flying() {
    let fen = "W../..B/B.B/..B.../.W./.../... w 1 1 5";
    check(
        fen,
        "",
        &[("flying", "true")],
        &[18, 374, 13512, 112588, 5520148],
    );
    check(fen, "", &[], &[18, 374, 1750, 14880, 94489]);
}
