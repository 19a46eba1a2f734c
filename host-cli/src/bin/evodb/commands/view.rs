//! `evodb view [db]`: serves the playground (`www/`, with the wasm-bindgen `web` build in
//! `www/pkg/`, embedded in the binary: only what ships, not its tests) on 127.0.0.1, and with a database directory, that run's
//! `database.json` and `history.ndjson` under `/run/` (from a directory or a PostgreSQL run),
//! read fresh on each request. `history.ndjson?from=<byte>` answers only the whole lines written
//! since that byte, with the offset to ask from next in `X-Evodb-Next`: the page polls it to follow
//! a run as it is written. Read-only: nothing here writes.
//!
//! What it guarantees (docs/threat-model.md, "view"):
//! - nothing is served but the embedded site and the run's two files, and those only when each
//!   is a regular file in the run directory: a symlink, FIFO, directory, socket or device in their
//!   place is refused, the way every other command refuses it, and opening one never blocks;
//! - only requests addressed to `127.0.0.1`, `localhost` or `[::1]` are answered, so a web page
//!   that rebinds its own name to 127.0.0.1 reads nothing; no CORS header is ever sent, and the
//!   page runs under a Content-Security-Policy that lets it load only itself;
//! - a bounded server: hyper's HTTP/1 parser with a header-size cap and a header deadline, at
//!   most [`MAX_CONNECTIONS`] connections and [`MAX_RUN_READS`] reads of the run at once, each
//!   connection closed after one request or [`CONNECTION_DEADLINE`], and an accept loop that
//!   backs off when the process is out of file descriptors instead of spinning.
//!
//! Why hyper: the hand-written parser it replaces was the weakest part of the first review (no
//! header cap, one thread per connection). hyper is the maintained HTTP/1 implementation under
//! axum and reqwest, tokio is already in the build for the PostgreSQL client, and a one-thread
//! runtime with a small blocking pool for file and database reads is all a local page needs; a
//! framework (axum, tower) would add crates for two routes.

mod request;

use std::convert::Infallible;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{self, Poll};
use std::time::Duration;

use hyper::body::{Body, Bytes, Frame, Incoming, SizeHint};
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use include_dir::{Dir, include_dir};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use evodb_host::history::HISTORY_FILE as HISTORY;
use evodb_host::{Access, DATABASE_FILE, DatabaseDir, Files, FilesError, History};

use clap::ArgMatches;

use crate::context::Context;
use crate::failure::Failure;
use crate::location::{Location, StoreArgs};
use crate::matches::{optional, required};
use crate::reply::Reply;
use crate::session::{Engine, SandboxArgs};
use request::{Route, RunFile};

/// Connections served at once; past it, new ones wait in the kernel's queue. A page opens a
/// dozen files, a browser six connections per host.
const MAX_CONNECTIONS: usize = 64;
/// Reads of the run (a file, or a PostgreSQL query and export) at once, each holding the bytes
/// read until they are sent: with a run's history megabytes long, this is the memory bound.
const MAX_RUN_READS: usize = 4;
/// The request line and headers together. Browsers send 1–2 KiB; cookies other local tools set
/// for 127.0.0.1 travel too, so the cap is generous — and bounded.
const MAX_HEADER_BYTES: usize = 64 * 1024;
const MAX_HEADERS: usize = 100;
/// A connection that has not sent its whole request head by then is closed.
const HEADER_DEADLINE: Duration = Duration::from_secs(10);
/// A connection's whole life: one request and its answer (no keep-alive).
const CONNECTION_DEADLINE: Duration = Duration::from_secs(60);
/// The accept loop's longest wait after a failed accept (out of file descriptors).
const MAX_ACCEPT_BACKOFF: Duration = Duration::from_secs(1);

/// The page may load only itself: its scripts and styles from here (no inline ones), the wasm
/// engine compiled from here (`'wasm-unsafe-eval'`), the run fetched from here, the favicon as
/// an empty `data:` URL; nothing framed, no `<base>`, no form posted anywhere.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// The served run: where it lives, and the component's limits for bringing a `database.json`
/// whose store keeps it as a lagging snapshot up to date.
struct RunSource {
    location: Location,
    sandbox: SandboxArgs,
}

/// What every request sees.
struct Server {
    run: Option<RunSource>,
    port: u16,
    run_reads: Arc<Semaphore>,
}

/// The playground as it ships: its page, styles, scripts and engine (the skill's `web` build,
/// which `www/pkg` links to). Its tests and benchmark stay out of the binary.
static PAGES: [(&str, &[u8]); 2] = [
    ("index.html", include_bytes!("../../../../../www/index.html")),
    ("style.css", include_bytes!("../../../../../www/style.css")),
];
static SCRIPTS: Dir = include_dir!("$CARGO_MANIFEST_DIR/../www/js");
static ENGINE: Dir = include_dir!("$CARGO_MANIFEST_DIR/../skill/scripts/evodb-wasm");

