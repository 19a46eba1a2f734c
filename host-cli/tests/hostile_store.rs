//! The hostile catalogue for store URLs, the PostgreSQL store and `evodb serve` (issue 35, items
//! 3, 6 and 7; the threat model's "store URLs, PostgreSQL and serve" section). Each case checks the
//! exit code, the message, that nothing was created where it should not be (every command runs in
//! an empty working directory of its own), that no password appears in anything evodb prints,
//! and that it ends in bounded time. The cases that need a server run against a throwaway cluster;
//! without PostgreSQL installed they are reported as skipped (a failure under
//! `EVODB_REQUIRE_POSTGRES`, which tests/run.sh sets). The store URL parser is fuzzed at the end.

use crate::cli;

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use cli::catalogue::Case;
use cli::postgres::{Cluster, PASSWORD, PASSWORD_USER};
use cli::server::Server;
use evodb_host::postgres::{Form, PgUrl, form, redact_passwords, shown_location};
use proptest::prelude::*;
use serde_json::Value;

/// How many cases each catalogue holds.
const WITHOUT_A_SERVER: usize = 65;
const ON_POSTGRES: usize = 34;

/// The password in every URL of the catalogue: it must never be printed.
const SECRET: &str = "Hostile-pw-5e3a";

/// The `evodb` under test; `EVODB_HOSTILE_BIN` runs the catalogue against another build (to see
/// which cases an earlier evodb fails).
fn bin() -> &'static Path {
    static BIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BIN.get_or_init(|| {
        std::env::var_os("EVODB_HOSTILE_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_evodb")), PathBuf::from)
    })
}

/// What a command did, and how long it took.
#[derive(Debug)]
struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
    took: Duration,
}

impl Outcome {
    fn json(&self) -> Value {
        assert_eq!(self.code, 0, "expected success: {self:?}");
        serde_json::from_str(self.stdout.trim_end()).unwrap_or_else(|e| panic!("not JSON ({e}): {self:?}"))
    }

    /// Exit `code`, `says` on stderr, and no secret anywhere.
    fn refused(&self, code: i32, says: &str) -> &Self {
        assert_eq!(self.code, code, "exit code: {self:?}");
        assert!(self.stderr.contains(says), "stderr should say {says:?}: {self:?}");
        self.no_secret()
    }

    fn no_secret(&self) -> &Self {
        for secret in [SECRET, PASSWORD, "not-the-password-123"] {
            assert!(!self.stdout.contains(secret) && !self.stderr.contains(secret), "{secret} was printed: {self:?}");
        }
        self
    }

    fn within(&self, limit: Duration) -> &Self {
        assert!(self.took <= limit, "took {:?}, more than {limit:?}: {self:?}", self.took);
        self
    }
}

/// A command's environment: nothing of the developer's store settings, a private socket
/// directory, no password file unless a case gives one.
struct Env {
    vars: Vec<(String, std::ffi::OsString)>,
}

impl Env {
    fn new(runtime_dir: &Path) -> Env {
        let mut env = Env { vars: Vec::new() };
        env.set("XDG_RUNTIME_DIR", runtime_dir.as_os_str());
        env.set("PGPASSFILE", OsStr::new("/nonexistent/evodb-test-pgpass"));
        env
    }

    fn set(&mut self, key: &str, value: impl AsRef<OsStr>) -> &mut Env {
        self.vars.retain(|(k, _)| k != key);
        self.vars.push((key.to_string(), value.as_ref().to_os_string()));
        self
    }
}

/// `program args…` in `cwd`, killed (and the case failed) if it runs past a minute.
fn run_program(program: &Path, cwd: &Path, args: &[&OsStr], env: &Env) -> Outcome {
    let mut command = Command::new(program);
    command.current_dir(cwd).args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for key in ["EVODB_STORE", "EVODB_RUN", "EVODB_SERVE", "PGPASSWORD", "PGPASSFILE", "PGUSER"] {
        command.env_remove(key);
    }
    command.envs(env.vars.iter().map(|(k, v)| (k, v)));
    let started = Instant::now();
    let mut child = command.spawn().expect("the program starts");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let reader = thread::spawn(move || {
        let mut text = Vec::new();
        let _ = out.read_to_end(&mut text);
        text
    });
    let err_reader = thread::spawn(move || {
        let mut text = Vec::new();
        let _ = err.read_to_end(&mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{} {args:?} hung (killed after 60 s)", program.display());
        }
        thread::sleep(Duration::from_millis(10));
    };
    let took = started.elapsed();
    Outcome {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&reader.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
        took,
    }
}

/// A scratch place for one case: an empty working directory and a socket directory.
struct Scratch {
    root: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let root = tempfile::Builder::new().prefix("evodb-hostile-").tempdir().unwrap();
        std::fs::create_dir(root.path().join("cwd")).unwrap();
        std::fs::create_dir(root.path().join("run")).unwrap();
        std::fs::set_permissions(root.path().join("run"), std::fs::Permissions::from_mode(0o700)).unwrap();
        Scratch { root }
    }

    fn cwd(&self) -> PathBuf {
        self.root.path().join("cwd")
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    fn env(&self) -> Env {
        Env::new(&self.root.path().join("run"))
    }

    /// `evodb args…` in the empty working directory.
    fn evodb(&self, args: &[&str]) -> Outcome {
        self.evodb_env(args, &self.env())
    }

    fn evodb_env(&self, args: &[&str], env: &Env) -> Outcome {
        let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        run_program(bin(), &self.cwd(), &args, env)
    }

    fn evodb_os(&self, args: &[&OsStr]) -> Outcome {
        run_program(bin(), &self.cwd(), args, &self.env())
    }

    /// What the command left in the working directory (relative paths, sorted).
    fn created(&self) -> Vec<String> {
        let mut found = Vec::new();
        let mut stack = vec![self.cwd()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                found.push(path.strip_prefix(self.cwd()).unwrap().display().to_string());
                if entry.file_type().unwrap().is_dir() {
                    stack.push(path);
                }
            }
        }
        found.sort();
        found
    }

    fn nothing_created(&self) {
        assert_eq!(self.created(), Vec::<String>::new(), "a refused command created files");
    }
}

/// A loopback port with nothing listening.
fn closed_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn add_args<'a>(db: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "add",
        db,
        "--codePath",
        "/c.py",
        "--targetCode",
        "def f(): return 1",
        "--parentId",
        "0",
        "--metrics",
        r#"{"score": 0.5}"#,
        "--changes",
        "c",
    ];
    args.extend_from_slice(extra);
    args
}

