//! Bitboards wide enough for every board size: `u64` up to 8x8, `u128` up to 11x11, and a
//! two-word 256-bit set up to 16x16. The rules are written once over the [`Bits`] trait.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// A set of squares, bit `i` = square `i`.
pub trait Bits:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The empty set.
    const ZERO: Self;
    /// How many squares fit.
    const CAPACITY: u32;
    /// The set holding only `square`.
    fn bit(square: u32) -> Self;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// The lowest square; the set must not be empty.
    fn lowest(self) -> u32;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;

    /// True if the set is empty.
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }

    /// True if `square` is in the set.
    fn has(self, square: u32) -> bool {
        !(self & Self::bit(square)).is_empty()
    }

    /// The squares of the set, lowest first.
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterates over the squares of a set.
pub struct SquareIter<B>(B);

impl<B: Bits> Iterator for SquareIter<B> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            return None;
        }
        let square = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(square)
    }
}

macro_rules! native_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const CAPACITY: u32 = <$t>::BITS;
            #[inline]
            fn bit(square: u32) -> Self {
                1 << square
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
        }
    };
}

native_bits!(u64);
native_bits!(u128);

/// A 256-bit set as two `u128` words (low, high).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct U256([u128; 2]);

impl BitAnd for U256 {
    type Output = U256;
    fn bitand(self, o: U256) -> U256 {
        U256([self.0[0] & o.0[0], self.0[1] & o.0[1]])
    }
}

impl BitOr for U256 {
    type Output = U256;
    fn bitor(self, o: U256) -> U256 {
        U256([self.0[0] | o.0[0], self.0[1] | o.0[1]])
    }
}

impl BitXor for U256 {
    type Output = U256;
    fn bitxor(self, o: U256) -> U256 {
        U256([self.0[0] ^ o.0[0], self.0[1] ^ o.0[1]])
    }
}

impl Not for U256 {
    type Output = U256;
    fn not(self) -> U256 {
        U256([!self.0[0], !self.0[1]])
    }
}

impl BitAndAssign for U256 {
    fn bitand_assign(&mut self, o: U256) {
        *self = *self & o;
    }
}

impl BitOrAssign for U256 {
    fn bitor_assign(&mut self, o: U256) {
        *self = *self | o;
    }
}

impl Shl<u32> for U256 {
    type Output = U256;
    fn shl(self, n: u32) -> U256 {
        let [lo, hi] = self.0;
        match n {
            0 => self,
            1..=127 => U256([lo << n, (hi << n) | (lo >> (128 - n))]),
            128..=255 => U256([0, lo << (n - 128)]),
            _ => U256([0, 0]),
        }
    }
}

impl Shr<u32> for U256 {
    type Output = U256;
    fn shr(self, n: u32) -> U256 {
        let [lo, hi] = self.0;
        match n {
            0 => self,
            1..=127 => U256([(lo >> n) | (hi << (128 - n)), hi >> n]),
            128..=255 => U256([hi >> (n - 128), 0]),
            _ => U256([0, 0]),
        }
    }
}

impl Bits for U256 {
    const ZERO: Self = U256([0, 0]);
    const CAPACITY: u32 = 256;
    fn bit(square: u32) -> Self {
        if square < 128 {
            U256([1 << square, 0])
        } else {
            U256([0, 1 << (square - 128)])
        }
    }
    fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones()
    }
    fn lowest(self) -> u32 {
        if self.0[0] != 0 {
            self.0[0].trailing_zeros()
        } else {
            128 + self.0[1].trailing_zeros()
        }
    }
    fn without_lowest(self) -> Self {
        if self.0[0] != 0 {
            U256([self.0[0] & (self.0[0] - 1), self.0[1]])
        } else {
            U256([0, self.0[1] & (self.0[1].wrapping_sub(1))])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_shifts_cross_the_word_boundary() {
        let b = U256::bit(120);
        assert_eq!((b << 10).lowest(), 130);
        assert_eq!(((b << 10) >> 10).lowest(), 120);
        assert_eq!((U256::bit(200) >> 150).lowest(), 50);
        assert!((U256::bit(255) << 1).is_empty());
    }

    #[test]
    fn iteration_visits_every_square_once() {
        let set = U256::bit(3) | U256::bit(127) | U256::bit(128) | U256::bit(250);
        assert_eq!(set.squares().collect::<Vec<_>>(), vec![3, 127, 128, 250]);
        assert_eq!(set.count(), 4);
        let small: u64 = 0b1011;
        assert_eq!(small.squares().collect::<Vec<_>>(), vec![0, 1, 3]);
    }
}
