//! Move tokens, position strings and the `d` drawing (formats in `mod.rs` and notation.md).

use super::board::{self, Adjacency, Cell, Geometry, Rows, MAX_SIDE};
use super::{Cascades, Move};
use crate::game::{resolve_move, Game, GameError, Side};

/// The name of a cell: row letter, then the 1-based column (`c10`).
pub fn cell_name(cell: Cell) -> String {
    format!("{}{}", (b'a' + cell.row) as char, cell.col + 1)
}

/// The canonical token of a move (two-stone moves are stored in canonical order).
pub fn format_move(mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_owned(),
        Move::One(cell) => cell_name(cell),
        Move::Two(first, second) => format!("{},{}", cell_name(first), cell_name(second)),
    }
}

/// Reads `c10` as 0-based (row, column) without checking the board: a lower-case row letter
/// and a column number from 1 to 99 without leading zero.
fn parse_cell_syntax(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let (&letter, digits) = bytes.split_first()?;
    if !letter.is_ascii_lowercase() || digits.is_empty() || digits.len() > 2 {
        return None;
    }
    if digits[0] == b'0' || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let column: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
    Some(((letter - b'a') as usize, column - 1))
}

/// What a token names, read for its syntax only: `pass`, or the 0-based (row, column) of
/// each stone, as many as are written.
enum Written {
    /// `pass`.
    Pass,
    /// The cells in the order written.
    Stones(Vec<(usize, usize)>),
}

/// Resolves any legal spelling of a move, or names the rule it breaks.
pub fn parse_move(position: &Cascades, token: &str) -> Result<Move, GameError> {
    // The game being over comes before any syntax, as it always has.
    if position.outcome().is_some() {
        return Err(GameError::GameOver);
    }
    resolve_move(position, token, read_move(token), find_written, |written| {
        why_illegal(position, token, written).err()
    })
}

/// Splits a token into its cells (syntax only: the board and the rules are not consulted).
fn read_move(token: &str) -> Result<Written, GameError> {
    if token == "pass" {
        return Ok(Written::Pass);
    }
    token
        .split(',')
        .map(parse_cell_syntax)
        .collect::<Option<_>>()
        .map(Written::Stones)
        .ok_or_else(|| {
            GameError::bad_move(
                token,
                "expected pass, a cell like c3, or two cells like c3,c4",
            )
        })
}

/// The legal move the written cells name. Two stones that are each legal alone (both
/// single-stone moves are listed) name one move in either order; otherwise the second stone
/// relies on the first, and only that order names it.
fn find_written(written: &Written, legal: &[Move]) -> Option<usize> {
    let listed = |mv: Move| legal.iter().position(|&m| m == mv);
    match *written {
        Written::Pass => listed(Move::Pass),
        Written::Stones(ref cells) => {
            let cell = |(row, col): (usize, usize)| Cell::new(row, col);
            match cells[..] {
                [one] => listed(Move::One(cell(one))),
                [a, b] => {
                    let (a, b) = (cell(a), cell(b));
                    listed(Move::Two(a, b)).or_else(|| {
                        listed(Move::One(a))
                            .and(listed(Move::One(b)))
                            .and(listed(Move::Two(b, a)))
                    })
                }
                _ => None,
            }
        }
    }
}

/// Why the written stones are not a legal move here, by the first rule they break (`Ok`: no
/// rule found).
fn why_illegal(position: &Cascades, token: &str, written: &Written) -> Result<(), GameError> {
    let Written::Stones(coordinates) = written else {
        return Ok(());
    };
    if coordinates.len() > 2 {
        return Err(GameError::illegal(
            token,
            "a move places at most two stones",
        ));
    }
    let g = position.geometry();
    let mut cells = Vec::with_capacity(2);
    for &(row, col) in coordinates {
        cells.push(on_board(g, token, row, col)?);
    }
    if cells.len() == 2 && cells[0] == cells[1] {
        let name = cell_name(cells[0]);
        return Err(GameError::illegal(token, format!("{name} is placed twice")));
    }
    if cells.len() == 2 && position.is_first_move() {
        return Err(GameError::illegal(
            token,
            "white's first move places at most one stone",
        ));
    }
    let side = position.side_to_move();
    let mut own = *position.stones(side);
    let mut occupied = position.occupied();
    for &cell in &cells {
        check_stone(g, side, &own, &occupied, cell)
            .map_err(|why| GameError::illegal(token, why))?;
        cell.set(&mut own);
        cell.set(&mut occupied);
    }
    Ok(())
}