fn seed_args(db: &str) -> Vec<&str> {
    vec!["seed", db, "--codePath", "/s.py", "--targetCode", "def f(): return 0", "--metrics", r#"{"score": 0.1}"#]
}

fn mkfifo(path: &Path) {
    nix::unistd::mkfifo(path, nix::sys::stat::Mode::from_bits_truncate(0o600)).expect("mkfifo");
}

fn write_mode(path: &Path, text: &str, mode: u32) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

// --- the catalogue's cases ----------------------------------------------------------------------

fn case(name: impl Into<String>, body: impl Fn() + Send + Sync + 'static) -> Case {
    Case::new(name, body)
}

/// A case on the cluster.
fn pg(cluster: &Arc<Cluster>, name: impl Into<String>, body: impl Fn(&Cluster) + Send + Sync + 'static) -> Case {
    let cluster = Arc::clone(cluster);
    Case::new(name, move || body(&cluster))
}

// --- store URLs: a mistyped URL is a usage error, never a directory ----------------------------

/// A URL that is not PostgreSQL's, given to a command that would create a database: exit 2,
/// naming the accepted schemes, nothing created, no password printed.
fn refused_scheme(args: &[&str], says: &str) {
    let scratch = Scratch::new();
    scratch.evodb(args).refused(2, says).refused(2, "postgres://").within(Duration::from_secs(10));
    scratch.nothing_created();
}

fn url_cases() -> Vec<Case> {
    let closed = closed_port();
    let mut cases = vec![
        case("POSTGRES:// in capitals is a PostgreSQL URL (exit 5 at the closed port, no directory)", move || {
            let scratch = Scratch::new();
            let url = format!("POSTGRES://u:{SECRET}@127.0.0.1:{closed}/evo");
            let out = scratch.evodb(&["create", &url, "--run", "r"]);
            out.refused(5, &format!("127.0.0.1:{closed}")).within(Duration::from_secs(15));
            scratch.nothing_created();
        }),
        case("PostgreSQL:// in mixed case is a PostgreSQL URL", move || {
            let scratch = Scratch::new();
            let url = format!("PostgreSQL://u:{SECRET}@127.0.0.1:{closed}/evo");
            scratch.evodb(&add_args(&url, &["--run", "r"])).refused(5, "cannot connect to PostgreSQL");
            scratch.nothing_created();
        }),
        case("--store POSTGRESQL:// in capitals is a PostgreSQL URL", move || {
            let scratch = Scratch::new();
            let url = format!("POSTGRESQL://u:{SECRET}@127.0.0.1:{closed}/evo");
            scratch.evodb(&["info", "--store", &url, "--run", "r"]).refused(5, "cannot connect to PostgreSQL");
            scratch.nothing_created();
        }),
        case("postgress:// (a typo) is refused, suggesting postgres://", || {
            refused_scheme(&["create", &format!("postgress://u:{SECRET}@host/evo")], "did you mean postgres://");
        }),
        case("postgre:// is refused, suggesting postgres://", || {
            refused_scheme(&["create", &format!("postgre://u:{SECRET}@host/evo")], "did you mean postgres://");
        }),
        case("pg:// is refused, suggesting postgres://", || {
            refused_scheme(&["create", &format!("pg://u:{SECRET}@host/evo")], "did you mean postgres://");
        }),
        case("mysql:// on create is refused", || {
            refused_scheme(&["create", &format!("mysql://u:{SECRET}@host/evo")], "not a PostgreSQL URL");
        }),
        case("http:// on add is refused", || {
            refused_scheme(&add_args(&format!("http://u:{SECRET}@host/evo"), &[]), "`http://`");
        }),
        case("HTTPS:// on seed is refused", || {
            refused_scheme(&seed_args(&format!("HTTPS://u:{SECRET}@host/evo")), "`HTTPS://`");
        }),
        case("file:/// on init is refused", || refused_scheme(&["init", "file:///tmp/evodb-x"], "`file://`")),
        case("s3:// on sample is refused", || refused_scheme(&["sample", "s3://bucket/key"], "`s3://`")),
        case("sqlite:// on plan is refused", || refused_scheme(&["plan", "sqlite://./x.db", "2"], "`sqlite://`")),
        case("redis:// with only a password, on note, is refused", || {
            let url = format!("redis://:{SECRET}@host:6379");
            refused_scheme(&["note", &url, "--kind", "lesson", "--text", "t"], "`redis://`");
        }),
        case("mysql:// on a reader (info) is refused too", || {
            refused_scheme(&["info", &format!("mysql://u:{SECRET}@host/evo")], "not a PostgreSQL URL");
        }),
        case("postgres:/ with one slash is refused", || {
            let scratch = Scratch::new();
            scratch.evodb(&["create", &format!("postgres:/u:{SECRET}@host/evo")]).refused(2, "with `//`");
            scratch.nothing_created();
        }),
        case("postgresql: with no slash is refused", || {
            let scratch = Scratch::new();
            scratch.evodb(&["create", &format!("postgresql:u:{SECRET}@host/evo")]).refused(2, "postgresql://");
            scratch.nothing_created();
        }),
        case("copy into a mistyped URL is refused", || {
            let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/seed-written");
            let url = format!("postgress://u:{SECRET}@host/evo");
            refused_scheme(&["copy", fixture.to_str().unwrap(), &url, "--run", "r"], "did you mean");
        }),
        case("copy out of a mistyped URL is refused", || {
            refused_scheme(&["copy", &format!("mysql://u:{SECRET}@host/evo"), "out"], "not a PostgreSQL URL");
        }),
        case("view of a mistyped URL is refused before it listens", || {
            refused_scheme(&["view", &format!("mysql://u:{SECRET}@host/evo"), "--port", "0"], "not a PostgreSQL URL");
        }),
        case("serve of a mistyped URL is refused", || {
            refused_scheme(&["serve", &format!("mysql://u:{SECRET}@host/evo"), "--run", "r"], "not a PostgreSQL URL");
        }),
        case("./mysql://x is a directory (the way to name one with :// in it)", || {
            let scratch = Scratch::new();
            assert_eq!(scratch.evodb(&["create", "./mysql://x"]).code, 0);
            assert!(scratch.cwd().join("mysql:/x/database.json").is_file(), "{:?}", scratch.created());
        }),
        case("a path with a colon (runs:2024) is still a directory", || {
            let scratch = Scratch::new();
            assert_eq!(scratch.evodb(&["create", "runs:2024"]).code, 0);
            assert!(scratch.cwd().join("runs:2024/database.json").is_file());
        }),
        case("a URL that is not UTF-8 is refused", || {
            let scratch = Scratch::new();
            let url = [b"postgres://h/d".as_slice(), b"\xff"].concat();
            let out = scratch.evodb_os(&[
                OsStr::new("create"),
                OsStr::from_bytes(&url),
                OsStr::new("--run"),
                OsStr::new("r"),
            ]);
            out.refused(2, "UTF-8");
            scratch.nothing_created();
        }),
        case("a mistyped URL that is not UTF-8 is refused", || {
            let scratch = Scratch::new();
            let url = [b"mysql://h/".as_slice(), b"\xff"].concat();
            scratch.evodb_os(&[OsStr::new("create"), OsStr::from_bytes(&url)]).refused(2, "`mysql://`");
            scratch.nothing_created();
        }),
    ];
    cases.extend(message_cases());
    cases.extend(environment_cases(closed));
    cases
}

// --- every message that could echo a location hides its password ------------------------------

fn message_cases() -> Vec<Case> {
    vec![
        case("--store a directory is refused", || {
            let scratch = Scratch::new();
            scratch.evodb(&["info", "--store", "./d"]).refused(2, "--store `./d` is not a PostgreSQL URL");
            scratch.nothing_created();
        }),
        case("--store a mistyped URL is refused, without its password", || {
            let scratch = Scratch::new();
            let out = scratch.evodb(&["create", "--store", &format!("mysql://u:{SECRET}@h/x")]);
            out.refused(2, "--store `mysql://u@h/x`");
            scratch.nothing_created();
        }),
        case("<dbPath> beside --store: the message hides the password", || {
            let scratch = Scratch::new();
            let store = format!("postgres://u:{SECRET}@h/d");
            scratch.evodb(&["info", "mydir", "--store", &store, "--run", "r"]).refused(2, "both <dbPath> `mydir`");
        }),
        case("a URL <dbPath> beside another --store: neither password is printed", || {
            let scratch = Scratch::new();
            let (db, store) = (format!("postgres://a:{SECRET}@h/x"), format!("postgres://u:{PASSWORD}@h/d"));
            scratch.evodb(&["info", &db, "--store", &store, "--run", "r"]).refused(2, "both <dbPath>");
        }),
        case("a mistyped URL beside --store is refused by its scheme, hidden", || {
            let scratch = Scratch::new();
            let (db, store) = (format!("mysql://a:{SECRET}@h/x"), format!("postgres://u:{SECRET}@h/d"));
            scratch.evodb(&["create", &db, "--store", &store, "--run", "r"]).refused(2, "`mysql://`");
            scratch.nothing_created();
        }),
        case("--run with a directory says so", || {
            let scratch = Scratch::new();
            scratch.evodb(&["info", "mydir", "--run", "r"]).refused(2, "--run names a run in PostgreSQL");
        }),
        case("--run with a directory that looks like user:password@host hides it", || {
            let scratch = Scratch::new();
            let db = format!("u:{SECRET}@host/evo");
            scratch.evodb(&["create", &db, "--run", "r"]).refused(2, "`u:***@host/evo` is a directory");
            scratch.nothing_created();
        }),
        case("a URL without --run asks for it, hidden", || {
            let scratch = Scratch::new();
            scratch.evodb(&["info", &format!("postgres://u:{SECRET}@h/d")]).refused(2, "pass --run NAME");
        }),
        case("an empty --run is refused, hidden", || {
            let scratch = Scratch::new();
            scratch.evodb(&["info", &format!("postgres://u:{SECRET}@h/d"), "--run", ""]).refused(2, "not a run name");
        }),
        case("a usage error from the parser that quotes the URL hides its password", || {
            let scratch = Scratch::new();
            let out = scratch.evodb(&["info", "dir", &format!("postgres://u:{SECRET}@h/d")]);
            out.refused(2, "unexpected argument 'postgres://u@h/d'");
        }),
        case("a bad port in a URL is named, hidden", || {
            let scratch = Scratch::new();
            let out = scratch.evodb(&["info", &format!("postgres://u:{SECRET}@h:notaport/d"), "--run", "r"]);
            out.refused(2, "is not a PostgreSQL URL");
        }),
        case("a percent-encoded password is hidden in both forms", || {
            let scratch = Scratch::new();
            let out = scratch.evodb(&["info", "postgres://u:Hostile%40pw-9c@h:bad/d", "--run", "r"]);
            out.refused(2, "is not a PostgreSQL URL");
            assert!(!out.stderr.contains("Hostile@pw-9c") && !out.stderr.contains("Hostile%40pw-9c"), "{out:?}");
        }),
        case("an @ in a password must be written %40; the message hides the password", || {
            let scratch = Scratch::new();
            let out = scratch.evodb(&["info", &format!("postgres://u:{SECRET}@x@h/d"), "--run", "r"]);
            out.refused(2, "must be written %40");
            scratch.nothing_created();
        }),
        case("a password= in the query is hidden", || {
            let scratch = Scratch::new();
            let out = scratch.evodb(&["info", &format!("postgres://h:bad/d?password={SECRET}"), "--run", "r"]);
            out.refused(2, "is not a PostgreSQL URL");
        }),
        case("an unknown option beside password= is named, the password hidden", || {
            let scratch = Scratch::new();
            let url = format!("postgres://h/d?password={SECRET}&bogus=1");
            scratch.evodb(&["info", &url, "--run", "r"]).refused(2, "is not a PostgreSQL URL");
        }),
        case("validate of a URL that names no run hides the password", || {
            let scratch = Scratch::new();
            scratch.evodb(&["validate", &format!("postgres://u:{SECRET}@h/d")]).refused(2, "pass --run");
        }),
    ]
}

// --- EVODB_STORE, EVODB_RUN and the flags ------------------------------------------------------

fn environment_cases(closed: u16) -> Vec<Case> {
    vec![
        case("EVODB_STORE with a mistyped URL is refused, naming EVODB_STORE", || {
            let scratch = Scratch::new();
            let mut env = scratch.env();
            env.set("EVODB_STORE", format!("mysql://u:{SECRET}@h/x"));
            scratch.evodb_env(&["create"], &env).refused(2, "EVODB_STORE `mysql://u@h/x`");
            scratch.nothing_created();
        }),
        case("EVODB_STORE with a directory is refused (it takes a URL)", || {
            let scratch = Scratch::new();
            let mut env = scratch.env();
            env.set("EVODB_STORE", "./d");
            scratch.evodb_env(&["create"], &env).refused(2, "EVODB_STORE `./d` is not a PostgreSQL URL");
            scratch.nothing_created();
        }),
        case("EVODB_STORE in capitals with EVODB_RUN is a PostgreSQL run", move || {
            let scratch = Scratch::new();
            let mut env = scratch.env();
            env.set("EVODB_STORE", format!("POSTGRES://u:{SECRET}@127.0.0.1:{closed}/x")).set("EVODB_RUN", "r");
            scratch.evodb_env(&["info"], &env).refused(5, &format!("127.0.0.1:{closed}"));
            scratch.nothing_created();
        }),
        case("a <dbPath> given wins over a mistyped EVODB_STORE", || {
            let scratch = Scratch::new();
            let mut env = scratch.env();
            env.set("EVODB_STORE", format!("mysql://u:{SECRET}@h/x"));
            assert_eq!(scratch.evodb_env(&["create", "d"], &env).no_secret().code, 0);
            assert_eq!(scratch.created(), ["d", "d/.evodb.lock", "d/database.json", "d/history.ndjson"]);
        }),
        case("EVODB_RUN does not turn a directory into a run", || {
            let scratch = Scratch::new();
            let mut env = scratch.env();
            env.set("EVODB_RUN", "r");
            assert_eq!(scratch.evodb_env(&["create", "d"], &env).code, 0);
            assert!(scratch.cwd().join("d/database.json").is_file());
        }),
        case("--store and EVODB_STORE: the flag is the store", move || {
            let scratch = Scratch::new();
            let mut env = scratch.env();
            env.set("EVODB_STORE", format!("mysql://u:{SECRET}@h/x"));
            let store = format!("postgres://u:{SECRET}@127.0.0.1:{closed}/x");
            scratch.evodb_env(&["info", "--store", &store, "--run", "r"], &env).refused(5, "cannot connect");
        }),
    ]
}

// --- servers that do not answer, password files that are not files ---------------------------

/// A TCP listener on loopback that does `what` with each connection, for as long as it lives.
struct FakeServer {
    port: u16,
}

impl FakeServer {
    fn start(what: fn(std::net::TcpStream)) -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                thread::spawn(move || what(stream));
            }
        });
        FakeServer { port }
    }

    fn url(&self) -> String {
        format!("postgres://u:{SECRET}@127.0.0.1:{}/d", self.port)
    }
}

