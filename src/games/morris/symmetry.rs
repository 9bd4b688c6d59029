//! Indexing for the tablebases: colex ranks of point sets and the 16 symmetries of the board
//! (the 8 of the square, times swapping the inner and outer ring).

use super::board::{points, Points, ALL_POINTS, POINT_NAMES};

/// Binomial coefficients C(n, k) for n, k <= 24.
pub const BINOMIAL: [[u64; 25]; 25] = {
    let mut c = [[0u64; 25]; 25];
    let mut n = 0;
    while n < 25 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
};

/// The colex rank of a set among the sets of its size (Gosper order).
pub fn rank(set: Points) -> u64 {
    points(set)
        .enumerate()
        .map(|(i, p)| BINOMIAL[p][i + 1])
        .sum()
}

/// Every set of `k` points, in rank order.
pub fn sets_of(k: u32) -> impl Iterator<Item = Points> {
    let mut next = Some((1u32 << k) - 1);
    std::iter::from_fn(move || {
        let set = next?;
        if set == 0 {
            // The one set of no points.
            next = None;
            return Some(0);
        }
        // Gosper's hack: the next larger number with the same popcount.
        let low = set & set.wrapping_neg();
        let ripple = set + low;
        let following = (((ripple ^ set) >> 2) / low) | ripple;
        next = (following <= ALL_POINTS).then_some(following);
        Some(set)
    })
}

/// The 16 symmetries as point permutations.
pub fn symmetries() -> Vec<[usize; 24]> {
    let coords: Vec<(i32, i32)> = (0..24)
        .map(|p| {
            let b = POINT_NAMES[p].as_bytes();
            (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
        })
        .collect();
    let find = |c: (i32, i32)| coords.iter().position(|&q| q == c).unwrap_or(0);
    let swap_rings = |v: i32, ring: i32| match v {
        3 => 3,
        v if v == ring => 2 - ring,
        _ => 4 + ring,
    };
    let mut out = Vec::new();
    for swap in [false, true] {
        for turn in 0..4 {
            for mirror in [false, true] {
                let mut perm = [0; 24];
                for (p, &(x, y)) in coords.iter().enumerate() {
                    let (mut x, mut y) = (x, y);
                    if swap {
                        let ring = x.min(6 - x).min(y.min(6 - y));
                        (x, y) = (swap_rings(x, ring), swap_rings(y, ring));
                    }
                    for _ in 0..turn {
                        (x, y) = (y, 6 - x);
                    }
                    if mirror {
                        x = 6 - x;
                    }
                    perm[p] = find((x, y));
                }
                out.push(perm);
            }
        }
    }
    out
}

/// Applies the symmetries to point sets with per-byte lookups.
pub struct Symmetry {
    bytes: Vec<[[Points; 256]; 3]>,
}

impl Symmetry {
    /// The lookup tables of the 16 symmetries.
    pub fn new() -> Symmetry {
        let bytes = symmetries()
            .iter()
            .map(|perm| {
                let mut t = [[0; 256]; 3];
                for (chunk, table) in t.iter_mut().enumerate() {
                    for (byte, out) in table.iter_mut().enumerate() {
                        *out = points((byte as Points) << (8 * chunk))
                            .fold(0, |acc, p| acc | 1 << perm[p]);
                    }
                }
                t
            })
            .collect();
        Symmetry { bytes }
    }

    /// The image of a point set under symmetry `s` (0..16).
    pub fn apply(&self, s: usize, set: Points) -> Points {
        let t = &self.bytes[s];
        t[0][(set & 0xff) as usize] | t[1][(set >> 8 & 0xff) as usize] | t[2][(set >> 16) as usize]
    }

    /// With the `stabilizer` of a mover set that is least among its images (the symmetries
    /// fixing it): whether `other` is the smallest of its images under them, that is,
    /// whether the position is canonical.
    pub fn is_least(&self, stabilizer: &[usize], other: Points) -> bool {
        stabilizer.iter().all(|&s| self.apply(s, other) >= other)
    }

    /// The smallest image of (mover, other) under the 16 symmetries.
    pub fn canonical(&self, mover: Points, other: Points) -> (Points, Points) {
        let (m, o, _) = self.canonical_with_stabilizer(mover, other);
        (m, o)
    }

    /// The smallest image of (mover, other) and how many symmetries fix the position (the
    /// size of its stabilizer, 1 for most). The mover set decides first, so the other set is
    /// mapped only by the symmetries that make the mover set least (usually one).
    pub fn canonical_with_stabilizer(&self, mover: Points, other: Points) -> (Points, Points, u32) {
        let mut least_mover = Points::MAX;
        let mut least_other = Points::MAX;
        let mut fixed = 0;
        for s in 0..16 {
            let m = self.apply(s, mover);
            if m > least_mover {
                continue;
            }
            let o = self.apply(s, other);
            if m < least_mover || o < least_other {
                (least_mover, least_other, fixed) = (m, o, 1);
            } else if o == least_other {
                fixed += 1;
            }
        }
        (least_mover, least_other, fixed)
    }
}

/// The number of classes of positions with `mover` and `other` pieces under the 16
/// symmetries (the number of bytes in a table file), by Burnside's lemma: the average over
/// the symmetries of the positions each one leaves unchanged. A position is unchanged when
/// every cycle of the permutation is all mover pieces, all other pieces or all empty.
pub fn classes(mover: u32, other: u32) -> u64 {
    let (m, o) = (mover as usize, other as usize);
    let fixed: u64 = symmetries()
        .iter()
        .map(|perm| {
            // ways[a][b]: colourings of the cycles seen so far with a mover and b other points.
            let mut ways = vec![vec![0u64; o + 1]; m + 1];
            ways[0][0] = 1;
            for len in cycle_lengths(perm) {
                let mut next = ways.clone();
                for a in 0..=m {
                    for b in 0..=o {
                        if a >= len {
                            next[a][b] += ways[a - len][b];
                        }
                        if b >= len {
                            next[a][b] += ways[a][b - len];
                        }
                    }
                }
                ways = next;
            }
            ways[m][o]
        })
        .sum();
    fixed / 16
}

/// The lengths of the cycles of a point permutation.
fn cycle_lengths(perm: &[usize; 24]) -> Vec<usize> {
    let mut seen = [false; 24];
    let mut lengths = Vec::new();
    for start in 0..24 {
        let mut len = 0;
        let mut p = start;
        while !seen[p] {
            seen[p] = true;
            p = perm[p];
            len += 1;
        }
        if len > 0 {
            lengths.push(len);
        }
    }
    lengths
}
