//! The square board: square numbering, masks for shifting without wrapping, the blast area.
//!
//! Square `rank * size + file`, both from 0: a1 = 0, b1 = 1, a2 = `size`. White moves towards
//! higher ranks, Black towards lower ones.

use super::bits::Bits;

/// Masks for one board size.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Geometry<B> {
    /// Squares per side (5..=16).
    pub size: u32,
    /// Every square of the board.
    pub all: B,
    /// Every square except file a (a shift to the right must not land there).
    pub not_first_file: B,
    /// Every square except the last file (a shift to the left must not land there).
    pub not_last_file: B,
    /// The highest rank: White's goal.
    pub top_rank: B,
    /// Rank 1: Black's goal.
    pub bottom_rank: B,
}

impl<B: Bits> Geometry<B> {
    /// The masks of a `size` x `size` board (`size * size` must fit in `B`).
    pub fn new(size: u32) -> Geometry<B> {
        let mut geometry = Geometry {
            size,
            all: B::ZERO,
            not_first_file: B::ZERO,
            not_last_file: B::ZERO,
            top_rank: B::ZERO,
            bottom_rank: B::ZERO,
        };
        for square in 0..size * size {
            let (file, rank) = (square % size, square / size);
            let bit = B::bit(square);
            geometry.all |= bit;
            if file != 0 {
                geometry.not_first_file |= bit;
            }
            if file != size - 1 {
                geometry.not_last_file |= bit;
            }
            if rank == size - 1 {
                geometry.top_rank |= bit;
            }
            if rank == 0 {
                geometry.bottom_rank |= bit;
            }
        }
        geometry
    }

    /// The square and its (up to) 8 neighbours: what a detonation on `square` removes.
    #[inline]
    pub fn blast(&self, square: u32) -> B {
        let centre = B::bit(square);
        let row =
            centre | ((centre << 1) & self.not_first_file) | ((centre >> 1) & self.not_last_file);
        (row | (row << self.size) | (row >> self.size)) & self.all
    }

    /// The squares the pieces of `pieces` step to, per direction, for the side moving up
    /// (`up = true`, White) or down: (straight, towards file a, towards the last file).
    #[inline]
    pub fn steps(&self, pieces: B, up: bool) -> (B, B, B) {
        let n = self.size;
        if up {
            (
                (pieces << n) & self.all,
                (pieces << (n - 1)) & self.not_last_file & self.all,
                (pieces << (n + 1)) & self.not_first_file & self.all,
            )
        } else {
            (
                pieces >> n,
                (pieces >> (n + 1)) & self.not_last_file,
                (pieces >> (n - 1)) & self.not_first_file,
            )
        }
    }

    /// The name of a square (`e2`).
    pub fn square_name(&self, square: u32) -> String {
        let file = (b'a' + (square % self.size) as u8) as char;
        format!("{file}{}", square / self.size + 1)
    }

    /// Parses a square name on this board.
    pub fn parse_square(&self, text: &str) -> Option<u32> {
        let mut chars = text.chars();
        let file = chars.next()?;
        let rank: u32 = chars.as_str().parse().ok()?;
        if !file.is_ascii_lowercase()
            || chars.as_str().starts_with('0')
            || chars.as_str().starts_with('+')
        {
            return None;
        }
        let file = file as u32 - 'a' as u32;
        (file < self.size && (1..=self.size).contains(&rank))
            .then_some((rank - 1) * self.size + file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blast_stays_on_the_board() {
        let g: Geometry<u64> = Geometry::new(8);
        assert_eq!(g.blast(0).count(), 4);
        assert_eq!(g.blast(7).count(), 4);
        assert_eq!(g.blast(8).count(), 6);
        assert_eq!(g.blast(9).count(), 9);
        assert_eq!(g.blast(63).count(), 4);
    }

    #[test]
    fn diagonal_steps_do_not_wrap_around() {
        let g: Geometry<u64> = Geometry::new(8);
        let a2 = u64::bit(8);
        let (straight, left, right) = g.steps(a2, true);
        assert_eq!(straight, u64::bit(16));
        assert_eq!(left, 0);
        assert_eq!(right, u64::bit(17));
        let h7 = u64::bit(55);
        let (straight, left, right) = g.steps(h7, false);
        assert_eq!(straight, u64::bit(47));
        assert_eq!(left, u64::bit(46));
        assert_eq!(right, 0);
    }

    #[test]
    fn square_names_round_trip() {
        let g: Geometry<u128> = Geometry::new(11);
        for square in 0..121 {
            assert_eq!(g.parse_square(&g.square_name(square)), Some(square));
        }
        assert_eq!(g.parse_square("l1"), None);
        assert_eq!(g.parse_square("a12"), None);
        assert_eq!(g.parse_square("a0"), None);
        assert_eq!(g.parse_square("a01"), None);
        assert_eq!(g.parse_square("A1"), None);
    }
}
