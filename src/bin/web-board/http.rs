//! The plain HTTP side: the request head is peeked (a WebSocket handshake must still find it
//! in the stream), parsed with httparse, and answered with one embedded file or an error.

use crate::catalog;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The largest request head read; browsers send well under 2 KiB.
const MAX_HEAD: usize = 8192;
/// How long a client may take to send its request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(5);

/// What a request asks for.
pub enum Head {
    /// A WebSocket upgrade of `/ws` (its head is still unread in the stream).
    WebSocket,
    /// A GET (or HEAD: no body) of `path`, its head consumed.
    Get { path: String, body: bool },
}

/// The page's files, embedded so the binary is self-contained.
/// The favicon is an SVG, served under both names browsers ask for.
const FILES: [(&str, &str, &str); 7] = [
    ("/", "text/html", include_str!("../../../web/index.html")),
    (
        "/style.css",
        "text/css",
        include_str!("../../../web/style.css"),
    ),
    (
        "/app.js",
        "text/javascript",
        include_str!("../../../web/app.js"),
    ),
    (
        "/games.js",
        "text/javascript",
        include_str!("../../../web/games.js"),
    ),
    (
        "/draw.js",
        "text/javascript",
        include_str!("../../../web/draw.js"),
    ),
    (
        "/favicon.svg",
        "image/svg+xml",
        include_str!("../../../web/favicon.svg"),
    ),
    (
        "/favicon.ico",
        "image/svg+xml",
        include_str!("../../../web/favicon.svg"),
    ),
];

/// Reads the request head; `Err` carries the status line of a refusal. `bind` is the
/// server's `--bind` address (a host name a WebSocket page may be served under).
pub fn read_head(stream: &TcpStream, bind: &str) -> Result<Head, &'static str> {
    stream.set_read_timeout(Some(HEAD_TIMEOUT)).ok();
    let head = peek_head(stream).ok_or("400 Bad Request")?;
    let mut headers = [httparse::EMPTY_HEADER; 32];
    let mut request = httparse::Request::new(&mut headers);
    let complete = matches!(request.parse(&head), Ok(httparse::Status::Complete(_)));
    let path = request.path.unwrap_or("/").split('?').next().unwrap_or("/");
    let upgrade = request.headers.iter().any(|h| {
        h.name.eq_ignore_ascii_case("upgrade") && h.value.eq_ignore_ascii_case(b"websocket")
    });
    if complete && upgrade && path == "/ws" {
        let header = |name: &str| {
            request
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case(name))
                .map(|h| String::from_utf8_lossy(h.value).into_owned())
        };
        // A handshake tungstenite would refuse gets its answer here: it would only close.
        let handshake = request.method == Some("GET")
            && header("sec-websocket-key").is_some()
            && header("sec-websocket-version").as_deref() == Some("13");
        if !handshake {
            consume(stream, head.len())?;
            return Err("400 Bad Request");
        }
        // Browsers send the page's origin with every WebSocket: only this server's own page
        // may start engines, not any site the user visits (clients that are not browsers
        // send no Origin).
        if let Some(origin) = header("origin") {
            let host = header("host");
            if !same_origin(&origin, host.as_deref()) || !trusted_host(host.as_deref(), bind) {
                consume(stream, head.len())?;
                return Err("403 Forbidden");
            }
        }
        return Ok(Head::WebSocket);
    }
    consume(stream, head.len())?;
    match (complete, upgrade, request.method) {
        (false, _, _) => Err("400 Bad Request"),
        (true, true, _) => Err("404 Not Found"),
        (true, false, Some("GET")) => Ok(Head::Get {
            path: path.to_string(),
            body: true,
        }),
        (true, false, Some("HEAD")) => Ok(Head::Get {
            path: path.to_string(),
            body: false,
        }),
        _ => Err("405 Method Not Allowed"),
    }
}

/// Reads the `len` bytes of a head answered here (it was only peeked at), so that closing the
/// socket after the answer does not reset the connection under unread bytes.
fn consume(stream: &TcpStream, len: usize) -> Result<(), &'static str> {
    let mut consumed = vec![0; len];
    (&*stream)
        .read_exact(&mut consumed)
        .map_err(|_| "400 Bad Request")
}

