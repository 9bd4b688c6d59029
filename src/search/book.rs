//! The walk that builds an opening book from deep searches (`opening-book`): for
//! each side in turn, the positions of the first plies that its own book moves and every
//! reply of the opponent reach, each of its positions searched once per book key. A game's
//! key may merge positions (Morris: the board's symmetries), so a key comes with the frame
//! that maps the position onto the key's.

use super::{search, Info, Limits, Score, Table};
use crate::game::{Complete, Side};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// One searched book position.
#[derive(Clone, Debug)]
pub struct BookEntry<M> {
    /// The position's book key.
    pub key: String,
    /// The frame that maps the position onto its key's (0 when keys merge nothing).
    pub frame: usize,
    /// The search's best move, in the position's own frame.
    pub best: M,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Its score, from the mover's view.
    pub score: Score,
}

/// Receives each searched book position and its result; an error ends the walk.
pub type BookSink<'a, G> =
    dyn FnMut(&G, &BookEntry<<G as crate::game::Game>::Move>) -> anyhow::Result<()> + 'a;

/// Walks the book positions of `plies` plies from `start`, ply by ply for the book sides
/// `sides` at once (so that a walk cut short still covers every position up to some ply),
/// searching each new key with `limits` and `table` (kept from one search to the next) and
/// handing every position and its result to `found` before going on; an error from `found`
/// ends the walk.
pub fn walk_book<G: Complete>(
    start: &G,
    plies: u32,
    sides: &[Side],
    limits: &Limits,
    table: &Table,
    key: &dyn Fn(&G) -> (String, usize),
    found: &mut BookSink<G>,
) -> anyhow::Result<()> {
    let mut level: Vec<(G, Side)> = sides.iter().map(|&side| (start.clone(), side)).collect();
    let mut seen = [HashSet::new(), HashSet::new()];
    for _ in 0..plies {
        let mut next = Vec::new();
        for (pos, book_side) in level {
            if pos.outcome().is_some() {
                continue;
            }
            let (key, frame) = key(&pos);
            if !seen[book_side.index()].insert(key.clone()) {
                continue;
            }
            let mut moves = Vec::new();
            if pos.side_to_move() == book_side {
                let entry = search_entry(&pos, key, frame, limits, table)?;
                found(&pos, &entry)?;
                moves.push(entry.best);
            } else {
                pos.legal_moves(&mut moves);
            }
            for mv in moves {
                let mut child = pos.clone();
                child.play(mv);
                next.push((child, book_side));
            }
        }
        level = next;
    }
    Ok(())
}

/// Searches one book position.
fn search_entry<G: Complete>(
    pos: &G,
    key: String,
    frame: usize,
    limits: &Limits,
    table: &Table,
) -> anyhow::Result<BookEntry<G::Move>> {
    let stop = AtomicBool::new(false);
    let mut last: Option<Info> = None;
    let result = search(pos, limits, table, &stop, &mut |info| {
        last = Some(info.clone())
    });
    let best = result
        .best
        .ok_or_else(|| anyhow::anyhow!("no move found in book position {key}"))?;
    let (depth, score) = last.map_or((0, Score::Cp(0)), |info| (info.depth, info.score));
    Ok(BookEntry {
        key,
        frame,
        best,
        depth,
        score,
    })
}
