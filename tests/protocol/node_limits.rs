//! `go nodes N`: the node count is looked at every few hundred nodes, so an iteration may end
//! past the limit, but no iteration starts once the limit is reached.

use std::sync::atomic::AtomicBool;
use tabula::game::Game;
use tabula::games::nim::{Nim, Options};
use tabula::search::{search, Limits, Table};

/// The depths `search` reports with a limit of `nodes` nodes, and the nodes it counted.
fn depths(nodes: u64) -> (Vec<u32>, u64) {
    let start = Nim::start(&Options::default());
    let limits = Limits {
        nodes: Some(nodes),
        threads: 1,
        ..Limits::default()
    };
    let mut depths = Vec::new();
    let result = search(
        &start,
        &limits,
        &Table::new(1),
        &AtomicBool::new(false),
        &mut |info| depths.push(info.depth),
    );
    (depths, result.nodes)
}

#[test]
fn no_iteration_starts_past_the_node_limit() {
    // Nim's start searches to depth 1 in a few dozen nodes, fewer than one check interval:
    // before, `nodes 1` went on to finish depth 2 as well.
    let (one, nodes) = depths(1);
    assert_eq!(one, vec![1], "nodes 1 reports depth 1 alone");
    // A limit of exactly the nodes depth 1 took stops there too; one more lets depth 2 start.
    assert_eq!(depths(nodes).0, vec![1]);
    assert_eq!(depths(nodes + 1).0[..2], [1, 2]);
}
