//! Results files (`--results FILE`): what `arena merge` needs to print, record and test a
//! match exactly as one run would, one line per game, written as each game is counted.
//!
//! ```text
//! arena-results 1
//! match → game=bombardment → options=size=6 → first=a → second=b → ... → shard=0/8
//! game → index=0 → white=0 → opening=2 → winner=white → points=1 → reason=far-rank
//!   → detail= → left1=- → left2=- → moves=b2b3 d5e4 ...
//! ```
//! Fields are `key=value` separated by tabs (shown as `→`), a line per game; a value escapes
//! `\`, tab, newline and carriage return with a backslash. The match line of every shard of
//! a match is the same but for `shard`; merge refuses files of different matches.

use super::openings::{pair_seed, Openings, Stream};
use super::referee::{GameResult, Pairing, Played};
use super::shard::Shard;
use super::Config;
use crate::game::Side;
use std::collections::BTreeMap;

/// The first line of every results file.
pub const MAGIC: &str = "arena-results 1";

/// The match line's fields, by key.
pub type MatchFields = BTreeMap<String, String>;

/// The `match` line of a shard of `config`.
pub fn match_line(config: &Config, shard: Shard) -> String {
    let [tc1, tc2] = config.controls().map(|t| t.describe());
    let options = |i: usize| {
        let pairs: Vec<String> = config.engines[i]
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        pairs.join(";")
    };
    let openings = match &config.openings {
        Openings::None => "none".to_owned(),
        Openings::Random(plies) => format!("random:{plies}"),
        Openings::List(lists) => format!("list:{}:{}", lists.len(), lists.concat().join(" ")),
    };
    let sprt = config.sprt.map_or(String::from("none"), |s| {
        format!(
            "elo0={},elo1={},alpha={},beta={}",
            s.elo0, s.elo1, s.alpha, s.beta
        )
    });
    let fields = [
        ("game", config.game.clone()),
        ("options", config.game_options.clone()),
        ("first", config.engines[0].name.clone()),
        ("second", config.engines[1].name.clone()),
        ("options1", options(0)),
        ("options2", options(1)),
        ("tc1", tc1),
        ("tc2", tc2),
        ("games", config.games.to_string()),
        ("seed", config.seed.to_string()),
        ("openings", openings),
        ("max-plies", config.max_plies.to_string()),
        ("sprt", sprt),
        ("shard", shard.to_string()),
    ];
    line("match", &fields)
}

/// The `game` line of one played game.
pub fn game_line(played: &Played) -> String {
    let left = |who: usize| played.least_left_ms[who].map_or("-".into(), |l| l.to_string());
    let winner = match played.result.winner {
        Some(Side::White) => "white",
        Some(Side::Black) => "black",
        None => "draw",
    };
    let fields = [
        ("index", (played.pairing.number - 1).to_string()),
        ("white", played.pairing.white.to_string()),
        ("opening", played.pairing.opening.len().to_string()),
        ("winner", winner.to_owned()),
        ("points", played.result.points.to_string()),
        ("reason", played.result.reason.clone()),
        ("detail", played.result.detail.clone()),
        ("left1", left(0)),
        ("left2", left(1)),
        ("moves", played.moves.join(" ")),
    ];
    line("game", &fields)
}

fn line(kind: &str, fields: &[(&str, String)]) -> String {
    let mut text = kind.to_owned();
    for (key, value) in fields {
        text.push('\t');
        text.push_str(key);
        text.push('=');
        text.push_str(&escape(value));
    }
    text.push('\n');
    text
}

fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// The fields of a line after its kind.
fn fields(rest: &str) -> Result<BTreeMap<String, String>, String> {
    let mut map = BTreeMap::new();
    for field in rest.split('\t').filter(|f| !f.is_empty()) {
        let (key, value) = field
            .split_once('=')
            .ok_or_else(|| format!("expected key=value, not {field}"))?;
        map.insert(key.to_owned(), unescape(value));
    }
    Ok(map)
}