/// The shipped file at `path` (relative to the site's root).
fn site_contents(path: &str) -> Option<&'static [u8]> {
    let in_dir = |dir: &'static Dir<'static>, rest: &str| dir.get_file(rest).map(include_dir::File::contents);
    match path.split_once('/') {
        Some(("js", rest)) => in_dir(&SCRIPTS, rest),
        Some(("pkg", rest)) => in_dir(&ENGINE, rest),
        Some(_) => None,
        None => PAGES.iter().find(|(name, _)| *name == path).map(|(_, bytes)| *bytes),
    }
}

#[derive(Debug)]
pub struct Args {
    pub db: Option<PathBuf>,
    pub port: u16,
    pub open: bool,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: optional(m, "dbPath"), port: required(m, "port"), open: m.get_flag("open") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        serve(self, &ctx.store, &ctx.sandbox)
    }
}

/// Serves the playground (and the run) until stopped. The URL is printed here, not in the
/// reply: scripts and tests read it to connect while the command runs.
fn serve(args: Args, store: &StoreArgs, sandbox: &SandboxArgs) -> Result<Reply, Failure> {
    let location = match args.db.as_deref().map(|db| store.locate(db)).transpose()? {
        // `evodb view path/to/database.json` names its directory.
        Some(Location::Directory(path)) => Some(Location::Directory(database_dir(&path)?)),
        location => location,
    };
    if let Some(location) = &location {
        // A run that is not there is refused now (exit 3), not on the page.
        location.open_reader()?;
    }
    let run = location.map(|location| RunSource { location, sandbox: sandbox.clone() });
    let listener = std::net::TcpListener::bind(("127.0.0.1", args.port))
        .map_err(|e| Failure::Io(format!("cannot listen on 127.0.0.1:{}: {e}; pass another --port", args.port)))?;
    let port = listener.local_addr().map_or(args.port, |a| a.port());
    listener.set_nonblocking(true).map_err(|e| Failure::Io(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    // One thread answers every connection; file and database reads go to a pool of at most
    // MAX_RUN_READS threads (a PostgreSQL client runs its own runtime, so they must be threads).
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .max_blocking_threads(MAX_RUN_READS)
        .thread_name("evodb-view")
        .build()
        .map_err(|e| Failure::Io(format!("cannot start the server: {e}")))?;
    let listener = {
        let _entered = runtime.enter();
        tokio::net::TcpListener::from_std(listener)
            .map_err(|e| Failure::Io(format!("cannot listen on 127.0.0.1:{port}: {e}")))?
    };
    let url = match &run {
        Some(_) => format!("http://127.0.0.1:{port}/?run=/run/"),
        None => format!("http://127.0.0.1:{port}/"),
    };
    // The URL is the first line, flushed, so scripts and tests can read it and connect.
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{url}");
    let _ = stdout.flush();
    drop(stdout);
    eprintln!("Serving the evodb playground{}; Ctrl-C stops.", describe(run.as_ref()));
    if args.open {
        open_browser(&url);
    }
    let server = Arc::new(Server { run, port, run_reads: Arc::new(Semaphore::new(MAX_RUN_READS)) });
    runtime.block_on(accept(listener, server));
    Ok(Reply::default())
}

/// Accepts connections for ever, at most [`MAX_CONNECTIONS`] at a time. A failed accept (out of
/// file descriptors: the connection stays queued and the socket stays readable) waits, doubling
/// up to [`MAX_ACCEPT_BACKOFF`], and says so once, instead of retrying at full CPU.
async fn accept(listener: tokio::net::TcpListener, server: Arc<Server>) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut backoff = Duration::ZERO;
    loop {
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else { return };
        match listener.accept().await {
            Ok((stream, _)) => {
                backoff = Duration::ZERO;
                tokio::spawn(connection(stream, slot, Arc::clone(&server)));
            }
            Err(e) => {
                if backoff.is_zero() {
                    eprintln!("warning: cannot accept a connection ({e}); waiting before the next");
                }
                backoff = (backoff * 2).clamp(Duration::from_millis(10), MAX_ACCEPT_BACKOFF);
                tokio::time::sleep(backoff).await;
            }
        }
    }
}

/// One connection: one request, answered, then closed (a local page loads a dozen files; no
/// keep-alive keeps idle connections from holding slots), within [`CONNECTION_DEADLINE`].
async fn connection(stream: tokio::net::TcpStream, _slot: OwnedSemaphorePermit, server: Arc<Server>) {
    let _ = stream.set_nodelay(true);
    let service = service_fn(move |req| answer(req, Arc::clone(&server)));
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_DEADLINE)
        .max_header_size(MAX_HEADER_BYTES)
        .max_headers(MAX_HEADERS)
        .keep_alive(false)
        .title_case_headers(true)
        .serve_connection(TokioIo::new(stream), service);
    let _ = tokio::time::timeout(CONNECTION_DEADLINE, conn).await;
}

