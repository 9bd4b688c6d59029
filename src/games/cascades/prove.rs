//! Proving whole start positions: the `cascades-solve` table (board, rule, value, nodes, time).

use std::time::Instant;

use super::board::{Adjacency, Geometry};
use super::solver::Solver;
use super::Cascades;
use crate::game::Game;

/// The result of proving one start position, for the table in docs/cascades.md.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// The board and rule.
    pub geometry: Geometry,
    /// +1 White (the first player) wins, 0 draw, -1 Black wins; `None` if time ran out.
    pub value: Option<i8>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// White's first move in a proof (`pass`, a cell), when proven.
    pub best: Option<String>,
}

impl SolveReport {
    /// The markdown header matching [`SolveReport::table_row`].
    pub const HEADER: &'static str = "| board | adjacency | cells | value | first move | nodes | seconds |\n|---|---|---|---|---|---|---|";

    /// One markdown table row.
    pub fn table_row(&self) -> String {
        let g = self.geometry;
        let value = match self.value {
            Some(1) => "white wins",
            Some(0) => "draw",
            Some(_) => "black wins",
            None => "unknown (time)",
        };
        format!(
            "| {}x{} | {} | {} | {} | {} | {} | {:.2} |",
            g.width,
            g.rows,
            g.adjacency.name(),
            g.cell_count(),
            value,
            self.best.as_deref().unwrap_or("-"),
            self.nodes,
            self.seconds
        )
    }
}

/// Proves the start position of `geometry`, giving up at `deadline`.
pub fn prove_start(geometry: Geometry, deadline: Instant) -> SolveReport {
    let start = Cascades::start(&geometry);
    let clock = Instant::now();
    let mut solver = Solver::new(u64::MAX, Some(deadline));
    let proof = solver.solve(&start);
    SolveReport {
        geometry,
        value: proof.as_ref().map(|p| p.value),
        nodes: proof.as_ref().map_or(solver.nodes(), |p| p.nodes),
        seconds: clock.elapsed().as_secs_f64(),
        best: proof.and_then(|p| p.best).map(|mv| start.format_move(mv)),
    }
}

/// Every board from 2x2 to 16x16 with both rules, fewest cells first.
pub fn all_boards() -> Vec<Geometry> {
    let mut boards: Vec<Geometry> = (2..=16)
        .flat_map(|width| (2..=16).map(move |rows| (width, rows)))
        .flat_map(|(width, rows)| {
            [Adjacency::SideBelow, Adjacency::Below].map(|adjacency| Geometry {
                width,
                rows,
                adjacency,
            })
        })
        .collect();
    boards.sort_by_key(|g| (g.cell_count(), g.rows, g.adjacency == Adjacency::Below));
    boards
}

/// Reads `WxR` (both rules) or `WxR:below` / `WxR:side-below`.
///
/// # Errors
/// A message naming the malformed part.
pub fn parse_board(spec: &str) -> Result<Vec<Geometry>, String> {
    let (size, rule) = spec.split_once(':').unwrap_or((spec, ""));
    let (w, r) = size
        .split_once('x')
        .ok_or_else(|| format!("board {spec}: expected WxR"))?;
    let (width, rows) = Cascades::parse_options(&[("width", w), ("rows", r)])
        .map(|g| (g.width, g.rows))
        .map_err(|e| e.to_string())?;
    let rules = match rule {
        "" => vec![Adjacency::SideBelow, Adjacency::Below],
        "below" => vec![Adjacency::Below],
        "side-below" => vec![Adjacency::SideBelow],
        _ => return Err(format!("board {spec}: rule must be below or side-below")),
    };
    Ok(rules
        .into_iter()
        .map(|adjacency| Geometry {
            width,
            rows,
            adjacency,
        })
        .collect())
}
