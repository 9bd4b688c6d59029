//! The doubling cube (money play, `newgame backgammon cube=on`).
//!
//! Before rolling, a player who owns the cube or faces a centred one may offer to double
//! (`double`); the opponent then answers `take` (the cube doubles and the taker owns it, the
//! doubler rolls) or `drop` (the game ends, the doubler wins the cube's value before doubling).
//! Every result is multiplied by the cube. No doubles on the opening turn; the cube stops at 64.
//! With `beaver=on` (money play) the doubled side may also `beaver`: take and at once redouble,
//! keeping the cube (now four times its value) while the doubler rolls.

use crate::game::{GameError, Side};

/// The largest cube, as a power of two (64).
pub const MAX_LOG2: u8 = 6;

/// What a move does with the cube.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CubeAction {
    /// A checker play (or a pass).
    #[default]
    None,
    /// Offer to double before rolling.
    Double,
    /// Accept the double.
    Take,
    /// Refuse the double and lose the game.
    Drop,
    /// Take and at once redouble, keeping the cube (money play with `beaver=on`).
    Beaver,
}

impl CubeAction {
    /// The move token.
    pub fn token(self) -> Option<&'static str> {
        match self {
            CubeAction::None => None,
            CubeAction::Double => Some("double"),
            CubeAction::Take => Some("take"),
            CubeAction::Drop => Some("drop"),
            CubeAction::Beaver => Some("beaver"),
        }
    }

    /// Reads a cube token.
    pub fn parse(token: &str) -> Option<CubeAction> {
        match token {
            "double" => Some(CubeAction::Double),
            "take" => Some(CubeAction::Take),
            "drop" | "pass-cube" => Some(CubeAction::Drop),
            "beaver" => Some(CubeAction::Beaver),
            _ => None,
        }
    }
}

/// The cube's state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cube {
    /// Whether doubling is allowed at all (the `cube` option).
    pub enabled: bool,
    /// The cube's value as a power of two (0 = 1).
    pub log2: u8,
    /// Who may double next; `None` while the cube is centred.
    pub owner: Option<Side>,
    /// A double waits for the side to move's answer.
    pub offered: bool,
    /// The side not to move dropped a double (the turn passed to the doubler, who won).
    pub dropped: bool,
}

impl Cube {
    /// The cube's value (1, 2, 4, ...).
    pub fn value(self) -> u32 {
        1 << self.log2
    }

    /// Why `side`, about to roll, may not double now (`None`: it may).
    pub fn double_refusal(self, side: Side, opening: bool, rolled: bool) -> Option<String> {
        if !self.enabled {
            Some("the cube is not in play (newgame backgammon cube=on)".into())
        } else if self.offered {
            Some("a double is already offered".into())
        } else if opening {
            Some("no doubling on the opening turn".into())
        } else if rolled {
            Some("doubling comes before the roll".into())
        } else if self.owner == Some(side.opponent()) {
            Some(format!("{} owns the cube", side.opponent().name()))
        } else if self.log2 >= MAX_LOG2 {
            Some("the cube is at 64".into())
        } else {
            None
        }
    }

    /// A position read with the cube out of play (`cube=off`) cannot have used it: its cube
    /// is a centred 1, with no double offered or dropped.
    pub fn check_in_play(self) -> Result<(), GameError> {
        if self.enabled
            || (self.log2 == 0 && self.owner.is_none() && !self.offered && !self.dropped)
        {
            return Ok(());
        }
        let what = if self.offered {
            "a double is offered".to_owned()
        } else if self.dropped {
            "a double was dropped".to_owned()
        } else {
            format!("the cube stands at {}", self.flag().unwrap_or_default())
        };
        Err(GameError::BadPosition(format!(
            "{what}, but the cube is not in play (newgame backgammon cube=on)"
        )))
    }

    /// The position-string flag, or `None` for a centred 1-cube.
    pub fn flag(self) -> Option<String> {
        match (self.log2, self.owner) {
            (0, None) => None,
            (_, None) => Some(format!("cube={}", self.value())),
            (_, Some(o)) => Some(format!(
                "cube={}:{}",
                self.value(),
                if o == Side::White { "w" } else { "b" }
            )),
        }
    }

    /// Reads `cube=V` or `cube=V:w|b` into this cube.
    pub fn parse_flag(&mut self, text: &str) -> Result<(), GameError> {
        let bad = || GameError::BadPosition(format!("'{text}' is not cube=VALUE[:w|b]"));
        let (value, owner) = match text.split_once(':') {
            Some((v, "w")) => (v, Some(Side::White)),
            Some((v, "b")) => (v, Some(Side::Black)),
            Some(_) => return Err(bad()),
            None => (text, None),
        };
        let value: u32 = value.parse().map_err(|_| bad())?;
        if !value.is_power_of_two() || value > 1 << MAX_LOG2 {
            return Err(bad());
        }
        self.log2 = value.trailing_zeros() as u8;
        self.owner = owner;
        Ok(())
    }
}
