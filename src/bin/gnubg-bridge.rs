//! Plays tabula inside GNU Backgammon: gnubg hands one side to "another process" with
//! `set player 1 external HOST:PORT`, connects to that address and, whenever that side must
//! act, sends a FIBS rawboard line and reads one answer line (a move like `8/5 6/5`, `double`,
//! `roll`, `take`, `drop`; `Error: ...` stops it). This bridge listens on the address, runs
//! `tabula` as a UBGI engine (which reads those boards and answers exactly those words) and
//! passes the lines through:
//!
//! `gnubg-bridge [--listen HOST:PORT] [--tabula PATH] [--movetime MS] [--mat FILE]`
//!
//! It serves one connection: when gnubg disconnects (end of the session, or mid-match) the
//! bridge stops tabula and exits with status 0. With `--mat` it also keeps the match as a
//! `.mat` file, rebuilt from the boards (`backgammon::observed`) and written again after each
//! answer, so a match cut short leaves the file as far as it went.
//!
//! GNU Backgammon 1.07 draws every board for its player 1 (FIBS's "you") but, except while a
//! double is pending, writes player 0's name and score in the player's fields (its `play.c`
//! picks them by `fTurn ^ fMove`). Read as FIBS defines the fields, and as gnubg itself reads
//! them, tabula would see the match score the wrong way round, so the bridge swaps the two
//! names and scores of such boards back before passing them on.

use clap::Parser;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};
use tabula::game::Game;
use tabula::games::backgammon::observed::Observed;
use tabula::games::backgammon::{fibs, matfile, Backgammon, Options};
use tabula::util::child::{Child, ReadError};

/// Where gnubg connects unless `--listen` says otherwise.
const DEFAULT_ADDRESS: &str = "127.0.0.1:10000";
/// Longest board line accepted from gnubg, in bytes (a rawboard line is about 150).
const LINE_LIMIT: u64 = 4096;
/// How much longer than its move time tabula may take to answer before the bridge gives up:
/// gnubg waits for the bridge without a limit of its own, so a hung engine would hang it.
const ANSWER_SLACK: Duration = Duration::from_secs(60);

/// Plays tabula inside GNU Backgammon as its external player (`set player 1 external
/// HOST:PORT` in gnubg): listens for gnubg, answers its boards with tabula's UBGI answers.
#[derive(Parser, Debug)]
#[command(name = "gnubg-bridge")]
struct Settings {
    /// The address gnubg connects to
    #[arg(long = "listen", value_name = "HOST:PORT", default_value = DEFAULT_ADDRESS)]
    address: String,
    /// The engine (default: `tabula` next to the bridge)
    #[arg(long, value_name = "PATH")]
    tabula: Option<PathBuf>,
    /// tabula's time per decision in milliseconds, at least 1
    #[arg(long, value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..))]
    movetime: u64,
    /// Keep the match as a .mat file, written again after every answer
    #[arg(long, value_name = "FILE")]
    mat: Option<PathBuf>,
}

impl Settings {
    fn engine(&self) -> PathBuf {
        self.tabula.clone().unwrap_or_else(|| {
            std::env::current_exe()
                .ok()
                .and_then(|exe| exe.parent().map(|dir| dir.join("tabula")))
                .unwrap_or_else(|| PathBuf::from("tabula"))
        })
    }
}

/// tabula speaking UBGI on its standard input and output.
struct Engine {
    child: Child,
    /// The longest an answer may take.
    wait: Duration,
}

impl Engine {
    fn start(settings: &Settings) -> Result<Engine, String> {
        let tabula = settings.engine();
        let mut command = Command::new(&tabula);
        command.env("TABULA_UBGI_MOVETIME", settings.movetime.to_string());
        let child = Child::spawn(&mut command)
            .map_err(|e| format!("cannot run {}: {e}", tabula.display()))?;
        let mut engine = Engine {
            child,
            wait: Duration::from_millis(settings.movetime) + ANSWER_SLACK,
        };
        engine.send("ubgi")?;
        while engine.receive()? != "readyok" {}
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        self.child
            .send(line)
            .map_err(|e| format!("writing to tabula: {e}"))
    }

    fn receive(&mut self) -> Result<String, String> {
        match self.child.read_line(Instant::now() + self.wait) {
            Ok(line) => Ok(line.text),
            Err(ReadError::Timeout) => Err(format!(
                "tabula did not answer within {} s",
                self.wait.as_secs()
            )),
            Err(ReadError::TooLong(_)) => Err("a line from tabula is too long".into()),
            Err(ReadError::Closed | ReadError::Exited(_)) => Err("tabula ended".into()),
        }
    }

    /// Stops tabula and gives it a moment to exit (it is killed when dropped).
    fn quit(mut self) {
        let _ = self.send("quit");
        self.child.close_input();
        self.child.status_within(Duration::from_secs(5));
    }
}

/// The match as the bridge sees it, kept in a `.mat` file.
struct Recorder {
    observed: Observed,
    path: PathBuf,
    /// How boards are read: with the cube in play.
    options: Options,
    /// Whether the record has stopped and the file was written for the last time.
    done: bool,
}

