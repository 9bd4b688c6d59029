//! The board derived from the point names alone (not from the engine's tables): a mill is three
//! points on one rank or one file of the same square, the centre splitting rank 4 and file d;
//! two points are adjacent when they are neighbours along a mill.

/// Point names in byte order: the index order of the engine's bit sets.
const NAMES: [&str; 24] = [
    "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3", "d5", "d6", "d7", "e3",
    "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7",
];

/// Mills (as bit sets) and neighbours of each point.
pub struct Geometry {
    /// The 16 lines of three.
    pub mills: Vec<u32>,
    /// For each point, the points one step away.
    pub adjacent: [u32; 24],
}

impl Geometry {
    /// Builds the lines from coordinates: file a..g = 0..6, rank 1..7 = 0..6.
    pub fn new() -> Geometry {
        let coord = |i: usize| {
            let b = NAMES[i].as_bytes();
            ((b[0] - b'a') as i32, (b[1] - b'1') as i32)
        };
        let mut mills = Vec::new();
        let mut adjacent = [0u32; 24];
        for axis in 0..2 {
            for line in 0..7 {
                // Points on this rank (axis 0) or file (axis 1), ordered along it.
                let mut on: Vec<(i32, usize)> = (0..24)
                    .filter_map(|i| {
                        let (f, r) = coord(i);
                        let (fixed, along) = if axis == 0 { (r, f) } else { (f, r) };
                        (fixed == line).then_some((along, i))
                    })
                    .collect();
                on.sort();
                // The middle line (index 3) holds two mills, split at the centre.
                for chunk in on.chunks(3) {
                    let mill = chunk.iter().fold(0, |set, &(_, i)| set | 1 << i);
                    mills.push(mill);
                    for pair in chunk.windows(2) {
                        adjacent[pair[0].1] |= 1 << pair[1].1;
                        adjacent[pair[1].1] |= 1 << pair[0].1;
                    }
                }
            }
        }
        Geometry { mills, adjacent }
    }
}
