//! Endgame tables attached to games (`setoption name TablebasePath value DIR`): which files of
//! a directory can be used, loading them on a background thread into a process-wide cache,
//! and reading a game position's exact value with the draw rules taken into account.
//!
//! A position copies its options on every clone, so the options hold a `&'static` handle
//! (free to copy) to a cache entry whose tables appear once their loading thread finishes.
//! Entries live as long as the process: setting the same directory (same files) again
//! reuses them, a different directory adds an entry.

use super::placement_table::{Layer, Loaded, PLIES};
use super::tablebase::{Table, Tablebase, TbResult};
use super::{Morris, Move};
use crate::game::{Game, Proven, Solution};
use crate::util::threads::{spawn_with, try_spawn_scoped};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{Instant, SystemTime};

/// Which usable table files a directory holds for one `flying` setting: (mover, other) counts,
/// with the length and modification time of each file (a rebuilt file is a new entry).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    dir: PathBuf,
    flying: bool,
    files: Vec<(u32, u32, u64, Option<SystemTime>)>,
    /// The placement layers' files: ply, length and modification time.
    layers: Vec<(u32, u64, Option<SystemTime>)>,
}

/// One cache entry: the tables of a [`Key`], filled in by the loading thread.
struct Entry {
    key: Key,
    tables: OnceLock<Loaded>,
}

static CACHE: Mutex<Vec<&'static Entry>> = Mutex::new(Vec::new());

/// A handle on attached tables, part of [`super::Options`]: copying it is free.
#[derive(Copy, Clone)]
pub struct Tables(&'static Entry);

impl Tables {
    /// The tables, once loaded.
    pub fn get(self) -> Option<&'static Loaded> {
        self.0.tables.get()
    }

    /// Waits until the loading thread has finished (for tests and tools).
    pub fn wait(self) -> &'static Loaded {
        self.0.tables.wait()
    }
}

/// Tables built in memory, attached as if loaded from a directory (tests of what the engine
/// does with tables too large to build in a test, such as a corner of the placement layers).
#[cfg(test)]
pub(super) fn attached(tables: Loaded) -> Tables {
    let entry: &'static Entry = Box::leak(Box::new(Entry {
        key: Key {
            dir: PathBuf::from("(built in memory)"),
            flying: tables.moving.flying(),
            files: Vec::new(),
            layers: Vec::new(),
        },
        tables: OnceLock::new(),
    }));
    let _ = entry.tables.set(tables);
    Tables(entry)
}

impl PartialEq for Tables {
    fn eq(&self, other: &Tables) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Tables {}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tables({})", self.0.key.dir.display())
    }
}

fn names(files: &[(u32, u32, u64, Option<SystemTime>)]) -> String {
    let names: Vec<String> = files.iter().map(|f| format!("{}v{}", f.0, f.1)).collect();
    names.join(" ")
}

/// Finds the usable table files in `dir`: the right length (header and one byte per slot), and
/// every smaller table their captures lead into present too. Returns them, smallest first,
/// with a note on each file left out.
fn scan(dir: &Path, flying: bool) -> (Key, Vec<String>) {
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    for total in 6..=18 {
        for m in 3..=9u32.min(total - 3) {
            let o = total - m;
            if o > 9 {
                continue;
            }
            let path = Tablebase::file_name(dir, flying, m, o);
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            let expected = Tablebase::file_len(m, o);
            if meta.len() != expected {
                skipped.push(format!("{name} has {} bytes, not {expected}", meta.len()));
            } else if o > 3
                && !files
                    .iter()
                    .any(|f: &(u32, u32, _, _)| (f.0, f.1) == (o - 1, m))
            {
                skipped.push(format!("{name} needs the {}v{m} table", o - 1));
            } else {
                files.push((m, o, meta.len(), meta.modified().ok()));
            }
        }
    }
    let mut layers = Vec::new();
    for ply in 0..PLIES {
        let path = Layer::file_name(dir, flying, ply);
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        let expected = Layer::file_len(ply);
        if meta.len() == expected {
            layers.push((ply, meta.len(), meta.modified().ok()));
        } else {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            skipped.push(format!("{name} has {} bytes, not {expected}", meta.len()));
        }
    }
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    (
        Key {
            dir,
            flying,
            files,
            layers,
        },
        skipped,
    )
}

