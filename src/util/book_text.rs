//! The text of the games' opening books (`book.txt`): one position and its move per line,
//! `#` starting a comment.

/// The whitespace-separated fields of each line that holds data (comments cut off, empty
/// lines skipped).
pub fn book_lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines().filter_map(|line| {
        let fields: Vec<&str> = line.split('#').next()?.split_whitespace().collect();
        (!fields.is_empty()).then_some(fields)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_empty_lines_hold_no_data() {
        let text = "# title\n\na b c # note\n   \n  # indented comment\nd e\n";
        let lines: Vec<Vec<&str>> = book_lines(text).collect();
        assert_eq!(lines, vec![vec!["a", "b", "c"], vec!["d", "e"]]);
    }
}
