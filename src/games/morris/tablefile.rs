//! Table files: a 32-byte header, then the table's bytes as they are in memory (one per slot,
//! see [`super::tablebase`]).
//!
//! The header holds a magic word and format version, the rule set and piece counts, the
//! number of slots and a checksum of the bytes, so a cut, corrupt, foreign or older file is
//! refused with its name and never read as values. Files are written to a temporary name,
//! synced and renamed, so a file under the final name is always complete (a build stopped
//! half-way, or a full disk, leaves at most a `.tmp` file behind).

use super::tablebase::{slot, PairState, Table, Tablebase, Values};
use std::io::{Read, Seek, SeekFrom, Write};
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
    let mut sum = Checksum::new(bytes.len() as u64);
    sum.update(bytes);
    sum.finish()
}

/// [`checksum`] of `len` bytes given piece by piece (a checkpoint's counters are encoded a
/// buffer at a time): the same value as for the pieces joined.
struct Checksum {
    hash: u64,
    /// The bytes of a word that a piece ended in the middle of.
    carry: [u8; 8],
    carried: usize,
}

impl Checksum {
    fn new(len: u64) -> Checksum {
        Checksum {
            hash: 0x9e37_79b9_7f4a_7c15u64 ^ len,
            carry: [0; 8],
            carried: 0,
        }
    }

    fn step(hash: u64, word: u64) -> u64 {
        (hash ^ word).wrapping_mul(0x0100_0000_01b3).rotate_left(29)
    }

    fn update(&mut self, mut bytes: &[u8]) {
        if self.carried > 0 {
            let take = (8 - self.carried).min(bytes.len());
            self.carry[self.carried..self.carried + take].copy_from_slice(&bytes[..take]);
            self.carried += take;
            bytes = &bytes[take..];
            if self.carried < 8 {
                return;
            }
            self.hash = Checksum::step(self.hash, u64::from_le_bytes(self.carry));
            self.carried = 0;
        }
        let mut hash = self.hash;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            hash = Checksum::step(
                hash,
                u64::from_le_bytes(chunk.try_into().unwrap_or_default()),
            );
        }
        self.hash = hash;
        let rest = chunks.remainder();
        self.carry[..rest.len()].copy_from_slice(rest);
        self.carried = rest.len();
    }

    /// The checksum; the bytes of an unfinished last word are hashed one by one.
    fn finish(self) -> u64 {
        self.carry[..self.carried]
            .iter()
            .fold(self.hash, |hash, &byte| {
                Checksum::step(hash, u64::from(byte))
            })
    }
}

fn header(flying: bool, mover: u32, other: u32, values: &[u8]) -> [u8; HEADER as usize] {
    let holds = [u8::from(flying), mover as u8, other as u8, 0];
    header_of(MAGIC, VERSION, holds, values)
}

/// An error naming the file.
pub(super) fn error(path: &Path, what: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(format!("{}: {what}", path.display()))
}

/// `path` with `.tmp` added: where a file is written before it takes its final name.
fn temporary(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Writes a file under `path` through a temporary file: written by `write`, synced, then
/// renamed, so the final name only ever holds a complete file. The temporary file is removed
/// on error, which names `path` and says what could not be written (`what`).
pub(super) fn write_atomically(
    path: &Path,
    what: &str,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let tmp = temporary(path);
    let written = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        write(&mut file)?;
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
        error(path, format!("cannot write the {what}: {e}"))
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
        write_atomically(&path, "table", |file| {
            file.write_all(&head)?;
            file.write_all(&table.values)
        })
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
        let values = map_checked(
            path,
            MAGIC,
            "not a table file of this format (an older morris-tb's file? rebuild it)",
            Tablebase::file_len(mover, other),
            |head| {
                let version = u32::from_le_bytes(head[8..12].try_into().unwrap_or_default());
                if version != VERSION || head[15] != 0 {
                    return Err(format!("format version {version}, not {VERSION}"));
                }
                if (head[12] != u8::from(flying))
                    || (u32::from(head[13]), u32::from(head[14])) != (mover, other)
                {
                    return Err(format!(
                        "holds the {}v{} table for flying={}, not {mover}v{other} for flying={flying}",
                        head[13],
                        head[14],
                        head[12] != 0
                    ));
                }
                Ok(())
            },
        )?;
        Ok(Table {
            mover,
            other,
            values,
        })
    }
}

/// A header of `HEADER` bytes: `magic`, `version`, four bytes saying what the file holds
/// (rule set and contents), the length of `values` and their checksum.
pub(super) fn header_of(
    magic: &[u8; 8],
    version: u32,
    holds: [u8; 4],
    values: &[u8],
) -> [u8; HEADER as usize] {
    let mut h = [0u8; HEADER as usize];
    h[..8].copy_from_slice(magic);
    h[8..12].copy_from_slice(&version.to_le_bytes());
    h[12..16].copy_from_slice(&holds);
    h[16..24].copy_from_slice(&(values.len() as u64).to_le_bytes());
    h[24..32].copy_from_slice(&checksum(values).to_le_bytes());
    h
}

