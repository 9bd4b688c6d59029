//! All 16 mills of a board at once: the points are rearranged (by byte lookup tables) into
//! two layouts, ranks and files, in which every mill is three adjacent bits, so complete mills
//! and lines of two with an empty third are found by shifts and masks instead of a loop over
//! the lines. The evaluation asks this of every leaf.

use super::board::{Points, MILL_POINTS};

/// Bit 0 of each three-bit group.
const LOW: u32 = 0o11111111;

/// Lookup tables from a point set to one layout (`TO[layout][byte][value]`) and back.
struct Layouts {
    to: [[[u32; 256]; 3]; 2],
    back: [[[u32; 256]; 3]; 2],
}

/// Where each point sits in each layout: layout 0 lists the ranks' mills (lines 0-7 of
/// [`MILL_POINTS`]), layout 1 the files' (lines 8-15), three bits per mill.
const fn positions() -> [[u32; 24]; 2] {
    let mut out = [[0; 24]; 2];
    let mut layout = 0;
    while layout < 2 {
        let mut k = 0;
        while k < 8 {
            let mut j = 0;
            while j < 3 {
                out[layout][MILL_POINTS[8 * layout + k][j]] = (3 * k + j) as u32;
                j += 1;
            }
            k += 1;
        }
        layout += 1;
    }
    out
}

const LAYOUTS: Layouts = {
    let pos = positions();
    let mut to = [[[0; 256]; 3]; 2];
    let mut back = [[[0; 256]; 3]; 2];
    let mut layout = 0;
    while layout < 2 {
        let mut p = 0;
        while p < 24 {
            let q = pos[layout][p] as usize;
            let mut v = 0;
            while v < 256 {
                if v & (1 << (p % 8)) != 0 {
                    to[layout][p / 8][v] |= 1 << q;
                }
                if v & (1 << (q % 8)) != 0 {
                    back[layout][q / 8][v] |= 1 << p;
                }
                v += 1;
            }
            p += 1;
        }
        layout += 1;
    }
    Layouts { to, back }
};

fn convert(table: &[[u32; 256]; 3], set: u32) -> u32 {
    table[0][(set & 0xff) as usize]
        | table[1][((set >> 8) & 0xff) as usize]
        | table[2][(set >> 16) as usize]
}

/// The complete mills of `owner` and the empty points that would complete one (two of its
/// men on a line, the third point empty).
pub fn mills_and_open(owner: Points, empty: Points) -> (u32, Points) {
    let (mut mills, mut open) = (0, 0);
    for layout in 0..2 {
        let o = convert(&LAYOUTS.to[layout], owner);
        let e = convert(&LAYOUTS.to[layout], empty);
        mills += (o & (o >> 1) & (o >> 2) & LOW).count_ones();
        let filled = o | e;
        let full = filled & (filled >> 1) & (filled >> 2) & LOW;
        // Men per group in its low two bits (at most 3: no carry into the next group).
        let men = (o & LOW) + ((o >> 1) & LOW) + ((o >> 2) & LOW);
        let two = (men >> 1) & !men & LOW;
        let groups = full & two;
        open |= convert(
            &LAYOUTS.back[layout],
            e & (groups | groups << 1 | groups << 2),
        );
    }
    (mills, open)
}

#[cfg(test)]
mod tests {
    use super::super::board::{ALL_POINTS, MILLS};
    use super::*;

    /// The same answers as looking at each of the 16 lines, over random boards.
    #[test]
    fn agrees_with_the_lines_one_by_one() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let owner = (seed as u32) & ALL_POINTS;
            let empty = ((seed >> 32) as u32) & ALL_POINTS & !owner;
            let mut expected = (0, 0);
            for &m in &MILLS {
                if owner & m == m {
                    expected.0 += 1;
                } else if (owner & m).count_ones() == 2 {
                    expected.1 |= m & empty;
                }
            }
            assert_eq!(
                mills_and_open(owner, empty),
                expected,
                "{owner:x} {empty:x}"
            );
        }
    }
}