/// The cell at 0-based `row`, `col`, if it is on the board.
fn on_board(g: Geometry, token: &str, row: usize, col: usize) -> Result<Cell, GameError> {
    let name = format!("{}{}", (b'a' + row as u8) as char, col + 1);
    if row >= g.row_count() {
        return Err(GameError::illegal(
            token,
            format!(
                "{name} is off the board (rows a to {})",
                (b'a' + g.rows - 1) as char
            ),
        ));
    }
    if col >= g.row_len(row) {
        return Err(GameError::illegal(
            token,
            format!(
                "{name} is off the board (row {} has {} cells)",
                &name[..1],
                g.row_len(row)
            ),
        ));
    }
    Ok(Cell::new(row, col))
}

/// Why `side` may not put a stone on `cell` now, if it may not.
fn check_stone(
    g: Geometry,
    side: Side,
    own: &Rows,
    occupied: &Rows,
    cell: Cell,
) -> Result<(), String> {
    let name = cell_name(cell);
    if cell.is_in(occupied) {
        return Err(format!("{name} is occupied"));
    }
    if !cell.is_in(&g.targets(own, occupied)) {
        let rule = match g.adjacency {
            Adjacency::SideBelow => "beside or below",
            Adjacency::Below => "below",
        };
        return Err(format!("{name} is not {rule} a {} stone", side.name()));
    }
    Ok(())
}

// Position strings

/// The position string: rows `/`-separated, side, passes in a row, `first` or `-`.
pub fn format_fen(position: &Cascades) -> String {
    let g = position.geometry();
    let rows: Vec<String> = (0..g.row_count()).map(|r| row_text(position, r)).collect();
    format!(
        "{} {} {} {}",
        rows.join("/"),
        if position.side == Side::White {
            "w"
        } else {
            "b"
        },
        position.passes,
        if position.first_move { "first" } else { "-" }
    )
}

fn row_text(position: &Cascades, r: usize) -> String {
    (0..position.geometry().row_len(r))
        .map(|c| {
            let cell = Cell::new(r, c);
            if cell.is_in(position.stones(Side::White)) {
                'w'
            } else if cell.is_in(position.stones(Side::Black)) {
                'b'
            } else {
                '.'
            }
        })
        .collect()
}

