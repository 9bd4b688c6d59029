//! The board's geometry, computed once at compile time: the 61 points (37 spots inside, 24 dots
//! on the rim), the 42 pushes, the 21 lines, the 48 windows of four spots and the 90 segments a
//! removal run can cover.
//!
//! Internal coordinates follow notation.md: x = column (a=0 .. i=8), y = row - 1 + max(0, x - 4);
//! the point (x, y) exists when both are in 0..=8 and |x - y| <= 4. Points are numbered 0..61 in
//! (x, y) order, which is also the byte order of their names, so one `u64` holds a colour.

/// Number of points (spots and dots).
pub const POINTS: usize = 61;
/// Number of pushes: one per (dot, adjacent spot) pair.
pub const PUSHES: usize = 42;
/// Number of lines through the play area (7 in each of 3 directions).
pub const LINES: usize = 21;
/// Number of windows of four consecutive spots on a line.
#[cfg(test)]
pub const WINDOWS: usize = 48;
/// Number of segments of four or more consecutive spots on a line.
pub const SEGMENTS: usize = 90;
/// The longest line, in spots.
pub const MAX_LINE: usize = 7;

/// The six neighbour directions, in the order that lists each dot's pushes by target name.
const DIRECTIONS: [(i32, i32); 6] = [(-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)];
/// One direction of each line family, each pointing towards larger names.
const LINE_DIRECTIONS: [(i32, i32); 3] = [(0, 1), (1, 0), (1, 1)];

/// Whether (x, y) is a point of the board.
pub const fn is_point(x: i32, y: i32) -> bool {
    x >= 0 && x <= 8 && y >= 0 && y <= 8 && y - x <= 4 && x - y <= 4
}

/// Whether (x, y) is a spot of the play area (a point not on the rim).
pub const fn is_spot_xy(x: i32, y: i32) -> bool {
    is_point(x, y) && x > 0 && x < 8 && y > 0 && y < 8 && y - x < 4 && x - y < 4
}

/// The (x, y) of every point, by point number.
pub const XY: [(i8, i8); POINTS] = {
    let mut out = [(0i8, 0i8); POINTS];
    let mut n = 0;
    let mut x = 0;
    while x <= 8 {
        let mut y = 0;
        while y <= 8 {
            if is_point(x, y) {
                out[n] = (x as i8, y as i8);
                n += 1;
            }
            y += 1;
        }
        x += 1;
    }
    out
};

/// The point number at (x, y), or -1.
const INDEX: [[i8; 9]; 9] = {
    let mut out = [[-1i8; 9]; 9];
    let mut n = 0;
    while n < POINTS {
        out[XY[n].0 as usize][XY[n].1 as usize] = n as i8;
        n += 1;
    }
    out
};

/// The point at (x, y), if there is one.
pub const fn point_at(x: i32, y: i32) -> Option<usize> {
    if is_point(x, y) {
        Some(INDEX[x as usize][y as usize] as usize)
    } else {
        None
    }
}

/// The bits of the 37 spots.
pub const SPOTS: u64 = {
    let mut mask = 0u64;
    let mut n = 0;
    while n < POINTS {
        if is_spot_xy(XY[n].0 as i32, XY[n].1 as i32) {
            mask |= 1 << n;
        }
        n += 1;
    }
    mask
};

/// Whether point `p` is a spot.
pub const fn is_spot(p: usize) -> bool {
    p < POINTS && SPOTS & (1 << p) != 0
}

/// The row number (1-based) of point `p` as written in its name.
pub const fn row_of(p: usize) -> i32 {
    let (x, y) = (XY[p].0 as i32, XY[p].1 as i32);
    let shift = if x > 4 { x - 4 } else { 0 };
    y + 1 - shift
}

/// A straight run of spots, in order.
#[derive(Copy, Clone, Debug)]
pub struct Line {
    /// The spots, first `len` entries used.
    pub cells: [u8; MAX_LINE],
    /// How many spots.
    pub len: u8,
}

/// Walks from spot (x, y) in direction (dx, dy) while on spots.
const fn walk(x: i32, y: i32, dx: i32, dy: i32) -> Line {
    let mut line = Line {
        cells: [0; MAX_LINE],
        len: 0,
    };
    let (mut cx, mut cy) = (x, y);
    while is_spot_xy(cx, cy) {
        line.cells[line.len as usize] = INDEX[cx as usize][cy as usize] as u8;
        line.len += 1;
        cx += dx;
        cy += dy;
    }
    line
}

/// A push: a piece enters at `dot` and pushes along `line` (entry spot first, far edge last).
#[derive(Copy, Clone, Debug)]
pub struct Push {
    /// The dot the piece is placed on.
    pub dot: u8,
    /// The spots from the entry spot to the far edge.
    pub line: Line,
}

/// Every push, in byte order of their tokens.
pub const PUSH_TABLE: [Push; PUSHES] = {
    let empty = Push {
        dot: 0,
        line: Line {
            cells: [0; MAX_LINE],
            len: 0,
        },
    };
    let mut out = [empty; PUSHES];
    let mut n = 0;
    let mut p = 0;
    while p < POINTS {
        let (x, y) = (XY[p].0 as i32, XY[p].1 as i32);
        if !is_spot_xy(x, y) {
            let mut d = 0;
            while d < 6 {
                let (dx, dy) = DIRECTIONS[d];
                if is_spot_xy(x + dx, y + dy) {
                    out[n] = Push {
                        dot: p as u8,
                        line: walk(x + dx, y + dy, dx, dy),
                    };
                    n += 1;
                }
                d += 1;
            }
        }
        p += 1;
    }
    out
};

