//! `evodb view` under attack (issue 35: items 4 and 5, and the `view` lines of "Low"): a catalogue
//! of hostile cases against the real server, each named, each checking the status, the message and
//! that nothing from outside the run directory is served.
//!
//! - files: a symlink (out of the directory, within it, dangling, to /dev/zero), FIFO, directory,
//!   socket or device at `database.json` or `history.ndjson`, planted before `view` starts (refused
//!   like every command refuses it: exit 5) or after (403 naming what it is, at once — a FIFO never
//!   hangs a request);
//! - addressing: only `127.0.0.1`, `localhost` and `[::1]` hosts, bare or with the port, are
//!   answered (DNS rebinding gets 421), in the `Host:` header and in absolute-form targets;
//! - headers: no CORS ever, `nosniff`, `no-referrer`, a CSP the page needs nothing beyond;
//! - targets: traversal, plain and percent-encoded, absolute-form, other methods;
//! - `?from=`: malformed values are 400 naming `from`; no offset yields a torn line;
//! - load: header size, header deadline, idle connections, file descriptors running out;
//! - a PostgreSQL run deleted while it is viewed is 404 "no run named …".
//!
//! Each test runs its cases and reports every failing one (with its name) at once.

use crate::cli;

use std::fmt::Debug;
use std::fs;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cli::postgres::Cluster;
use cli::viewer::{Viewer, header, view, view_with};
use cli::{Run, command, evodb, seed_args};

/// A file next to the run directory that must never be served.
const SECRET: &str = "TOP-SECRET-outside-the-run";
/// What the seeded run's database holds (its program's code): a refused request must not show it.
const RUN_MARK: &str = "return 0";

/// Cases run and failed, reported together at the end of a test.
struct Catalogue {
    name: &'static str,
    ran: usize,
    failed: Vec<String>,
}

impl Catalogue {
    fn new(name: &'static str) -> Catalogue {
        Catalogue { name, ran: 0, failed: Vec::new() }
    }

    fn case(&mut self, case: &str, ok: bool, detail: impl Debug) {
        self.ran += 1;
        if !ok {
            self.failed.push(format!("{case}: {detail:?}"));
        }
    }

    fn finish(self) {
        println!("hostile view catalogue, {}: {} cases, {} failed", self.name, self.ran, self.failed.len());
        assert!(
            self.failed.is_empty(),
            "{} of {} cases failed:\n{}",
            self.failed.len(),
            self.ran,
            self.failed.join("\n")
        );
    }
}

/// A response: its status (0 when the connection closed without one), header block and body.
#[derive(Debug)]
struct Answer {
    status: u16,
    head: String,
    body: String,
    took: Duration,
}

impl Answer {
    fn header(&self, name: &str) -> Option<String> {
        header(&self.head, name)
    }

    /// Nothing of the run or of the secret next to it, no CORS header.
    fn leaks(&self) -> bool {
        self.body.contains(SECRET)
            || self.body.contains("root:x:0")
            || self.head.to_ascii_lowercase().contains("access-control-")
    }
}

