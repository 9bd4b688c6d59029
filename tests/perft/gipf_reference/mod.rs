//! An independent, deliberately naive implementation of the GIPF rules (basic, standard and
//! tournament games), written from notation.md and the rules in docs/gipf.md without engine
//! code: a 9x9 grid of cells indexed by (x, y) instead of bitboards, lines found by walking
//! directions instead of precomputed tables, rows found by scanning every spot, the
//! opponent's removals recomputed from scratch, GIPF-pieces as a second grid of flags, keep
//! subsets enumerated per run, and moves deduplicated through a hash set of (push, resulting
//! position). Used by `tests/perft/gipf.rs`.

use std::collections::{BTreeMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a: the default SipHash dominated the run time on these byte arrays.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
}

type FnvSet<T> = HashSet<T, BuildHasherDefault<Fnv>>;

/// Empty, white, black.
const EMPTY: u8 = 0;
const DIRS: [(i32, i32); 6] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)];
const LINE_DIRS: [(i32, i32); 3] = [(0, 1), (1, 0), (1, 1)];

fn on_board(x: i32, y: i32) -> bool {
    (0..9).contains(&x) && (0..9).contains(&y) && (x - y).abs() <= 4
}

fn on_rim(x: i32, y: i32) -> bool {
    x == 0 || x == 8 || y == 0 || y == 8 || (x - y).abs() == 4
}

fn is_spot(x: i32, y: i32) -> bool {
    on_board(x, y) && !on_rim(x, y)
}

fn name(x: i32, y: i32) -> String {
    let row = y + 1 - (x - 4).max(0);
    format!("{}{}", (b'a' + x as u8) as char, row)
}

/// A position: cells[x][y] (colour), doubled[x][y] (a GIPF-piece: two stacked pieces),
/// reserves and captures by colour (1 white, 2 black), side 1/2, which colours may still
/// bring GIPF-pieces in, and whether the rules have GIPF-pieces at all (standard and
/// tournament games; the basic game has none).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Pos {
    cells: [[u8; 9]; 9],
    doubled: [[bool; 9]; 9],
    reserve: [u8; 3],
    captured: [u8; 3],
    side: u8,
    bringing: [bool; 3],
    with_gipf: bool,
}

/// Reads the engine's documented position string (columns b..h bottom up) of the basic
/// game.
pub fn parse(fen: &str) -> Pos {
    parse_variant(fen, false)
}

/// Reads a position string; `with_gipf` for the standard and tournament games (a seventh
/// field lists the colours still bringing GIPF-pieces in).
pub fn parse_variant(fen: &str, with_gipf: bool) -> Pos {
    let f: Vec<&str> = fen.split(' ').collect();
    let bring = f.get(6).copied().unwrap_or("-");
    let mut p = Pos {
        cells: [[EMPTY; 9]; 9],
        doubled: [[false; 9]; 9],
        reserve: [0, f[2].parse().unwrap(), f[3].parse().unwrap()],
        captured: [0, f[4].parse().unwrap(), f[5].parse().unwrap()],
        side: if f[1] == "w" { 1 } else { 2 },
        bringing: [false, bring.contains('w'), bring.contains('b')],
        with_gipf,
    };
    for (i, col) in f[0].split('/').enumerate() {
        let x = i as i32 + 1;
        let mut spots: Vec<i32> = (0..9).filter(|&y| is_spot(x, y)).collect();
        spots.reverse();
        for ch in col.chars() {
            match ch {
                'w' | 'b' | 'W' | 'B' => {
                    let y = spots.pop().unwrap();
                    let colour = if ch.eq_ignore_ascii_case(&'w') { 1 } else { 2 };
                    p.cells[x as usize][y as usize] = colour;
                    p.doubled[x as usize][y as usize] = ch.is_ascii_uppercase();
                }
                d => {
                    for _ in 0..d.to_digit(10).unwrap() {
                        spots.pop();
                    }
                }
            }
        }
    }
    p
}

impl Pos {
    fn at(&self, x: i32, y: i32) -> u8 {
        self.cells[x as usize][y as usize]
    }

