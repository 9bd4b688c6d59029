//! Breakthrough perft, checked against a deliberately naive reference generator and, for the
//! first plies from the start, against counts derived by hand.
//!
//! The reference shares no code with the engine: a board is a grid of chars indexed by
//! (rank, file), moves come from looping over squares and the three forward directions, and
//! the end of the game is re-checked by scanning. By hand: from the 8x8 start each man of
//! rank 2 has three moves but the two on the a and h files one fewer, 8 x 3 - 2 = 22; Black's
//! answers are the same 22 whatever White played (ranks 3 and 6 are four apart), so perft 2 is
//! 22 x 22 = 484. On the 5x5 board (one empty rank between the armies) perft 1 is 5 x 3 - 2 = 13.

use tabula::game::Game;
use tabula::games::breakthrough::{Breakthrough, Options};

#[derive(Clone)]
struct Grid {
    size: usize,
    /// rows[rank][file], rank 0 = rank 1: b'.', b'w' or b'b'.
    rows: Vec<Vec<u8>>,
    white: bool,
}

impl Grid {
    fn parse(fen: &str, size: usize) -> Grid {
        let (board, side) = fen.split_once(' ').unwrap();
        let mut rows = vec![vec![b'.'; size]; size];
        for (i, text) in board.split('/').enumerate() {
            let rank = size - 1 - i;
            let mut file = 0;
            for c in text.bytes() {
                if c.is_ascii_digit() {
                    file += usize::from(c - b'0');
                } else {
                    rows[rank][file] = c;
                    file += 1;
                }
            }
        }
        Grid {
            size,
            rows,
            white: side == "w",
        }
    }

    fn over(&self) -> bool {
        let count = |c: u8| self.rows.iter().flatten().filter(|&&x| x == c).count();
        self.rows[self.size - 1].contains(&b'w')
            || self.rows[0].contains(&b'b')
            || count(b'w') == 0
            || count(b'b') == 0
    }

    fn children(&self) -> Vec<Grid> {
        if self.over() {
            return Vec::new();
        }
        let (me, dir): (u8, isize) = if self.white { (b'w', 1) } else { (b'b', -1) };
        let mut out = Vec::new();
        for rank in 0..self.size {
            for file in 0..self.size {
                if self.rows[rank][file] != me {
                    continue;
                }
                let to_rank = rank as isize + dir;
                if to_rank < 0 || to_rank >= self.size as isize {
                    continue;
                }
                for df in [-1isize, 0, 1] {
                    let to_file = file as isize + df;
                    if to_file < 0 || to_file >= self.size as isize {
                        continue;
                    }
                    let (r, f) = (to_rank as usize, to_file as usize);
                    let target = self.rows[r][f];
                    let allowed = if df == 0 {
                        target == b'.'
                    } else {
                        target != me
                    };
                    if allowed {
                        let mut next = self.clone();
                        next.rows[rank][file] = b'.';
                        next.rows[r][f] = me;
                        next.white = !self.white;
                        out.push(next);
                    }
                }
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.children().iter().map(|c| c.perft(depth - 1)).sum()
    }
}

const START8: &str = "bbbbbbbb/bbbbbbbb/8/8/8/8/wwwwwwww/wwwwwwww w";
const START5: &str = "bbbbb/bbbbb/5/wwwww/wwwww w";

fn engine(fen: &str, size: u8, depth: u32) -> u64 {
    Breakthrough::from_fen(fen, &Options { size })
        .expect("a valid position")
        .perft(depth)
}

#[test]
fn the_first_plies_from_the_start_match_the_counts_by_hand() {
    assert_eq!(engine(START8, 8, 1), 22);
    assert_eq!(engine(START8, 8, 2), 484);
    assert_eq!(engine(START5, 5, 1), 13);
    assert_eq!(Grid::parse(START8, 8).perft(2), 484);
}

#[test]
fn the_engine_agrees_with_the_reference() {
    let cases: &[(u8, &str, u32)] = &[
        (8, START8, 4),
        (5, START5, 5),
        (6, "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w", 4),
        (7, "bbbbbbb/bbbbbbb/7/7/7/wwwwwww/wwwwwww b", 4),
        // Men in contact: captures both ways, straight moves blocked.
        (8, "8/8/2bb4/2ww1b2/8/8/8/8 w", 4),
        // One step from the far rank on both sides, and a last man that can be taken.
        (8, "8/1w4b1/8/8/8/8/1w4b1/8 w", 4),
        (8, "8/8/8/8/8/2b5/3w4/8 w", 3),
        (5, "b4/1w3/5/3b1/4w b", 5),
    ];
    for &(size, fen, depth) in cases {
        let reference = Grid::parse(fen, usize::from(size)).perft(depth);
        assert_eq!(engine(fen, size, depth), reference, "{fen} depth {depth}");
        // Each ply below, too: a wrong count at one depth cannot hide behind another.
        for d in 0..depth {
            assert_eq!(
                engine(fen, size, d),
                Grid::parse(fen, usize::from(size)).perft(d),
                "{fen} depth {d}"
            );
        }
    }
}