impl Recorder {
    /// Starts with an empty file, so that a path that cannot be written is known at once.
    fn start(path: &PathBuf) -> Result<Recorder, String> {
        std::fs::write(path, "").map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Recorder {
            observed: Observed::new("tabula", "gnubg"),
            path: path.clone(),
            options: Backgammon::parse_options(&[("cube", "on")]).expect("known options"),
            done: false,
        })
    }

    fn board(&mut self, board: &str) -> Result<(), String> {
        // A board tabula cannot read is answered `Error: ...`, which stops the record.
        // gnubg draws the board for its player 1, who is Black (the right column) in its
        // own record of the match: so in this one too.
        if let Ok(pos) = fibs::from_fibs(board, &self.options) {
            self.observed.board(&pos.mirrored());
        }
        match self.observed.stopped() {
            Some(_) if !self.done => self.save(),
            _ => Ok(()),
        }
    }

    /// Takes tabula's answer and writes the file again.
    fn answer(&mut self, answer: &str) -> Result<(), String> {
        if self.done {
            return Ok(());
        }
        self.observed.answer(answer);
        self.save()
    }

    /// Writes the file (a temporary file renamed over it, so it is never half written); once
    /// the record has stopped, says why, for the last time.
    fn save(&mut self) -> Result<(), String> {
        if let Some(why) = self.observed.stopped() {
            eprintln!("gnubg-bridge: the match file stops here: {why}");
            self.done = true;
        }
        let Some(record) = self.observed.record() else {
            return Ok(());
        };
        let temporary = self.path.with_extension("mat.part");
        std::fs::write(&temporary, matfile::write(&record))
            .and_then(|()| std::fs::rename(&temporary, &self.path))
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// Reads gnubg's next board line (it ends each with a newline and a NUL byte); `None` once
/// gnubg has disconnected.
fn read_board(reader: &mut BufReader<TcpStream>) -> Result<Option<String>, String> {
    loop {
        let mut bytes = Vec::new();
        let read = reader
            .by_ref()
            .take(LINE_LIMIT)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| format!("reading from gnubg: {e}"))?;
        if read == 0 {
            return Ok(None);
        }
        if bytes.last() != Some(&b'\n') && read as u64 == LINE_LIMIT {
            return Err(format!(
                "a line from gnubg is longer than {LINE_LIMIT} bytes"
            ));
        }
        let text: String = String::from_utf8_lossy(&bytes)
            .chars()
            .filter(|c| !matches!(c, '\0' | '\r' | '\n'))
            .collect();
        if !text.trim().is_empty() {
            return Ok(Some(text.trim().to_owned()));
        }
    }
}

/// Index of FIBS's "was doubled" field.
const WAS_DOUBLED: usize = 40;

/// gnubg's board with the names and scores where FIBS puts them (module doc): swapped back
/// unless a double is pending.
fn fibs_order(board: String) -> String {
    let mut fields: Vec<&str> = board.split(':').collect();
    if fields
        .get(WAS_DOUBLED)
        .is_none_or(|&doubled| doubled != "0")
    {
        return board;
    }
    fields.swap(1, 2);
    fields.swap(4, 5);
    fields.join(":")
}

/// Answers every board gnubg sends on `stream` until it disconnects.
fn serve(
    stream: TcpStream,
    engine: &mut Engine,
    mut recorder: Option<Recorder>,
) -> Result<(), String> {
    let mut writer = stream.try_clone().map_err(|e| format!("socket: {e}"))?;
    let mut reader = BufReader::new(stream);
    while let Some(board) = read_board(&mut reader)? {
        let board = fibs_order(board);
        if let Some(recorder) = &mut recorder {
            recorder.board(&board)?;
        }
        engine.send(&board)?;
        let answer = match engine.receive()? {
            sorry if sorry == "sorry" => format!("Error: tabula cannot read the board '{board}'"),
            answer => answer,
        };
        eprintln!("{board} -> {answer}");
        if let Some(recorder) = &mut recorder {
            recorder.answer(&answer)?;
        }
        if writeln!(writer, "{answer}")
            .and_then(|()| writer.flush())
            .is_err()
        {
            // gnubg went away between its board and our answer: the session is over.
            return Ok(());
        }
    }
    Ok(())
}

fn run(settings: &Settings) -> Result<(), String> {
    let listener = TcpListener::bind(&settings.address)
        .map_err(|e| format!("cannot listen on {}: {e}", settings.address))?;
    let recorder = settings.mat.as_ref().map(Recorder::start).transpose()?;
    let mut engine = Engine::start(settings)?;
    eprintln!(
        "gnubg-bridge: waiting for gnubg on {} (set player 1 external {})",
        settings.address, settings.address
    );
    let result = listener
        .accept()
        .map_err(|e| format!("accept: {e}"))
        .and_then(|(stream, peer)| {
            eprintln!("gnubg-bridge: gnubg connected from {peer}");
            serve(stream, &mut engine, recorder)
        });
    engine.quit();
    if result.is_ok() {
        eprintln!("gnubg-bridge: gnubg disconnected, done");
    }
    result
}

fn main() {
    if let Err(message) = run(&Settings::parse()) {
        eprintln!("gnubg-bridge: {message}");
        std::process::exit(1);
    }
}
