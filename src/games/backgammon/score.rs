//! The match a game belongs to (`newgame backgammon match=N`): its length, the score before
//! this game and whether this game is the Crawford game.
//!
//! Money play is length 0. In a match, the first game played after a side reaches one point
//! short of the length (its "1-away" score) is the Crawford game: nobody may double in it.
//! The games after it are post-Crawford: doubling is allowed again.

use crate::game::{GameError, Side};

/// The longest match the engine plays (its match equity table covers every score up to it).
pub const MAX_LENGTH: u16 = 64;

/// The match state of one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct MatchScore {
    /// Points needed to win the match; 0 for money play.
    pub length: u16,
    /// Points each side had before this game (indexed by [`Side::index`]).
    pub score: [u16; 2],
    /// This game is the Crawford game (no doubling).
    pub crawford: bool,
}

impl MatchScore {
    /// A match of `length` points at 0-0 (0: money play).
    pub fn new(length: u16) -> MatchScore {
        MatchScore {
            length,
            ..MatchScore::default()
        }
    }

    /// Whether this is a match rather than money play.
    pub fn is_match(self) -> bool {
        self.length > 0
    }

    /// Points `side` still needs to win the match (its "away" score).
    pub fn away(self, side: Side) -> i32 {
        i32::from(self.length) - i32::from(self.score[side.index()])
    }

    /// Why these fields do not describe a game of a match, if they do not.
    pub fn check(self) -> Result<(), GameError> {
        let bad = |what: String| Err(GameError::BadPosition(what));
        if self.length > MAX_LENGTH {
            return bad(format!(
                "match length {} is above {MAX_LENGTH}",
                self.length
            ));
        }
        if !self.is_match() {
            if self.score != [0, 0] || self.crawford {
                return bad("a score or the Crawford game needs a match length".into());
            }
            return Ok(());
        }
        if self.score.iter().any(|&s| s >= self.length) {
            return bad(format!(
                "score {}-{} is not below the match length {}",
                self.score[0], self.score[1], self.length
            ));
        }
        let one_away = |s: Side| self.away(s) == 1;
        if self.crawford && one_away(Side::White) == one_away(Side::Black) {
            return bad("the Crawford game needs exactly one side 1 point from the match".into());
        }
        Ok(())
    }

    /// The position-string flags (`match=7 score=2-3 [crawford]`), empty for money play.
    pub fn flags(self) -> Vec<String> {
        if !self.is_match() {
            return Vec::new();
        }
        let mut flags = vec![
            format!("match={}", self.length),
            format!("score={}-{}", self.score[0], self.score[1]),
        ];
        if self.crawford {
            flags.push("crawford".into());
        }
        flags
    }

    /// Reads the value of a `score=W-B` flag.
    pub fn parse_score(&mut self, text: &str) -> Result<(), GameError> {
        let bad = || GameError::BadPosition(format!("'score={text}' is not score=WHITE-BLACK"));
        let (w, b) = text.split_once('-').ok_or_else(bad)?;
        self.score = [w.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?];
        Ok(())
    }

    /// Reads the value of a `match=N` flag.
    pub fn parse_length(&mut self, text: &str) -> Result<(), GameError> {
        match text.parse::<u16>() {
            Ok(n @ 1..=MAX_LENGTH) => {
                self.length = n;
                Ok(())
            }
            _ => Err(GameError::BadPosition(format!(
                "'match={text}' is not a match length 1-{MAX_LENGTH}"
            ))),
        }
    }
}
