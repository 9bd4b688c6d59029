//! Geometry of the trapezoid and the row-mask bitsets the rules work on.
//!
//! Row `r` (0 = top, row `a`) has `width + r` cells; bit `c` of a row mask is the cell in
//! column `c + 1`. The widest row (16 + 15 = 31 cells) fits a `u32`, so a whole colour is
//! a `[u32; 16]` and every rule is a handful of shifts per row.

/// The largest number of rows and of top-row cells (`rows=16`, `width=16`).
pub const MAX_SIDE: usize = 16;

/// One bit per cell, one `u32` per row; rows beyond the board and bits beyond a row's width
/// are always zero.
pub type Rows = [u32; MAX_SIDE];

/// Which neighbours of a stone its owner may play next to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Adjacency {
    /// The seed's rule: beside (same row) or below.
    SideBelow,
    /// William Chang's original rule: below only.
    Below,
}

impl Adjacency {
    /// The option value (`side-below`, `below`).
    pub fn name(self) -> &'static str {
        match self {
            Adjacency::SideBelow => "side-below",
            Adjacency::Below => "below",
        }
    }
}

/// The board shape and the adjacency rule: everything fixed by `newgame` options.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Cells in the top row (2..=16).
    pub width: u8,
    /// Number of rows (2..=16).
    pub rows: u8,
    /// The placement rule.
    pub adjacency: Adjacency,
}

impl Geometry {
    /// Number of rows as an index bound.
    pub fn row_count(self) -> usize {
        self.rows as usize
    }

    /// Cells in row `r`.
    pub fn row_len(self, r: usize) -> usize {
        self.width as usize + r
    }

    /// The mask of every cell of row `r` (0 for rows off the board).
    pub fn full_row(self, r: usize) -> u32 {
        if r < self.row_count() {
            (1u32 << self.row_len(r)) - 1
        } else {
            0
        }
    }

    /// The index of the bottom row, the one the game is about.
    pub fn bottom(self) -> usize {
        self.row_count() - 1
    }

    /// Cells in the bottom row.
    pub fn bottom_len(self) -> usize {
        self.row_len(self.bottom())
    }

    /// Total number of cells.
    pub fn cell_count(self) -> usize {
        (0..self.row_count()).map(|r| self.row_len(r)).sum()
    }

    /// The top row as it stands for the whole game, one mask per colour (white, black).
    pub fn top_row(self) -> [u32; 2] {
        let full = self.full_row(0);
        let black = 0x5555_5555 & full;
        [full & !black, black]
    }

    /// The empty cells a stone may go on for a side whose stones are `own`, with `occupied`
    /// the stones of both colours: beside or below one of `own` (`adjacency=below`: below only).
    pub fn targets(self, own: &Rows, occupied: &Rows) -> Rows {
        let mut out = [0u32; MAX_SIDE];
        for r in 1..self.row_count() {
            let full = self.full_row(r);
            let mut reach = below(own[r - 1]);
            if self.adjacency == Adjacency::SideBelow {
                reach |= beside(own[r]);
            }
            out[r] = reach & full & !occupied[r];
        }
        out
    }

    /// The cells a single stone on `cell` lets its owner play next to (beside or below per the
    /// rule), whether empty or not.
    pub fn neighbours_of(self, cell: Cell) -> Rows {
        let mut out = [0u32; MAX_SIDE];
        let (r, bit) = (cell.row as usize, 1u32 << cell.col);
        if self.adjacency == Adjacency::SideBelow {
            out[r] = beside(bit) & self.full_row(r);
        }
        if r + 1 < self.row_count() {
            out[r + 1] = below(bit);
        }
        out
    }
}

/// The cells of the next row below a row mask: (r,c) touches (r+1,c) and (r+1,c+1).
pub fn below(row: u32) -> u32 {
    row | (row << 1)
}

/// The cells beside a row mask in the same row (callers mask the row's width).
pub fn beside(row: u32) -> u32 {
    (row << 1) | (row >> 1)
}

/// Number of cells set.
pub fn count(rows: &Rows) -> u32 {
    rows.iter().map(|r| r.count_ones()).sum()
}

/// Union of two bitsets.
pub fn union(a: &Rows, b: &Rows) -> Rows {
    std::array::from_fn(|r| a[r] | b[r])
}

/// One cell: 0-based row (0 = `a`, the top) and 0-based column.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// 0-based row, 0 = top row `a`.
    pub row: u8,
    /// 0-based column, 0 = the leftmost cell (written 1).
    pub col: u8,
}

impl Cell {
    /// The cell at 0-based `row`, `col`.
    pub fn new(row: usize, col: usize) -> Cell {
        Cell {
            row: row as u8,
            col: col as u8,
        }
    }

    /// Whether `rows` has this cell set.
    pub fn is_in(self, rows: &Rows) -> bool {
        rows[self.row as usize] >> self.col & 1 == 1
    }

    /// Sets this cell in `rows`.
    pub fn set(self, rows: &mut Rows) {
        rows[self.row as usize] |= 1 << self.col;
    }

    /// A key that orders cells as their names order byte by byte (`c1` < `c10` < `c2`), which
    /// decides the canonical spelling of a two-stone move.
    pub fn name_key(self) -> u16 {
        (self.row as u16) << 8 | NAME_RANK[self.col as usize] as u16
    }
}

/// Visits every set cell of `rows`, row by row from the top, left to right.
pub fn for_each_cell(rows: &Rows, mut f: impl FnMut(Cell)) {
    for (r, &row) in rows.iter().enumerate() {
        let mut bits = row;
        while bits != 0 {
            f(Cell::new(r, bits.trailing_zeros() as usize));
            bits &= bits - 1;
        }
    }
}

/// `NAME_RANK[c]`: the rank of the decimal string of `c + 1` among those of 1..=32, so that
/// comparing ranks compares column names byte by byte.
const NAME_RANK: [u8; 32] = name_ranks();

const fn name_ranks() -> [u8; 32] {
    let mut ranks = [0u8; 32];
    let mut a = 0;
    while a < 32 {
        let mut rank = 0;
        let mut b = 0;
        while b < 32 {
            if decimal_less(b + 1, a + 1) {
                rank += 1;
            }
            b += 1;
        }
        ranks[a] = rank;
        a += 1;
    }
    ranks
}

/// Byte-order comparison of the decimal spellings of two numbers below 100.
const fn decimal_less(x: usize, y: usize) -> bool {
    let (xs, xl) = digits(x);
    let (ys, yl) = digits(y);
    let mut i = 0;
    while i < xl && i < yl {
        if xs[i] != ys[i] {
            return xs[i] < ys[i];
        }
        i += 1;
    }
    xl < yl
}

const fn digits(n: usize) -> ([u8; 2], usize) {
    if n < 10 {
        ([b'0' + n as u8, 0], 1)
    } else {
        ([b'0' + (n / 10) as u8, b'0' + (n % 10) as u8], 2)
    }
}

impl Default for Geometry {
    /// The seed's board: 8 cells on top, 8 rows (92 cells, 15 on the bottom row), beside or below.
    fn default() -> Geometry {
        Geometry {
            width: 8,
            rows: 8,
            adjacency: Adjacency::SideBelow,
        }
    }
}