async fn answer(req: Request<Incoming>, server: Arc<Server>) -> Result<Response<Whole>, Infallible> {
    let reply = match request::route(req.method(), req.uri(), req.headers(), server.port) {
        Err(refusal) => HttpReply::text(refusal.status, &refusal.message),
        Ok(Route::Site(path)) => site_file(&path),
        Ok(Route::Missing(path)) => HttpReply::not_found(&path),
        Ok(Route::Run(file)) => match &server.run {
            None => HttpReply::not_found(req.uri().path()),
            Some(_) => read_run(file, &server).await,
        },
    };
    Ok(reply.into_response())
}

fn site_file(path: &str) -> HttpReply {
    match site_contents(path) {
        Some(contents) => HttpReply {
            status: 200,
            content_type: content_type(path),
            body: Bytes::from_static(contents),
            next: None,
            // The site changes only with the binary; another evodb on the same port is another site.
            cache: "no-cache",
        },
        None => HttpReply::not_found(&format!("/{path}")),
    }
}

/// Reads the run on the blocking pool, at most [`MAX_RUN_READS`] at once: the permit goes with
/// the read, and then with the bytes until they are sent, so a read whose client went away still
/// counts until it ends.
async fn read_run(file: RunFile, server: &Arc<Server>) -> HttpReply {
    let Ok(permit) = Arc::clone(&server.run_reads).acquire_owned().await else {
        return HttpReply::text(503, "the server is stopping");
    };
    let server = Arc::clone(server);
    let read = tokio::task::spawn_blocking(move || {
        let source = server.run.as_ref().expect("only a server with a run reads it");
        let mut reply = respond(source, file).unwrap_or_else(|refused| refused);
        reply.body = Bytes::from_owner(Held { bytes: reply.body, _permit: permit });
        reply
    });
    read.await.unwrap_or_else(|e| HttpReply::text(500, &format!("reading the run failed: {e}; this is a bug in evodb")))
}

/// Bytes read from the run, holding their read permit until they are sent.
struct Held {
    bytes: Bytes,
    _permit: OwnedSemaphorePermit,
}

impl AsRef<[u8]> for Held {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

/// The answer to a request for one of the run's files (blocking: files, PostgreSQL, the engine),
/// read through the store's [`Files`] as the component reads them.
fn respond(run: &RunSource, file: RunFile) -> Result<HttpReply, HttpReply> {
    let mut files = run.location.open_reader().map_err(|failure| match failure {
        Failure::NotFound(message) => HttpReply::text(404, &message),
        failure => HttpReply::text(503, &format!("cannot read {}: {failure}", run.location.shown())),
    })?;
    match file {
        RunFile::Database => database(run, &mut *files),
        RunFile::History(from) => history(&mut *files, from),
    }
}

/// The run's `database.json` as it is now: the stored one, or the engine's export of the run
/// when the store keeps it as a snapshot that lags its events (the load re-runs them).
fn database(run: &RunSource, files: &mut dyn Files) -> Result<HttpReply, HttpReply> {
    let bytes = match files.is_current() {
        true => files
            .read_database()
            .map_err(unreadable)?
            .ok_or_else(|| HttpReply::text(404, "the run holds no database.json any more (was it moved?)"))?,
        false => {
            let export = || -> Result<Vec<u8>, Failure> {
                let engine = Engine::start(&run.sandbox, StoreArgs::default())?;
                let mut session = engine.open_location(run.location.clone(), Access::Read)?;
                session.export(evodb_core::ExportFormat::Json).map(String::into_bytes)
            };
            // A failure is the engine's message, not a 404.
            export().map_err(|failure| HttpReply::text(500, &failure.to_string()))?
        }
    };
    Ok(HttpReply::run_file(DATABASE_FILE, bytes, None))
}

/// The history's whole lines (from byte `from` on, with `from`). A run without a history (the
/// seed's CLI writes none) answers "no content" to the whole, and nothing new from byte 0.
fn history(files: &mut dyn Files, from: Option<u64>) -> Result<HttpReply, HttpReply> {
    let at = from.unwrap_or(0);
    // Only the new part is read, from the byte before `from`, to tell whether `from` starts a
    // line: a long run's history is megabytes, polled twice a second.
    let Some(History { len, bytes }) = files.read_history_from(at.saturating_sub(1)).map_err(unreadable)? else {
        return Ok(match from {
            None => HttpReply::no_content(),
            Some(0) => HttpReply::run_file(HISTORY, Vec::new(), Some(0)),
            Some(_) => replaced(),
        });
    };
    if at > len {
        return Err(replaced());
    }
    if from.is_none() && len == 0 {
        return Ok(HttpReply::no_content());
    }
    Ok(whole_lines(bytes, at, from.is_some()))
}

/// `window` (a history from offset `from - 1`, or 0) cut to its whole lines from `from` on; with
/// `?from=`, the offset to ask from next goes along.
fn whole_lines(mut window: Vec<u8>, from: u64, following: bool) -> HttpReply {
    let (start, end, next) = request::whole_lines(&window, from);
    window.truncate(end);
    window.drain(..start);
    HttpReply::run_file(HISTORY, window, following.then_some(next))
}

/// A file of the run the store refused (it is not a regular file: 403) or could not read.
fn unreadable(err: FilesError) -> HttpReply {
    match err {
        FilesError::Refused(message) => HttpReply::text(403, &message),
        FilesError::Failed(message) => HttpReply::text(500, &message),
    }
}

fn replaced() -> HttpReply {
    HttpReply::text(409, "the history is shorter than `from`: the run was replaced; open it again")
}

/// A response, before hyper's types.
struct HttpReply {
    status: u16,
    content_type: &'static str,
    body: Bytes,
    /// For `history.ndjson?from=`: the byte offset after the lines sent.
    next: Option<u64>,
    cache: &'static str,
}

impl HttpReply {
    fn text(status: u16, message: &str) -> HttpReply {
        let body = Bytes::from(format!("{message}\n"));
        HttpReply { status, content_type: "text/plain; charset=utf-8", body, next: None, cache: "no-store" }
    }

