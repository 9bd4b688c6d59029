//! The three versions of GIPF (the rulebook's basic, standard and tournament games) and what
//! each changes: the start, GIPF-pieces, and who may still bring GIPF-pieces in.

use crate::game::GameError;

/// Which version of the rules a game follows.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// 15 single pieces each, 3 on the board; no GIPF-pieces.
    #[default]
    Basic,
    /// 18 pieces each; the three start pieces of each side are GIPF-pieces (two stacked).
    Standard,
    /// 18 pieces each, empty board; each side opens with GIPF-pieces, as many as it likes,
    /// until it plays its first single piece.
    Tournament,
}

impl Variant {
    /// The option value naming the variant.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Basic => "basic",
            Variant::Standard => "standard",
            Variant::Tournament => "tournament",
        }
    }

    /// Reads an option value.
    pub fn parse(text: &str) -> Result<Variant, GameError> {
        match text {
            "basic" => Ok(Variant::Basic),
            "standard" => Ok(Variant::Standard),
            "tournament" => Ok(Variant::Tournament),
            other => Err(GameError::BadOption(format!(
                "variant={other}: expected basic, standard or tournament"
            ))),
        }
    }

    /// The pieces each side owns: on the board (a GIPF-piece counting two), in reserve or
    /// captured by the opponent, they always add up to this (15 basic, 18 otherwise).
    pub fn pieces(self) -> u8 {
        match self {
            Variant::Basic => 15,
            Variant::Standard | Variant::Tournament => 18,
        }
    }

    /// Whether the game has GIPF-pieces (and so the rule that a player without one loses).
    pub fn has_gipf_pieces(self) -> bool {
        self != Variant::Basic
    }
}
