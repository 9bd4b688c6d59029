//! GIPF perft, checked against an independent reference implementation.
//!
//! How the numbers were obtained: the `reference` module below is a deliberately naive second
//! implementation of the basic rules, written from notation.md alone. It shares no code with
//! the engine: a 9x9 grid of cells indexed by (x, y) instead of bitboards, lines found by
//! walking directions instead of precomputed tables, rows found by scanning every spot, the
//! opponent's removals recomputed from scratch, and moves deduplicated through a hash set of
//! (push, resulting position). Every test computes the count both ways and compares them; the
//! literal numbers are asserted too, so that a change in both at once is noticed.
//!
//! The positions exercise every removal case of issue 5 within the first plies: an extension
//! capturing opposing pieces, two separate rows at once, intersecting rows (a choice), one push
//! making rows for both players, the opponent's choice written before its push, and a player
//! with an empty reserve rescued by its waiting row.

use std::collections::{BTreeMap, HashSet};
use tabula::game::Game;
use tabula::games::gipf::{Gipf, Options, Variant};

mod reference {
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
                        while is_spot(x + n * dx, y + n * dy)
                            && self.at(x + n * dx, y + n * dy) == c
                        {
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
                        let run: Vec<(i32, i32)> =
                            (a..=b).map(|k| (x + k * dx, y + k * dy)).collect();
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
                                let Some(gap) =
                                    path.iter().position(|&(a, b)| start.at(a, b) == EMPTY)
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
}

/// The start and the six removal positions (see the module comment).
const POSITIONS: [(&str, &str); 7] = [
    ("start", "b2w/5/6/w5b/6/5/b2w w 12 12 0 0"),
    // c1-c2 makes the white row c2..c5 whose extension captures the black c6.
    ("extension", "b2w/1wwwb/1b4/1bbb3/w5/5/b2w w 9 8 0 0"),
    // c1-c2 makes two white rows, b2..e2 and c4..f3, whose runs do not meet.
    ("two-rows", "w3/bw3/w1w3/w1w3b/1w4/1b3/b3 w 8 11 0 0"),
    // c1-c2 makes two white rows sharing c2: White chooses xc2-c5 or xc2-f4.
    ("choice", "b2w/1www1/1w4/2w3b/2w3/5/b2w w 7 12 0 0"),
    // c1-c2 makes the white row b2..e2 and the black row c3..f2.
    ("both-players", "w3/b4/wb4/wb4b/b5/5/3w w 11 10 0 0"),
    // Black's a2-b2 makes two contested white rows: White's choice comes before its push.
    ("waiting-choice", "w3/1www1/1w4/2w3b/2w3/5/b2w b 7 13 0 0"),
    // White has no reserve but a contested row waits: it is rescued; Black is nearly dry.
    ("rescued", "b3/wwww1/1w4/2w3b/2w3/5/b2w w 0 2 0 0"),
];

fn engine(fen: &str) -> Gipf {
    engine_in(fen, Variant::Basic)
}

fn engine_in(fen: &str, variant: Variant) -> Gipf {
    Gipf::from_fen(fen, &Options { variant }).expect("valid position")
}

fn reference_in(fen: &str, variant: Variant) -> reference::Pos {
    reference::parse_variant(fen, variant != Variant::Basic)
}

/// The engine's move list, spelt and sorted, with the positions they lead to.
fn engine_moves(pos: &Gipf) -> BTreeMap<String, String> {
    let mut list = Vec::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&m| {
            let mut next = *pos;
            next.play(m);
            (pos.format_move(m), next.to_fen())
        })
        .collect()
}

/// Compares the spelt move lists and the positions they lead to, `depth` plies deep.
fn compare_moves(fen: &str, variant: Variant, depth: u32) {
    let ours = engine_in(fen, variant);
    let theirs = reference_in(fen, variant);
    let a = engine_moves(&ours);
    let b = theirs.moves(true);
    let names_a: Vec<&String> = a.keys().collect();
    let names_b: Vec<&String> = b.keys().collect();
    assert_eq!(names_a, names_b, "move lists differ at {fen}");
    for (spelling, next_fen) in &a {
        assert_eq!(
            reference_in(next_fen, variant),
            b[spelling],
            "{spelling} from {fen}"
        );
        assert_eq!(engine_in(next_fen, variant).to_fen(), *next_fen);
        if depth > 1 {
            compare_moves(next_fen, variant, depth - 1);
        }
    }
}

#[test]
fn move_lists_match_reference() {
    for (_, fen) in POSITIONS {
        compare_moves(fen, Variant::Basic, 2);
    }
}

#[test]
fn removal_cases_appear_at_the_root() {
    let moves = |fen: &str| engine_moves(&engine(fen)).into_keys().collect::<Vec<_>>();
    assert!(moves(POSITIONS[3].1).contains(&"c1-c2:xc2-c5".to_string()));
    let waiting = engine(POSITIONS[5].1);
    let mv = waiting.parse_move("a2-b2").unwrap();
    let mut after = waiting;
    after.play(mv);
    assert!(moves(&after.to_fen())[0].starts_with("xc2-"));
    let set: HashSet<String> = moves(POSITIONS[6].1).into_iter().collect();
    assert!(set.iter().all(|m| m.starts_with("xc2-")));
}