/// Parses and validates a position string for the board `g`.
pub fn parse_fen(fen: &str, g: Geometry) -> Result<Cascades, GameError> {
    let bad = |why: String| GameError::BadPosition(why);
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let [rows_text, side_text, passes_text, first_text] = fields[..] else {
        return Err(bad(format!(
            "expected 4 fields (rows, side, passes, first), got {}",
            fields.len()
        )));
    };
    let rows: Vec<&str> = rows_text.split('/').collect();
    if rows.len() != g.row_count() {
        return Err(bad(format!(
            "{} rows, this board has {}",
            rows.len(),
            g.rows
        )));
    }
    let mut stones = [[0u32; MAX_SIDE]; 2];
    for (r, text) in rows.iter().enumerate() {
        let letter = (b'a' + r as u8) as char;
        if text.chars().count() != g.row_len(r) {
            return Err(bad(format!(
                "row {letter} has {} cells, expected {}",
                text.chars().count(),
                g.row_len(r)
            )));
        }
        for (c, ch) in text.chars().enumerate() {
            match ch {
                'w' => stones[0][r] |= 1 << c,
                'b' => stones[1][r] |= 1 << c,
                '.' => {}
                _ => return Err(bad(format!("row {letter}: '{ch}' is not w, b or ."))),
            }
        }
    }
    if [stones[0][0], stones[1][0]] != g.top_row() {
        return Err(bad(
            "the top row must be full and alternating, starting with black".to_owned(),
        ));
    }
    for side in [Side::White, Side::Black] {
        if let Some(cell) = unsupported_stone(g, &stones[side.index()]) {
            return Err(bad(format!(
                "the {} stone on {} is not connected to its top-row stones",
                side.name(),
                cell_name(cell)
            )));
        }
    }
    let side = match side_text {
        "w" => Side::White,
        "b" => Side::Black,
        _ => return Err(bad(format!("side to move '{side_text}' (expected w or b)"))),
    };
    let passes = match passes_text {
        "0" => 0,
        "1" => 1,
        "2" => 2,
        _ => return Err(bad(format!("passes '{passes_text}' (expected 0, 1 or 2)"))),
    };
    let first_move = match first_text {
        "first" => true,
        "-" => false,
        _ => return Err(bad(format!("'{first_text}' (expected first or -)"))),
    };
    let empty_below_top = (1..MAX_SIDE).all(|r| stones[0][r] | stones[1][r] == 0);
    if first_move && !(side == Side::White && passes == 0 && empty_below_top) {
        return Err(bad(
            "first is only possible at the start, White to move, no passes".to_owned(),
        ));
    }
    let mut position = Cascades {
        geometry: g,
        stones,
        side,
        passes,
        first_move,
        hash: 0,
    };
    position.hash = position.compute_hash();
    // Only the mover's own stones can give its colour the bottom-row majority, and that ends
    // the game at once: the side to move never has it, nor does anyone after a pass.
    if let Some(holder) = [Side::White, Side::Black]
        .into_iter()
        .find(|&s| position.has_majority(s))
    {
        if holder == side || passes > 0 {
            let after = if passes > 0 { " after a pass" } else { "" };
            return Err(bad(format!(
                "{} holds the bottom-row majority with {} to move{after} (the game ended with the stone that gave it)",
                holder.name(),
                side.name()
            )));
        }
    }
    Ok(position)
}

/// A stone that no chain of its own colour joins to the top row, as placing stones one by
/// one always does. Every reachable position passes this test.
fn unsupported_stone(g: Geometry, own: &Rows) -> Option<Cell> {
    let mut supported = [0u32; MAX_SIDE];
    supported[0] = own[0];
    loop {
        let grown = board::union(&supported, &g.targets(&supported, &[0; MAX_SIDE]));
        let next: Rows = std::array::from_fn(|r| grown[r] & own[r]);
        if next == supported {
            break;
        }
        supported = next;
    }
    let loose: Rows = std::array::from_fn(|r| own[r] & !supported[r]);
    let mut first = None;
    board::for_each_cell(&loose, |cell| {
        first.get_or_insert(cell);
    });
    first
}

// Drawing

/// The trapezoid as a person draws it: each row shifted half a cell left of the one above,
/// so that a cell sits between the two cells it touches above.
pub fn board_lines(position: &Cascades) -> Vec<String> {
    let g = position.geometry();
    let mut lines = Vec::new();
    for r in 0..g.row_count() {
        let indent = " ".repeat(g.row_count() - 1 - r);
        let cells: Vec<String> = row_text(position, r).chars().map(String::from).collect();
        lines.push(format!(
            "{} {indent}{}",
            (b'a' + r as u8) as char,
            cells.join(" ")
        ));
    }
    let mut status = format!(
        "{} to move; bottom row: white {}, black {}, {} cells",
        position.side.name(),
        position.bottom_count(Side::White),
        position.bottom_count(Side::Black),
        g.bottom_len()
    );
    if position.first_move {
        status.push_str("; first move: one stone");
    }
    if position.passes > 0 {
        status.push_str(&format!("; passes in a row: {}", position.passes));
    }
    lines.push(status);
    lines
}
