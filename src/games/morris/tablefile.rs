//! Table files: one byte per class of symmetric positions, the canonical positions in index
//! order (see [`super::symmetry`]); reading expands each class to its 16 images again.

use super::symmetry::{sets_of, Symmetry, BINOMIAL};
use super::tablebase::{slot, Table, Tablebase};
use std::io::Write;
use std::path::{Path, PathBuf};

impl Tablebase {
    /// The file of table `mover`v`other` in `dir`: `morris-fly-3v4.tb`, `morris-nofly-3v3.tb`.
    pub fn file_name(dir: &Path, flying: bool, mover: u32, other: u32) -> PathBuf {
        let kind = if flying { "fly" } else { "nofly" };
        dir.join(format!("morris-{kind}-{mover}v{other}.tb"))
    }

    /// Writes each table whose file does not exist yet, one byte per class of symmetric
    /// positions (canonical positions in index order). Returns the bytes written per table.
    pub fn save(&self, dir: &Path) -> std::io::Result<Vec<(u32, u32, u64)>> {
        let symmetry = Symmetry::new();
        let mut sizes = Vec::new();
        for table in self.tables.iter().flatten() {
            let path = Tablebase::file_name(dir, self.flying, table.mover, table.other);
            if path.exists() {
                continue;
            }
            let mut bytes = Vec::new();
            for mover in sets_of(table.mover) {
                for other in sets_of(table.other).filter(|&s| s & mover == 0) {
                    if symmetry.canonical(mover, other) == (mover, other) {
                        bytes.push(table.value(mover, other));
                    }
                }
            }
            std::fs::File::create(path)?.write_all(&bytes)?;
            sizes.push((table.mover, table.other, bytes.len() as u64));
        }
        Ok(sizes)
    }

    /// Loads the tables with at most `max` pieces a side found in `dir`; missing files are
    /// skipped, files of the wrong length are errors. Returns how many tables were loaded.
    pub fn load(dir: &Path, flying: bool, max: u32) -> std::io::Result<(Tablebase, usize)> {
        let symmetry = Symmetry::new();
        let mut tb = Tablebase::new(flying);
        let mut loaded = 0;
        for m in 3..=max {
            for o in 3..=max {
                let path = Tablebase::file_name(dir, flying, m, o);
                if path.exists() {
                    tb.insert(Table::read(&path, m, o, &symmetry)?);
                    loaded += 1;
                }
            }
        }
        Ok((tb, loaded))
    }

    /// Loads exactly these tables (mover, other) from `dir`; a missing file is an error.
    pub fn load_only(
        dir: &Path,
        flying: bool,
        tables: &[(u32, u32)],
    ) -> std::io::Result<Tablebase> {
        let symmetry = Symmetry::new();
        let mut tb = Tablebase::new(flying);
        for &(m, o) in tables {
            let path = Tablebase::file_name(dir, flying, m, o);
            let table = Table::read(&path, m, o, &symmetry)
                .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            tb.insert(table);
        }
        Ok(tb)
    }

    /// Adds (or replaces) a table.
    pub fn insert(&mut self, table: Table) {
        let s = slot(table.mover, table.other);
        self.tables[s] = Some(table);
    }

    /// Whether the tables are for `flying=true` games.
    pub fn flying(&self) -> bool {
        self.flying
    }
}

impl Table {
    /// Reads the file of table `mover`v`other` and expands each stored class to its 16
    /// images. A file of the wrong length is an error.
    pub fn read(
        path: &Path,
        mover: u32,
        other: u32,
        symmetry: &Symmetry,
    ) -> std::io::Result<Table> {
        let bytes = std::fs::read(path)?;
        // The big tables take gigabytes: running out of memory is an error, not an abort.
        let size = (BINOMIAL[24][mover as usize] * BINOMIAL[24][other as usize]) as usize;
        let mut values = Vec::new();
        values
            .try_reserve_exact(size)
            .map_err(|e| std::io::Error::other(format!("{}: {e}", path.display())))?;
        values.resize(size, 0);
        let mut table = Table {
            mover,
            other,
            values,
        };
        let mut next = bytes.iter();
        // Canonical positions in index order, as `save` wrote them; most mover sets have no
        // canonical position at all, and the others mostly have a trivial stabilizer.
        for m in sets_of(mover) {
            let Some(stabilizer) = symmetry.stabilizer_if_least(m) else {
                continue;
            };
            for o in sets_of(other).filter(|&s| s & m == 0) {
                if symmetry.is_least(&stabilizer, o) {
                    let Some(&v) = next.next() else {
                        return Err(std::io::Error::other(format!(
                            "{} is too short",
                            path.display()
                        )));
                    };
                    // Every image of a canonical position has its value.
                    for sym in 0..16 {
                        let i = table.index(symmetry.apply(sym, m), symmetry.apply(sym, o));
                        table.values[i] = v;
                    }
                }
            }
        }
        if next.next().is_some() {
            return Err(std::io::Error::other(format!(
                "{} is too long",
                path.display()
            )));
        }
        Ok(table)
    }
}