/// Perft both ways at depths 1..=max, returning the engine's counts.
fn check_perft(fen: &str, max: u32) -> Vec<u64> {
    check_perft_in(fen, Variant::Basic, max)
}

/// Perft both ways at depths 1..=max in `variant`, returning the engine's counts.
fn check_perft_in(fen: &str, variant: Variant, max: u32) -> Vec<u64> {
    let ours = engine_in(fen, variant);
    let theirs = reference_in(fen, variant);
    (1..=max)
        .map(|d| {
            let n = ours.perft(d);
            assert_eq!(n, theirs.perft(d), "perft {d} of {fen}");
            n
        })
        .collect()
}

#[test]
fn perft_start() {
    assert_eq!(check_perft(POSITIONS[0].1, 4), EXPECTED[0]);
}

/// Depths 1..=3 are recomputed by the reference in every run; depth 4 (2.5 to 6 million
/// leaves each, about a minute for the naive reference) is checked by the ignored test below.
#[test]
fn perft_removal_positions() {
    for (i, (name, fen)) in POSITIONS.iter().enumerate().skip(1) {
        let mut counts = check_perft(fen, 3);
        counts.push(engine(fen).perft(4));
        assert_eq!(counts, EXPECTED[i], "{name}");
    }
}

/// Run with `cargo test --release --test perft_gipf -- --ignored`.
#[test]
#[ignore]
fn perft_removal_positions_depth_4_reference() {
    for (i, (name, fen)) in POSITIONS.iter().enumerate().skip(1) {
        assert_eq!(reference::parse(fen).perft(4), EXPECTED[i][3], "{name}");
    }
}

/// Random games: at every ply the engine's spelt move list and the positions the moves lead to
/// equal the reference's. Crowded mid-game positions reach rows, choices and game ends often.
#[test]
fn random_games_match_reference() {
    let mut seed = 2026u64;
    let mut choices_seen = 0;
    for _ in 0..30 {
        let mut pos = engine(POSITIONS[0].1);
        for _ in 0..300 {
            let fen = pos.to_fen();
            let ours = engine_moves(&pos);
            let theirs = reference::parse(&fen).moves(true);
            assert_eq!(
                ours.keys().collect::<Vec<_>>(),
                theirs.keys().collect::<Vec<_>>(),
                "at {fen}"
            );
            for (spelling, next) in &ours {
                assert_eq!(
                    reference::parse(next),
                    theirs[spelling],
                    "{spelling} at {fen}"
                );
            }
            choices_seen += ours.keys().filter(|m| m.contains('x')).count();
            let mut list = Vec::new();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.play(list[(seed >> 33) as usize % list.len()]);
        }
    }
    assert!(choices_seen > 40, "only {choices_seen} moves with choices");
}

/// Perft 1..=4 of each position, as computed by both implementations (see the module comment).
const EXPECTED: [[u64; 4]; 7] = [
    [42, 1764, 73800, 3066768],
    [42, 1752, 72416, 2969399],
    [40, 1606, 64652, 2597882],
    [44, 1848, 80195, 3348732],
    [40, 1604, 64212, 2566766],
    [42, 1921, 80586, 3592668],
    [82, 3444, 144450, 6041988],
];

/// The full-game transcript, replayed through the reference: every `move` is a listed spelling
/// there and every recorded position string matches its position.
#[test]
fn gipf_game_matches_reference() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/transcripts/gipf_game.txt"
    );
    let text = std::fs::read_to_string(path).expect("transcript");
    let mut pos = reference::parse(POSITIONS[0].1);
    let mut history = Vec::new();
    let mut checked = 0;
    for line in text.lines() {
        if let Some(token) = line.strip_prefix("> move ") {
            let next = pos.moves(true).remove(token);
            history.push(pos);
            pos = next.unwrap_or_else(|| panic!("{token} is not a reference move"));
        } else if line == "> undo" {
            pos = history.pop().expect("a move to undo");
        } else if let Some(fen) = line.strip_prefix("< fen ") {
            assert_eq!(reference::parse(fen), pos, "at {fen}");
            checked += 1;
        } else if line == "< result white no-reserve" {
            assert!(pos.is_over());
        }
    }
    assert!(checked > 5 && history.len() > 50);
}

