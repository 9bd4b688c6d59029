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

#[cfg(test)]
mod tests {
    use super::*;

    /// The board has 16 mills, every point on exactly two, and 32 edges (4 points with four
    /// neighbours, 4 corners of each square with two, the other 12 with three).
    #[test]
    fn lines_and_neighbours() {
        let g = Geometry::new();
        assert_eq!(g.mills.len(), 16);
        assert!(g.mills.iter().all(|m| m.count_ones() == 3));
        for p in 0..24 {
            assert_eq!(g.mills.iter().filter(|&&m| m & (1 << p) != 0).count(), 2);
        }
        let degrees: Vec<u32> = g.adjacent.iter().map(|a| a.count_ones()).collect();
        assert_eq!(degrees.iter().sum::<u32>(), 64);
        assert_eq!(degrees.iter().filter(|&&d| d == 4).count(), 4);
        assert_eq!(degrees.iter().filter(|&&d| d == 2).count(), 12);
        // d2 (index 10) touches d1, d3 and b2, f2; a1 (0) touches a4 and d1.
        let names = |set: u32| -> Vec<&str> {
            (0..24)
                .filter(|i| set & (1 << i) != 0)
                .map(|i| NAMES[i])
                .collect()
        };
        assert_eq!(names(g.adjacent[10]), ["b2", "d1", "d3", "f2"]);
        assert_eq!(names(g.adjacent[0]), ["a4", "d1"]);
    }
}
