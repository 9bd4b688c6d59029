//! `web-board`: serves a page that draws every game and plays it through the engine's protocol.
//! Each browser session gets its own `tabula` process; the server only passes protocol lines
//! between the page's WebSocket and the engine's stdin/stdout (docs/web.md).

mod http;
mod session;

use clap::Parser;
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;

/// The command line: where to listen, which engine to run, how many sessions at once.
#[derive(Parser)]
#[command(
    name = "web-board",
    about = "A web board for every game: one engine process per browser session"
)]
struct Args {
    /// TCP port to listen on (0: any free port; the chosen one is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on (the default serves this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// The engine to run per session (default: `tabula` next to this executable).
    #[arg(long)]
    engine: Option<PathBuf>,
    /// Most browser sessions (engine processes) at once; more are refused with an error.
    #[arg(long, default_value_t = 8)]
    max_sessions: usize,
}

/// `tabula` in the directory of the running executable (cargo puts both binaries there).
fn default_engine() -> PathBuf {
    let name = format!("tabula{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(&name)))
        .unwrap_or_else(|| PathBuf::from(name))
}

fn main() {
    let args = Args::parse();
    let engine = args.engine.unwrap_or_else(default_engine);
    if !engine.is_file() {
        eprintln!(
            "web-board: no engine at {} (build it with `cargo build --release --bin tabula` or pass --engine)",
            engine.display()
        );
        std::process::exit(2);
    }
    let listener = match TcpListener::bind((args.bind.as_str(), args.port)) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!(
                "web-board: cannot listen on {}:{}: {e}",
                args.bind, args.port
            );
            std::process::exit(1);
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(args.port);
    // One line on stdout, so scripts that start the server with --port 0 learn the port.
    println!("web-board: open http://localhost:{port}");
    let shared = Arc::new(session::Shared::new(engine, args.max_sessions));
    for stream in listener.incoming().flatten() {
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || serve(stream, &shared));
    }
}

/// One connection: a static file, or a WebSocket that becomes an engine session.
fn serve(stream: TcpStream, shared: &session::Shared) {
    match http::read_head(&stream) {
        Ok(http::Head::WebSocket) => session::run(stream, shared),
        Ok(http::Head::Get { path, body }) => http::respond(stream, &path, body),
        Err(status) => http::refuse(stream, status),
    }
}
