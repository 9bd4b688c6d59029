//! A second layout of the 37 spots for the hot paths of move generation: spot (x, y) at bit
//! (x - 1) * 8 + (y - 1), so that each line direction is one constant shift (+1, +8 or +9) and
//! the unused bits (every eighth bit and the corners outside the hexagon) stay empty and stop
//! runs from wrapping. Rows of four and pushes become a handful of shifts instead of loops over
//! tables; positions keep the point layout and are translated on the way in.

use super::geometry::{point_at, PUSHES, PUSH_TABLE, XY};

/// Per column x = 1..=7 of the board: the point bits of its spots and the rotation that moves
/// them to their grid bits (a column's spots are consecutive in both layouts).
const COLUMNS: [(u64, u32); 7] = {
    let mut out = [(0u64, 0u32); 7];
    let mut x = 1;
    while x <= 7 {
        let low = if x - 3 > 1 { x - 3 } else { 1 };
        let high = if x + 3 < 7 { x + 3 } else { 7 };
        let mut mask = 0u64;
        let mut y = low;
        while y <= high {
            match point_at(x, y) {
                Some(p) => mask |= 1 << p,
                None => panic!("a spot is missing"),
            }
            y += 1;
        }
        let first_point = match point_at(x, low) {
            Some(p) => p as i32,
            None => 0,
        };
        let first_grid = (x - 1) * 8 + (low - 1);
        out[(x - 1) as usize] = (mask, (first_grid - first_point).rem_euclid(64) as u32);
        x += 1;
    }
    out
};

/// The spots of `points` (a point-layout bitboard) in the grid layout.
#[inline]
pub fn to_grid(points: u64) -> u64 {
    let mut out = 0;
    for &(mask, rotation) in &COLUMNS {
        out |= (points & mask).rotate_left(rotation);
    }
    out
}

/// The grid bit of point `p` (a spot).
const fn grid_bit(p: usize) -> u64 {
    let (x, y) = (XY[p].0 as u32, XY[p].1 as u32);
    1 << ((x - 1) * 8 + (y - 1))
}

/// Whether the grid bitboard `g` holds four spots in a row along one of the three directions.
#[inline]
pub fn has_four(g: u64) -> bool {
    let mut found = 0;
    for step in [1, 8, 9] {
        let pairs = g & (g >> step);
        found |= pairs & (pairs >> (2 * step));
    }
    found != 0
}

/// The grid bits of the 37 spots.
const GRID_SPOTS: u64 = {
    let mut out = 0u64;
    let mut x = 1;
    while x <= 7 {
        let mut y = 1;
        while y <= 7 {
            if x - y < 4 && y - x < 4 {
                out |= 1 << ((x - 1) * 8 + (y - 1));
            }
            y += 1;
        }
        x += 1;
    }
    out
};

/// The line steps of the grid, one per direction.
const STEPS: [u32; 3] = [1, 8, 9];

/// Per direction, the first spots of its windows of four spots.
const WINDOW_STARTS: [u64; 3] = {
    let mut out = [0u64; 3];
    let mut d = 0;
    while d < 3 {
        let s = STEPS[d];
        let g = GRID_SPOTS;
        out[d] = g & (g >> s) & (g >> (2 * s)) & (g >> (3 * s));
        d += 1;
    }
    out
};

/// The spots of every window of four that holds at least three pieces of `g`. A push can
/// make a row of those pieces only if its line meets one: a row across the push line has
/// three of its spots off the line and unchanged, and a row along it came from four pieces
/// within five spots of the line (or three next to the entry), three of them in one window.
#[inline]
pub fn near_rows(g: u64) -> u64 {
    let mut out = 0;
    for (d, &step) in STEPS.iter().enumerate() {
        let (a, b, c, e) = (g, g >> step, g >> (2 * step), g >> (3 * step));
        let starts = ((a & b & (c | e)) | (c & e & (a | b))) & WINDOW_STARTS[d];
        out |= starts | starts << step | starts << (2 * step) | starts << (3 * step);
    }
    out
}

/// How many windows of four hold three pieces of `g` and one spot of `empty` (grid layout):
/// a row one push away, if a push can fill that spot.
#[inline]
pub fn threes(g: u64, empty: u64) -> u32 {
    let mut count = 0;
    for (d, &step) in STEPS.iter().enumerate() {
        let (a, b, c, e) = (g, g >> step, g >> (2 * step), g >> (3 * step));
        let (ea, eb, ec, ee) = (
            empty,
            empty >> step,
            empty >> (2 * step),
            empty >> (3 * step),
        );
        let starts = (ea & b & c & e) | (a & eb & c & e) | (a & b & ec & e) | (a & b & c & ee);
        count += (starts & WINDOW_STARTS[d]).count_ones();
    }
    count
}

/// A push in the grid layout.
#[derive(Copy, Clone, Debug)]
pub struct GridPush {
    /// The entry spot's bit.
    pub entry: u64,
    /// The spots from the entry spot to the far edge.
    pub line: u64,
    /// The signed bit distance of one step along the push.
    pub step: i8,
}