/// A results file: its match line and its games. A last line without its newline (a shard
/// killed while writing) is left out.
pub fn parse(text: &str) -> Result<(MatchFields, Vec<Played>), String> {
    let mut lines = text.split_inclusive('\n').filter(|l| l.ends_with('\n'));
    if lines.next().map(str::trim_end) != Some(MAGIC) {
        return Err(format!("not a results file (no `{MAGIC}` line)"));
    }
    let header = lines
        .next()
        .and_then(|l| l.trim_end_matches('\n').strip_prefix("match\t"))
        .ok_or("no match line")?;
    let header = fields(header)?;
    let seed: u64 = number(&header, "seed")?;
    let mut games = Vec::new();
    for (n, text) in lines.enumerate() {
        let text = text.trim_end_matches('\n');
        let body = text
            .strip_prefix("game\t")
            .ok_or_else(|| format!("line {}: not a game line", n + 3))?;
        games.push(played(&fields(body)?, seed).map_err(|e| format!("line {}: {e}", n + 3))?);
    }
    Ok((header, games))
}

/// A numeric field.
pub fn number<T: std::str::FromStr>(fields: &MatchFields, key: &str) -> Result<T, String> {
    let value = fields.get(key).ok_or_else(|| format!("no {key}"))?;
    value
        .parse()
        .map_err(|_| format!("{key}: not a number: {value}"))
}

fn played(fields: &MatchFields, seed: u64) -> Result<Played, String> {
    let index: usize = number(fields, "index")?;
    let white: usize = number(fields, "white")?;
    let opening: usize = number(fields, "opening")?;
    let text = |key: &str| fields.get(key).cloned().ok_or_else(|| format!("no {key}"));
    let winner = match text("winner")?.as_str() {
        "white" => Some(Side::White),
        "black" => Some(Side::Black),
        "draw" => None,
        other => return Err(format!("winner: {other}")),
    };
    let left = |key: &str| -> Result<Option<i64>, String> {
        match text(key)?.as_str() {
            "-" => Ok(None),
            value => value
                .parse()
                .map(Some)
                .map_err(|_| format!("{key}: {value}")),
        }
    };
    let moves: Vec<String> = text("moves")?
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    if white > 1 || opening > moves.len() {
        return Err("white or opening out of range".into());
    }
    Ok(Played {
        pairing: Pairing {
            number: index + 1,
            white,
            opening: moves[..opening].to_vec(),
            dice_seed: pair_seed(seed, index / 2, Stream::Dice),
            engine_seed: pair_seed(seed, index, Stream::Engine),
        },
        result: GameResult {
            winner,
            points: number(fields, "points")?,
            reason: text("reason")?,
            detail: text("detail")?,
        },
        moves,
        least_left_ms: [left("left1")?, left("left2")?],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_line_reads_back() {
        let game = Played {
            pairing: Pairing {
                number: 8,
                white: 1,
                opening: vec!["d2d3".into()],
                dice_seed: pair_seed(5, 3, Stream::Dice),
                engine_seed: pair_seed(5, 7, Stream::Engine),
            },
            moves: vec!["d2d3".into(), "e7e6".into()],
            result: GameResult {
                winner: Some(Side::Black),
                points: 2,
                reason: "illegal-move".into(),
                detail: "a\tb\\n\nc".into(),
            },
            least_left_ms: [Some(-12), None],
        };
        let text = format!("{MAGIC}\nmatch\tseed=5\tshard=0/1\n{}", game_line(&game));
        let (header, games) = parse(&text).expect("parses");
        assert_eq!(header.get("shard").map(String::as_str), Some("0/1"));
        let back = &games[0];
        assert_eq!(back.pairing, game.pairing);
        assert_eq!((&back.moves, &back.result), (&game.moves, &game.result));
        assert_eq!(back.least_left_ms, game.least_left_ms);
        // A cut last line is not a game.
        let cut = &text[..text.len() - 5];
        assert_eq!(parse(cut).map(|(_, g)| g.len()), Ok(0));
        assert!(parse("match\tseed=1\n").is_err());
    }
}