/// Maps the bytes after the header of a file written with [`header_of`], read-only, once
/// verified: the length (`expected`, header included), the `magic` (else `foreign`), what
/// `check` finds wrong with the version and contents fields, and the checksum. Every failure
/// is an error naming the file and what is wrong.
pub(super) fn map_checked(
    path: &Path,
    magic: &[u8; 8],
    foreign: &str,
    expected: u64,
    check: impl FnOnce(&[u8; HEADER as usize]) -> Result<(), String>,
) -> std::io::Result<Values> {
    let mut file = std::fs::File::open(path).map_err(|e| error(path, e))?;
    let len = file.metadata().map_err(|e| error(path, e))?.len();
    let mut head = [0u8; HEADER as usize];
    if len < HEADER {
        return Err(error(
            path,
            format!("cut short: {len} bytes, {expected} expected"),
        ));
    }
    file.read_exact(&mut head).map_err(|e| error(path, e))?;
    if &head[..8] != magic {
        return Err(error(path, foreign));
    }
    check(&head).map_err(|what| error(path, what))?;
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
    // SAFETY: table files are never changed in place: morris-tb writes a new file under
    // a temporary name and renames it, so the mapped file keeps its bytes while mapped.
    // (A file cut by hand under a running engine would end it, as with any mapped
    // tablebase.)
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| error(path, e))?;
    if map.len() as u64 != expected {
        return Err(error(path, "changed while being read"));
    }
    let values = Values::Mapped(map, HEADER as usize);
    let stored = u64::from_le_bytes(head[24..32].try_into().unwrap_or_default());
    if checksum(&values) != stored {
        return Err(error(path, "checksum mismatch: the file is corrupt"));
    }
    Ok(values)
}

// Checkpoints of a pair's build: `morris-fly-MvO.partial`, a 64-byte header (magic, format
// version, rule set, m, o, the number of tables, the level to resume at, the longest result
// so far, the pending results, each table's slot count, and a checksum of the header's first
// 48 bytes and the payload), then per table its values (a byte a slot) and its counters (two
// bytes a slot, little-endian).

/// The first bytes of every checkpoint file.
const PARTIAL_MAGIC: &[u8; 8] = b"MORRISPT";
/// The layout of a checkpoint file.
const PARTIAL_VERSION: u32 = 1;
/// A checkpoint header's length.
const PARTIAL_HEADER: u64 = 64;
/// The header bytes its checksum covers (all before the checksum).
const CHECKED: usize = 48;
/// Counters encoded at a time (1 MiB).
const COUNTERS_AT_ONCE: usize = 1 << 19;

impl Tablebase {
    /// The checkpoint file of the pair `m`v`o` in `dir`: `morris-fly-7v8.partial`.
    pub fn partial_name(dir: &Path, flying: bool, m: u32, o: u32) -> PathBuf {
        let kind = if flying { "fly" } else { "nofly" };
        dir.join(format!("morris-{kind}-{m}v{o}.partial"))
    }

