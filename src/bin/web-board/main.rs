//! `web-board`: serves a page that draws every game and plays it through the engine's protocol.
//! Each browser session gets its own `tabula` process; the server only passes protocol lines
//! between the page's WebSocket and the engine's stdin/stdout (docs/web.md).

mod catalog;
mod http;
mod session;

use clap::Parser;
use std::net::{IpAddr, Ipv6Addr, TcpListener, TcpStream};
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
    /// Most browser sessions (engine processes) at once, 1..=1024; more are refused with an error.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=1024))]
    max_sessions: u16,
}

/// `tabula` in the directory of the running executable (cargo puts both binaries there).
fn default_engine() -> PathBuf {
    let name = format!("tabula{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(&name)))
        .unwrap_or_else(|| PathBuf::from(name))
}

/// Whether `path` is a file this user may run (every session would fail to start it else).
fn runnable(path: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    path.is_file()
}

/// The address to print for the page: `localhost` where that reaches the server.
fn page_host(ip: IpAddr) -> String {
    match ip {
        ip if ip.is_unspecified()
            || ip == IpAddr::from([127, 0, 0, 1])
            || ip == Ipv6Addr::LOCALHOST =>
        {
            "localhost".to_string()
        }
        IpAddr::V6(v6) => format!("[{v6}]"),
        IpAddr::V4(v4) => v4.to_string(),
    }
}

fn main() {
    tabula::util::cli::exit_on_output_errors();
    let args = Args::parse();
    let engine = args.engine.unwrap_or_else(default_engine);
    if !runnable(&engine) {
        eprintln!(
            "web-board: no engine that can be run at {} (build it with `cargo build --release --bin tabula` or pass --engine)",
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
    let Ok(address) = listener.local_addr() else {
        eprintln!("web-board: the listening socket has no address");
        std::process::exit(1);
    };
    // One line on stdout, so scripts that start the server with --port 0 learn the port.
    println!(
        "web-board: open http://{}:{}",
        page_host(address.ip()),
        address.port()
    );
    let shared = Arc::new(session::Shared::new(engine, args.max_sessions.into()));
    let bind: Arc<str> = args.bind.as_str().into();
    for stream in listener.incoming().flatten() {
        let shared = Arc::clone(&shared);
        let bind = Arc::clone(&bind);
        std::thread::spawn(move || serve(stream, &shared, &bind));
    }
}

/// One connection: a static file, or a WebSocket that becomes an engine session. `bind` is
/// the `--bind` address, a name a page's `Host` may carry.
fn serve(stream: TcpStream, shared: &session::Shared, bind: &str) {
    match http::read_head(&stream, bind) {
        Ok(http::Head::WebSocket) => session::run(stream, shared),
        Ok(http::Head::Get { path, body }) => http::respond(stream, &path, body),
        Err(status) => http::refuse(stream, status),
    }
}