    /// Rows of colour c: (run cells, spelling `x<lo>-<hi>`).
    fn rows(&self, c: u8) -> Vec<(Vec<(i32, i32)>, String)> {
        let mut out = Vec::new();
        for x in 0..9 {
            for y in 0..9 {
                // Cells off the play area are always empty, so this skips them too.
                if self.at(x, y) != c {
                    continue;
                }
                for &(dx, dy) in &LINE_DIRS {
                    if is_spot(x - dx, y - dy) && self.at(x - dx, y - dy) == c {
                        continue; // not the start of this stretch
                    }
                    let mut n = 0;
                    while is_spot(x + n * dx, y + n * dy) && self.at(x + n * dx, y + n * dy) == c {
                        n += 1;
                    }
                    if n < 4 {
                        continue;
                    }
                    let (mut a, mut b) = (0, n - 1);
                    while is_spot(x + (a - 1) * dx, y + (a - 1) * dy)
                        && self.at(x + (a - 1) * dx, y + (a - 1) * dy) != EMPTY
                    {
                        a -= 1;
                    }
                    while is_spot(x + (b + 1) * dx, y + (b + 1) * dy)
                        && self.at(x + (b + 1) * dx, y + (b + 1) * dy) != EMPTY
                    {
                        b += 1;
                    }
                    let run: Vec<(i32, i32)> = (a..=b).map(|k| (x + k * dx, y + k * dy)).collect();
                    let mut ends = [name(run[0].0, run[0].1), {
                        let l = run[run.len() - 1];
                        name(l.0, l.1)
                    }];
                    ends.sort();
                    out.push((run, format!("x{}-{}", ends[0], ends[1])));
                }
            }
        }
        out
    }

    fn big(&self, x: i32, y: i32) -> bool {
        self.doubled[x as usize][y as usize]
    }

    /// Colour c takes `run` except the GIPF-pieces on `keep`; a GIPF-piece is two pieces.
    fn take(&mut self, c: u8, run: &[(i32, i32)], keep: &[(i32, i32)]) {
        for &(x, y) in run {
            if keep.contains(&(x, y)) {
                continue;
            }
            let v = self.at(x, y);
            let n = if self.big(x, y) { 2 } else { 1 };
            if v == c {
                self.reserve[c as usize] += n;
            } else if v != EMPTY {
                self.captured[c as usize] += n;
            }
            self.cells[x as usize][y as usize] = EMPTY;
            self.doubled[x as usize][y as usize] = false;
        }
    }

    /// The GIPF-pieces (either colour) in a run.
    fn bigs(&self, run: &[(i32, i32)]) -> Vec<(i32, i32)> {
        run.iter()
            .copied()
            .filter(|&(x, y)| self.big(x, y))
            .collect()
    }

    /// Whether colour c has a GIPF-piece anywhere on the board.
    fn has_big(&self, c: u8) -> bool {
        (0..9).any(|x| (0..9).any(|y| self.at(x, y) == c && self.big(x, y)))
    }

    /// Indices of rows whose run shares a cell with another row's run.
    fn contested(rows: &[(Vec<(i32, i32)>, String)]) -> Vec<bool> {
        (0..rows.len())
            .map(|i| {
                (0..rows.len())
                    .any(|j| j != i && rows[i].0.iter().any(|cell| rows[j].0.contains(cell)))
            })
            .collect()
    }

    /// Removes colour c's rows that need no decision (uncontested, no GIPF-piece in the
    /// run), again and again; returns the rows left.
    fn take_free(&mut self, c: u8) -> Vec<(Vec<(i32, i32)>, String)> {
        loop {
            let rows = self.rows(c);
            let busy = Pos::contested(&rows);
            let free: Vec<bool> = rows
                .iter()
                .zip(&busy)
                .map(|(row, &b)| !b && self.bigs(&row.0).is_empty())
                .collect();
            if !free.contains(&true) {
                return rows;
            }
            for (row, _) in rows.iter().zip(&free).filter(|(_, f)| **f) {
                self.take(c, &row.0, &[]);
            }
        }
    }

    /// Whether keeping `keep` of `run` leaves four pieces of colour c in a row on it.
    fn keeps_row(&self, c: u8, run: &[(i32, i32)], keep: &[(i32, i32)]) -> bool {
        let mut streak = 0;
        for cell in run {
            if keep.contains(cell) && self.at(cell.0, cell.1) == c {
                streak += 1;
                if streak >= 4 {
                    return true;
                }
            } else {
                streak = 0;
            }
        }
        false
    }

    /// Every way colour c can clear its rows: (choices spelt, position). Each choice
    /// takes a run and keeps any subset of its GIPF-pieces that breaks the row.
    fn clear(&self, c: u8, made: Vec<String>, out: &mut Vec<(Vec<String>, Pos)>) {
        let mut p = self.clone();
        let rows = p.take_free(c);
        if rows.is_empty() {
            out.push((made, p));
            return;
        }
        for row in &rows {
            let bigs = p.bigs(&row.0);
            for subset in 0..1u32 << bigs.len() {
                let keep: Vec<(i32, i32)> = (0..bigs.len())
                    .filter(|i| subset & (1 << i) != 0)
                    .map(|i| bigs[i])
                    .collect();
                if p.keeps_row(c, &row.0, &keep) {
                    continue;
                }
                let mut names: Vec<String> = keep.iter().map(|&(x, y)| name(x, y)).collect();
                names.sort();
                let mut spelt = row.1.clone();
                for n in names {
                    spelt = spelt + "/" + &n;
                }
                let mut q = p.clone();
                q.take(c, &row.0, &keep);
                let mut m = made.clone();
                m.push(spelt);
                q.clear(c, m, out);
            }
        }
    }

