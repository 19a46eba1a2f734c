//! `evodb view [db]`: serves the playground (`www/`, with the wasm-bindgen `web` build in
//! `www/pkg/`, embedded in the binary) on 127.0.0.1, and with a database directory, that run's
//! `database.json` and `history.ndjson` under `/run/` (from a directory or a PostgreSQL run),
//! read fresh on each request. `history.ndjson?from=<byte>` answers only the complete lines written
//! since that byte, with the offset to ask from next in `X-Evodb-Next`: the page polls it to follow
//! a run as it is written. Read-only: nothing here writes.

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use include_dir::{Dir, include_dir};

use evodb_host::Access;
use evodb_host::postgres::{PgFiles, PgRun};
use evodb_host::views as output;

use crate::args::{SandboxArgs, ViewArgs};
use crate::commands::Printed;
use crate::failure::Failure;
use crate::location::{Location, StoreArgs};
use crate::session::{Runtime, ok};

/// Where the served run is read from.
enum RunSource {
    Directory(PathBuf),
    /// A run, and the component's limits for bringing its `database.json` up to date.
    Postgres(Box<PgRun>, SandboxArgs),
}

static SITE: Dir = include_dir!("$CARGO_MANIFEST_DIR/../www");

pub fn run(args: ViewArgs, store: &StoreArgs, sandbox: &SandboxArgs) -> Result<Printed, Failure> {
    let run_dir = match args.db.as_deref().map(|db| store.locate(db)).transpose()? {
        None => None,
        Some(Location::Directory(path)) => Some(RunSource::Directory(database_dir(&path)?)),
        Some(Location::Postgres(run)) => {
            if !PgFiles::open(&run, false)?.holds_database() {
                return Err(Failure::NotFound(format!("{} holds no database; check --run", run.shown())));
            }
            Some(RunSource::Postgres(run, sandbox.clone()))
        }
    };
    let listener = TcpListener::bind(("127.0.0.1", args.port))
        .map_err(|e| Failure::Io(format!("cannot listen on 127.0.0.1:{}: {e}; pass another --port", args.port)))?;
    let port = listener.local_addr().map_or(args.port, |a| a.port());
    let url = match &run_dir {
        Some(_) => format!("http://127.0.0.1:{port}/?run=/run/"),
        None => format!("http://127.0.0.1:{port}/"),
    };
    // The URL is the first line, flushed, so scripts and tests can read it and connect.
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{url}");
    let _ = stdout.flush();
    drop(stdout);
    eprintln!("Serving the evodb playground{}; Ctrl-C stops.", describe(run_dir.as_ref()));
    if args.open {
        open_browser(&url);
    }
    let run_dir = Arc::new(run_dir);
    for stream in listener.incoming().flatten() {
        // One thread a connection: a browser opens several at once, some only speculatively.
        let run_dir = Arc::clone(&run_dir);
        thread::spawn(move || serve(stream, run_dir.as_ref().as_ref()));
    }
    Ok(Printed::from(String::new()))
}

/// Answers one request and closes the connection (no keep-alive: a local page loads a dozen files).
fn serve(mut stream: TcpStream, run_dir: Option<&RunSource>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut head = String::new();
    let mut reader = BufReader::new(&stream);
    if reader.read_line(&mut head).is_err() {
        return;
    }
    // Drain the headers; the playground needs none of them.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let mut parts = head.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let reply = respond(method, target, run_dir);
    let next = reply.next.map(|n| format!("X-Evodb-Next: {n}\r\n")).unwrap_or_default();
    let header = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n{next}Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        reply.status,
        reason(reply.status),
        reply.content_type,
        reply.body.len()
    );
    let _ = stream.write_all(header.as_bytes());
    if method != "HEAD" {
        let _ = stream.write_all(&reply.body);
    }
    let _ = stream.flush();
}

struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    /// For `history.ndjson?from=`: the byte offset after the lines sent.
    next: Option<u64>,
}

/// Opens `url` in the system's browser (`--open`); a machine without one gets a warning, and the
/// server goes on.
fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let opened = std::process::Command::new(program)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    match opened {
        // Reaped on its own thread: the server runs until Ctrl-C.
        Ok(mut child) => drop(thread::spawn(move || child.wait())),
        Err(e) => eprintln!("warning: cannot open a browser ({program}: {e}); open {url} yourself"),
    }
}

/// The directory holding `database.json`: the argument itself, or its parent when it names the file.
fn database_dir(path: &Path) -> Result<PathBuf, Failure> {
    let dir = if path.is_file() { path.parent().map(Path::to_path_buf).unwrap_or_default() } else { path.into() };
    if !dir.join("database.json").is_file() {
        return Err(Failure::NotFound(format!(
            "no database.json in `{}`; pass the database directory (e.g. evolve-output/database)",
            dir.display()
        )));
    }
    Ok(dir)
}