fn never_answers(stream: std::net::TcpStream) {
    thread::sleep(Duration::from_secs(120));
    drop(stream);
}

fn network_cases() -> Vec<Case> {
    vec![
        case("a closed port: exit 5 at once, naming host:port", || {
            let scratch = Scratch::new();
            let port = closed_port();
            let url = format!("postgres://u:{SECRET}@127.0.0.1:{port}/d");
            let out = scratch.evodb(&["info", "--store", &url, "--run", "r", "--connectTimeout", "2"]);
            out.refused(5, &format!("127.0.0.1:{port}")).within(Duration::from_secs(8));
        }),
        case("a server that accepts and never answers: exit 5 within --connectTimeout", || {
            let scratch = Scratch::new();
            let fake = FakeServer::start(never_answers);
            let out = scratch.evodb(&["info", "--store", &fake.url(), "--run", "r", "--connectTimeout", "1"]);
            out.refused(5, "no answer within --connectTimeout 1 s").within(Duration::from_secs(6));
        }),
        case("a writer facing a server that never answers: exit 5, nothing saved", || {
            let scratch = Scratch::new();
            let fake = FakeServer::start(never_answers);
            let out = scratch.evodb(&add_args(&fake.url(), &["--run", "r", "--connectTimeout", "1"]));
            out.refused(5, "nothing was saved").within(Duration::from_secs(6));
        }),
        case("a server that closes at once: exit 5", || {
            let scratch = Scratch::new();
            let fake = FakeServer::start(drop);
            let out = scratch.evodb(&["info", "--store", &fake.url(), "--run", "r", "--connectTimeout", "2"]);
            out.refused(5, "cannot connect to PostgreSQL").within(Duration::from_secs(8));
        }),
        case("a server that answers as HTTP does: exit 5", || {
            let scratch = Scratch::new();
            let fake = FakeServer::start(|mut stream| {
                let _ = stream.write_all(b"HTTP/1.0 400 Bad Request\r\n\r\n");
            });
            let out = scratch.evodb(&["info", "--store", &fake.url(), "--run", "r", "--connectTimeout", "2"]);
            out.refused(5, "cannot connect to PostgreSQL").within(Duration::from_secs(8));
        }),
        case("a server that trickles bytes forever: exit 5 within --connectTimeout", || {
            let scratch = Scratch::new();
            let fake = FakeServer::start(|mut stream| {
                for _ in 0..600 {
                    if stream.write_all(b"N").is_err() {
                        return;
                    }
                    thread::sleep(Duration::from_millis(200));
                }
            });
            let out = scratch.evodb(&["info", "--store", &fake.url(), "--run", "r", "--connectTimeout", "1"]);
            out.refused(5, "cannot connect").within(Duration::from_secs(6));
        }),
    ]
}