    /// Colour c has lost its GIPF-pieces: none on the board, and it cannot bring one in.
    fn gipf_lost(&self, c: u8) -> bool {
        self.with_gipf
            && !self.has_big(c)
            && !(self.bringing[c as usize] && self.reserve[c as usize] >= 2)
    }

    /// The game is over (a player without GIPF-pieces, or the player to move without
    /// reserve and without a waiting row).
    pub fn is_over(&self) -> bool {
        self.gipf_lost(1)
            || self.gipf_lost(2)
            || self.reserve[self.side as usize] == 0 && self.rows(self.side).is_empty()
    }

    /// The losing colour's reason, when the game is over: `no-gipf` (the side to move
    /// checked first) or `no-reserve`.
    pub fn loss(&self) -> Option<(u8, &'static str)> {
        let me = self.side;
        if self.gipf_lost(me) {
            Some((me, "no-gipf"))
        } else if self.gipf_lost(3 - me) {
            Some((3 - me, "no-gipf"))
        } else if self.is_over() {
            Some((me, "no-reserve"))
        } else {
            None
        }
    }

    /// Distinct moves: spelling (byte-smallest among equivalent ones) -> position after.
    pub fn moves(&self, spell: bool) -> BTreeMap<String, Pos> {
        let mut out: BTreeMap<(String, Pos), String> = BTreeMap::new();
        let mut keys: FnvSet<(i32, i32, i32, i32, bool, Pos)> = FnvSet::default();
        if self.is_over() {
            return BTreeMap::new();
        }
        let me = self.side;
        let them = 3 - me;
        let mut starts = Vec::new();
        self.clear(me, Vec::new(), &mut starts);
        for (before, start) in starts {
            // Single pieces need one in reserve, GIPF-pieces two and the right to bring
            // them in; while a colour may bring them in, it must while it has none.
            let r = start.reserve[me as usize];
            let bringing = start.bringing[me as usize];
            let mut kinds = Vec::new();
            if bringing && r >= 2 {
                kinds.push(true);
            }
            if r >= 1 && (!bringing || start.has_big(me)) {
                kinds.push(false);
            }
            for &big in &kinds {
                for x in 0..9 {
                    for y in 0..9 {
                        if !on_board(x, y) || !on_rim(x, y) {
                            continue;
                        }
                        for &(dx, dy) in &DIRS {
                            if !is_spot(x + dx, y + dy) {
                                continue;
                            }
                            let path: Vec<(i32, i32)> = (1..)
                                .map(|k| (x + k * dx, y + k * dy))
                                .take_while(|&(a, b)| is_spot(a, b))
                                .collect();
                            let Some(gap) = path.iter().position(|&(a, b)| start.at(a, b) == EMPTY)
                            else {
                                continue;
                            };
                            let mut p = start.clone();
                            for k in (0..gap).rev() {
                                let (fx, fy) = path[k];
                                let (tx, ty) = path[k + 1];
                                p.cells[tx as usize][ty as usize] = p.at(fx, fy);
                                p.doubled[tx as usize][ty as usize] = p.big(fx, fy);
                            }
                            let (ex, ey) = (path[0].0 as usize, path[0].1 as usize);
                            p.cells[ex][ey] = me;
                            p.doubled[ex][ey] = big;
                            p.reserve[me as usize] -= if big { 2 } else { 1 };
                            if !big {
                                p.bringing[me as usize] = false;
                            }
                            let mut ends = Vec::new();
                            p.clear(me, Vec::new(), &mut ends);
                            for (after, mut end) in ends {
                                end.take_free(them);
                                end.side = them;
                                if !spell {
                                    keys.insert((x, y, dx, dy, big, end));
                                    continue;
                                }
                                let push = format!(
                                    "{}{}-{}",
                                    if big { "G" } else { "" },
                                    name(x, y),
                                    name(path[0].0, path[0].1)
                                );
                                let key = (push.clone(), end);
                                let mut text = String::new();
                                if !before.is_empty() {
                                    text = before.join(",") + ":";
                                }
                                text += &push;
                                if !after.is_empty() {
                                    text = text + ":" + &after.join(",");
                                }
                                let slot = out.entry(key).or_insert(text.clone());
                                if text < *slot {
                                    *slot = text;
                                }
                            }
                        }
                    }
                }
            }
        }
        if !spell {
            return keys
                .into_iter()
                .enumerate()
                .map(|(i, (.., p))| (i.to_string(), p))
                .collect();
        }
        out.into_iter().map(|((_, p), s)| (s, p)).collect()
    }

    /// Naive perft.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(false);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.values().map(|p| p.perft(depth - 1)).sum()
    }
}
