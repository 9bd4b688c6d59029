//! The keys of earlier positions for the repetition rule, cheap to clone: the most recent
//! ones live inline (a memcpy, no allocation, which is all perft and search ever need), and
//! only long quiet stretches spill the oldest into a vector.

const INLINE: usize = 24;
/// How many of the oldest inline keys move to the vector when the inline part is full.
const SPILL: usize = INLINE / 2;

/// Position keys since the last irreversible move, oldest first.
#[derive(Clone, Debug)]
pub struct History {
    recent: [u64; INLINE],
    recent_len: usize,
    older: Vec<u64>,
}

impl Default for History {
    fn default() -> Self {
        History {
            recent: [0; INLINE],
            recent_len: 0,
            older: Vec::new(),
        }
    }
}

impl History {
    /// Appends the key of the position just left.
    pub fn push(&mut self, key: u64) {
        if self.recent_len == INLINE {
            self.older.extend_from_slice(&self.recent[..SPILL]);
            self.recent.copy_within(SPILL.., 0);
            self.recent_len -= SPILL;
        }
        self.recent[self.recent_len] = key;
        self.recent_len += 1;
    }

    /// Forgets everything (after a placement or a capture).
    pub fn clear(&mut self) {
        self.recent_len = 0;
        self.older.clear();
    }

    /// The largest number of times any one key occurs (0 when empty).
    pub fn most_repeated(&self) -> usize {
        let keys: Vec<u64> = self.newest_first().copied().collect();
        keys.iter()
            .map(|k| keys.iter().filter(|&x| x == k).count())
            .max()
            .unwrap_or(0)
    }

    /// The keys, newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &u64> {
        self.recent[..self.recent_len]
            .iter()
            .rev()
            .chain(self.older.iter().rev())
    }
}

#[cfg(test)]
mod tests {
    use super::History;

    #[test]
    fn keeps_every_key_in_order() {
        let mut h = History::default();
        for k in 0..100 {
            h.push(k);
        }
        assert!(h.newest_first().copied().eq((0..100).rev()));
        assert_eq!(h.most_repeated(), 1);
        h.push(7);
        h.push(7);
        assert_eq!(h.most_repeated(), 3);
        h.clear();
        assert_eq!(h.newest_first().count(), 0);
    }
}