/// `info` on a run at a closed port with `PGPASSFILE` (or `~/.pgpass`) set up by `prepare`:
/// exit 5 (nothing listens), within seconds, with `warning` on stderr when given.
fn password_file_case(prepare: fn(&Scratch) -> PathBuf, use_home: bool, warning: Option<&'static str>) {
    let scratch = Scratch::new();
    let file = prepare(&scratch);
    let mut env = scratch.env();
    if use_home {
        env.vars.retain(|(k, _)| k != "PGPASSFILE");
        env.set("HOME", file.parent().unwrap());
    } else {
        env.set("PGPASSFILE", &file);
    }
    let url = format!("postgres://u@127.0.0.1:{}/d", closed_port());
    let out = scratch.evodb_env(&["info", "--store", &url, "--run", "r", "--connectTimeout", "2"], &env);
    out.refused(5, "cannot connect").within(Duration::from_secs(10));
    match warning {
        Some(warning) => assert!(out.stderr.contains(warning), "no warning {warning:?}: {out:?}"),
        None => assert!(!out.stderr.contains("password file"), "{out:?}"),
    }
    assert_eq!(out.stderr.matches("password file").count(), usize::from(warning.is_some()), "said once: {out:?}");
}

fn password_file_cases() -> Vec<Case> {
    vec![
        case("PGPASSFILE a FIFO: ignored with a warning, no hang", || {
            let prepare = |s: &Scratch| {
                mkfifo(&s.path("fifo"));
                s.path("fifo")
            };
            password_file_case(prepare, false, Some("is not a plain file (a FIFO)"));
        }),
        case("PGPASSFILE a directory: ignored with a warning", || {
            let prepare = |s: &Scratch| {
                std::fs::create_dir(s.path("pgdir")).unwrap();
                s.path("pgdir")
            };
            password_file_case(prepare, false, Some("is not a plain file (a directory)"));
        }),
        case("PGPASSFILE a symlink to a FIFO: ignored with a warning, no hang", || {
            let prepare = |s: &Scratch| {
                mkfifo(&s.path("fifo"));
                std::os::unix::fs::symlink(s.path("fifo"), s.path("link")).unwrap();
                s.path("link")
            };
            password_file_case(prepare, false, Some("is not a plain file (a FIFO)"));
        }),
        case("PGPASSFILE /dev/zero: ignored with a warning, not read forever", || {
            password_file_case(|_| PathBuf::from("/dev/zero"), false, Some("is not a plain file (a device)"));
        }),
        case("PGPASSFILE readable by all: ignored with libpq's warning", || {
            let prepare = |s: &Scratch| {
                write_mode(&s.path("pgpass"), "*:*:*:*:x\n", 0o644);
                s.path("pgpass")
            };
            password_file_case(prepare, false, Some("has group or world access"));
        }),
        case("PGPASSFILE readable by the group: ignored with libpq's warning", || {
            let prepare = |s: &Scratch| {
                write_mode(&s.path("pgpass"), "*:*:*:*:x\n", 0o640);
                s.path("pgpass")
            };
            password_file_case(prepare, false, Some("chmod 600"));
        }),
        case("PGPASSFILE mode 600: read, no warning", || {
            let prepare = |s: &Scratch| {
                write_mode(&s.path("pgpass"), "*:*:*:*:x\n", 0o600);
                s.path("pgpass")
            };
            password_file_case(prepare, false, None);
        }),
        case("~/.pgpass a FIFO: ignored with a warning, no hang", || {
            let prepare = |s: &Scratch| {
                std::fs::create_dir(s.path("home")).unwrap();
                mkfifo(&s.path("home/.pgpass"));
                s.path("home/.pgpass")
            };
            password_file_case(prepare, true, Some("is not a plain file (a FIFO)"));
        }),
        case("PGPASSWORD set: the password file is not even looked at", || {
            let scratch = Scratch::new();
            mkfifo(&scratch.path("fifo"));
            let mut env = scratch.env();
            env.set("PGPASSFILE", scratch.path("fifo")).set("PGPASSWORD", SECRET);
            let url = format!("postgres://u@127.0.0.1:{}/d", closed_port());
            let out = scratch.evodb_env(&["info", "--store", &url, "--run", "r"], &env);
            out.refused(5, "cannot connect").within(Duration::from_secs(10));
            assert!(!out.stderr.contains("password file"), "{out:?}");
        }),
    ]
}