    fn not_found(path: &str) -> HttpReply {
        HttpReply::text(404, &format!("not found: {path}"))
    }

    fn no_content() -> HttpReply {
        HttpReply { status: 204, content_type: "text/plain", body: Bytes::new(), next: None, cache: "no-store" }
    }

    /// One of the run's files: never cached (it changes as the run goes, and it is the user's data).
    fn run_file(name: &str, bytes: Vec<u8>, next: Option<u64>) -> HttpReply {
        HttpReply { status: 200, content_type: content_type(name), body: Bytes::from(bytes), next, cache: "no-store" }
    }

    /// The response with the headers a local tool sends: no CORS header (the page is
    /// same-origin; another origin reads nothing), no sniffing, no referrer, nothing embedded by
    /// another site, and the page's Content-Security-Policy.
    fn into_response(self) -> Response<Whole> {
        let mut response = Response::new(Whole(Some(self.body).filter(|b| !b.is_empty())));
        *response.status_mut() = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(self.content_type));
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(self.cache));
        headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
        headers.insert("cross-origin-resource-policy", HeaderValue::from_static("same-origin"));
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        if self.status == 405 {
            headers.insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        }
        if let Some(next) = self.next {
            headers.insert("x-evodb-next", HeaderValue::from(next));
        }
        response
    }
}

/// A body sent in one piece (http-body-util's `Full`, without the crate).
struct Whole(Option<Bytes>);

impl Body for Whole {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut task::Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(self.0.take().map(|bytes| Ok(Frame::data(bytes))))
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.0.as_ref().map_or(0, |b| b.len() as u64))
    }
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
        Ok(mut child) => drop(std::thread::spawn(move || child.wait())),
        Err(e) => eprintln!("warning: cannot open a browser ({program}: {e}); open {url} yourself"),
    }
}

/// The directory holding `database.json`: the argument itself, or its parent when it names the
/// file; resolved, and refused as every command refuses it when `database.json` or
/// `history.ndjson` is not a regular file (a symlink could lead out of it, a FIFO would block).
fn database_dir(path: &Path) -> Result<PathBuf, Failure> {
    let dir = if path.is_file() { path.parent().map(Path::to_path_buf).unwrap_or_default() } else { path.into() };
    let dir = if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir };
    let resolved = DatabaseDir::open(&dir, Access::Read)?.path().map(Path::to_path_buf);
    let Some(resolved) = resolved.filter(|d| std::fs::symlink_metadata(d.join(DATABASE_FILE)).is_ok()) else {
        return Err(Failure::NotFound(format!(
            "no database.json in `{}`; pass the database directory (e.g. evolve-output/database)",
            dir.display()
        )));
    };
    Ok(resolved)
}

fn describe(run: Option<&RunSource>) -> String {
    match run.map(|run| &run.location) {
        Some(Location::Directory(dir)) => format!(" with the run in {}", dir.display()),
        Some(location) => format!(" with {}", location.shown()),
        None => String::new(),
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        Some("ndjson") => "application/x-ndjson",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("ts") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
