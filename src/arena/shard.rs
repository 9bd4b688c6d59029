//! Shards: `--shard I/N` plays a contiguous block of whole pairs of the match, with exactly
//! the openings, dice and seeds those games get in the whole match (they depend only on the
//! match seed and the game index). Blocks, not every N-th pair: shards handed out in order
//! then finish roughly in game order, so a partial merge already covers a long prefix.

/// Shard `index` of `count` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which block, from 0.
    pub index: usize,
    /// How many blocks the match is cut into.
    pub count: usize,
}

impl Shard {
    /// The whole match as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parses `I/N` with `0 <= I < N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard: expected I/N with 0 <= I < N, not {text}");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = index.trim().parse().map_err(|_| bad())?;
        let count: usize = count.trim().parse().map_err(|_| bad())?;
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The 0-based indices of this shard's games in a match of `games` games: pairs
    /// `[index * P / count, (index + 1) * P / count)` of the `P` pairs, both games of each.
    pub fn games(&self, games: usize) -> Vec<usize> {
        let pairs = games.div_ceil(2);
        let first = self.index * pairs / self.count;
        let end = (self.index + 1) * pairs / self.count;
        (2 * first..(2 * end).min(games)).collect()
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_game_once_in_whole_pairs() {
        for games in [0, 1, 2, 7, 10, 2000] {
            for count in [1, 2, 3, 8, 13] {
                let mut all = Vec::new();
                for index in 0..count {
                    let block = Shard { index, count }.games(games);
                    if let Some(&first) = block.first() {
                        assert_eq!(first % 2, 0, "a block starts a pair");
                    }
                    all.extend(block);
                }
                assert_eq!(
                    all,
                    (0..games).collect::<Vec<_>>(),
                    "{games} games, {count}"
                );
            }
        }
        assert_eq!(Shard { index: 1, count: 3 }.games(10), vec![2, 3, 4, 5]);
    }

    #[test]
    fn parsing() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        for bad in ["8/8", "1", "a/2", "1/0", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
