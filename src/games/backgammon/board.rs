//! The checker layout and the single-step rules (one die moves one checker).
//!
//! Each side's checkers are counted in that side's own numbering: index 1..=24 are its points
//! (it moves from 24 down to 1 and bears off from its home board, 6..1), [`BAR`] is its bar and
//! [`OFF`] counts its borne-off checkers. A side's point `p` is the opponent's point `25 - p`.

/// Index of the borne-off checkers.
pub const OFF: usize = 0;
/// Index of the bar.
pub const BAR: usize = 25;
/// Checkers per side.
pub const CHECKERS: u8 = 15;

/// One side's checkers: `[off, point 1, ..., point 24, bar]`.
pub type Side26 = [u8; 26];

/// The start layout, the same for both sides in their own numbering.
pub const START: Side26 = {
    let mut s = [0u8; 26];
    s[24] = 2;
    s[13] = 5;
    s[8] = 3;
    s[6] = 5;
    s
};

/// Why one step cannot be played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    /// A checker waits on the bar, so only entering moves are allowed.
    MustEnter,
    /// No checker of the mover stands on the starting point.
    NoChecker,
    /// The landing point holds two or more opposing checkers.
    Blocked(u8),
    /// Bearing off before every checker is in the home board.
    NotAllHome,
    /// Bearing off with a die larger than needed while a checker stands higher.
    HigherChecker(u8),
}

/// The checker of the mover on `from` may use die `die`; returns where it lands (0 = off).
///
/// `me` is the mover and `them` the opponent, each in its own numbering.
pub fn check_step(me: &Side26, them: &Side26, from: usize, die: usize) -> Result<usize, StepError> {
    if me[BAR] > 0 && from != BAR {
        return Err(StepError::MustEnter);
    }
    if me[from] == 0 {
        return Err(StepError::NoChecker);
    }
    if from > die {
        let to = from - die;
        if is_blocked(them, to) {
            return Err(StepError::Blocked(to as u8));
        }
        return Ok(to);
    }
    bear_off_allowed(me, from, die)?;
    Ok(OFF)
}

/// A point of the mover is blocked when the opponent holds it with two or more checkers.
pub fn is_blocked(them: &Side26, to: usize) -> bool {
    them[25 - to] >= 2
}

/// Bearing off from `from` with `die` (`die >= from`): every checker must be home, and a die
/// larger than needed only removes a checker from the highest occupied point.
fn bear_off_allowed(me: &Side26, from: usize, die: usize) -> Result<(), StepError> {
    let highest = highest_point(me);
    if highest > 6 {
        return Err(StepError::NotAllHome);
    }
    if die > from && highest > from {
        return Err(StepError::HigherChecker(highest as u8));
    }
    Ok(())
}

/// The highest index (bar = 25) holding a checker of this side, 0 when all are off.
pub fn highest_point(me: &Side26) -> usize {
    (1..26).rev().find(|&i| me[i] > 0).unwrap_or(0)
}

/// Moves one checker (a step already checked); returns true when it hit a blot.
pub fn apply_step(me: &mut Side26, them: &mut Side26, from: usize, to: usize) -> bool {
    me[from] -= 1;
    me[to] += 1;
    if to == OFF {
        return false;
    }
    let theirs = 25 - to;
    if them[theirs] == 1 {
        them[theirs] = 0;
        them[BAR] += 1;
        return true;
    }
    false
}

/// Checkers still in play (on the board or the bar).
pub fn in_play(side: &Side26) -> u8 {
    side[1..].iter().sum()
}

/// Pip count: what the side still has to travel to bear everything off.
pub fn pips(side: &Side26) -> u32 {
    (1..26).map(|i| i as u32 * side[i] as u32).sum()
}

/// Whether the two sides can still hit each other: some checker of `a` stands behind
/// (from `a`'s view, further from home than) some checker of `b`.
pub fn in_contact(a: &Side26, b: &Side26) -> bool {
    let a_back = highest_point(a);
    let b_back = highest_point(b);
    if a_back == 0 || b_back == 0 {
        return false;
    }
    // b's rearmost checker sits on a's point 25 - b_back; contact while a is still behind it.
    a_back + b_back > 25
}