/// Every case that needs no PostgreSQL server.
#[test]
fn catalogue_without_a_server() {
    let mut cases = url_cases();
    cases.extend(network_cases());
    cases.extend(password_file_cases());
    cases.extend(node_cases());
    cli::catalogue::run("hostile store: URLs, connections, password files", cases, WITHOUT_A_SERVER);
}

// --- the Node drop-in: the same URL rule --------------------------------------------------------

fn node_cases() -> Vec<Case> {
    let node = Path::new("/usr/bin/env");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../skill/scripts/db-cli.mjs");
    let run_node = move |scratch: &Scratch, args: &[&str]| {
        let mut all: Vec<&OsStr> = vec![OsStr::new("node"), script.as_os_str()];
        all.extend(args.iter().map(OsStr::new));
        run_program(node, &scratch.cwd(), &all, &scratch.env())
    };
    let available = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let table: [(&'static str, String, &'static str); 4] = [
        (
            "node drop-in: POSTGRES:// in capitals needs the native evodb",
            format!("POSTGRES://u:{SECRET}@h/d"),
            "native evodb",
        ),
        (
            "node drop-in: postgress:// is refused",
            format!("postgress://u:{SECRET}@h/d"),
            "postgres:// or postgresql://",
        ),
        ("node drop-in: mysql:// is refused", format!("mysql://u:{SECRET}@h/d"), "`mysql:`"),
        ("node drop-in: postgres:/ with one slash is refused", format!("postgres:/u:{SECRET}@h/d"), "`postgres:`"),
    ];
    table
        .into_iter()
        .map(|(name, url, says)| {
            let run_node = run_node.clone();
            case(name, move || {
                if !available {
                    eprintln!("skipped: node is not installed");
                    return;
                }
                let scratch = Scratch::new();
                run_node(&scratch, &["create", &url]).refused(2, says);
                scratch.nothing_created();
            })
        })
        .collect()
}

// --- on PostgreSQL -----------------------------------------------------------------------------

/// `--store <trusted superuser URL> --run <run>` and the rest.
fn on_run<'a>(url: &'a str, run: &'a str, command: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![command, "--store", url, "--run", run];
    args.extend_from_slice(rest);
    args
}

fn history_events(scratch: &Scratch, url: &str, run: &str) -> Vec<Value> {
    let history = scratch.evodb(&on_run(url, run, "history", &[]));
    assert_eq!(history.code, 0, "{history:?}");
    history.stdout.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

fn seeded(cluster: &Cluster, run: &str) {
    seeded_at(&cluster.url(), run);
}

fn seeded_at(url: &str, run: &str) {
    let scratch = Scratch::new();
    let seed = scratch.evodb(&on_run(url, run, "seed", &seed_args("")[2..]));
    assert_eq!(seed.code, 0, "{seed:?}");
}

/// The URL of a database of the cluster's own, made for one case.
fn database(cluster: &Cluster, name: &str) -> String {
    cluster.client().batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
    format!("postgres://evodb@127.0.0.1:{}/{name}", cluster.port)
}

const READERS: [(&str, &[&str]); 9] = [
    ("info", &[]),
    ("best", &[]),
    ("stats", &[]),
    ("export", &[]),
    ("history", &[]),
    ("lineage", &["p1"]),
    ("notes", &[]),
    ("should-stop", &[]),
    ("validate", &[]),
];

fn postgres_cases(cluster: &Arc<Cluster>) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    // A run that was made, then deleted by someone else: every reader says so (exit 3).
    seeded(cluster, "other-run");
    seeded(cluster, "deleted");
    cluster.client().execute("DELETE FROM evodb.runs WHERE name = 'deleted'", &[]).unwrap();
    for (command, rest) in READERS {
        let name: &'static str = Box::leak(format!("a deleted run: `{command}` exits 3 naming it").into_boxed_str());
        cases.push(pg(cluster, name, |cluster| {
            let scratch = Scratch::new();
            let url = cluster.url();
            let out = scratch.evodb(&on_run(&url, "deleted", command, rest));
            out.refused(3, "no run named `deleted`").refused(3, "`other-run`");
            scratch.nothing_created();
        }));
    }
    cases.push(pg(cluster, "a run never made: `info` exits 3, a typo in --run shows", |cluster| {
        let scratch = Scratch::new();
        let url = cluster.url();
        scratch.evodb(&on_run(&url, "other-rnu", "info", &[])).refused(3, "no run named `other-rnu`");
    }));
    cases.push(pg(cluster, "a database holding no run: `info` says so", |cluster| {
        let scratch = Scratch::new();
        let mut admin = cluster.client();
        admin.batch_execute("CREATE DATABASE empty_evodb").unwrap();
        let url = format!("postgres://evodb@127.0.0.1:{}/empty_evodb", cluster.port);
        scratch.evodb(&on_run(&url, "r", "info", &[])).refused(3, "holds no run yet");
    }));
    cases.push(pg(cluster, "a deleted run is made again by a writer, as before", |cluster| {
        let scratch = Scratch::new();
        let url = cluster.url();
        seeded(cluster, "remade");
        cluster.client().execute("DELETE FROM evodb.runs WHERE name = 'remade'", &[]).unwrap();
        let out = scratch.evodb(&on_run(&url, "remade", "seed", &seed_args("")[2..]));
        assert_eq!(out.code, 0, "{out:?}");
        assert!(out.stderr.contains("creating a new one"), "{out:?}");
        assert_eq!(scratch.evodb(&on_run(&url, "remade", "info", &[])).json()["programCount"], 1);
    }));
    cases.extend(time_budget_cases(cluster));
    cases.extend(password_cases(cluster));
    cases.extend(serve_cases(cluster));
    cases
}

/// Holds the run's advisory lock (as a psql session could) until dropped.
struct LockHolder {
    _client: postgres::Client,
}

impl LockHolder {
    fn advisory(url: &str, run: &str) -> LockHolder {
        let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
        client.execute("SELECT pg_advisory_lock($1, hashtext($2))", &[&0x6576_6f64_i32, &run]).unwrap();
        LockHolder { _client: client }
    }

    fn row(cluster: &Cluster, run: &str) -> LockHolder {
        let mut client = cluster.client();
        client.batch_execute("BEGIN").unwrap();
        client.execute("SELECT 1 FROM evodb.runs WHERE name = $1 FOR UPDATE", &[&run]).unwrap();
        LockHolder { _client: client }
    }

    fn table(url: &str) -> LockHolder {
        let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
        client.batch_execute("BEGIN; LOCK TABLE evodb.runs IN ACCESS EXCLUSIVE MODE").unwrap();
        LockHolder { _client: client }
    }
}