/// The spots of each push's line (entry spot to far edge): the push is legal unless all are
/// occupied.
pub const PUSH_LINES: [u64; PUSHES] = {
    let mut out = [0u64; PUSHES];
    let mut n = 0;
    while n < PUSHES {
        let line = &PUSH_TABLE[n].line;
        out[n] = span_mask(line, 0, line.len as usize);
        n += 1;
    }
    out
};

/// The 21 lines of the play area, spots in increasing name order.
pub const LINE_TABLE: [Line; LINES] = {
    let empty = Line {
        cells: [0; MAX_LINE],
        len: 0,
    };
    let mut out = [empty; LINES];
    let mut n = 0;
    let mut d = 0;
    while d < 3 {
        let (dx, dy) = LINE_DIRECTIONS[d];
        let mut p = 0;
        while p < POINTS {
            let (x, y) = (XY[p].0 as i32, XY[p].1 as i32);
            if is_spot_xy(x, y) && !is_spot_xy(x - dx, y - dy) {
                out[n] = walk(x, y, dx, dy);
                n += 1;
            }
            p += 1;
        }
        d += 1;
    }
    out
};

/// The spots of each line of [`LINE_TABLE`].
pub const LINE_MASKS: [u64; LINES] = {
    let mut out = [0u64; LINES];
    let mut l = 0;
    while l < LINES {
        out[l] = span_mask(&LINE_TABLE[l], 0, LINE_TABLE[l].len as usize);
        l += 1;
    }
    out
};

/// The bits of `count` consecutive spots of `line` from position `from`.
const fn span_mask(line: &Line, from: usize, count: usize) -> u64 {
    let mut mask = 0u64;
    let mut i = from;
    while i < from + count {
        mask |= 1 << line.cells[i];
        i += 1;
    }
    mask
}

/// Every window of four consecutive spots: a colour owning one has a row of four. The hot
/// paths work on windows in the grid layout (`grid.rs`); this table is their independent check.
#[cfg(test)]
pub const WINDOW_MASKS: [u64; WINDOWS] = {
    let mut out = [0u64; WINDOWS];
    let mut n = 0;
    let mut l = 0;
    while l < LINES {
        let line = &LINE_TABLE[l];
        let mut i = 0;
        while i + 4 <= line.len as usize {
            out[n] = span_mask(line, i, 4);
            n += 1;
            i += 1;
        }
        l += 1;
    }
    out
};

/// A segment of four or more spots of one line: what a removal run can cover.
#[derive(Copy, Clone, Debug)]
pub struct Segment {
    /// Its spots.
    pub mask: u64,
    /// The end with the smaller name.
    pub low: u8,
    /// The end with the larger name.
    pub high: u8,
}

/// Every segment of four or more spots, grouped by line, then by start, then by end.
pub const SEGMENT_TABLE: [Segment; SEGMENTS] = {
    let mut out = [Segment {
        mask: 0,
        low: 0,
        high: 0,
    }; SEGMENTS];
    let mut n = 0;
    let mut l = 0;
    while l < LINES {
        let line = &LINE_TABLE[l];
        let len = line.len as usize;
        let mut a = 0;
        while a < len {
            let mut b = a + 3;
            while b < len {
                out[n] = Segment {
                    mask: span_mask(line, a, b - a + 1),
                    low: line.cells[a],
                    high: line.cells[b],
                };
                n += 1;
                b += 1;
            }
            a += 1;
        }
        l += 1;
    }
    out
};

/// The segment number of spots `a..=b` of line `line`, by a walk over the table (the table is
/// small and this runs only when a row is found).
pub fn segment_index(line: usize, a: usize, b: usize) -> usize {
    let cells = &LINE_TABLE[line].cells;
    let (low, high) = (cells[a], cells[b]);
    SEGMENT_TABLE
        .iter()
        .position(|s| s.low == low && s.high == high)
        .unwrap_or(0)
}

/// The segment with ends `a` and `b` (in either order), if those two spots bound one.
pub fn segment_between(a: usize, b: usize) -> Option<usize> {
    let (low, high) = if a <= b { (a, b) } else { (b, a) };
    SEGMENT_TABLE
        .iter()
        .position(|s| s.low as usize == low && s.high as usize == high)
}

/// The number of the push from `dot` towards the adjacent point `spot`, if it is one.
pub fn push_between(dot: usize, spot: usize) -> Option<usize> {
    PUSH_TABLE
        .iter()
        .position(|p| p.dot as usize == dot && p.line.cells[0] as usize == spot)
}

/// Whether points `a` and `b` are neighbours.
pub fn adjacent(a: usize, b: usize) -> bool {
    let (ax, ay) = (XY[a].0 as i32, XY[a].1 as i32);
    let (bx, by) = (XY[b].0 as i32, XY[b].1 as i32);
    DIRECTIONS
        .iter()
        .any(|&(dx, dy)| ax + dx == bx && ay + dy == by)
}

/// The name of point `p` (`a1` .. `i5`).
pub fn name(p: usize) -> [u8; 2] {
    [b'a' + XY[p].0 as u8, b'0' + row_of(p) as u8]
}

/// The point named by a two-character token like `e5`, if it exists.
pub fn parse_point(token: &str) -> Option<usize> {
    let bytes = token.as_bytes();
    if bytes.len() != 2 || !(b'a'..=b'i').contains(&bytes[0]) || !(b'1'..=b'9').contains(&bytes[1])
    {
        return None;
    }
    let x = (bytes[0] - b'a') as i32;
    let row = (bytes[1] - b'0') as i32;
    let y = row - 1 + if x > 4 { x - 4 } else { 0 };
    point_at(x, y)
}
