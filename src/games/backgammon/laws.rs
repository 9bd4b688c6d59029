//! Backgammon's rules as tests check them from position strings alone (written apart from the
//! game's code on purpose: see [`Laws`]).

use crate::game::Laws;

/// The laws: a side's checkers on the points and the bar (those borne off are not written),
/// 0 to 15; a play loses exactly the checkers it bears off (a hit only moves the opponent's
/// checker to the bar); the game is over exactly when a side has borne off all 15.
pub const LAWS: Laws = Laws {
    pieces,
    pieces_after: |before, token| {
        let mut counts = pieces(before)?;
        let mover = match before.split_whitespace().nth(2)? {
            "w" => 0,
            "b" => 1,
            _ => return None,
        };
        counts[mover] -= borne_off(token)?;
        Some(counts)
    },
    over: |fen| {
        let [white, black] = pieces(fen)?;
        Some(white == 0 || black == 0)
    },
    position: |fen| match pieces(fen) {
        Some([white, black]) if (0..=15).contains(&white) && (0..=15).contains(&black) => Ok(()),
        other => Err(format!("checkers {other:?}, not 0..15 each")),
    },
    step: |_, _| Ok(()),
};

/// Checkers on the points and the bar per side, from the `w=...` and `b=...` fields.
fn pieces(fen: &str) -> Option<[i64; 2]> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let side = |label: &str| -> Option<i64> {
        let field = fields.iter().find_map(|f| f.strip_prefix(label))?;
        field
            .split(',')
            .filter(|s| !s.is_empty() && *s != "-")
            .map(|s| s.split(':').nth(1)?.parse::<i64>().ok())
            .sum()
    };
    Some([side("w=")?, side("b=")?])
}

/// Checkers a play bears off: each `/off` step, times its `(n)` repeat if any.
fn borne_off(token: &str) -> Option<i64> {
    let Some((_, steps)) = token.split_once(':') else {
        return Some(0);
    };
    steps
        .split(',')
        .filter(|step| step.contains("/off"))
        .map(|step| match step.split_once('(') {
            None => Some(1),
            Some((_, n)) => n.trim_end_matches(')').parse().ok(),
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_written_positions_read_right() {
        assert_eq!(pieces("w=bar:2,6:3 b=24:2,13:5,8:3,6:5 w -"), Some([5, 15]));
        assert_eq!(borne_off("64:6/off,5/1"), Some(1));
        assert_eq!(borne_off("66:6/off(4)"), Some(4));
    }
}