/// Every push of [`PUSH_TABLE`] in the grid layout, same numbering.
pub const GRID_PUSHES: [GridPush; PUSHES] = {
    let mut out = [GridPush {
        entry: 0,
        line: 0,
        step: 0,
    }; PUSHES];
    let mut n = 0;
    while n < PUSHES {
        let line = &PUSH_TABLE[n].line;
        let mut mask = 0u64;
        let mut i = 0;
        while i < line.len as usize {
            mask |= grid_bit(line.cells[i] as usize);
            i += 1;
        }
        let (a, b) = (line.cells[0] as usize, line.cells[1] as usize);
        let step = (XY[b].0 - XY[a].0) * 8 + (XY[b].1 - XY[a].1);
        out[n] = GridPush {
            entry: grid_bit(a),
            line: mask,
            step,
        };
        n += 1;
    }
    out
};

impl GridPush {
    /// The pieces of one colour `own` after this push moved everything from the entry spot up
    /// to the first empty spot of `occupied` one step along and put a piece of that colour on
    /// the entry spot; `None` when the line is full (the push is illegal).
    #[inline]
    pub fn pushed(&self, own: u64, occupied: u64) -> Option<u64> {
        let empty = self.line & !occupied;
        if empty == 0 {
            return None;
        }
        // The spots between the entry and the first empty spot: along a rising step the
        // first empty spot is the lowest bit of the line's empty spots, along a falling one
        // the highest.
        let (moved, shifted) = if self.step > 0 {
            let gap = empty & empty.wrapping_neg();
            let moved = self.line & (gap - 1);
            (moved, (own & moved) << self.step)
        } else {
            let gap = 1u64 << (63 - empty.leading_zeros());
            let moved = self.line & !((gap << 1) - 1);
            (moved, (own & moved) >> -self.step)
        };
        Some((own & !moved) | shifted | self.entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gipf::geometry::{SPOTS, WINDOW_MASKS};

    /// A small deterministic generator of bitboards over the spots.
    fn boards() -> impl Iterator<Item = u64> {
        let mut state = 0x1234_5678_9abc_def0u64;
        (0..20_000).map(move |_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state & SPOTS & (state.rotate_left(23) | state.rotate_left(41))
        })
    }

    #[test]
    fn translation_keeps_every_spot_apart() {
        let mut seen = 0u64;
        for p in 0..64 {
            if SPOTS & (1 << p) != 0 {
                let g = to_grid(1 << p);
                assert_eq!(g.count_ones(), 1);
                assert_eq!(g, grid_bit(p));
                assert_eq!(seen & g, 0);
                seen |= g;
            }
        }
        assert_eq!(to_grid(!SPOTS), 0);
    }

    #[test]
    fn rows_agree_with_the_window_table() {
        for b in boards() {
            let by_windows = WINDOW_MASKS.iter().any(|&w| w & !b == 0);
            assert_eq!(has_four(to_grid(b)), by_windows, "{b:#x}");
        }
    }

    #[test]
    fn threes_agree_with_the_window_table() {
        for b in boards() {
            let (own, empty) = (b & (b >> 1 | b << 3), !b & SPOTS);
            let expected = WINDOW_MASKS
                .iter()
                .filter(|&&w| (own & w).count_ones() == 3 && (empty & w).count_ones() == 1)
                .count() as u32;
            assert_eq!(threes(to_grid(own), to_grid(empty)), expected, "{b:#x}");
        }
    }

    #[test]
    fn near_rows_covers_every_window_with_three() {
        assert_eq!(GRID_SPOTS.count_ones(), 37);
        assert_eq!(to_grid(SPOTS), GRID_SPOTS);
        for b in boards() {
            let mut expected = 0;
            for &w in &WINDOW_MASKS {
                if (b & w).count_ones() >= 3 {
                    expected |= to_grid(w);
                }
            }
            assert_eq!(near_rows(to_grid(b)), expected, "{b:#x}");
        }
    }

    #[test]
    fn pushes_agree_with_a_walk_along_the_line() {
        for (n, b) in boards().enumerate() {
            let own = b & (b >> 1 | b << 3);
            let occupied = b;
            for (push, table) in PUSH_TABLE.iter().enumerate() {
                let cells = &table.line.cells[..table.line.len as usize];
                let gap = cells.iter().position(|&c| occupied & (1 << c) == 0);
                let expected = gap.map(|gap| {
                    let mut after = own;
                    for i in (0..gap).rev() {
                        let (from, to) = (1u64 << cells[i], 1u64 << cells[i + 1]);
                        if after & from != 0 {
                            after ^= from | to;
                        }
                    }
                    to_grid(after | 1 << cells[0])
                });
                let got = GRID_PUSHES[push].pushed(to_grid(own), to_grid(occupied));
                assert_eq!(got, expected, "board {n} push {push}");
            }
        }
    }
}
