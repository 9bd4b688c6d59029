//! Table files: a 32-byte header, then the table's bytes as they are in memory (one per slot,
//! see [`super::tablebase`]).
//!
//! The header holds a magic word and format version, the rule set and piece counts, the
//! number of slots and a checksum of the bytes, so a cut, corrupt, foreign or older file is
//! refused with its name and never read as values. Files are written to a temporary name,
//! synced and renamed, so a file under the final name is always complete (a build stopped
//! half-way, or a full disk, leaves at most a `.tmp` file behind).

use super::tablebase::{slot, Table, Tablebase};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The first bytes of every table file.
const MAGIC: &[u8; 8] = b"MORRISTB";
/// The layout of the bytes after the header; version 1 was the headerless file of one byte
/// per canonical position that the engine expanded on loading.
const VERSION: u32 = 2;
/// The header's length in bytes.
pub const HEADER: u64 = 32;

/// A 64-bit checksum of table bytes (eight bytes at a time: the big files are hashed in
/// about a second per gigabyte).
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut hash = 0x9e37_79b9_7f4a_7c15u64 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        hash = (hash ^ word).wrapping_mul(0x0100_0000_01b3).rotate_left(29);
    }
    for &byte in chunks.remainder() {
        hash = (hash ^ u64::from(byte))
            .wrapping_mul(0x0100_0000_01b3)
            .rotate_left(29);
    }
    hash
}

fn header(flying: bool, mover: u32, other: u32, values: &[u8]) -> [u8; HEADER as usize] {
    let mut h = [0u8; HEADER as usize];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12] = u8::from(flying);
    h[13] = mover as u8;
    h[14] = other as u8;
    h[16..24].copy_from_slice(&(values.len() as u64).to_le_bytes());
    h[24..32].copy_from_slice(&checksum(values).to_le_bytes());
    h
}

/// An error naming the file.
fn error(path: &Path, what: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(format!("{}: {what}", path.display()))
}

/// Writes `values` under `path` through a temporary file: written, synced, then renamed, so
/// the final name only ever holds a complete file. The temporary file is removed on error.
fn write_atomically(path: &Path, head: &[u8], values: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tb.tmp");
    let written = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(head)?;
        file.write_all(values)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        // The rename itself reaches the disk with the directory.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::File::open(dir)?.sync_all()?;
        }
        Ok(())
    })();
    written.map_err(|e: std::io::Error| {
        let _ = std::fs::remove_file(&tmp);
        error(path, format!("cannot write the table: {e}"))
    })
}

impl Tablebase {
    /// The file of table `mover`v`other` in `dir`: `morris-fly-3v4.tb`, `morris-nofly-3v3.tb`.
    pub fn file_name(dir: &Path, flying: bool, mover: u32, other: u32) -> PathBuf {
        let kind = if flying { "fly" } else { "nofly" };
        dir.join(format!("morris-{kind}-{mover}v{other}.tb"))
    }

    /// The length of a complete file of table `mover`v`other`.
    pub fn file_len(mover: u32, other: u32) -> u64 {
        HEADER + Table::slots(mover, other)
    }

    /// Writes each table whose file does not exist yet. Returns the bytes written per table;
    /// an error names the file (a full disk, say).
    pub fn save(&self, dir: &Path) -> std::io::Result<Vec<(u32, u32, u64)>> {
        let mut sizes = Vec::new();
        for table in self.tables.iter().flatten() {
            let path = Tablebase::file_name(dir, self.flying, table.mover, table.other);
            if path.exists() {
                continue;
            }
            self.save_table(dir, table.mover, table.other)?;
            sizes.push((table.mover, table.other, HEADER + table.values.len() as u64));
        }
        Ok(sizes)
    }

    /// Writes (or replaces) the file of table `mover`v`other`, which must be present.
    pub fn save_table(&self, dir: &Path, mover: u32, other: u32) -> std::io::Result<()> {
        let path = Tablebase::file_name(dir, self.flying, mover, other);
        let table = self
            .table(mover, other)
            .ok_or_else(|| error(&path, "no such table in memory"))?;
        let head = header(self.flying, mover, other, &table.values);
        write_atomically(&path, &head, &table.values)
    }

    /// Loads the tables with at most `max` pieces a side found in `dir`; missing files are
    /// skipped, a file that does not verify is an error naming it. Returns how many tables
    /// were loaded.
    pub fn load(dir: &Path, flying: bool, max: u32) -> std::io::Result<(Tablebase, usize)> {
        let mut tb = Tablebase::new(flying);
        let mut loaded = 0;
        for m in 3..=max {
            for o in 3..=max {
                let path = Tablebase::file_name(dir, flying, m, o);
                if path.exists() {
                    tb.insert(Table::read(&path, flying, m, o)?);
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
        let mut tb = Tablebase::new(flying);
        for &(m, o) in tables {
            let path = Tablebase::file_name(dir, flying, m, o);
            tb.insert(Table::read(&path, flying, m, o)?);
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
    /// Reads and verifies the file of table `mover`v`other` for `flying` games: header,
    /// length and checksum. Every failure is an error naming the file and what is wrong.
    pub fn read(path: &Path, flying: bool, mover: u32, other: u32) -> std::io::Result<Table> {
        let mut file = std::fs::File::open(path).map_err(|e| error(path, e))?;
        let len = file.metadata().map_err(|e| error(path, e))?.len();
        let expected = Tablebase::file_len(mover, other);
        let mut head = [0u8; HEADER as usize];
        if len < HEADER {
            return Err(error(
                path,
                format!("cut short: {len} bytes, {expected} expected"),
            ));
        }
        file.read_exact(&mut head).map_err(|e| error(path, e))?;
        if &head[..8] != MAGIC {
            return Err(error(
                path,
                "not a table file of this format (an older morris-tb's file? rebuild it)",
            ));
        }
        let version = u32::from_le_bytes(head[8..12].try_into().unwrap_or_default());
        if version != VERSION || head[15] != 0 {
            return Err(error(
                path,
                format!("format version {version}, not {VERSION}"),
            ));
        }
        if (head[12] != u8::from(flying))
            || (u32::from(head[13]), u32::from(head[14])) != (mover, other)
        {
            return Err(error(
                path,
                format!(
                    "holds the {}v{} table for flying={}, not {mover}v{other} for flying={flying}",
                    head[13],
                    head[14],
                    head[12] != 0
                ),
            ));
        }
        if len != expected {
            let what = if len < expected {
                "cut short"
            } else {
                "too long"
            };
            return Err(error(
                path,
                format!("{what}: {len} bytes, {expected} expected"),
            ));
        }
        let mut table = Table::zeroed(mover, other)
            .ok_or_else(|| error(path, "not enough memory to load the table"))?;
        file.read_exact(&mut table.values)
            .map_err(|e| error(path, e))?;
        let stored = u64::from_le_bytes(head[24..32].try_into().unwrap_or_default());
        if checksum(&table.values) != stored {
            return Err(error(path, "checksum mismatch: the file is corrupt"));
        }
        Ok(table)
    }
}
