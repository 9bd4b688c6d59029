//! The shape of the code, checked: every registered game has its transcripts and perft cases,
//! the layers import one way (protocol -> registry -> strategy -> search -> game), and no game
//! imports another. Test modules (files
//! named `tests*.rs` or `*_tests.rs`) may reach across layers to set up what they check.

use std::path::Path;
use tabula::registry::GAMES;

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("readable entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

fn is_test_module(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.starts_with("tests") || name.ends_with("_tests.rs")
}

/// The `crate::` modules a file imports (`use crate::search::...` gives `search`).
fn imported_layers(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("readable file");
    let mut layers = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && !layers.contains(&name) {
            layers.push(name);
        }
    }
    layers
}

/// Checks that the non-test files under `dir` import only `allowed` crate modules.
fn only_imports(dir: &str, allowed: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    for file in rust_files(&root) {
        if is_test_module(&file) {
            continue;
        }
        for layer in imported_layers(&file) {
            assert!(
                allowed.contains(&layer.as_str()),
                "{} imports crate::{layer}; {dir} may import only {allowed:?}",
                file.display()
            );
        }
    }
}

#[test]
fn games_import_only_the_game_contract() {
    // `games` for a game's own folder (`crate::games::<name>::...` paths), `util` for the rng.
    only_imports("src/games", &["game", "games", "util"]);
    only_imports("src/game", &[]);
}

#[test]
fn a_game_imports_no_other_game() {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
    for entry in std::fs::read_dir(&games).expect("src/games") {
        let folder = entry.expect("entry").path();
        if !folder.is_dir() {
            continue;
        }
        let own = folder
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        for file in rust_files(&folder)
            .into_iter()
            .filter(|f| !is_test_module(f))
        {
            let text = std::fs::read_to_string(&file).expect("readable file");
            for (at, _) in text.match_indices("crate::games::") {
                let name: String = text[at + "crate::games::".len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                assert_eq!(name, own, "{} imports crate::games::{name}", file.display());
            }
        }
    }
}

#[test]
fn the_protocol_imports_no_game() {
    // It drives games through the registry's string-level adapter; `game` for the contract's
    // plain types (sides, errors), `search` for limits and results, `bench` for its command.
    only_imports(
        "src/protocol",
        &["protocol", "registry", "search", "game", "bench", "util"],
    );
}

#[test]
fn the_search_imports_no_game_no_strategy_and_no_protocol() {
    only_imports("src/search", &["game", "search", "util"]);
}

#[test]
fn a_strategy_sits_between_the_registry_and_the_search() {
    // A game's own way of choosing may name the game and use the search; nothing above.
    only_imports(
        "src/strategy",
        &["game", "games", "search", "strategy", "util"],
    );
}

#[test]
fn the_arena_drives_games_through_the_registry_but_for_backgammon_matches() {
    // The match runner sees engines as processes and games through the registry. Its
    // backgammon files, named here, play backgammon itself: duplicate matches between the
    // built-in players, and whole N-point matches written as .mat files.
    let backgammon = ["backgammon_duplicate.rs", "matchplay.rs"];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/arena");
    for file in rust_files(&root) {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let allowed: &[&str] = if backgammon.contains(&name) {
            &["arena", "game", "games", "search", "strategy", "util"]
        } else {
            &["arena", "game", "registry", "protocol", "util"]
        };
        for layer in imported_layers(&file) {
            assert!(
                allowed.contains(&layer.as_str()),
                "{} imports crate::{layer}; it may import only {allowed:?}",
                file.display()
            );
        }
        let text = std::fs::read_to_string(&file).expect("readable file");
        for (at, _) in text.match_indices("crate::games::") {
            let game: String = text[at + "crate::games::".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            assert_eq!(
                game,
                "backgammon",
                "{} imports crate::games::{game}",
                file.display()
            );
        }
    }
}

#[test]
fn the_registry_does_not_import_the_protocol() {
    only_imports(
        "src/registry",
        &["game", "games", "search", "strategy", "registry", "util"],
    );
}

#[test]
fn every_registered_game_has_transcripts_and_perft_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let transcripts: Vec<String> = std::fs::read_dir(root.join("tests/transcripts"))
        .expect("tests/transcripts")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    let perft_crate = std::fs::read_to_string(root.join("tests/perft/main.rs")).expect("perft");
    for entry in GAMES {
        let prefix = format!("{}_", entry.name);
        assert!(
            transcripts.iter().any(|name| name.starts_with(&prefix)),
            "{}: no tests/transcripts/{prefix}*.txt",
            entry.name
        );
        let perft = root.join(format!("tests/perft/{}.rs", entry.name));
        assert!(perft.exists(), "{}: no {}", entry.name, perft.display());
        // A module file the crate does not declare would never be compiled nor run.
        let declared = format!("mod {};", entry.name);
        assert!(
            perft_crate.lines().any(|line| line == declared),
            "{}: tests/perft/main.rs lacks `{declared}`",
            entry.name
        );
    }
}
