//! Game records: PGN-like headers, then the game as the protocol command that replays it.
//!
//! ```text
//! [Game "bombardment"]
//! [Options "size=6"]
//! [Round "3"]
//! [White "search"]
//! [Black "random"]
//! [TimeControl "movetime=100"]
//! [Opening "4"]
//! [Result "1-0"]
//! [Points "1"]
//! [Reason "far-rank"]
//! [Detail ""]
//! [Plies "23"]
//! position startpos moves d2d3 ...
//! ```
//! `Opening` is how many of the moves were the opening (not chosen by the engines). Feeding
//! the `position` line to an engine (or to `registry::AnyGame::set_position`) replays the game;
//! [`parse`] reads records back (`morris-tune`).

use super::referee::Played;
use crate::game::Side;

/// The match-wide fields of every record.
#[derive(Clone, Debug)]
pub struct Header<'a> {
    /// The game's name.
    pub game: &'a str,
    /// Its options.
    pub options: &'a str,
    /// The two engines' names, in match order.
    pub engines: [&'a str; 2],
    /// The time control of each engine, in match order.
    pub time_controls: [String; 2],
}

/// `1-0`, `0-1` or `1/2-1/2`.
pub fn result_text(winner: Option<Side>) -> &'static str {
    match winner {
        Some(Side::White) => "1-0",
        Some(Side::Black) => "0-1",
        None => "1/2-1/2",
    }
}

/// The record of one game, ending with a blank line.
pub fn format(header: &Header<'_>, game: &Played) -> String {
    let white = game.pairing.white;
    let black = 1 - white;
    let time_control = if header.time_controls[0] == header.time_controls[1] {
        header.time_controls[0].clone()
    } else {
        format!(
            "{}:{}",
            header.time_controls[white], header.time_controls[black]
        )
    };
    let fields = [
        ("Game", header.game.to_owned()),
        ("Options", header.options.to_owned()),
        ("Round", game.pairing.number.to_string()),
        ("White", header.engines[white].to_owned()),
        ("Black", header.engines[black].to_owned()),
        ("TimeControl", time_control),
        ("Opening", game.pairing.opening.len().to_string()),
        ("Result", result_text(game.result.winner).to_owned()),
        ("Points", game.result.points.to_string()),
        ("Reason", game.result.reason.clone()),
        ("Detail", game.result.detail.clone()),
        ("Plies", game.moves.len().to_string()),
    ];
    let mut text = String::new();
    for (key, value) in fields {
        text.push_str(&format!("[{key} \"{}\"]\n", escape(&value)));
    }
    text.push_str("position startpos");
    if !game.moves.is_empty() {
        text.push_str(" moves ");
        text.push_str(&game.moves.join(" "));
    }
    text.push_str("\n\n");
    text
}

/// What [`parse`] reads back from one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// The `Game` header.
    pub game: String,
    /// The `Options` header.
    pub options: String,
    /// The `Result` header: the winner, `None` for a draw.
    pub winner: Option<Side>,
    /// The moves of the `position` line.
    pub moves: Vec<String>,
}

/// Reads every record of a file of records, in order. A record whose `Result` is none of
/// [`result_text`]'s, or a `position` line without one before it, is an error.
pub fn parse(text: &str) -> anyhow::Result<Vec<Recorded>> {
    let mut out = Vec::new();
    let (mut game, mut options, mut winner) = (String::new(), String::new(), None);
    for line in text.lines() {
        if let Some(header) = line.strip_prefix('[') {
            let Some((key, value)) = header.trim_end_matches(']').split_once(' ') else {
                continue;
            };
            let value = value.trim_matches('"');
            match key {
                "Game" => game = value.to_owned(),
                "Options" => options = value.to_owned(),
                "Result" => {
                    winner = Some(
                        [Some(Side::White), Some(Side::Black), None]
                            .into_iter()
                            .find(|&w| result_text(w) == value)
                            .ok_or_else(|| anyhow::anyhow!("unknown result {value}"))?,
                    )
                }
                _ => {}
            }
        } else if let Some(rest) = line.strip_prefix("position startpos") {
            let moves = rest.trim().strip_prefix("moves").unwrap_or("");
            out.push(Recorded {
                game: game.clone(),
                options: options.clone(),
                winner: winner
                    .take()
                    .ok_or_else(|| anyhow::anyhow!("a game without a result"))?,
                moves: moves.split_whitespace().map(str::to_owned).collect(),
            });
        }
    }
    Ok(out)
}

/// Header values stay on one line and keep their quotes balanced.
fn escape(value: &str) -> String {
    value
        .chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::{GameResult, Pairing};

    #[test]
    fn records_have_headers_and_a_position_line() {
        let game = Played {
            pairing: Pairing {
                number: 2,
                white: 1,
                opening: vec!["d2d3".into()],
                dice_seed: 0,
                engine_seed: 0,
            },
            moves: vec!["d2d3".into(), "e7e6".into()],
            result: GameResult {
                winner: Some(Side::Black),
                points: 1,
                reason: "illegal-move".into(),
                detail: "a1a2: \"bad\"\n".into(),
            },
            least_left_ms: [None; 2],
        };
        let header = Header {
            game: "bombardment",
            options: "size=6",
            engines: ["a", "b"],
            time_controls: ["movetime=100".into(), "depth=1".into()],
        };
        let text = format(&header, &game);
        assert!(text.contains("[White \"b\"]\n[Black \"a\"]\n"));
        assert!(text.contains("[TimeControl \"depth=1:movetime=100\"]"));
        assert!(text.contains("[Result \"0-1\"]"));
        assert!(text.contains("[Detail \"a1a2: 'bad' \"]"));
        assert!(text.ends_with("\nposition startpos moves d2d3 e7e6\n\n"));

        // Read back, with a drawn game without moves after it.
        let mut draw = game.clone();
        draw.moves.clear();
        draw.result.winner = None;
        let both = text + &format(&header, &draw);
        let read = parse(&both).unwrap();
        let expected = |winner, moves: &[&str]| Recorded {
            game: "bombardment".into(),
            options: "size=6".into(),
            winner,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        };
        assert_eq!(
            read,
            [
                expected(Some(Side::Black), &["d2d3", "e7e6"]),
                expected(None, &[])
            ]
        );
    }

    #[test]
    fn records_that_cannot_be_read_back() {
        let error = parse("[Result \"2-0\"]\nposition startpos\n").unwrap_err();
        assert!(error.to_string().contains("unknown result 2-0"), "{error}");
        let error = parse("[Game \"nim\"]\nposition startpos moves 1\n").unwrap_err();
        assert!(error.to_string().contains("without a result"), "{error}");
    }
}