    /// Removes the checkpoint of the pair `m`v`o` in `dir` and its temporary file, if any:
    /// once the pair's tables are written it is of no more use.
    pub fn remove_partial(dir: &Path, flying: bool, m: u32, o: u32) -> std::io::Result<()> {
        let path = Tablebase::partial_name(dir, flying, m, o);
        for file in [temporary(&path), path] {
            match std::fs::remove_file(&file) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(error(&file, format!("cannot remove the checkpoint: {e}")));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

impl PairState {
    /// The slot counts of the tables (m, o) and (o, m) (0 for the second when m = o).
    fn slots(m: u32, o: u32) -> [u64; 2] {
        [
            Table::slots(m, o),
            if m == o { 0 } else { Table::slots(o, m) },
        ]
    }

    /// Writes the state of the pair `m`v`o`'s build to `path` (through a temporary file, as
    /// the tables are written); returns the bytes written. An error names the file.
    pub(super) fn write(&self, path: &Path, flying: bool, m: u32, o: u32) -> std::io::Result<u64> {
        let slots = PairState::slots(m, o);
        let mut head = [0u8; PARTIAL_HEADER as usize];
        head[..8].copy_from_slice(PARTIAL_MAGIC);
        head[8..12].copy_from_slice(&PARTIAL_VERSION.to_le_bytes());
        head[12] = u8::from(flying);
        head[13] = m as u8;
        head[14] = o as u8;
        head[15] = self.values.len() as u8;
        head[16..20].copy_from_slice(&self.level.to_le_bytes());
        head[20..24].copy_from_slice(&self.longest.to_le_bytes());
        head[24..32].copy_from_slice(&self.pending.to_le_bytes());
        head[32..40].copy_from_slice(&slots[0].to_le_bytes());
        head[40..48].copy_from_slice(&slots[1].to_le_bytes());
        let payload = 3 * (slots[0] + slots[1]);
        write_atomically(path, "checkpoint", |file| {
            let mut sum = Checksum::new(CHECKED as u64 + payload);
            sum.update(&head[..CHECKED]);
            // The checksum is known once the payload has been written: the header comes last.
            file.write_all(&head)?;
            let mut buffer = Vec::with_capacity(2 * COUNTERS_AT_ONCE);
            for (values, counters) in self.values.iter().zip(&self.counters) {
                sum.update(values);
                file.write_all(values)?;
                for chunk in counters.chunks(COUNTERS_AT_ONCE) {
                    buffer.clear();
                    buffer.extend(chunk.iter().flat_map(|c| c.to_le_bytes()));
                    sum.update(&buffer);
                    file.write_all(&buffer)?;
                }
            }
            head[CHECKED..CHECKED + 8].copy_from_slice(&sum.finish().to_le_bytes());
            file.seek(SeekFrom::Start(0))?;
            file.write_all(&head)
        })?;
        Ok(PARTIAL_HEADER + payload)
    }

    /// Reads the checkpoint of the pair `m`v`o`'s build for `flying` games from `path` into
    /// `self`, whose arrays have the tables' sizes, verifying the header, the length and the
    /// checksum. Every failure is an error naming the file; `self` is then left half-read.
    pub(super) fn read(
        &mut self,
        path: &Path,
        flying: bool,
        m: u32,
        o: u32,
    ) -> std::io::Result<()> {
        let mut file = std::fs::File::open(path).map_err(|e| error(path, e))?;
        let len = file.metadata().map_err(|e| error(path, e))?.len();
        let slots = PairState::slots(m, o);
        let expected = PARTIAL_HEADER + 3 * (slots[0] + slots[1]);
        let size = |what: &str| error(path, format!("{what}: {len} bytes, {expected} expected"));
        if len < PARTIAL_HEADER {
            return Err(size("cut short"));
        }
        let mut head = [0u8; PARTIAL_HEADER as usize];
        file.read_exact(&mut head).map_err(|e| error(path, e))?;
        let word = |at: usize| u32::from_le_bytes(head[at..at + 4].try_into().unwrap_or_default());
        let long = |at: usize| u64::from_le_bytes(head[at..at + 8].try_into().unwrap_or_default());
        if &head[..8] != PARTIAL_MAGIC {
            return Err(error(path, "not a checkpoint file of this format"));
        }
        if word(8) != PARTIAL_VERSION {
            return Err(error(
                path,
                format!(
                    "checkpoint format version {}, not {PARTIAL_VERSION}",
                    word(8)
                ),
            ));
        }
        if (head[12], u32::from(head[13]), u32::from(head[14])) != (u8::from(flying), m, o) {
            return Err(error(
                path,
                format!(
                    "holds the checkpoint of {}v{} for flying={}, not {m}v{o} for flying={flying}",
                    head[13],
                    head[14],
                    head[12] != 0
                ),
            ));
        }
        if usize::from(head[15]) != self.values.len() || [long(32), long(40)] != slots {
            return Err(error(
                path,
                format!(
                    "holds {} tables of {} and {} slots, not {} of {} and {}",
                    head[15],
                    long(32),
                    long(40),
                    self.values.len(),
                    slots[0],
                    slots[1]
                ),
            ));
        }
        if len != expected {
            return Err(size(if len < expected {
                "cut short"
            } else {
                "too long"
            }));
        }
        let mut sum = Checksum::new(CHECKED as u64 + expected - PARTIAL_HEADER);
        sum.update(&head[..CHECKED]);
        let mut buffer = vec![0u8; 2 * COUNTERS_AT_ONCE];
        for (values, counters) in self.values.iter_mut().zip(&mut self.counters) {
            file.read_exact(values).map_err(|e| error(path, e))?;
            sum.update(values);
            for chunk in counters.chunks_mut(COUNTERS_AT_ONCE) {
                let bytes = &mut buffer[..2 * chunk.len()];
                file.read_exact(bytes).map_err(|e| error(path, e))?;
                sum.update(bytes);
                for (counter, pair) in chunk.iter_mut().zip(bytes.chunks_exact(2)) {
                    *counter = u16::from_le_bytes([pair[0], pair[1]]);
                }
            }
        }
        if sum.finish() != long(CHECKED) {
            return Err(error(path, "checksum mismatch: the checkpoint is corrupt"));
        }
        self.level = word(16);
        self.longest = word(20);
        self.pending = long(24);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{checksum, Checksum};

    /// A checksum given piece by piece, split anywhere, equals the checksum of the whole (the
    /// tables' files and the checkpoints share it).
    #[test]
    fn checksums_by_pieces_equal_the_whole() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 37 % 251) as u8).collect();
        for cuts in [
            &[0, 1000][..],
            &[3, 5, 13, 800],
            &[7, 8, 9, 16, 999],
            &[1, 2, 3, 4, 5],
        ] {
            let mut sum = Checksum::new(bytes.len() as u64);
            let mut from = 0;
            for &cut in cuts.iter().chain([&1000]) {
                sum.update(&bytes[from..cut]);
                from = cut;
            }
            assert_eq!(sum.finish(), checksum(&bytes), "{cuts:?}");
        }
    }
}