fn describe(run_dir: Option<&RunSource>) -> String {
    match run_dir {
        Some(RunSource::Directory(dir)) => format!(" with the run in {}", dir.display()),
        Some(RunSource::Postgres(run, _)) => format!(" with {}", run.shown()),
        None => String::new(),
    }
}

/// `history.ndjson` of the run, as stored now.
fn run_history(source: &RunSource) -> Option<Vec<u8>> {
    match source {
        RunSource::Directory(dir) => std::fs::read(dir.join("history.ndjson")).ok(),
        RunSource::Postgres(run, _) => PgFiles::open(run, false).ok()?.read_history().ok()?.filter(|b| !b.is_empty()),
    }
}

/// A run's `database.json` as it is now: the engine's export of the run loaded, which re-runs the
/// events its stored snapshot lags behind.
fn current_database(run: &PgRun, sandbox: &SandboxArgs) -> Result<Vec<u8>, Failure> {
    let runtime = Runtime::start(sandbox, StoreArgs::default())?;
    let mut session = runtime.open_location(Location::Postgres(Box::new(run.clone())), Access::Read)?;
    let format = output::wit(evodb_core::ExportFormat::Json);
    session.read(|m, st, db| ok(m.call_export(st, db, format))).map(String::into_bytes)
}

/// The complete lines of the run's history from byte `from` on, and the offset after them; `None`
/// when the history is shorter than `from` (the run was replaced: the page opens it again).
fn history_since(source: &RunSource, from: u64) -> Option<(Vec<u8>, u64)> {
    let mut bytes = match source {
        RunSource::Directory(dir) => {
            // Only the new part is read: a long run's history is megabytes, polled twice a second.
            let Ok(mut file) = std::fs::File::open(dir.join("history.ndjson")) else {
                return (from == 0).then(|| (Vec::new(), 0));
            };
            let len = file.metadata().map_or(0, |m| m.len());
            if len < from {
                return None;
            }
            let mut bytes = Vec::new();
            file.seek(SeekFrom::Start(from)).ok()?;
            file.take(len - from).read_to_end(&mut bytes).ok()?;
            bytes
        }
        RunSource::Postgres(..) => {
            let all = run_history(source).unwrap_or_default();
            let start = usize::try_from(from).ok()?;
            all.get(start..)?.to_vec()
        }
    };
    // A line still being written waits for the next poll.
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    bytes.truncate(complete);
    let next = from + bytes.len() as u64;
    Some((bytes, next))
}

/// The `from` parameter of a query string, when there is one.
fn from_param(url: &str) -> Option<u64> {
    let query = url.split_once('?')?.1.split('#').next()?;
    query.split('&').find_map(|pair| pair.strip_prefix("from=")?.parse().ok())
}

fn respond(method: &str, url: &str, run_dir: Option<&RunSource>) -> Reply {
    if method != "GET" && method != "HEAD" {
        return text(405, "the playground is read-only: GET only");
    }
    let path = url.split(['?', '#']).next().unwrap_or("/").trim_start_matches('/');
    if let (Some(source), "run/history.ndjson", Some(from)) = (run_dir, path, from_param(url)) {
        return match history_since(source, from) {
            Some((body, next)) => Reply { status: 200, content_type: "application/x-ndjson", body, next: Some(next) },
            None => text(409, "the history is shorter than `from`: the run was replaced; open it again"),
        };
    }
    let path = if path.is_empty() { "index.html" } else { path };
    if path.split('/').any(|part| part == "..") {
        return text(400, "no `..` in paths");
    }
    let body = if let Some(name) = path.strip_prefix("run/") {
        match (run_dir, name) {
            // A run's database is the engine's export: a failure is the engine's message, not a 404.
            (Some(RunSource::Postgres(run, sandbox)), "database.json") => match current_database(run, sandbox) {
                Ok(body) => Some(body),
                Err(failure) => return text(500, &failure.to_string()),
            },
            (Some(RunSource::Directory(dir)), "database.json") => std::fs::read(dir.join(name)).ok(),
            // A run without history (the seed's CLI writes none) answers "no content", not 404.
            (Some(source), "history.ndjson") => match run_history(source) {
                Some(bytes) => Some(bytes),
                None => return Reply { status: 204, content_type: "text/plain", body: Vec::new(), next: None },
            },
            _ => None,
        }
    } else if path.starts_with("tests/") {
        None // the page's own Chromium tests are embedded with `www/` but are not part of the site
    } else {
        SITE.get_file(path).map(|f| f.contents().to_vec())
    };
    match body {
        Some(body) => Reply { status: 200, content_type: content_type(path), body, next: None },
        None => text(404, &format!("not found: /{path}")),
    }
}

fn text(status: u16, message: &str) -> Reply {
    Reply { status, content_type: "text/plain; charset=utf-8", body: message.as_bytes().to_vec(), next: None }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        404 => "Not Found",
        409 => "Conflict",
        500 => "Internal Server Error",
        _ => "Method Not Allowed",
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        Some("ndjson") => "application/x-ndjson",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}