/// Whether a WebSocket's `Origin` is the page this server served: its host and port are the
/// request's `Host`.
fn same_origin(origin: &str, host: Option<&str>) -> bool {
    let authority = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    match (authority, host) {
        (Some(authority), Some(host)) => authority.eq_ignore_ascii_case(host.trim()),
        _ => false,
    }
}

/// Whether a page's `Host` names this server in a way no other site can: `localhost`, an IP
/// address, or the `--bind` name. A site that rebinds its own name to 127.0.0.1 (DNS
/// rebinding) sends its name as both `Origin` and `Host`, which `same_origin` alone lets in.
fn trusted_host(host: Option<&str>, bind: &str) -> bool {
    let Some(host) = host.map(str::trim) else {
        return false;
    };
    // Without the port: `[::1]:8080`, `127.0.0.1:8080`, `localhost:8080`.
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<std::net::IpAddr>().is_ok()
        || name.eq_ignore_ascii_case(bind)
}

/// Peeks until the stream holds a whole request head, which it returns (None: closed, too
/// large or too slow).
fn peek_head(stream: &TcpStream) -> Option<Vec<u8>> {
    let deadline = Instant::now() + HEAD_TIMEOUT;
    let mut buf = vec![0; MAX_HEAD];
    loop {
        let n = stream.peek(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        if let Some(end) = buf[..n].windows(4).position(|w| w == b"\r\n\r\n") {
            buf.truncate(end + 4);
            return Some(buf);
        }
        if n == MAX_HEAD || Instant::now() > deadline {
            return None;
        }
        // Part of the head has come: wait for the rest (peek would return at once again).
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Answers a GET with the embedded file at `path`, the game catalogue, or 404.
pub fn respond(stream: TcpStream, path: &str, body: bool) {
    if path == "/games.json" {
        return write(stream, "200 OK", "application/json", &catalog::json(), body);
    }
    match FILES
        .iter()
        .find(|(p, _, _)| *p == path || (path == "/index.html" && *p == "/"))
    {
        Some((_, mime, text)) => write(stream, "200 OK", mime, text, body),
        None => answer_error(stream, "404 Not Found", body),
    }
}

/// Answers with an error status and a one-line text body.
pub fn refuse(stream: TcpStream, status: &str) {
    answer_error(stream, status, true);
}

/// An error status with its one-line text (the body left out for a HEAD request).
fn answer_error(stream: TcpStream, status: &str, body: bool) {
    write(stream, status, "text/plain", &format!("{status}\n"), body);
}

fn write(mut stream: TcpStream, status: &str, mime: &str, text: &str, body: bool) {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {mime}; charset=utf-8\r\nContent-Length: {}\r\n\
         Cache-Control: no-cache\r\nConnection: close\r\n\r\n",
        text.len()
    );
    // A client that went away needs no answer: write errors are ignored.
    let _ = stream.write_all(head.as_bytes());
    if body {
        let _ = stream.write_all(text.as_bytes());
    }
    let _ = stream.flush();
}

#[cfg(test)]
mod tests {
    use super::{same_origin, trusted_host};

    #[test]
    fn a_page_must_be_served_under_a_name_no_other_site_can_take() {
        for host in [
            "localhost:8080",
            "127.0.0.1:41234",
            "[::1]:8080",
            "LocalHost",
            "10.0.0.7:80",
        ] {
            assert!(trusted_host(Some(host), "127.0.0.1"), "{host}");
        }
        // DNS rebinding: the attacker's own name, pointed at this machine.
        assert!(!trusted_host(Some("evil.example:8080"), "127.0.0.1"));
        assert!(!trusted_host(Some("localhost.evil.example"), "127.0.0.1"));
        assert!(!trusted_host(None, "127.0.0.1"));
        // A server bound to a name of its own may be reached under it.
        assert!(trusted_host(Some("board.lan:8080"), "board.lan"));
    }

    #[test]
    fn only_the_served_page_is_the_same_origin() {
        assert!(same_origin("http://localhost:8080", Some("localhost:8080")));
        assert!(same_origin(
            "http://127.0.0.1:41234",
            Some("127.0.0.1:41234")
        ));
        assert!(!same_origin("http://evil.example", Some("localhost:8080")));
        assert!(!same_origin(
            "http://localhost:8081",
            Some("localhost:8080")
        ));
        assert!(!same_origin("null", Some("localhost:8080")));
        assert!(!same_origin("http://localhost:8080", None));
    }
}