fn added_count(scratch: &Scratch, url: &str, run: &str) -> usize {
    history_events(scratch, url, run).iter().filter(|e| e["event"] == "added").count()
}

fn time_budget_cases(cluster: &Arc<Cluster>) -> Vec<Case> {
    vec![
        pg(cluster, "the run's lock held elsewhere: add exits 4 within --timeBudgetMs, nothing saved", |cluster| {
            let (scratch, url) = (Scratch::new(), cluster.url());
            seeded(cluster, "locked");
            let before = added_count(&scratch, &url, "locked");
            let holder = LockHolder::advisory(&url, "locked");
            let out = scratch.evodb(&on_run(
                &url,
                "locked",
                "add",
                &add_args("", &["--timeBudgetMs", "1500", "--id", "lk1"])[2..],
            ));
            out.refused(4, "nothing was saved").refused(4, "--timeBudgetMs 1500").within(Duration::from_secs(6));
            drop(holder);
            assert_eq!(added_count(&scratch, &url, "locked"), before, "the add was stored after all");
        }),
        pg(cluster, "sessions carry application_name=evodb/<version> <command> (seen while one waits)", |cluster| {
            let url = database(cluster, "named");
            seeded_at(&url, "named");
            let holder = LockHolder::advisory(&url, "named");
            let scratch = Scratch::new();
            let mut child = Command::new(bin())
                .args(on_run(&url, "named", "sample", &["--timeBudgetMs", "4000"]))
                .current_dir(scratch.cwd())
                .env("XDG_RUNTIME_DIR", scratch.path("run"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let mut watcher = cluster.client();
            let deadline = Instant::now() + Duration::from_secs(3);
            let mut seen = 0;
            let named = "SELECT count(*) FROM pg_stat_activity WHERE datname = 'named' AND application_name = $1";
            let name = format!("evodb/{} sample", env!("CARGO_PKG_VERSION"));
            while seen == 0 && Instant::now() < deadline {
                seen = watcher.query_one(named, &[&name]).unwrap().get::<_, i64>(0);
                thread::sleep(Duration::from_millis(20));
            }
            drop(holder);
            let _ = child.wait();
            assert!(seen >= 1, "no session named {name} in pg_stat_activity");
        }),
        pg(cluster, "the run's row locked elsewhere: add exits 4, nothing saved", |cluster| {
            let (scratch, url) = (Scratch::new(), cluster.url());
            seeded(cluster, "row-locked");
            let before = added_count(&scratch, &url, "row-locked");
            let holder = LockHolder::row(cluster, "row-locked");
            let out =
                scratch.evodb(&on_run(&url, "row-locked", "add", &add_args("", &["--timeBudgetMs", "1500"])[2..]));
            out.refused(4, "nothing was saved").within(Duration::from_secs(6));
            drop(holder);
            assert_eq!(added_count(&scratch, &url, "row-locked"), before, "the add was stored after all");
        }),
        pg(cluster, "the runs table locked elsewhere: a reader exits 4 within its budget", |cluster| {
            // A database of its own: the lock would hold up every other case's runs.
            let (scratch, url) = (Scratch::new(), database(cluster, "tablelock"));
            seeded_at(&url, "table-locked");
            let holder = LockHolder::table(&url);
            let out = scratch.evodb(&on_run(&url, "table-locked", "info", &["--timeBudgetMs", "1000"]));
            drop(holder);
            out.refused(4, "within the time budget").within(Duration::from_secs(5));
        }),
        pg(cluster, "a retried add --id is answered once the lock is free, not added twice", |cluster| {
            let (scratch, url) = (Scratch::new(), cluster.url());
            seeded(cluster, "retried");
            let add = add_args("", &["--id", "rt1"]);
            assert_eq!(scratch.evodb(&on_run(&url, "retried", "add", &add[2..])).code, 0);
            let again = scratch.evodb(&on_run(&url, "retried", "add", &add[2..]));
            assert_eq!(again.code, 0, "{again:?}");
            assert!(again.stderr.contains("already in the database"), "{again:?}");
            assert_eq!(added_count(&scratch, &url, "retried"), 2, "the seed and rt1, once each");
        }),
    ]
}

fn password_url(cluster: &Cluster, password: Option<&str>) -> String {
    match password {
        Some(password) => format!("postgres://{PASSWORD_USER}:{password}@127.0.0.1:{}/postgres", cluster.port),
        None => format!("postgres://{PASSWORD_USER}@127.0.0.1:{}/postgres", cluster.port),
    }
}

fn pgpass_line(cluster: &Cluster) -> String {
    format!("127.0.0.1:{}:postgres:{PASSWORD_USER}:{PASSWORD}\n", cluster.port)
}

fn password_cases(cluster: &Arc<Cluster>) -> Vec<Case> {
    vec![
        pg(cluster, "a password file reached through a symlink, mode 600, logs in (as libpq)", |cluster| {
            let scratch = Scratch::new();
            write_mode(&scratch.path("pgpass"), &pgpass_line(cluster), 0o600);
            std::os::unix::fs::symlink(scratch.path("pgpass"), scratch.path("link")).unwrap();
            let mut env = scratch.env();
            env.set("PGPASSFILE", scratch.path("link"));
            let url = password_url(cluster, None);
            let out = scratch.evodb_env(&on_run(&url, "pgpass", "seed", &seed_args("")[2..]), &env);
            assert_eq!(out.no_secret().code, 0, "{out:?}");
        }),
        pg(cluster, "a world-readable password file is not used (libpq refuses it): exit 5, warned", |cluster| {
            let scratch = Scratch::new();
            write_mode(&scratch.path("pgpass"), &pgpass_line(cluster), 0o644);
            let mut env = scratch.env();
            env.set("PGPASSFILE", scratch.path("pgpass"));
            let url = password_url(cluster, None);
            let out = scratch.evodb_env(&on_run(&url, "pgpass", "info", &[]), &env);
            out.refused(5, "has group or world access");
        }),
        pg(cluster, "a password file that is a FIFO, against a server asking a password: exit 5, no hang", |cluster| {
            let scratch = Scratch::new();
            mkfifo(&scratch.path("fifo"));
            let mut env = scratch.env();
            env.set("PGPASSFILE", scratch.path("fifo"));
            let url = password_url(cluster, None);
            let out = scratch.evodb_env(&on_run(&url, "pgpass", "info", &[]), &env);
            out.refused(5, "not a plain file").within(Duration::from_secs(10));
        }),
        pg(cluster, "a wrong PGPASSWORD: exit 5 with the server's message, no password", |cluster| {
            let scratch = Scratch::new();
            let mut env = scratch.env();
            env.set("PGPASSWORD", "not-the-password-123");
            let url = password_url(cluster, None);
            scratch.evodb_env(&on_run(&url, "pgpass", "info", &[]), &env).refused(5, "password authentication failed");
        }),
        pg(cluster, "a wrong password in the URL: exit 5, neither password printed", |cluster| {
            let scratch = Scratch::new();
            let url = password_url(cluster, Some("not-the-password-123"));
            scratch.evodb(&on_run(&url, "pgpass", "info", &[])).refused(5, "password authentication failed");
        }),
    ]
}

/// A server on `run`, logging in with the password from `PGPASSWORD`.
fn password_server(cluster: &Cluster, run: &str, extra: &[&str]) -> Server {
    let url = password_url(cluster, None);
    let mut args = vec!["serve", url.as_str(), "--run", run];
    args.extend_from_slice(extra);
    Server::start_with(bin(), &args, &[("PGPASSWORD", PASSWORD)])
}

/// A client of `server`: its socket directory, and `password` (if any) in `PGPASSWORD`.
fn client_env(scratch: &Scratch, server: &Server, password: Option<&str>) -> Env {
    let mut env = scratch.env();
    for (key, value) in server.env() {
        env.set(&key, value);
    }
    if let Some(password) = password {
        env.set("PGPASSWORD", password);
    }
    env
}

fn serve_cases(cluster: &Arc<Cluster>) -> Vec<Case> {
    vec![
        pg(cluster, "serve with the password in its URL warns that ps shows it", |cluster| {
            seeded(cluster, "served-pw");
            let url = password_url(cluster, Some(PASSWORD));
            let server = Server::start_with(bin(), &["serve", &url, "--run", "served-pw"], &[]);
            thread::sleep(Duration::from_millis(100));
            let log = server.log();
            assert!(log.contains("every user of this machine") && log.contains("PGPASSWORD"), "{log}");
            assert!(!log.contains(PASSWORD), "the log holds the password: {log}");
        }),
        pg(cluster, "serve with the password from PGPASSWORD does not warn", |cluster| {
            seeded(cluster, "served-env");
            let server = password_server(cluster, "served-env", &[]);
            thread::sleep(Duration::from_millis(100));
            assert!(!server.log().contains("every user of this machine"), "{}", server.log());
        }),
        pg(cluster, "serve: a client with a wrong password is not answered (exit 5 from the store)", |cluster| {
            seeded(cluster, "served-check");
            let server = password_server(cluster, "served-check", &[]);
            let scratch = Scratch::new();
            let url = password_url(cluster, None);
            let env = client_env(&scratch, &server, Some("not-the-password-123"));
            let out = scratch.evodb_env(&on_run(&url, "served-check", "info", &[]), &env);
            out.refused(5, "password authentication failed");
            assert!(server.log().contains("passed `info` back"), "{}", server.log());
            assert_eq!(server.answered().len(), 0, "the server answered it");
        }),
        pg(cluster, "serve: a client with no password is not answered (exit 5 from the store)", |cluster| {
            seeded(cluster, "served-none");
            let server = password_server(cluster, "served-none", &[]);
            let scratch = Scratch::new();
            let url = password_url(cluster, None);
            let out =
                scratch.evodb_env(&on_run(&url, "served-none", "export", &[]), &client_env(&scratch, &server, None));
            out.refused(5, "password");
            assert_eq!(server.answered().len(), 0, "the server answered it");
        }),
        pg(cluster, "serve: a client with the right password is answered", |cluster| {
            seeded(cluster, "served-right");
            let server = password_server(cluster, "served-right", &[]);
            let scratch = Scratch::new();
            let url = password_url(cluster, None);
            let env = client_env(&scratch, &server, Some(PASSWORD));
            let out = scratch.evodb_env(&on_run(&url, "served-right", "info", &[]), &env);
            assert_eq!(out.no_secret().json()["programCount"], 1);
            assert_eq!(server.answered().len(), 1, "{}", server.log());
        }),
        pg(cluster, "serve stopped (SIGSTOP): a command runs by itself within seconds and says so", |cluster| {
            seeded(cluster, "served-stopped");
            let server = Server::start(bin(), &cluster.url(), "served-stopped");
            let pid = nix::unistd::Pid::from_raw(server.pid());
            nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGSTOP).unwrap();
            let scratch = Scratch::new();
            let url = cluster.url();
            let out =
                scratch.evodb_env(&on_run(&url, "served-stopped", "info", &[]), &client_env(&scratch, &server, None));
            nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGCONT).unwrap();
            out.within(Duration::from_secs(4));
            assert_eq!(out.json()["programCount"], 1);
            assert!(out.stderr.contains("is stopped") && out.stderr.lines().count() == 1, "{out:?}");
        }),
        pg(cluster, "serve: an idle connection holds up no other client", |cluster| {
            seeded(cluster, "served-idle");
            let server = Server::start(bin(), &cluster.url(), "served-idle");
            let idle = UnixStream::connect(&server.sockets()[0]).unwrap();
            let scratch = Scratch::new();
            let url = cluster.url();
            let out =
                scratch.evodb_env(&on_run(&url, "served-idle", "info", &[]), &client_env(&scratch, &server, None));
            drop(idle);
            out.within(Duration::from_secs(2));
            assert_eq!(out.json()["programCount"], 1);
            assert_eq!(server.answered().len(), 1, "{}", server.log());
        }),
        pg(cluster, "serve: a client that never sends its request holds up no one, even several", |cluster| {
            seeded(cluster, "served-idle-many");
            let server = Server::start(bin(), &cluster.url(), "served-idle-many");
            let idle: Vec<UnixStream> = (0..8).map(|_| UnixStream::connect(&server.sockets()[0]).unwrap()).collect();
            let mut half = UnixStream::connect(&server.sockets()[0]).unwrap();
            half.write_all(br#"{"argv": ["evodb", "info""#).unwrap();
            let scratch = Scratch::new();
            let url = cluster.url();
            for _ in 0..3 {
                let out = scratch
                    .evodb_env(&on_run(&url, "served-idle-many", "info", &[]), &client_env(&scratch, &server, None));
                out.within(Duration::from_secs(2));
                assert_eq!(out.json()["programCount"], 1);
            }
            drop((idle, half));
            assert_eq!(server.answered().len(), 3, "{}", server.log());
        }),
        pg(cluster, "serve killed: the stale socket is said in one line, and the command runs", |cluster| {
            seeded(cluster, "served-stale");
            let mut server = Server::start(bin(), &cluster.url(), "served-stale");
            server.kill();
            let scratch = Scratch::new();
            let url = cluster.url();
            let out =
                scratch.evodb_env(&on_run(&url, "served-stale", "info", &[]), &client_env(&scratch, &server, None));
            assert_eq!(out.json()["programCount"], 1);
            assert!(out.stderr.contains("stale") && out.stderr.lines().count() == 1, "{out:?}");
        }),
        pg(cluster, "serve on a run not made yet starts, and its first writer makes it", |cluster| {
            let server = Server::start(bin(), &cluster.url(), "served-new");
            let scratch = Scratch::new();
            let url = cluster.url();
            let env = client_env(&scratch, &server, None);
            let seed = scratch.evodb_env(&on_run(&url, "served-new", "seed", &seed_args("")[2..]), &env);
            assert_eq!(seed.code, 0, "{seed:?}");
            assert_eq!(scratch.evodb_env(&on_run(&url, "served-new", "info", &[]), &env).json()["programCount"], 1);
            assert_eq!(server.answered().len(), 2, "{}", server.log());
        }),
        pg(cluster, "serve: a run deleted under the server answers readers exit 3", |cluster| {
            seeded(cluster, "served-deleted");
            let server = Server::start(bin(), &cluster.url(), "served-deleted");
            cluster.client().execute("DELETE FROM evodb.runs WHERE name = 'served-deleted'", &[]).unwrap();
            let scratch = Scratch::new();
            let url = cluster.url();
            let out =
                scratch.evodb_env(&on_run(&url, "served-deleted", "info", &[]), &client_env(&scratch, &server, None));
            out.refused(3, "no run named `served-deleted`");
            assert_eq!(server.answered().len(), 1, "{}", server.log());
        }),
        pg(
            cluster,
            "serve: the run's lock held elsewhere: a served add exits 4 within its budget, nothing saved",
            |cluster| {
                seeded(cluster, "served-locked");
                let url = cluster.url();
                let server = Server::start_with(
                    bin(),
                    &["serve", &url, "--run", "served-locked", "--timeBudgetMs", "1500"],
                    &[],
                );
                let scratch = Scratch::new();
                let env = client_env(&scratch, &server, None);
                let before = added_count(&scratch, &url, "served-locked");
                let holder = LockHolder::advisory(&url, "served-locked");
                let add = add_args("", &["--timeBudgetMs", "1500"]);
                let out = scratch.evodb_env(&on_run(&url, "served-locked", "add", &add[2..]), &env);
                drop(holder);
                out.refused(4, "nothing was saved").within(Duration::from_secs(6));
                assert_eq!(server.answered().len(), 1, "the server answered it: {}", server.log());
                let again = scratch.evodb_env(&on_run(&url, "served-locked", "add", &add[2..]), &env);
                assert_eq!(again.code, 0, "the server goes on: {again:?}");
                assert_eq!(added_count(&scratch, &url, "served-locked"), before + 1);
            },
        ),
    ]
}

#[test]
#[ignore = "needs PostgreSQL (initdb, pg_ctl): tests/run.sh runs it with --include-ignored"]
fn catalogue_on_postgres() {
    let Some(cluster) = Cluster::start() else { return };
    let cluster = Arc::new(cluster);
    cli::catalogue::run("hostile store: PostgreSQL and serve", postgres_cases(&cluster), ON_POSTGRES);
}

// --- the store URL parser, fuzzed --------------------------------------------------------------

/// An RFC 3986 scheme, any case.
fn scheme() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("postgres".to_string()),
        Just("POSTGRES".to_string()),
        Just("PostgreSQL".to_string()),
        Just("postgress".to_string()),
        Just("mysql".to_string()),
        "[a-zA-Z][a-zA-Z0-9+.-]{0,12}",
    ]
}

