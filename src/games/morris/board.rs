//! Board geometry: the 24 points, the 16 mills, adjacency and Zobrist keys, all as `const`
//! tables so move generation is bit arithmetic on 24-bit sets.
use crate::util::rng::splitmix64 as splitmix;

/// A set of points, bit `i` for point `i` of [`POINT_NAMES`].
pub type Points = u32;

/// Every point of the board.
pub const ALL_POINTS: Points = (1 << 24) - 1;

/// Point names in byte order, so the index order is the order `legalmoves` prints.
pub const POINT_NAMES: [&str; 24] = [
    "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3", "d5", "d6", "d7", "e3",
    "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7",
];

/// The 16 mills, each listed in board order along its line (so neighbours in a triple are
/// adjacent points: every edge of the board lies on exactly one mill line).
pub const MILL_POINTS: [[usize; 3]; 16] = [
    // ranks 1..7 (rank 4 is split by the centre)
    [0, 9, 21],
    [3, 10, 18],
    [6, 11, 15],
    [1, 4, 7],
    [16, 19, 22],
    [8, 12, 17],
    [5, 13, 20],
    [2, 14, 23],
    // files a..g (file d is split by the centre)
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [9, 10, 11],
    [12, 13, 14],
    [15, 16, 17],
    [18, 19, 20],
    [21, 22, 23],
];

/// The mills as point sets.
pub const MILLS: [Points; 16] = {
    let mut out = [0; 16];
    let mut m = 0;
    while m < 16 {
        out[m] = (1 << MILL_POINTS[m][0]) | (1 << MILL_POINTS[m][1]) | (1 << MILL_POINTS[m][2]);
        m += 1;
    }
    out
};

/// For each point, the two mills through it.
pub const MILLS_THROUGH: [[Points; 2]; 24] = {
    let mut out = [[0; 2]; 24];
    let mut count = [0usize; 24];
    let mut m = 0;
    while m < 16 {
        let mut i = 0;
        while i < 3 {
            let p = MILL_POINTS[m][i];
            out[p][count[p]] = MILLS[m];
            count[p] += 1;
            i += 1;
        }
        m += 1;
    }
    out
};

/// For each point, the points one step away along a line.
pub const ADJACENT: [Points; 24] = {
    let mut out = [0; 24];
    let mut m = 0;
    while m < 16 {
        let [a, b, c] = MILL_POINTS[m];
        out[a] |= 1 << b;
        out[b] |= (1 << a) | (1 << c);
        out[c] |= 1 << b;
        m += 1;
    }
    out
};

/// The point index of a name such as `d2`, if it is one of the 24.
pub fn point_index(name: &str) -> Option<usize> {
    POINT_NAMES.iter().position(|&p| p == name)
}

/// The (file, rank) of a point, both 0..7, for drawing the board.
pub fn coordinates(point: usize) -> (usize, usize) {
    let b = POINT_NAMES[point].as_bytes();
    ((b[0] - b'a') as usize, (b[1] - b'1') as usize)
}

/// Iterates over the points of a set, lowest index first.
pub fn points(mut set: Points) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let p = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(p)
    })
}

/// True when `owner` (a set of one player's points) holds all three points of a mill
/// through `point`.
pub fn in_mill_at(owner: Points, point: usize) -> bool {
    let [m1, m2] = MILLS_THROUGH[point];
    owner & m1 == m1 || owner & m2 == m2
}

/// The pieces of `owner` that stand in at least one complete mill.
pub fn pieces_in_mills(owner: Points) -> Points {
    MILLS
        .iter()
        .filter(|&&m| owner & m == m)
        .fold(0, |acc, &m| acc | m)
}

// Zobrist keys

/// One key per (side, point).
pub const PIECE_KEYS: [[u64; 24]; 2] = {
    let mut out = [[0; 24]; 2];
    let mut i = 0;
    while i < 48 {
        out[i / 24][i % 24] = splitmix(i as u64 * 0x1000 + 1);
        i += 1;
    }
    out
};

/// One key per (side, pieces in hand 0..=9).
pub const HAND_KEYS: [[u64; 10]; 2] = {
    let mut out = [[0; 10]; 2];
    let mut i = 0;
    while i < 20 {
        out[i / 10][i % 10] = splitmix(i as u64 * 0x1000 + 0x77);
        i += 1;
    }
    out
};

/// Toggled when Black is to move.
pub const BLACK_TO_MOVE_KEY: u64 = splitmix(0xB1AC);

/// Mixed with the no-capture counter: the counter decides when the game is drawn.
pub const QUIET_KEY: u64 = splitmix(0x9_0000);
