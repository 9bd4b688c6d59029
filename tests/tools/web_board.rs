//! The web board's server (`src/bin/web-board`, docs/web.md) as a browser sees it: static
//! files, the game catalogue (`/games.json`), a WebSocket session per engine process, forged
//! and oversized messages refused with
//! an `error` line, the session limit, and no engine process left once sessions close.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tabula::game::OptionKind;
use tungstenite::{Message, WebSocket};

/// A running server, killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(max_sessions: usize) -> Server {
        Server::start_with(env!("CARGO_BIN_EXE_tabula"), max_sessions)
    }

    fn start_with(engine: &str, max_sessions: usize) -> Server {
        // Away from the checkout: its engines would take tables built there by default.
        let mut child = Command::new(env!("CARGO_BIN_EXE_web-board"))
            .current_dir(std::env::temp_dir())
            .args(["--port", "0", "--engine", engine])
            .args(["--max-sessions", &max_sessions.to_string()])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("piped stdout");
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the port line");
        let port = line.trim().rsplit(':').next().and_then(|p| p.parse().ok());
        Server {
            child,
            port: port.unwrap_or_else(|| panic!("no port in {line:?}")),
        }
    }

    fn get(&self, method: &str, path: &str) -> String {
        self.request(&format!(
            "{method} {path} HTTP/1.1\r\nHost: localhost\r\n\r\n"
        ))
    }

    /// Sends a raw request head; the answer's first line (all of it when it is not a 101).
    fn request(&self, head: &str) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("timeout");
        stream.write_all(head.as_bytes()).expect("sends");
        let mut answer = Vec::new();
        let mut byte = [0u8; 1];
        // A 101 keeps the socket open: read only its status line.
        while stream.read(&mut byte).is_ok_and(|n| n == 1) {
            answer.push(byte[0]);
            if answer.starts_with(b"HTTP/1.1 101") && answer.ends_with(b"\r\n") {
                break;
            }
        }
        String::from_utf8_lossy(&answer).into_owned()
    }

    /// A WebSocket handshake head for /ws with `extra` header lines.
    fn handshake(&self, extra: &str) -> String {
        format!(
            "GET /ws HTTP/1.1\r\nHost: localhost:{}\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\n{extra}\r\n",
            self.port
        )
    }

    fn session(&self) -> WebSocket<TcpStream> {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        let url = format!("ws://127.0.0.1:{}/ws", self.port);
        tungstenite::client(url.as_str(), stream)
            .expect("handshake")
            .0
    }

    /// The engine processes the server is running now (its children, from /proc).
    fn engines(&self) -> usize {
        let me = self.child.id().to_string();
        std::fs::read_dir("/proc")
            .expect("/proc")
            .flatten()
            .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
            .filter(|stat| {
                let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
                let fields: Vec<&str> = after.split_whitespace().collect();
                fields.len() > 1 && fields[1] == me && fields[0] != "Z"
            })
            .count()
    }

    fn wait_for_engines(&self, count: usize) -> usize {
        let end = Instant::now() + Duration::from_secs(10);
        while self.engines() != count && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(20));
        }
        self.engines()
    }

    fn rss_kib(&self) -> u64 {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).expect("status");
        let line = status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .expect("VmRSS");
        line.split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .expect("a number")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends one text line.
fn say(ws: &mut WebSocket<TcpStream>, line: &str) {
    ws.send(Message::text(line)).expect("sends");
}