/// A password: a marker no message holds by chance, then anything a person might type.
fn password() -> impl Strategy<Value = String> {
    "[A-Za-z0-9!$&'()*+,;=%@/?#:~._-]{0,16}".prop_map(|tail| format!("Zq7{tail}"))
}

fn url() -> impl Strategy<Value = (String, String)> {
    url_with(password())
}

/// A password without whitespace or quotes (which end a word of a message).
fn plain_password() -> impl Strategy<Value = String> {
    "[A-Za-z0-9!$&()*+,;=%@/?#:~._-]{3,16}".prop_map(|tail| format!("Zq7{tail}"))
}

fn url_with(password: impl Strategy<Value = String>) -> impl Strategy<Value = (String, String)> {
    (
        scheme(),
        "[a-z]{0,8}",
        password,
        "[a-z0-9.-]{0,12}",
        "(:[0-9a-z]{0,6})?",
        "(/[a-z_]{0,8})?",
        "(\\?[a-z_=&]{0,20})?",
    )
        .prop_map(|(scheme, user, password, host, port, path, query)| {
            (format!("{scheme}://{user}:{password}@{host}{port}{path}{query}"), password)
        })
}

/// The parts of a message a password could hide in: what each parse and show produces.
fn messages(text: &str) -> Vec<String> {
    let mut said = vec![shown_location(text)];
    match form(text.as_bytes(), "<dbPath>") {
        Err(message) => said.push(message),
        Ok(Form::Postgres) => match PgUrl::parse(text, Duration::from_secs(1)) {
            Err(message) => said.push(message),
            Ok(url) => {
                said.push(url.shown().to_string());
                said.push(url.endpoint().to_string());
                said.push(url.identity());
            }
        },
        Ok(Form::Directory) => {}
    }
    said
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Nothing panics, whatever the text.
    #[test]
    fn the_parser_never_panics(text in any::<String>(), bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let _ = messages(&text);
        let _ = form(&bytes, "<dbPath>");
        let _ = messages(&format!("postgres://{text}"));
        let _ = messages(&format!("postgres://u:{text}@h/d?{text}"));
    }

    /// No message holds the password of the URL it is about.
    #[test]
    fn no_message_holds_the_password((text, password) in url()) {
        // Long enough to tell apart from a host or a database name.
        prop_assume!(password.len() >= 6);
        for message in messages(&text) {
            prop_assert!(!message.contains(&password), "{message:?} holds the password of {text:?}");
        }
        let with_param = format!("postgres://h/d?password={password}");
        for message in messages(&with_param) {
            prop_assert!(!message.contains(&password), "{message:?} holds the password of {with_param:?}");
        }
    }

    /// The last line of defence on stderr hides a URL's password wherever the URL stands in a
    /// message (a password without whitespace or quotes, which would end the word).
    #[test]
    fn stderr_never_shows_a_password_in_a_message(
        (text, password) in url_with(plain_password()),
        before in "[a-z ]{0,10}(`|'|\\(| )",
        after in "(`|'|\\)| |;)[a-z ]{0,10}",
    ) {
        let message = redact_passwords(&format!("{before}{text}{after}"));
        prop_assert!(!message.contains(&password), "{message:?} holds the password of {text:?}");
    }

    /// A scheme other than PostgreSQL's is never a directory (nor a run).
    #[test]
    fn a_foreign_scheme_is_never_a_directory(scheme in "[a-zA-Z][a-zA-Z0-9+.-]{0,12}", rest in ".{0,40}") {
        prop_assume!(!["postgres", "postgresql"].contains(&scheme.to_ascii_lowercase().as_str()));
        let text = format!("{scheme}://{rest}");
        prop_assert!(form(text.as_bytes(), "<dbPath>").is_err(), "{text:?} was accepted");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// End to end: `create` on a foreign scheme's URL exits 2 and creates nothing, and prints no
    /// password.
    #[test]
    fn create_on_a_foreign_scheme_creates_nothing((text, password) in url()) {
        let lower = text.split("://").next().unwrap().to_ascii_lowercase();
        prop_assume!(lower != "postgres" && lower != "postgresql");
        let scratch = Scratch::new();
        let out = scratch.evodb(&["create", &text]);
        prop_assert_eq!(out.code, 2, "{:?}", out);
        prop_assert!(!out.stderr.contains(&password) || password.len() < 6, "{:?}", out);
        prop_assert_eq!(scratch.created(), Vec::<String>::new());
    }
}