/// Sends `raw` on a new connection and reads the answer to the end (the server closes after one).
fn send(viewer: &Viewer, raw: &[u8]) -> Answer {
    let started = Instant::now();
    let mut stream = TcpStream::connect(viewer.address()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    // The server may answer and close before reading all of it (a cap): that is not a failure.
    let _ = stream.write_all(raw);
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let took = started.elapsed();
    let split = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(response.len());
    let head = String::from_utf8_lossy(&response[..split]).into_owned();
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = String::from_utf8_lossy(response.get(split + 4..).unwrap_or_default()).into_owned();
    Answer { status, head, body, took }
}

fn request(viewer: &Viewer, method: &str, target: &str) -> Answer {
    send(viewer, format!("{method} {target} HTTP/1.1\r\nHost: {}\r\n\r\n", viewer.address()).as_bytes())
}

fn get(viewer: &Viewer, target: &str) -> Answer {
    request(viewer, "GET", target)
}

/// `<tmp>/db`, a seeded run, and `<tmp>/secret.txt` beside it.
fn seeded_run(tmp: &Path) -> PathBuf {
    let db = tmp.join("db");
    evodb(&seed_args(&db)).json();
    fs::write(tmp.join("secret.txt"), format!("{SECRET}\n")).unwrap();
    db
}

/// What the server's /proc/<pid>/status says of `field` (kB for memory, a count for Threads).
fn proc_status(viewer: &Viewer, field: &str) -> u64 {
    let status = fs::read_to_string(format!("/proc/{}/status", viewer.pid())).unwrap();
    let line = status.lines().find(|l| l.starts_with(&format!("{field}:"))).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The server's CPU time so far, in clock ticks (user + system).
fn cpu_ticks(viewer: &Viewer) -> u64 {
    let stat = fs::read_to_string(format!("/proc/{}/stat", viewer.pid())).unwrap();
    let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
    // After the command name: state is field 3, utime 14 and stime 15 (1-based, as in proc(5)).
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// Runs `evodb args…` to its end, or kills it after `limit` (`None`: it hung).
fn run_within(args: &[&str], limit: Duration) -> Option<Run> {
    let mut child = command().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if child.try_wait().unwrap().is_some() {
            return Some(Run::from(child.wait_with_output().unwrap()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

// ------------------------------------------------------------------------------------------
// Files that are not regular files

/// What can stand where a run's file should be.
#[derive(Clone, Copy, Debug)]
enum Planted {
    /// A symlink to a file outside the run directory (the secret).
    SymlinkOut,
    /// A symlink to another file in the run directory: still not the file itself.
    SymlinkIn,
    Dangling,
    /// A symlink to a device that never ends.
    DevZero,
    Fifo,
    Directory,
    Socket,
    /// A character device (made with mknod: root only).
    Device,
}

const PLANTED: [Planted; 8] = [
    Planted::SymlinkOut,
    Planted::SymlinkIn,
    Planted::Dangling,
    Planted::DevZero,
    Planted::Fifo,
    Planted::Directory,
    Planted::Socket,
    Planted::Device,
];

impl Planted {
    /// How the refusal names it.
    fn what(self) -> &'static str {
        match self {
            Planted::SymlinkOut | Planted::SymlinkIn | Planted::Dangling | Planted::DevZero => "a symbolic link",
            Planted::Fifo => "a FIFO",
            Planted::Directory => "a directory",
            Planted::Socket => "a socket",
            Planted::Device => "a device",
        }
    }

    /// Replaces `path` with this; false when this machine cannot make it (a device, not root).
    fn plant(self, path: &Path) -> bool {
        let _ = fs::remove_file(path);
        let dir = path.parent().unwrap();
        match self {
            Planted::SymlinkOut => symlink(dir.parent().unwrap().join("secret.txt"), path).unwrap(),
            Planted::SymlinkIn => {
                fs::write(dir.join("copy.txt"), "{}\n").unwrap();
                symlink("copy.txt", path).unwrap();
            }
            Planted::Dangling => symlink(dir.join("nothing-here"), path).unwrap(),
            Planted::DevZero => symlink("/dev/zero", path).unwrap(),
            Planted::Fifo => nix::unistd::mkfifo(path, nix::sys::stat::Mode::S_IRWXU).unwrap(),
            Planted::Directory => fs::create_dir(path).unwrap(),
            Planted::Socket => drop(std::os::unix::net::UnixListener::bind(path).unwrap()),
            Planted::Device => {
                use nix::sys::stat::{Mode, SFlag, makedev, mknod};
                // /dev/null's numbers: harmless if it were read.
                return mknod(path, SFlag::S_IFCHR, Mode::S_IRUSR | Mode::S_IWUSR, makedev(1, 3)).is_ok();
            }
        }
        true
    }
}

#[test]
fn a_run_file_that_is_not_a_regular_file_is_refused_before_view_starts() {
    let mut cases = Catalogue::new("file kinds, before start");
    for name in ["database.json", "history.ndjson"] {
        for planted in PLANTED {
            let tmp = tempfile::tempdir().unwrap();
            let db = seeded_run(tmp.path());
            if !planted.plant(&db.join(name)) {
                continue;
            }
            let case = format!("{name} is {planted:?} before view starts");
            // A FIFO must not hang the start: it is never opened.
            let run = run_within(&["view", db.to_str().unwrap(), "--port", "0"], Duration::from_secs(10));
            let Some(run) = run else {
                cases.case(&case, false, "view did not exit within 10 s");
                continue;
            };
            let message = format!("it is {}, not a regular file", planted.what());
            let ok = run.code == 5
                && run.stderr.contains(&message)
                && run.stderr.contains(name)
                && run.stdout.is_empty()
                && !run.stderr.contains(SECRET);
            cases.case(&case, ok, &run);
        }
    }
    cases.finish();
}

#[test]
fn a_run_file_replaced_while_served_is_refused_at_once_and_never_read() {
    let mut cases = Catalogue::new("file kinds, while served");
    for name in ["database.json", "history.ndjson"] {
        for planted in PLANTED {
            let tmp = tempfile::tempdir().unwrap();
            let db = seeded_run(tmp.path());
            let viewer = view(&[db.to_str().unwrap()]);
            assert_eq!(get(&viewer, &format!("/run/{name}")).status, 200);
            if !planted.plant(&db.join(name)) {
                continue;
            }
            let targets: &[String] = if name == "history.ndjson" {
                &[format!("/run/{name}"), format!("/run/{name}?from=0"), format!("/run/{name}?from=10")]
            } else {
                &[format!("/run/{name}")]
            };
            for target in targets {
                let answer = get(&viewer, target);
                let ok = answer.status == 403
                    && answer.body.contains(&format!("it is {}, not a regular file", planted.what()))
                    && answer.body.contains(name)
                    && !answer.leaks()
                    && answer.took < Duration::from_secs(3);
                cases.case(&format!("{target} is {planted:?} while served"), ok, &answer);
            }
            // The server goes on answering.
            let page = get(&viewer, "/");
            cases.case(&format!("{name} is {planted:?}: the page still loads"), page.status == 200, page.status);
        }
    }
    cases.finish();
}

#[test]
fn a_fifo_history_never_holds_up_other_requests() {
    let tmp = tempfile::tempdir().unwrap();
    let db = seeded_run(tmp.path());
    let viewer = view(&[db.to_str().unwrap()]);
    Planted::Fifo.plant(&db.join("history.ndjson"));
    let started = Instant::now();
    std::thread::scope(|s| {
        let polls: Vec<_> = (0..8).map(|_| s.spawn(|| get(&viewer, "/run/history.ndjson?from=0").status)).collect();
        let pages: Vec<_> = (0..8).map(|_| s.spawn(|| get(&viewer, "/js/main.js").status)).collect();
        assert!(polls.into_iter().all(|p| p.join().unwrap() == 403));
        assert!(pages.into_iter().all(|p| p.join().unwrap() == 200));
    });
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert!(proc_status(&viewer, "Threads") <= 8, "no thread left blocked per request");
}

#[test]
fn a_run_directory_named_through_a_symlink_is_served() {
    // The user names the directory: a symlink to it is theirs to use (as with every command).
    let tmp = tempfile::tempdir().unwrap();
    let db = seeded_run(tmp.path());
    let link = tmp.path().join("link");
    symlink(&db, &link).unwrap();
    let viewer = view(&[link.to_str().unwrap()]);
    let answer = get(&viewer, "/run/database.json");
    assert_eq!(answer.status, 200);
    assert!(answer.body.contains(RUN_MARK));
}

// ------------------------------------------------------------------------------------------
// Whom the server answers

#[test]
fn only_requests_for_the_loopback_are_answered() {
    let tmp = tempfile::tempdir().unwrap();
    let db = seeded_run(tmp.path());
    let viewer = view(&[db.to_str().unwrap()]);
    let port = viewer.port();
    let other = port.wrapping_add(1);
    let mut cases = Catalogue::new("hosts");
    let answered = [
        format!("127.0.0.1:{port}"),
        "127.0.0.1".into(),
        format!("localhost:{port}"),
        "localhost".into(),
        format!("LOCALHOST:{port}"),
        format!("[::1]:{port}"),
        "[::1]".into(),
    ];
    for host in &answered {
        let answer = send(&viewer, format!("GET /run/database.json HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes());
        cases.case(&format!("Host: {host}"), answer.status == 200 && answer.body.contains(RUN_MARK), &answer);
    }
    let misdirected = [
        "evil.example".to_string(),
        format!("evil.example:{port}"),
        format!("127.0.0.1:{other}"),
        format!("localhost:{other}"),
        format!("127.0.0.1.nip.io:{port}"),
        format!("localhost.:{port}"),
        format!("127.1:{port}"),
        format!("0.0.0.0:{port}"),
        format!("[::ffff:127.0.0.1]:{port}"),
        format!("user@127.0.0.1:{port}"),
        format!("127.0.0.1:{port}:{port}"),
        format!("127.0.0.1:0{port}"),
        format!("127.0.0.1 evil.example:{port}"),
        String::new(),
    ];
    for host in &misdirected {
        let answer = send(&viewer, format!("GET /run/database.json HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes());
        let ok = answer.status == 421
            && answer.body.contains("answers only requests for 127.0.0.1, localhost or [::1]")
            && !answer.body.contains(RUN_MARK)
            && !answer.leaks();
        cases.case(&format!("Host: {host:?}"), ok, &answer);
    }
    let a = viewer.address();
    let raw = [
        ("no Host (HTTP/1.0)", "GET /run/database.json HTTP/1.0\r\n\r\n".to_string(), 400),
        (
            "two Host headers",
            format!("GET /run/database.json HTTP/1.1\r\nHost: {a}\r\nHost: evil.example\r\n\r\n"),
            400,
        ),
        ("two loopback Host headers", format!("GET / HTTP/1.1\r\nHost: {a}\r\nHost: {a}\r\n\r\n"), 400),
        (
            "absolute-form to another host",
            format!("GET http://evil.example/run/database.json HTTP/1.1\r\nHost: {a}\r\n\r\n"),
            421,
        ),
        (
            "absolute-form, another Host",
            format!("GET http://{a}/run/database.json HTTP/1.1\r\nHost: evil.example\r\n\r\n"),
            421,
        ),
        ("absolute-form https", format!("GET https://{a}/run/database.json HTTP/1.1\r\nHost: {a}\r\n\r\n"), 421),
        ("absolute-form to here", format!("GET http://{a}/run/database.json HTTP/1.1\r\nHost: {a}\r\n\r\n"), 200),
        (
            "POST from another host",
            format!("POST /run/database.json HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n"),
            421,
        ),
        ("CONNECT to here", format!("CONNECT {a} HTTP/1.1\r\nHost: {a}\r\n\r\n"), 405),
        ("CONNECT elsewhere", "CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n".to_string(), 421),
    ];
    for (case, raw, status) in &raw {
        let answer = send(&viewer, raw.as_bytes());
        let ok = answer.status == *status && (*status == 200 || !answer.body.contains(RUN_MARK)) && !answer.leaks();
        cases.case(case, ok, &answer);
    }
    cases.finish();
}

/// Visible ASCII hosts, most of them near a loopback form.
fn hosts() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let name = prop_oneof![
        Just("127.0.0.1".to_string()),
        Just("localhost".to_string()),
        Just("LocalHost".to_string()),
        Just("[::1]".to_string()),
        Just("::1".to_string()),
        "[a-z0-9.-]{1,16}",
    ];
    let port = prop_oneof![Just(String::new()), Just(":PORT".to_string()), Just(":".to_string()), "[:0-9]{1,6}"];
    let noise = prop_oneof![Just(String::new()), "[!-~]{1,3}"];
    prop_oneof![(noise.clone(), name, port, noise).prop_map(|(a, n, p, b)| format!("{a}{n}{p}{b}")), "[!-~]{0,24}",]
}

#[test]
fn fuzzed_hosts_other_than_the_loopback_are_never_answered() {
    use proptest::test_runner::{Config, TestCaseError, TestRunner};
    let tmp = tempfile::tempdir().unwrap();
    let db = seeded_run(tmp.path());
    let viewer = view(&[db.to_str().unwrap()]);
    let port = viewer.port();
    let allowed = |host: &str| {
        let name = host.strip_suffix(&format!(":{port}")).unwrap_or(host);
        ["127.0.0.1", "localhost", "[::1]"].iter().any(|l| l.eq_ignore_ascii_case(name))
    };
    let mut runner = TestRunner::new(Config { cases: 96, failure_persistence: None, ..Config::default() });
    runner
        .run(&hosts(), |host| {
            let host = host.replace("PORT", &port.to_string());
            let answer = send(&viewer, format!("GET /run/database.json HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes());
            let expected = if allowed(&host) { 200 } else { 421 };
            if answer.status != expected || (expected != 200 && answer.body.contains(RUN_MARK)) || answer.leaks() {
                return Err(TestCaseError::fail(format!("Host: {host:?} answered {answer:?}")));
            }
            Ok(())
        })
        .unwrap();
}

// ------------------------------------------------------------------------------------------
// Headers

#[test]
fn responses_carry_a_local_tools_headers_and_never_cors() {
    let tmp = tempfile::tempdir().unwrap();
    let db = seeded_run(tmp.path());
    let viewer = view(&[db.to_str().unwrap()]);
    let a = viewer.address();
    let mut cases = Catalogue::new("headers");

    let page = get(&viewer, "/");
    let csp = page.header("Content-Security-Policy").unwrap_or_default();
    for directive in [
        "default-src 'none'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
    ] {
        cases.case(&format!("the page's CSP has {directive}"), csp.split("; ").any(|d| d == directive), &csp);
    }
    cases.case(
        "the CSP allows no inline script or eval",
        !csp.contains("unsafe-inline") && !csp.contains("'unsafe-eval'"),
        &csp,
    );
    cases.case("the page: nosniff", page.header("X-Content-Type-Options").as_deref() == Some("nosniff"), &page.head);
    cases.case("the page: no referrer", page.header("Referrer-Policy").as_deref() == Some("no-referrer"), &page.head);
    cases.case("the page: revalidated", page.header("Cache-Control").as_deref() == Some("no-cache"), &page.head);

    let from_elsewhere = send(
        &viewer,
        format!("GET /run/database.json HTTP/1.1\r\nHost: {a}\r\nOrigin: http://evil.example\r\n\r\n").as_bytes(),
    );
    cases.case("a request with another Origin gets no CORS header", !from_elsewhere.leaks(), &from_elsewhere.head);
    cases.case(
        "the run's files are never stored in a cache",
        from_elsewhere.header("Cache-Control").as_deref() == Some("no-store"),
        &from_elsewhere.head,
    );
    cases.case(
        "the run's files are not for other sites to embed",
        from_elsewhere.header("Cross-Origin-Resource-Policy").as_deref() == Some("same-origin"),
        &from_elsewhere.head,
    );
    let preflight = send(
        &viewer,
        format!(
            "OPTIONS /run/database.json HTTP/1.1\r\nHost: {a}\r\nOrigin: http://evil.example\r\n\
             Access-Control-Request-Method: GET\r\n\r\n"
        )
        .as_bytes(),
    );
    cases.case(
        "a CORS preflight is refused without CORS headers",
        preflight.status == 405 && preflight.header("Allow").as_deref() == Some("GET, HEAD") && !preflight.leaks(),
        &preflight,
    );
    let head = request(&viewer, "HEAD", "/run/database.json");
    let length = fs::metadata(db.join("database.json")).unwrap().len().to_string();
    cases.case(
        "HEAD: the headers, no body",
        head.status == 200 && head.body.is_empty() && head.header("Content-Length") == Some(length),
        &head,
    );
    // Every answer, refusals included, says nosniff and carries the policy.
    for (case, answer) in [
        ("404", get(&viewer, "/nothing.js")),
        ("400", get(&viewer, "/run/history.ndjson?from=x")),
        ("405", request(&viewer, "DELETE", "/")),
        ("421", send(&viewer, b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n")),
    ] {
        let ok = answer.header("X-Content-Type-Options").as_deref() == Some("nosniff")
            && answer.header("Content-Security-Policy").is_some()
            && answer.header("Content-Type").as_deref() == Some("text/plain; charset=utf-8");
        cases.case(&format!("a {case} is plain text, not sniffed"), ok, &answer.head);
    }
    cases.finish();
}

/// The CSP has no `'unsafe-inline'` and no `'unsafe-eval'`: the page must need neither, nor load
/// anything from elsewhere (a static check of `www/`, for machines without Chromium).
#[test]
fn the_page_needs_nothing_its_content_security_policy_forbids() {
    let www = Path::new(env!("CARGO_MANIFEST_DIR")).join("../www");
    let html = fs::read_to_string(www.join("index.html")).unwrap();
    for script in html.split("<script").skip(1) {
        let (tag, rest) = script.split_once('>').unwrap();
        assert!(tag.contains(" src=\""), "an inline script: <script{tag}>");
        assert!(rest.trim_start().starts_with("</script>"), "a script with a body");
    }
    assert!(!html.contains("<style"), "an inline stylesheet");
    assert!(!html.contains(" style=\""), "an inline style attribute");
    let handler = html.split_whitespace().find(|word| word.starts_with("on") && word.contains("=\""));
    assert_eq!(handler, None, "an inline event handler");
    for attr in html.split(" src=\"").skip(1).chain(html.split(" href=\"").skip(1)) {
        let url = attr.split('"').next().unwrap();
        assert!(!url.contains("//"), "loads {url} from elsewhere");
    }
    let mut scripts = vec![www.join("pkg/evodb.js")];
    let mut dirs = vec![www.join("js")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(dir).unwrap().flatten() {
            if entry.path().is_dir() {
                dirs.push(entry.path());
            } else {
                scripts.push(entry.path());
            }
        }
    }
    for path in scripts {
        let js = fs::read_to_string(&path).unwrap();
        for forbidden in
            ["eval(", "new Function(", "setAttribute(\"style\"", "innerHTML", "insertAdjacentHTML", "document.write"]
        {
            assert!(!js.contains(forbidden), "{} uses {forbidden}", path.display());
        }
    }
}

// ------------------------------------------------------------------------------------------
// Request targets and methods

#[test]
fn no_target_reaches_outside_the_site_or_the_runs_two_files() {
    let tmp = tempfile::tempdir().unwrap();
    let db = seeded_run(tmp.path());
    let viewer = view(&[db.to_str().unwrap()]);
    let a = viewer.address().to_string();
    let long = format!("/{}", "a".repeat(70 * 1024));
    let absolute = format!("http://{a}/../secret.txt");
    let targets: [(&str, &str, u16); 24] = [
        ("dot-dot out of the run", "/run/../secret.txt", 400),
        ("dot-dot to /etc", "/run/../../etc/passwd", 400),
        ("dot-dot from the root", "/../secret.txt", 400),
        ("percent-encoded dot-dot", "/%2e%2e/secret.txt", 400),
        ("percent-encoded dot-dot in run", "/run/%2e%2e/secret.txt", 400),
        ("percent-encoded slash", "/run/..%2fsecret.txt", 400),
        ("upper-case percent-encoding", "/run/%2E%2E%2Fsecret.txt", 400),
        ("double-encoded dot-dot", "/run/%252e%252e/secret.txt", 400),
        ("an encoded NUL", "/run/database.json%00.html", 400),
        ("a dot segment", "/run/./database.json", 400),
        ("a leading double slash", "//etc/passwd", 400),
        ("an empty segment", "/run//database.json", 400),
        ("dot-dot under pkg", "/pkg/../../../../etc/passwd", 400),
        ("absolute-form with dot-dot", &absolute, 400),
        ("an absolute path", "/etc/passwd", 404),
        ("the secret by name", "/secret.txt", 404),
        ("another file of the run directory", "/run/secret.txt", 404),
        ("the run directory's listing", "/run/", 404),
        ("a run file as a directory", "/run/database.json/", 404),
        ("the page's own tests", "/tests/helpers.mjs", 404),
        ("the run in upper case", "/RUN/database.json", 404),
        ("a query is not a path", "/index.html?/../../etc/passwd", 200),
        ("a backslash", "/run/..\\secret.txt", 400),
        ("a 70 KiB target", &long, 431),
    ];
    let mut cases = Catalogue::new("targets");
    for (case, target, status) in targets {
        let answer = get(&viewer, target);
        cases.case(
            case,
            answer.status == status && !answer.leaks(),
            (target.get(..60), &answer.status, &answer.body.get(..200)),
        );
    }
    cases.finish();
}

#[test]
fn only_get_and_head_are_answered() {
    let tmp = tempfile::tempdir().unwrap();
    let db = seeded_run(tmp.path());
    let viewer = view(&[db.to_str().unwrap()]);
    let before = fs::read(db.join("database.json")).unwrap();
    let mut cases = Catalogue::new("methods");
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "get"] {
        let answer = request(&viewer, method, "/run/database.json");
        let ok = answer.status == 405
            && answer.header("Allow").as_deref() == Some("GET, HEAD")
            && answer.body.contains("read-only")
            && !answer.body.contains(RUN_MARK);
        cases.case(method, ok, &answer);
    }
    let star = request(&viewer, "OPTIONS", "*");
    cases.case("OPTIONS *", star.status == 405 || star.status == 400, &star);
    // A huge body announced is not waited for.
    let a = viewer.address();
    let upload = send(
        &viewer,
        format!("PUT /run/database.json HTTP/1.1\r\nHost: {a}\r\nContent-Length: 10000000000\r\n\r\nxx").as_bytes(),
    );
    cases.case("PUT announcing 10 GB", upload.status == 405 && upload.took < Duration::from_secs(3), &upload);
    cases.case("nothing was written", fs::read(db.join("database.json")).unwrap() == before, "database.json changed");
    cases.finish();
}

// ------------------------------------------------------------------------------------------
// ?from=

/// A run whose history is three whole lines and a torn fourth.
const LINES: &str = "{\"a\":1}\n{\"b\":22}\n{\"c\":333}\n";
const TORN: &str = "{\"d\":";

#[test]
fn from_is_a_byte_offset_or_a_400_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let db = seeded_run(tmp.path());
    fs::write(db.join("history.ndjson"), format!("{LINES}{TORN}")).unwrap();
    let viewer = view(&[db.to_str().unwrap()]);
    let mut cases = Catalogue::new("from");
    for query in [
        "from=abc",
        "from=",
        "from",
        "from=-1",
        "from=+1",
        "from=1e3",
        "from=0x10",
        "from=%31",
        "from=1%20",
        "from=1.0",
        "from=18446744073709551616",
        "from=99999999999999999999999",
        "from=1&from=2",
        "x=1&from=&y=2",
    ] {
        let answer = get(&viewer, &format!("/run/history.ndjson?{query}"));
        let ok = answer.status == 400 && answer.body.contains("from") && answer.header("X-Evodb-Next").is_none();
        cases.case(&format!("?{query}"), ok, &answer);
    }
    let whole = get(&viewer, "/run/history.ndjson");
    cases.case("the whole history: whole lines only", whole.status == 200 && whole.body == LINES, &whole);
    let other = get(&viewer, "/run/history.ndjson?x=1&from2=3");
    cases.case("other parameters are not `from`", other.status == 200 && other.body == LINES, &other);
    let database = get(&viewer, "/run/database.json?from=abc");
    cases.case("`from` on database.json is not looked at", database.status == 200, database.status);
    let len = (LINES.len() + TORN.len()) as u64;
    for (case, from, status) in [
        ("from beyond the end", len + 1, 409),
        ("from at u64::MAX", u64::MAX, 409),
        ("from inside the torn last line", len, 200),
    ] {
        let answer = get(&viewer, &format!("/run/history.ndjson?from={from}"));
        let next = answer.header("X-Evodb-Next");
        let ok =
            answer.status == status && (status != 200 || (answer.body.is_empty() && next == Some(from.to_string())));
        cases.case(case, ok, &answer);
    }
    cases.finish();
}

#[test]
fn no_from_yields_a_torn_line_and_following_loses_no_line() {
    let tmp = tempfile::tempdir().unwrap();
    let db = seeded_run(tmp.path());
    let path = db.join("history.ndjson");
    fs::write(&path, format!("{LINES}{TORN}")).unwrap();
    let viewer = view(&[db.to_str().unwrap()]);
    let text = format!("{LINES}{TORN}");
    let starts: Vec<usize> = (0..=text.len()).filter(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n').collect();
    for from in 0..=text.len() {
        let answer = get(&viewer, &format!("/run/history.ndjson?from={from}"));
        assert_eq!(answer.status, 200, "from={from}: {answer:?}");
        let next: usize = answer.header("X-Evodb-Next").unwrap().parse().unwrap();
        // The first line starting at or after `from`, and every whole line after it.
        let start = starts.iter().copied().find(|&s| s >= from).unwrap_or(text.len());
        if start < LINES.len() {
            assert_eq!(answer.body, LINES[start..], "from={from}");
            assert_eq!(next, LINES.len(), "from={from}");
        } else {
            assert_eq!(answer.body, "", "from={from}: nothing whole after it");
            assert!(next >= from && next <= text.len(), "from={from}: next {next}");
        }
    }
    // The page opened mid-append (it asked from inside the torn line): once the line is complete
    // it is skipped (its start was never sent whole), and the next one arrives whole.
    let from = LINES.len() + 2;
    let mut file = fs::OpenOptions::new().append(true).open(&path).unwrap();
    let appended = b"4}\n{\"e\":5}\n";
    file.write_all(appended).unwrap();
    let answer = get(&viewer, &format!("/run/history.ndjson?from={from}"));
    assert_eq!(answer.body, "{\"e\":5}\n");
    assert_eq!(answer.header("X-Evodb-Next").unwrap(), (text.len() + appended.len()).to_string());
    // A whole-history read at the same moment would have stopped before the torn line, so a page
    // asks from a line start and loses nothing.
    let whole = get(&viewer, "/run/history.ndjson");
    assert_eq!(whole.body, format!("{LINES}{{\"d\":4}}\n{{\"e\":5}}\n"));
}

// ------------------------------------------------------------------------------------------
// Load

#[test]
fn an_oversized_head_is_refused_without_growing_the_server() {
    let tmp = tempfile::tempdir().unwrap();
    let db = seeded_run(tmp.path());
    let viewer = view(&[db.to_str().unwrap()]);
    assert_eq!(get(&viewer, "/").status, 200);
    let baseline = proc_status(&viewer, "VmRSS");
    let a = viewer.address().to_string();
    let mut cases = Catalogue::new("head size");
    std::thread::scope(|s| {
        let attacks: Vec<_> = (0..6)
            .map(|_| {
                s.spawn(|| {
                    let line = format!("GET / HTTP/1.1\r\nHost: {a}\r\nX-Big: {}\r\n\r\n", "a".repeat(32 << 20));
                    send(&viewer, line.as_bytes())
                })
            })
            .collect();
        for attack in attacks {
            let answer = attack.join().unwrap();
            // 431, or a reset if the server closed while the client was still writing.
            cases.case(
                "a 32 MiB header line",
                answer.status == 431 || answer.status == 0,
                (answer.status, answer.took),
            );
        }
    });
    let many: String = (0..300).map(|i| format!("X-H{i}: v\r\n")).collect();
    let answer = send(&viewer, format!("GET / HTTP/1.1\r\nHost: {a}\r\n{many}\r\n").as_bytes());
    cases.case("300 header fields", answer.status == 431, answer.status);
    let peak = proc_status(&viewer, "VmHWM");
    cases.case("memory stays bounded (peak within 32 MiB of the start)", peak < baseline + 32 * 1024, (baseline, peak));
    cases.case("the page still loads", get(&viewer, "/").status == 200, "");
    cases.finish();
}

#[test]
fn a_head_sent_slowly_is_cut_off() {
    let tmp = tempfile::tempdir().unwrap();
    let viewer = view(&[seeded_run(tmp.path()).to_str().unwrap()]);
    let started = Instant::now();
    let mut stream = TcpStream::connect(viewer.address()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    stream.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n").unwrap();
    let mut rest = Vec::new();
    let _ = stream.read_to_end(&mut rest);
    let took = started.elapsed();
    assert!(took >= Duration::from_secs(5) && took < Duration::from_secs(20), "closed after {took:?}");
    assert!(!String::from_utf8_lossy(&rest).contains("200 OK"));
}

#[test]
fn many_idle_connections_cost_no_thread_each_and_the_page_loads_after() {
    let tmp = tempfile::tempdir().unwrap();
    let viewer = view(&[seeded_run(tmp.path()).to_str().unwrap()]);
    let idle: Vec<TcpStream> = (0..150).map(|_| TcpStream::connect(viewer.address()).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(500));
    let threads = proc_status(&viewer, "Threads");
    let rss = proc_status(&viewer, "VmRSS");
    drop(idle);
    let started = Instant::now();
    let page = get(&viewer, "/");
    assert_eq!(page.status, 200);
    assert!(threads <= 8, "{threads} threads for 150 idle connections");
    assert!(rss < 128 * 1024, "{rss} kB");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    // Many requests at once: all answered, still a handful of threads.
    std::thread::scope(|s| {
        let workers: Vec<_> =
            (0..12).map(|_| s.spawn(|| (0..15).all(|_| get(&viewer, "/run/database.json").status == 200))).collect();
        assert!(workers.into_iter().all(|w| w.join().unwrap()));
    });
    assert!(proc_status(&viewer, "Threads") <= 8);
}

#[test]
fn running_out_of_file_descriptors_backs_off_instead_of_spinning() {
    let tmp = tempfile::tempdir().unwrap();
    let db = seeded_run(tmp.path());
    let mut limited = Command::new("sh");
    limited
        .args(["-c", "ulimit -n 40 && exec \"$0\" view \"$1\" --port 0 2>/dev/null", env!("CARGO_BIN_EXE_evodb")])
        .arg(&db);
    let viewer = view_with(limited);
    assert_eq!(get(&viewer, "/").status, 200);
    let held: Vec<TcpStream> = (0..80).filter_map(|_| TcpStream::connect(viewer.address()).ok()).collect();
    std::thread::sleep(Duration::from_millis(300));
    let before = cpu_ticks(&viewer);
    std::thread::sleep(Duration::from_secs(2));
    let spent = cpu_ticks(&viewer) - before;
    drop(held);
    // Clock ticks are 1/100 s: a spinning accept loop spends ~200 in 2 s.
    assert!(spent < 40, "{spent} ticks of CPU in 2 s with its descriptors used up");
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut status = 0;
    while status != 200 && Instant::now() < deadline {
        status = get(&viewer, "/").status;
    }
    assert_eq!(status, 200, "answers again once descriptors are free");
}

// ------------------------------------------------------------------------------------------
// PostgreSQL

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn a_postgres_run_deleted_while_viewed_is_not_found() {
    let Some(cluster) = Cluster::start() else { return };
    let url = cluster.url();
    let mut seed = seed_args(Path::new(&url));
    seed.extend(["--run".into(), "doomed".into()]);
    evodb(&seed).json();
    let viewer = view(&["--store", &url, "--run", "doomed"]);
    assert_eq!(get(&viewer, "/run/database.json").status, 200);
    let history = get(&viewer, "/run/history.ndjson");
    assert_eq!(history.status, 200);
    let len = history.body.len();
    // From inside the first line: whole lines only, the rest of that one skipped.
    let mid = get(&viewer, "/run/history.ndjson?from=3");
    let skipped = len - mid.body.len();
    assert!(
        mid.status == 200 && history.body.ends_with(&mid.body) && history.body[..skipped].ends_with('\n'),
        "{mid:?}"
    );
    let bad = get(&viewer, "/run/history.ndjson?from=x");
    assert_eq!(bad.status, 400);

    cluster.client().execute("DELETE FROM evodb.runs WHERE name = 'doomed'", &[]).unwrap();
    let mut cases = Catalogue::new("deleted postgres run");
    for target in [
        "/run/database.json",
        "/run/history.ndjson",
        "/run/history.ndjson?from=0",
        &format!("/run/history.ndjson?from={len}"),
    ] {
        let answer = get(&viewer, target);
        let ok = answer.status == 404
            && answer.body.contains("no run named `doomed`")
            && !answer.body.contains(cli::postgres::PASSWORD);
        cases.case(target, ok, &answer);
    }
    cases.finish();
}