/// The next text line from the server (None once the socket is closed).
fn hear(ws: &mut WebSocket<TcpStream>) -> Option<String> {
    loop {
        match ws.read() {
            Ok(Message::Text(text)) => return Some(text.to_string()),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

#[test]
fn serves_the_page_and_refuses_other_requests() {
    let server = Server::start(2);
    let page = server.get("GET", "/");
    assert!(page.starts_with("HTTP/1.1 200 OK"), "{page}");
    assert!(page.contains("<svg id=\"board\""), "{page}");
    let script = server.get("GET", "/app.js");
    assert!(script.contains("Content-Type: text/javascript"), "{script}");
    // Browsers ask for /favicon.ico on every load: it is there (the page links the SVG).
    for icon in ["/favicon.ico", "/favicon.svg"] {
        let answer = server.get("GET", icon);
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
        assert!(answer.contains("Content-Type: image/svg+xml"), "{answer}");
        assert!(answer.contains("<svg"), "{answer}");
    }
    assert!(
        server.get("HEAD", "/").ends_with("\r\n\r\n"),
        "HEAD has no body"
    );
    assert!(server.get("GET", "/secret").starts_with("HTTP/1.1 404"));
    let missing = server.get("HEAD", "/secret");
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
    assert!(
        missing.ends_with("\r\n\r\n"),
        "HEAD has no body, a 404 neither: {missing}"
    );
    assert!(server.get("POST", "/").starts_with("HTTP/1.1 405"));
}

/// The page builds its game and option menus from `/games.json`: every registered game is
/// there with its declared options, each menu starting with the default, so a new game
/// reaches the page without an edit in `web/`.
#[test]
fn the_catalogue_lists_every_game_and_its_declared_options() {
    let server = Server::start(2);
    let answer = server.get("GET", "/games.json");
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    assert!(
        answer.contains("Content-Type: application/json"),
        "{answer}"
    );
    let body = answer.split("\r\n\r\n").nth(1).expect("a body");
    // Every game and option in order, each option's menu and default as declared.
    let mut at = 0;
    for game in tabula::registry::GAMES {
        let head = format!("{{\"name\":\"{}\",\"options\":[", game.name);
        let found = body[at..].find(&head);
        at += found.unwrap_or_else(|| panic!("{head} missing or out of order in {body}"));
        for option in game.options {
            let values: Vec<String> = option.menu().iter().map(|v| format!("\"{v}\"")).collect();
            let kind = match option.kind {
                OptionKind::Choice(_) => "choice",
                OptionKind::Number { .. } => "number",
                OptionKind::Text { .. } => "text",
            };
            let entry = format!(
                "{{\"key\":\"{}\",\"kind\":\"{kind}\",\"values\":[{}],\"default\":\"{}\"",
                option.key,
                values.join(","),
                option.default
            );
            let found = body[at..].find(&entry);
            at += found.unwrap_or_else(|| panic!("{entry} missing or out of order in {body}"));
        }
    }
    assert_eq!(
        body.matches("{\"name\":").count(),
        tabula::registry::GAMES.len()
    );
    assert!(
        body.contains("\"key\":\"beaver\"") && body.contains("\"needs\":{\"cube\":\"on\"}"),
        "{body}"
    );
}

#[test]
fn a_session_passes_protocol_lines_and_refuses_forged_ones() {
    let server = Server::start(2);
    let mut ws = server.session();
    say(&mut ws, "newgame morris");
    say(&mut ws, "fen");
    // protocol.md: Morris starts with an empty board and nine men in each hand.
    assert_eq!(
        hear(&mut ws).as_deref(),
        Some("fen .../.../.../....../.../.../... w 9 9 0")
    );
    say(&mut ws, "frobnicate");
    assert_eq!(
        hear(&mut ws).as_deref(),
        Some("error unknown command: frobnicate")
    );
    // Two commands in one message would let a page smuggle a second line: refused whole.
    say(&mut ws, "fen\nquit");
    let refused = hear(&mut ws).expect("an answer");
    assert!(
        refused.starts_with("error rejected by the server"),
        "{refused}"
    );
    ws.send(Message::binary(b"fen".to_vec())).expect("sends");
    let refused = hear(&mut ws).expect("an answer");
    assert!(refused.contains("binary frames"), "{refused}");
    // The engine never saw the quit: it still answers.
    say(&mut ws, "isready");
    assert_eq!(hear(&mut ws).as_deref(), Some("readyok"));
    assert_eq!(server.engines(), 1);
}

#[test]
fn an_oversized_message_ends_the_session_with_an_error() {
    let server = Server::start(2);
    let mut ws = server.session();
    say(&mut ws, &format!("position fen {}", "w".repeat(70_000)));
    let error = hear(&mut ws).expect("an answer");
    assert!(
        error.starts_with("error rejected by the server: a message over 65536 bytes"),
        "{error}"
    );
    assert_eq!(hear(&mut ws), None, "the socket is closed");
    assert_eq!(server.wait_for_engines(0), 0);
}

#[test]
fn the_session_limit_is_kept_and_freed() {
    let server = Server::start(2);
    let mut first = server.session();
    let mut second = server.session();
    for ws in [&mut first, &mut second] {
        say(ws, "isready");
        assert_eq!(hear(ws).as_deref(), Some("readyok"));
    }
    let mut third = server.session();
    let error = hear(&mut third).expect("an answer");
    assert!(error.starts_with("error too many sessions"), "{error}");
    assert_eq!(hear(&mut third), None, "the extra socket is closed");
    assert_eq!(server.engines(), 2);
    first.close(None).expect("closes");
    assert_eq!(server.wait_for_engines(1), 1);
    // The session gives its slot back just after its engine is gone (so that there are
    // never more engines than slots): on a loaded machine a board opened at once may still
    // find both taken, and one opened a moment later must get in.
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let mut fourth = server.session();
        // A refused socket may already be closed; its answer is what counts.
        let _ = fourth.send(Message::text("isready"));
        match hear(&mut fourth) {
            Some(answer) if answer == "readyok" => break,
            Some(answer)
                if answer.starts_with("error too many sessions") && Instant::now() < end =>
            {
                std::thread::sleep(Duration::from_millis(20))
            }
            other => panic!("a session after one was closed: {other:?}"),
        }
    }
}

#[test]
fn an_engine_that_quits_ends_its_session() {
    let server = Server::start(2);
    let mut ws = server.session();
    say(&mut ws, "quit");
    let error = hear(&mut ws).expect("an answer");
    assert!(error.starts_with("error the engine exited"), "{error}");
    assert_eq!(hear(&mut ws), None);
    assert_eq!(server.wait_for_engines(0), 0);
}

#[test]
fn a_hundred_sessions_leave_no_engine_behind() {
    let server = Server::start(4);
    let before = server.rss_kib();
    let start = Instant::now();
    for i in 0..100 {
        let mut ws = server.session();
        say(&mut ws, "isready");
        assert_eq!(hear(&mut ws).as_deref(), Some("readyok"), "session {i}");
        if i % 2 == 0 {
            ws.close(None).expect("closes");
            while hear(&mut ws).is_some() {}
        }
        // Odd sessions just drop the connection, like a browser that crashed.
    }
    assert_eq!(
        server.wait_for_engines(0),
        0,
        "engine processes left behind"
    );
    let after = server.rss_kib();
    eprintln!(
        "100 sessions in {:.1} s; server RSS {before} KiB before, {after} KiB after",
        start.elapsed().as_secs_f64()
    );
    assert!(
        after < before + 16 * 1024,
        "the server grew from {before} to {after} KiB"
    );
}

#[test]
fn only_the_page_itself_may_open_a_session() {
    let server = Server::start(2);
    let key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
    let port = server.port;
    let own =
        server.request(&server.handshake(&format!("{key}Origin: http://localhost:{port}\r\n")));
    assert!(own.starts_with("HTTP/1.1 101"), "{own}");
    let other = server.request(&server.handshake(&format!("{key}Origin: http://evil.example\r\n")));
    assert!(
        other.starts_with("HTTP/1.1 403"),
        "another site's page: {other}"
    );
    // DNS rebinding: a site that points its own name at 127.0.0.1 sends that name as both
    // Origin and Host; the name is not one this server answers to.
    let rebound = server.request(&format!(
        "GET /ws HTTP/1.1\r\nHost: evil.example:{port}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\n{key}Origin: http://evil.example:{port}\r\n\r\n"
    ));
    assert!(
        rebound.starts_with("HTTP/1.1 403"),
        "a rebound site's page: {rebound}"
    );
    let no_key = server.request(&server.handshake("Sec-WebSocket-Version: 13\r\n"));
    assert!(
        no_key.starts_with("HTTP/1.1 400"),
        "a broken handshake is answered: {no_key}"
    );
}

#[test]
fn an_engine_that_stops_reading_does_not_hold_its_session() {
    let deaf = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engines/deaf.sh");
    let server = Server::start_with(deaf, 1);
    // The page goes away while its lines wait for the engine: the slot and engine are freed.
    let mut ws = server.session();
    let long = "x".repeat(60_000);
    for _ in 0..3 {
        say(&mut ws, &long);
    }
    // The engine first: under load the server may not have started it yet, and a count of
    // none before it starts would pass the check below too early.
    assert_eq!(server.wait_for_engines(1), 1, "the session has its engine");
    drop(ws);
    assert_eq!(server.wait_for_engines(0), 0, "the engine is killed");
    // A page that keeps sending is told, once the engine's backlog is full.
    let mut ws = server.session();
    let line = "y".repeat(1000);
    let mut told = None;
    for _ in 0..3000 {
        if ws.send(Message::text(line.as_str())).is_err() {
            break;
        }
    }
    while let Some(text) = hear(&mut ws) {
        told = Some(text);
    }
    let told = told.expect("an error line");
    assert!(
        told.contains("the engine does not read its input"),
        "{told}"
    );
    assert_eq!(server.wait_for_engines(0), 0);
}