/// Positions of the standard and tournament games. The starts, then one position per
/// GIPF-piece clause, each reached within the first plies.
const VARIANT_POSITIONS: [(&str, Variant, &str); 8] = [
    (
        "standard start",
        Variant::Standard,
        "B2W/5/6/W5B/6/5/B2W w 12 12 0 0",
    ),
    (
        "tournament start",
        Variant::Tournament,
        "4/5/6/7/6/5/4 w 18 18 0 0 wb",
    ),
    // c1-c2 makes the row c2..c5 holding White's GIPF-piece c3 and extended by Black's c6:
    // White keeps either, both or neither.
    (
        "keep own or theirs",
        Variant::Standard,
        "B2W/1WwwB/6/W5B/6/5/B2W w 8 10 0 0",
    ),
    // c1-c2 makes two rows crossing on the GIPF-piece now on c3: take one row with it, or
    // keep it and take the other row too.
    (
        "cross on a GIPF-piece",
        Variant::Standard,
        "1w2/W1ww1/1w4/1w4B/6/5/B2W w 9 12 0 0",
    ),
    // Black's c1-c2 makes a White row c3..c6 holding the GIPF-piece c4: it waits for White,
    // who decides before its push.
    (
        "waiting for the owner",
        Variant::Standard,
        "4/wWw1w/6/W5B/6/5/B3 b 11 10 0 0",
    ),
    // c1-c2 makes a row whose extension c6 is Black's last GIPF-piece: taking it wins.
    (
        "last GIPF-piece",
        Variant::Standard,
        "4/1wwwB/6/W6/6/5/4 w 10 8 4 0",
    ),
    // Gc1-c2 makes four GIPF-pieces in a row: at least one must go.
    (
        "four GIPF-pieces",
        Variant::Tournament,
        "4/1WWW1/6/5B1/6/5/4 w 12 16 0 0 wb",
    ),
    // White has played a single piece; Black has not, and has no GIPF-piece yet.
    (
        "one side still bringing",
        Variant::Tournament,
        "w3/5/6/W6/6/5/4 b 15 18 0 0 b",
    ),
];

/// Perft 1..=3 of each variant position, as computed by both implementations.
/// Depth 4 (ignored test below, engine and reference) is in `VARIANT_DEPTH_4`.
const VARIANT_EXPECTED: [[u64; 3]; 8] = [
    [42, 1764, 73800],
    [42, 1764, 148176],
    [52, 2170, 109606],
    [47, 1974, 95502],
    [42, 1926, 80734],
    [44, 1762, 77406],
    [168, 13776, 1363424],
    [42, 1764, 148080],
];

#[test]
fn variant_move_lists_match_reference() {
    for (_, variant, fen) in VARIANT_POSITIONS {
        compare_moves(fen, variant, 2);
    }
}

#[test]
fn variant_perft() {
    for (i, (name, variant, fen)) in VARIANT_POSITIONS.iter().enumerate() {
        assert_eq!(
            check_perft_in(fen, *variant, 3),
            VARIANT_EXPECTED[i],
            "{name}"
        );
    }
}

/// Perft 4 of the variant positions, engine and reference (minutes of reference time): run
/// with `cargo test --release --test perft_gipf -- --ignored variant`.
#[test]
#[ignore]
fn variant_perft_depth_4_reference() {
    for (name, variant, fen) in VARIANT_POSITIONS {
        let ours = engine_in(fen, variant).perft(4);
        let theirs = reference_in(fen, variant).perft(4);
        println!("{name}: {ours}");
        assert_eq!(ours, theirs, "{name}");
    }
}

/// Random games of both variants: at every ply the spelt move lists, the positions they lead
/// to and the game's end (winner and reason) agree with the reference.
#[test]
fn variant_random_games_match_reference() {
    let mut seed = 7u64;
    let (mut kept, mut ends) = (0, Vec::new());
    for (variant, fen) in [
        (Variant::Standard, VARIANT_POSITIONS[0].2),
        (Variant::Tournament, VARIANT_POSITIONS[1].2),
    ] {
        for _ in 0..25 {
            let mut pos = engine_in(fen, variant);
            for _ in 0..300 {
                let fen = pos.to_fen();
                let theirs = reference_in(&fen, variant);
                let ours = engine_moves(&pos);
                let listed = theirs.moves(true);
                assert_eq!(
                    ours.keys().collect::<Vec<_>>(),
                    listed.keys().collect::<Vec<_>>(),
                    "at {fen}"
                );
                for (spelling, next) in &ours {
                    assert_eq!(
                        reference_in(next, variant),
                        listed[spelling],
                        "{spelling} at {fen}"
                    );
                }
                kept += ours.keys().filter(|m| m.contains('/')).count();
                let expected = theirs.loss().map(|(loser, why)| {
                    let loser = if loser == 1 { "white" } else { "black" };
                    (loser, why)
                });
                let outcome = pos.outcome().map(|o| {
                    let winner = o.winner.expect("no draws");
                    (winner.opponent().name(), o.reason)
                });
                assert_eq!(outcome, expected, "at {fen}");
                let mut list = Vec::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    ends.push(pos.outcome().map_or("none", |o| o.reason));
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.play(list[(seed >> 33) as usize % list.len()]);
            }
        }
    }
    assert!(kept > 20, "only {kept} moves keeping GIPF-pieces");
    assert!(ends.contains(&"no-gipf"), "ends: {ends:?}");
}
