//! Move texts resolved against the legal moves, so that one place decides legality: the
//! move generator. A game reads a text for its syntax only (what it names), the text is
//! looked up among the position's legal moves, and the game's reasons are worked out only
//! for a text that names none of them.

use super::{Game, GameError};

/// The reason given for a text that names no legal move when the game's reasons find no
/// rule it breaks.
pub const NOT_LEGAL: &str = "not a legal move";

/// Resolves a move text of `pos`: `written` is what the text names, read for its syntax
/// only (its error is returned as it is); `find` picks, among the legal moves, the one it
/// names (by its place in the list, so that only a generated move is ever accepted); only
/// when it names none does `why_not` look for the rule the text breaks, the game being over
/// coming first and a generic [`NOT_LEGAL`] last.
pub fn resolve_move<G: Game, W>(
    pos: &G,
    token: &str,
    written: Result<W, GameError>,
    find: impl FnOnce(&W, &[G::Move]) -> Option<usize>,
    why_not: impl FnOnce(&W) -> Option<GameError>,
) -> Result<G::Move, GameError> {
    let written = written?;
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    if let Some(&mv) = find(&written, &legal).and_then(|i| legal.get(i)) {
        return Ok(mv);
    }
    if pos.outcome().is_some() {
        return Err(GameError::GameOver);
    }
    Err(why_not(&written).unwrap_or_else(|| GameError::illegal(token, NOT_LEGAL)))
}

/// `find` for games whose texts name one move each: the written move's place in the list.
pub fn find_equal<M: Eq>(written: &M, legal: &[M]) -> Option<usize> {
    legal.iter().position(|mv| mv == written)
}
