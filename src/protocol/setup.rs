//! The commands that replace the game or change engine options: `newgame` and `setoption`.
//!
//! `Game` and `GameOptions` may come in either order: setting either starts a new game
//! (also with the value it already has), `GameOptions` that do not fit the current game are
//! kept for the next `Game`, and a `Game` whose options do not fit starts with its defaults.

use super::options::EngineOptions;
use super::response::Response;
use super::session::Session;
use crate::game::GameError;
use crate::registry::{self, AnyGame, GAMES};
use crate::util::rng::Rng;
use std::path::Path;

impl Session {
    /// Chooses the game from the command line (`gipf`, `cascades width=5`).
    pub fn startup_game(&mut self, words: &[&str]) -> Result<(), String> {
        let line = format!("newgame {}", words.join(" "));
        match super::parse::parse_line(&line) {
            Ok(Some(super::command::Command::NewGame { name, options })) => {
                self.new_game(name, &options).map_err(|e| e.to_string())
            }
            _ => Err(format!(
                "usage: tabula [GAME [key=value ...]], not {}",
                words.join(" ")
            )),
        }
    }

    /// `newgame NAME key=value ...`: also sets the `Game` and `GameOptions` options.
    pub(super) fn new_game(
        &mut self,
        name: &str,
        options: &[(&str, &str)],
    ) -> Result<(), GameError> {
        let game = registry::new_game(name, options, self.options.hash_mib)?;
        let mut engine = self.options.clone();
        engine.game = name.to_owned();
        engine.game_options = options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ");
        self.install(game, engine);
        Ok(())
    }

    /// `setoption name NAME value VALUE`.
    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut options = self.options.clone();
        if let Err(error) = options.set(name, value) {
            self.error(error);
            return;
        }
        match name.trim().to_ascii_lowercase().as_str() {
            "game" => self.set_game(options),
            "gameoptions" => self.set_game_options(options),
            other => self.set_engine_option(other, options),
        }
    }

    /// `Game`: a new game of that name, with the `GameOptions` if they fit it, else (they
    /// were meant for another game) with its defaults, said in an `info string` line.
    fn set_game(&mut self, mut options: EngineOptions) {
        let built = registry::new_game(
            &options.game,
            &options.game_option_pairs(),
            options.hash_mib,
        );
        let game = match built {
            Ok(game) => game,
            Err(error) => match registry::new_game(&options.game, &[], options.hash_mib) {
                Ok(game) => {
                    self.send(Response::InfoString(format!(
                        "GameOptions {} do not fit {} ({error}): it starts with its defaults",
                        options.game_options, options.game
                    )));
                    options.game_options.clear();
                    game
                }
                Err(error) => return self.error(error),
            },
        };
        self.install(game, options);
    }

    /// `GameOptions`: a new game of the current game with them; options that fit another
    /// game only are kept for the next `Game` (an `info string` says so); options that fit
    /// no game are an error.
    fn set_game_options(&mut self, options: EngineOptions) {
        let pairs = options.game_option_pairs();
        let error = match registry::new_game(&options.game, &pairs, options.hash_mib) {
            Ok(game) => return self.install(game, options),
            Err(error) => error,
        };
        // Built with the smallest table: only whether the options fit is wanted.
        let fitting: Vec<&str> = GAMES
            .iter()
            .filter(|entry| registry::new_game(entry.name, &pairs, 1).is_ok())
            .map(|entry| entry.name)
            .collect();
        if fitting.is_empty() {
            return self.error(format!(
                "bad value for GameOptions: {} fit no game ({}: {error})",
                options.game_options, options.game
            ));
        }
        self.send(Response::InfoString(format!(
            "GameOptions {} do not fit {} ({error}): kept for the next Game (they fit {})",
            options.game_options,
            options.game,
            fitting.join(", ")
        )));
        self.options = options;
    }

    /// Every other option, `name` the one set: setting one has its effect every time, also
    /// with the value it has (`Seed` restarts its sequence, `Hash` gives an empty table,
    /// `TablebasePath` reads its files again), as a GUI that resends its options expects.
    fn set_engine_option(&mut self, name: &str, options: EngineOptions) {
        self.options = options;
        match name {
            "hash" => self.game.set_hash(self.options.hash_mib),
            "seed" => self.rng = Rng::new(self.options.seed),
            "tablebasepath" => self.attach_tablebases(),
            _ => {}
        }
    }

    /// Makes `game` the current game under `options`, attaching the tablebases to it.
    fn install(&mut self, game: Box<dyn AnyGame>, options: EngineOptions) {
        self.game = game;
        self.options = options;
        self.lag.forget();
        if !self.options.tablebase_path.is_empty() {
            self.attach_tablebases();
        }
    }

    /// Hands the `TablebasePath` directory to the game (which may ignore it) and prints its
    /// notes, the one about a background load finishing too.
    fn attach_tablebases(&mut self) {
        let path = &self.options.tablebase_path;
        let dir = (!path.is_empty()).then(|| Path::new(path));
        let out = self.out.clone();
        let loaded = Box::new(move |note: String| out.send(&Response::InfoString(note)));
        if let Some(note) = self.game.set_tablebase_path(dir, loaded) {
            self.send(Response::InfoString(note));
        }
    }
}
