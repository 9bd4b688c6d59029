//! `GET /games.json`: the registry's games and their declared options, from which the page
//! builds its game and option menus (a game it has no drawing for is played through a
//! generic view), so a new game needs nothing in `web/`.

use tabula::game::{GameOption, OptionKind};
use tabula::registry::GAMES;

/// The JSON document: `[{"name": .., "options": [{"key", "values" (the menu, default
/// first), "default", "doc", "usage", "needs": {key: value}}]}]`, games in registry order.
pub fn json() -> String {
    let games: Vec<String> = GAMES
        .iter()
        .map(|game| {
            let options: Vec<String> = game.options.iter().map(option).collect();
            format!(
                "{{\"name\":{},\"options\":[{}]}}",
                string(game.name),
                options.join(",")
            )
        })
        .collect();
    format!("[{}]\n", games.join(","))
}

fn option(o: &GameOption) -> String {
    let values: Vec<String> = o.menu().iter().map(|v| string(v)).collect();
    let needs: Vec<String> = o
        .needs
        .iter()
        .map(|(k, v)| format!("{}:{}", string(k), string(v)))
        .collect();
    let kind = match o.kind {
        OptionKind::Choice(_) => "choice",
        OptionKind::Number { .. } => "number",
        OptionKind::Text { .. } => "text",
    };
    format!(
        "{{\"key\":{},\"kind\":{},\"values\":[{}],\"default\":{},\"doc\":{},\"usage\":{},\"needs\":{{{}}}}}",
        string(o.key),
        string(kind),
        values.join(","),
        string(o.default),
        string(o.doc),
        string(&o.usage()),
        needs.join(",")
    )
}

/// A JSON string literal.
fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::string;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a \"b\" \\ \n"), "\"a \\\"b\\\" \\\\ \\u000a\"");
    }
}