/// The tables of a key by name: `3v3 3v4 ...`, and `placement plies 0-17` (or the plies
/// there are) when it has placement layers.
fn contents(key: &Key) -> String {
    let mut text = names(&key.files);
    if !key.layers.is_empty() {
        let plies: Vec<String> = key.layers.iter().map(|l| l.0.to_string()).collect();
        let plies = if plies.len() == PLIES as usize {
            format!("0-{}", PLIES - 1)
        } else {
            plies.join(" ")
        };
        if !text.is_empty() {
            text += " and ";
        }
        text += &format!("placement plies {plies}");
    }
    text
}

/// Attaches the tables in `dir` for `flying` games: returns the handle (`None` when the
/// directory has no usable file) and a note for the user. New tables load on a background
/// thread, which calls `loaded` with a second note when they are ready.
pub fn attach(
    dir: &Path,
    flying: bool,
    loaded: Box<dyn FnOnce(String) + Send>,
) -> (Option<Tables>, String) {
    let (key, skipped) = scan(dir, flying);
    let kind = if flying { "fly" } else { "nofly" };
    let mut parts = Vec::new();
    if !skipped.is_empty() {
        parts.push(format!("skipped {}", skipped.join(", ")));
    }
    let note = |parts: Vec<String>| {
        format!(
            "morris tablebases in {}: {}",
            dir.display(),
            parts.join("; ")
        )
    };
    if key.files.is_empty() && key.layers.is_empty() {
        parts.push(format!("no usable morris-{kind}-*.tb file"));
        return (None, note(parts));
    }
    let mut cache = CACHE.lock().unwrap_or_else(|poison| poison.into_inner());
    if let Some(&entry) = cache.iter().find(|e| e.key == key) {
        let state = if entry.tables.get().is_some() {
            "already loaded"
        } else {
            "already loading"
        };
        parts.push(format!("{} ({state})", contents(&key)));
        return (Some(Tables(entry)), note(parts));
    }
    let bytes: u64 =
        key.files.iter().map(|f| f.2).sum::<u64>() + key.layers.iter().map(|l| l.1).sum::<u64>();
    parts.push(format!(
        "loading {} ({} MiB) in the background",
        contents(&key),
        bytes.div_ceil(1 << 20)
    ));
    let note = note(parts);
    let shown = dir.display().to_string();
    let entry: &'static Entry = Box::leak(Box::new(Entry {
        key,
        tables: OnceLock::new(),
    }));
    cache.push(entry);
    drop(cache);
    if let Err((task, _)) = spawn_with("tables", (entry, shown, loaded), fill) {
        // No thread to be had (a thread or memory limit): the tables load here and now.
        fill(task);
    }
    (Some(Tables(entry)), note)
}

