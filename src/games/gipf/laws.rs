//! GIPF's rules as tests check them from position strings alone (written apart from the
//! game's code on purpose: see [`Laws`]).

use crate::game::Laws;

/// The laws, as the generic tests check them with default options (the basic game): a side's
/// pieces on the board (a GIPF-piece counts two) plus in reserve plus those the opponent
/// captured add up to 15 (18 is let through for the variants' sets), and that total never
/// changes; captured counts never go down; a player with pieces in reserve can always push.
pub const LAWS: Laws = Laws {
    pieces,
    pieces_after: |_, _| None,
    over: |fen| {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let mover = match *fields.get(1)? {
            "w" => 2,
            "b" => 3,
            _ => return None,
        };
        let reserve: i64 = fields.get(mover)?.parse().ok()?;
        (reserve > 0).then_some(false)
    },
    position: |fen| match owned(fen) {
        Some([white, black]) if [15, 18].contains(&white) && [15, 18].contains(&black) => Ok(()),
        other => Err(format!("pieces owned {other:?}, not 15 or 18 each")),
    },
    step: |before, after| {
        let (Some(owned_before), Some(owned_after)) = (owned(before), owned(after)) else {
            return Err("unreadable".into());
        };
        let (Some(taken_before), Some(taken_after)) = (captured(before), captured(after)) else {
            return Err("unreadable".into());
        };
        if owned_before != owned_after {
            return Err(format!("owned {owned_before:?} became {owned_after:?}"));
        }
        if taken_after[0] < taken_before[0] || taken_after[1] < taken_before[1] {
            return Err(format!(
                "captured {taken_before:?} went down to {taken_after:?}"
            ));
        }
        Ok(())
    },
};

/// Pieces on the board (GIPF-pieces count two) plus reserve.
fn pieces(fen: &str) -> Option<[i64; 2]> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let count = |c: char| fields[0].chars().filter(|&x| x == c).count() as i64;
    let reserve = |i: usize| fields.get(i)?.parse::<i64>().ok();
    Some([
        count('w') + 2 * count('W') + reserve(2)?,
        count('b') + 2 * count('B') + reserve(3)?,
    ])
}

/// Pieces White and Black have taken from the other.
fn captured(fen: &str) -> Option<[i64; 2]> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    Some([fields.get(4)?.parse().ok()?, fields.get(5)?.parse().ok()?])
}

/// Each side's pieces plus those the opponent took from it: the variant's total.
fn owned(fen: &str) -> Option<[i64; 2]> {
    let [white, black] = pieces(fen)?;
    let [by_white, by_black] = captured(fen)?;
    Some([white + by_black, black + by_white])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_written_positions_read_right() {
        assert_eq!(owned("b2w/5/6/w5b/6/5/b2w w 12 12 0 0"), Some([15, 15]));
        assert!((LAWS.position)("b2w/5/6/w5b/6/5/b2w w 12 12 0 0").is_ok());
        assert!((LAWS.position)("b2w/5/6/w5b/6/5/b2w w 14 14 0 0").is_err());
    }
}