/// Loads the tables of `entry` into it and says so through `loaded`, naming the directory as
/// `shown`.
fn fill((entry, shown, loaded): (&'static Entry, String, Box<dyn FnOnce(String) + Send>)) {
    let start = Instant::now();
    let (tables, problems) = load(&entry.key);
    let done = format!(
        "morris tablebases in {shown}: loaded {} in {:.1} s{}",
        contents(&entry.key),
        start.elapsed().as_secs_f64(),
        problems
    );
    // The note first: `isready` answers once the tables are set, and its `readyok` must come
    // after the line saying they are loaded.
    loaded(done);
    let _ = entry.tables.set(tables);
}

/// Reads the files of `key` (two at a time: reading is mostly the checksum's pass over the
/// bytes) and keeps them smallest first; a file that cannot be read or does not verify
/// (header, length, checksum) is left out, with the tables that need it. Returns the tables
/// and a note on what went wrong.
fn load(key: &Key) -> (Loaded, String) {
    let read = |&(m, o, _, _): &(u32, u32, u64, Option<SystemTime>)| {
        let path = Tablebase::file_name(&key.dir, key.flying, m, o);
        Table::read(&path, key.flying, m, o)
    };
    let half =
        |parity: usize| -> Vec<_> { key.files.iter().skip(parity).step_by(2).map(read).collect() };
    let (evens, odds) = std::thread::scope(|scope| {
        let other = try_spawn_scoped(scope, || half(1));
        let evens = half(0);
        // Without a second thread the other half is read here.
        let odds = match other.map(|handle| handle.join()) {
            Some(Ok(odds)) => odds,
            _ => half(1),
        };
        (evens, odds)
    });
    let (mut evens, mut odds) = (evens.into_iter(), odds.into_iter());
    let mut moving = Tablebase::new(key.flying);
    let mut problems = String::new();
    for (i, &(m, o, _, _)) in key.files.iter().enumerate() {
        let result = if i % 2 == 0 {
            evens.next()
        } else {
            odds.next()
        };
        let Some(result) = result else { break };
        if o > 3 && moving.table(o - 1, m).is_none() {
            problems += &format!("; left out {m}v{o} (needs {}v{m})", o - 1);
            continue;
        }
        match result {
            Ok(table) => moving.insert(table),
            Err(error) => problems += &format!("; left out {m}v{o}: {error}"),
        }
    }
    let mut tables = Loaded::new(moving);
    for &(ply, _, _) in &key.layers {
        let path = Layer::file_name(&key.dir, key.flying, ply);
        match Layer::read(&path, key.flying, ply) {
            Ok(layer) => tables.insert_layer(layer),
            Err(error) => problems += &format!("; left out placement ply {ply}: {error}"),
        }
    }
    (tables, problems)
}

fn proven(result: TbResult) -> Proven {
    match result {
        TbResult::Win(plies) => Proven::Win(plies),
        TbResult::Loss(plies) => Proven::Loss(plies),
        TbResult::Draw => Proven::Draw,
    }
}

impl Morris {
    /// The exact value of this position under its own rules from the attached tables.
    ///
    /// The tables ignore the draw rules, which can only turn wins into draws. A table draw
    /// stays a draw. A result in `n` plies holds when the no-capture rule cannot end the
    /// game first (`quiet_plies + n <= nocapture`: the position before the last move has
    /// fewer quiet plies than the limit) and no repetition can: along the winner's line the
    /// distance falls with every ply, so no position occurs twice in it, and each may occur at
    /// most `repetition - 2` times in the history before. Otherwise the value is unknown.
    pub(super) fn table_value(&self) -> Option<Proven> {
        let tables = &self.options.tables?.get()?.moving;
        if self.hand != [0, 0] || tables.flying() != self.options.flying {
            return None;
        }
        let me = self.side.index();
        let result = tables.probe(self.board[me], self.board[1 - me])?;
        let plies = match result {
            TbResult::Draw => return Some(Proven::Draw),
            TbResult::Win(n) | TbResult::Loss(n) => n,
        };
        let rules = &self.options;
        if rules.nocapture > 0 && self.quiet_plies + plies > rules.nocapture {
            return None;
        }
        if rules.repetition > 0 && self.history.most_repeated() + 2 > rules.repetition as usize {
            return None;
        }
        Some(proven(result))
    }

    /// `solve` from the tables: the exact value and a move that keeps it, or `None` when the
    /// tables do not decide the position.
    pub(super) fn solve_by_tables(&self) -> Option<Solution<Move>> {
        let value = self.table_value()?;
        let (best, result) = self.options.tables?.get()?.moving.best_move(self)?;
        // The move is chosen on the tables' values; under a trusted value the draw rules
        // cannot end any child early, so the two agree. Anything else: let the search decide.
        if proven(result) != value {
            return None;
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        Some(Solution {
            value: Some(value),
            best: Some(best),
            nodes: moves.len() as u64 + 1,
        })
    }
}
