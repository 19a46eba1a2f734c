//! `evodb serve`: one process per machine keeps a PostgreSQL run's engine loaded, and the evodb
//! commands on that run are answered by it through a Unix socket, so that an operation re-runs
//! the few events stored since the one before instead of loading the whole population.
//!
//! A command finds the server by the run alone: the socket's name is a hash of the run (server,
//! database and run name, never the password) in a directory only this user may enter. It sends
//! its arguments and working directory, and prints what the server answers, as if it had run
//! the command itself. No server there (or a stale socket) and it runs the command itself, as it
//! does when the server asks it to (another evodb version, other sandbox limits); an answer lost
//! half-way is an IO failure, never a second attempt. `EVODB_SERVE=off` bypasses it.

use std::ffi::OsString;
use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use evodb_host::postgres::PgRun;
use serde::{Deserialize, Serialize};

use crate::args::{Cli, Command, DbArg, SandboxArgs};
use crate::commands::{self, Printed};
use crate::failure::Failure;
use crate::location::{Location, StoreArgs};
use crate::session::Runtime;

/// Held while a command is answered, so that stopping waits for it.
static ANSWERING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A command sent to the server: the arguments as the client was given them (with the run made
/// explicit), its working directory, against which file flags are read, and what the server
/// must share with the client to answer for it.
#[derive(Serialize, Deserialize)]
struct Request {
    argv: Vec<String>,
    cwd: PathBuf,
    /// [`build`]: a server of another build asks the client to run the command itself.
    build: String,
    /// The client's `--timeBudgetMs` and `--memoryLimitMb`, which must be the server's.
    limits: (u64, u64),
    /// A digest of the password the client would log in with (`PgUrl::credential`), which
    /// must be the server's when the server logs in with one: the server answers no client that
    /// the store itself would refuse for a wrong or missing password.
    #[serde(default)]
    credential: Option<String>,
}

/// What a command prints and its exit code, whether it ran here or in the server.
#[derive(Serialize, Deserialize, Debug)]
pub struct Reply {
    pub exit: u8,
    pub stdout: String,
    pub stderr: String,
    /// The server did not run the command: the client runs it itself.
    #[serde(default)]
    pub local: bool,
}

/// This evodb's build: its version, the component it runs and the exchange it speaks.
fn build() -> String {
    format!("{} {} {PROTOCOL}", env!("CARGO_PKG_VERSION"), evodb_host::embedded::COMPONENT_SHA256)
}

/// The exchange on the socket: the request; the server's [`RECEIVED`] once it has read it (or at
/// once a whole reply, which a client of another build understands: run it yourself); the
/// server's [`STARTING`] when the command's turn comes, and the client's [`GO`], without which
/// the server does not run it; then the reply. A client that gave up before its `GO` runs the
/// command itself, and the server never does: the command runs once.
const PROTOCOL: &str = "serve-2";
const RECEIVED: u8 = b'R';
const STARTING: u8 = b'S';
const GO: u8 = b'G';

/// How long a client may take to send its request, and the server its reply.
const TRANSFER: Duration = Duration::from_secs(10);

/// How long a client waits for the server to acknowledge its request: a server that is alive
/// reads it at once (it reads every client's request on a thread of its own).
const ACKNOWLEDGE: Duration = Duration::from_secs(5);

/// How long the server waits for a client's [`GO`] (it answers at once when it still waits).
const HANDSHAKE: Duration = Duration::from_secs(2);

/// The most clients whose requests the server reads at once; beyond, a client runs by itself.
const MAX_CLIENTS: usize = 64;

impl Reply {
    /// A command's result as the CLI prints it: warnings then the failure on stderr, the JSON on
    /// stdout.
    pub fn of(result: Result<Printed, Failure>) -> Reply {
        match result {
            Ok(printed) => Reply {
                exit: 0,
                stdout: if printed.stdout.is_empty() { String::new() } else { format!("{}\n", printed.stdout) },
                stderr: printed.warnings.iter().map(|warning| format!("warning: {warning}\n")).collect(),
                local: false,
            },
            Err(failure) => Reply {
                exit: u8::try_from(failure.exit_code()).unwrap_or(70),
                stdout: String::new(),
                stderr: format!("{failure}\n"),
                local: false,
            },
        }
    }
}

/// The commands a server answers: those on one database that read no standard input and need
/// nothing of the client's but its files (git mode's repository, a whole import are not).
fn answers(command: &Command) -> Option<&Path> {
    if file_flags(command).iter().any(|path| path.as_os_str() == "-") {
        return None;
    }
    let db = match command {
        Command::Info(arg) | Command::Stats(arg) => arg,
        Command::Sample(args) | Command::Best(args) | Command::ShouldStop(args) => &args.db,
        Command::Lineage(args) => &args.db,
        Command::Export(args) => &args.db,
        Command::History(args) => &args.db,
        Command::Plan(args) => &args.db,
        Command::Seed(args) => &args.db,
        Command::Add(args) if !args.git.is_on() => &args.db,
        Command::Note(args) => return Some(args.db.as_path()),
        Command::Notes(args) => return Some(args.db.as_path()),
        _ => return None,
    };
    Some(db.db.as_path())
}

/// The file flags of a command the server may answer (`-` is standard input).
fn file_flags(command: &Command) -> Vec<&Path> {
    let flags = match command {
        Command::Add(args) => vec![&args.candidate.target_code_file, &args.candidate.changes_file],
        Command::Seed(args) => vec![&args.candidate.target_code_file, &args.candidate.changes_file],
        Command::Note(args) => vec![&args.text_file],
        _ => Vec::new(),
    };
    flags.into_iter().flatten().map(PathBuf::as_path).collect()
}

/// The command's file flags resolved against the client's directory, which the server reads
/// them from (it never changes its own).
fn in_directory(command: &mut Command, cwd: &Path) {
    let flags = match command {
        Command::Add(args) => vec![&mut args.candidate.target_code_file, &mut args.candidate.changes_file],
        Command::Seed(args) => vec![&mut args.candidate.target_code_file, &mut args.candidate.changes_file],
        Command::Note(args) => vec![&mut args.text_file],
        _ => Vec::new(),
    };
    for path in flags.into_iter().flatten() {
        *path = cwd.join(&*path);
    }
}

/// Runs `cli`'s command in the server that keeps its run warm, when one is listening; `None`:
/// run it here. Every way of falling back but "no server" says so on one line of stderr.
pub fn forward(cli: &Cli, argv: &[OsString]) -> Option<Reply> {
    if std::env::var_os("EVODB_SERVE").is_some_and(|value| value == "off") {
        return None;
    }
    let db = answers(&cli.command)?;
    let Ok(Location::Postgres(run)) = cli.store.locate(db) else { return None };
    let mut argv: Vec<String> = argv.iter().map(|arg| arg.to_str().map(String::from)).collect::<Option<_>>()?;
    // The run as this process resolved it (EVODB_RUN and EVODB_STORE are not the server's).
    if cli.store.run.is_none() {
        argv.splice(1..1, ["--run".to_string(), run.name.clone()]);
    }
    let argv = crate::location::with_store_as_db_path(argv.into_iter().map(OsString::from).collect())
        .into_iter()
        .map(|arg| arg.into_string().unwrap_or_default())
        .collect();
    let socket = socket_of(&run)?;
    let fall_back = |why: String| {
        eprintln!("warning: `evodb serve` for {} {why}; running the command here", run.shown());
        None
    };
    let mut stream = match connect(&socket) {
        Ok(stream) => stream,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
            return fall_back(format!("is not running (its socket {} is stale)", socket.display()));
        }
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
            return fall_back("takes no more connections (stopped, or overloaded)".into());
        }
        Err(e) => return fall_back(format!("cannot be reached at {} ({e})", socket.display())),
    };
    // The request may carry a password: only to a server of this user's.
    let peer = nix::sys::socket::getsockopt(&stream, nix::sys::socket::sockopt::PeerCredentials).ok()?;
    if peer.uid() != nix::unistd::geteuid().as_raw() {
        return fall_back(format!("at {} is another user's process (uid {})", socket.display(), peer.uid()));
    }
    if is_stopped(peer.pid()) {
        return fall_back(format!("(pid {}) is stopped (SIGSTOP, or a debugger)", peer.pid()));
    }
    let (budget, connect) = (cli.sandbox.time_budget_ms, cli.store.connect_timeout_secs);
    let request = Request {
        argv,
        cwd: std::env::current_dir().ok()?,
        build: build(),
        limits: (budget, cli.sandbox.memory_limit_mb),
        credential: run.url.credential(),
    };
    let _ = stream.set_write_timeout(Some(TRANSFER));
    // One line (JSON escapes every newline in it); the connection stays open for the turn.
    let mut line = serde_json::to_vec(&request).ok()?;
    line.push(b'\n');
    if let Err(e) = stream.write_all(&line) {
        // The server runs nothing it was not told to go on with: it runs here.
        return fall_back(format!("did not take the command ({e})"));
    }
    // The server's own work is bounded by the budget (lock waits included) and its connects.
    let turn = Duration::from_millis(budget) + Duration::from_secs(connect.saturating_mul(2)) + TRANSFER;
    let server = peer.pid();
    let stopped = || fall_back(format!("(pid {server}) is stopped (SIGSTOP, or a debugger)"));
    match wait_byte(&mut stream, ACKNOWLEDGE, server) {
        Ok(Some(RECEIVED)) => {}
        // A server of another build answers at once: run it yourself (or its answer, if it ran it).
        Ok(Some(b'{')) => {
            let reply = read_reply(&mut stream, b"{".to_vec(), TRANSFER, server);
            return match reply {
                Ok(reply) if reply.local => None,
                Ok(reply) => Some(reply),
                Err(_) => fall_back("answered what this evodb cannot read".into()),
            };
        }
        Ok(_) => return fall_back("closed the connection without taking the command".into()),
        Err(Waited::Stopped) => return stopped(),
        Err(_) => {
            return fall_back(format!("did not acknowledge the command within {} s", ACKNOWLEDGE.as_secs()));
        }
    }
    // Until the client says go, the server runs nothing: giving up here is safe.
    match wait_byte(&mut stream, turn, server) {
        Ok(Some(STARTING)) => {}
        Ok(_) => return fall_back("dropped the command before running it".into()),
        Err(Waited::Stopped) => return stopped(),
        Err(_) => return fall_back(format!("did not get to the command within {} s", turn.as_secs())),
    }
    if stream.write_all(&[GO]).is_err() {
        return fall_back("dropped the connection before running the command".into());
    }
    let reply = read_reply(&mut stream, Vec::new(), turn + TRANSFER, server);
    if reply.as_ref().is_ok_and(|reply| reply.local) {
        return None;
    }
    Some(reply.unwrap_or_else(|why| {
        Reply::of(Err(Failure::Io(format!(
            "`evodb serve` for {} {why}; the operation may or may not have been saved: run the same command again (an \
             add that carries --id is then answered, not added twice)",
            run.shown()
        ))))
    }))
}

/// Why no byte came.
enum Waited {
    /// Not within the time allowed.
    TimedOut,
    /// The server is stopped (it may go on later, but cannot answer now).
    Stopped,
    /// The connection failed.
    Failed,
}

/// How often a client waiting on the server looks at whether it is stopped.
const POLL: Duration = Duration::from_millis(100);

/// One byte within `limit` (`None`: the stream ended), giving up early once the server (`pid`)
/// is seen stopped.
fn wait_byte(stream: &mut UnixStream, limit: Duration, pid: i32) -> Result<Option<u8>, Waited> {
    let deadline = Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Waited::TimedOut);
        }
        match read_byte(stream, left.min(POLL)) {
            Ok(byte) => return Ok(byte),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                if is_stopped(pid) {
                    return Err(Waited::Stopped);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Err(Waited::Failed),
        }
    }
}

/// A connection to the socket at `path` that never waits: a full backlog (a stopped server's)
/// is `WouldBlock`, not a hang.
fn connect(path: &Path) -> std::io::Result<UnixStream> {
    use nix::sys::socket::{AddressFamily, SockFlag, SockType, UnixAddr, socket};
    let flags = SockFlag::SOCK_NONBLOCK | SockFlag::SOCK_CLOEXEC;
    let fd = socket(AddressFamily::Unix, SockType::Stream, flags, None).map_err(std::io::Error::from)?;
    let address = UnixAddr::new(path).map_err(std::io::Error::from)?;
    nix::sys::socket::connect(std::os::fd::AsRawFd::as_raw_fd(&fd), &address).map_err(std::io::Error::from)?;
    let stream = UnixStream::from(fd);
    stream.set_nonblocking(false)?;
    Ok(stream)
}

/// Whether process `pid` is stopped (state `T` or `t` in `/proc/<pid>/stat`).
fn is_stopped(pid: i32) -> bool {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
    let state = stat.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next());
    matches!(state, Some('T' | 't'))
}

/// One byte within `limit`; `None` at the end of the stream.
fn read_byte(stream: &mut UnixStream, limit: Duration) -> std::io::Result<Option<u8>> {
    stream.set_read_timeout(Some(limit.max(Duration::from_millis(1))))?;
    let mut byte = [0];
    match stream.read(&mut byte)? {
        0 => Ok(None),
        _ => Ok(Some(byte[0])),
    }
}

/// The reply, read to its end within `limit`; the error says what went wrong, for a message. A
/// server seen stopped for [`STOPPED_LIMIT`] is given up on.
fn read_reply(stream: &mut UnixStream, mut bytes: Vec<u8>, limit: Duration, pid: i32) -> Result<Reply, String> {
    let deadline = Instant::now() + limit;
    let mut stopped_since: Option<Instant> = None;
    let mut chunk = [0; 64 * 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(format!("did not answer within {} s (stuck?)", limit.as_secs()));
        }
        stream.set_read_timeout(Some(left.min(POLL))).map_err(|e| e.to_string())?;
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                bytes.extend_from_slice(&chunk[..n]);
                stopped_since = None;
            }
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                match (is_stopped(pid), stopped_since) {
                    (false, _) => stopped_since = None,
                    (true, None) => stopped_since = Some(Instant::now()),
                    (true, Some(since)) if since.elapsed() >= STOPPED_LIMIT => {
                        return Err(format!(
                            "(pid {pid}) was stopped (SIGSTOP, or a debugger) while it ran the command"
                        ));
                    }
                    (true, Some(_)) => {}
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    serde_json::from_slice(&bytes).map_err(|_| "stopped before it answered".to_string())
}

/// How long a client waits for the reply of a server it sees stopped.
const STOPPED_LIMIT: Duration = Duration::from_secs(2);

/// `evodb serve`: binds the run's socket, prints it, and answers commands one at a time until
/// stopped.
pub fn run(sandbox: &SandboxArgs, store: StoreArgs, DbArg { db }: DbArg) -> Result<Printed, Failure> {
    let Location::Postgres(run) = store.locate(&db)? else {
        return Err(Failure::Usage(format!(
            "`{}` is a directory: serve keeps a PostgreSQL run warm; pass --store postgres://… --run NAME",
            crate::location::shown(&db)
        )));
    };
    let socket = socket_of(&run).ok_or_else(|| {
        Failure::Io(format!(
            "no private directory for the socket: {} must be a directory only this user may enter (mode 700)",
            socket_dir().display()
        ))
    })?;
    // Held while this server lives: a second one for the run stops here, not at the socket.
    let _serving = claim(&socket, &run)?;
    let from_environment = store.store.is_none() && store.env_store.as_deref() == Some(db.as_os_str());
    if run.url.password_in_url() && !from_environment {
        eprintln!(
            "warning: the password in the URL is on this process's command line, which every user of this machine \
             can read (ps, /proc) for as long as evodb serve runs; leave it out of the URL and give it in \
             PGPASSWORD or a password file (~/.pgpass, mode 600, or PGPASSFILE) instead"
        );
    }
    let mut runtime = Runtime::start(sandbox, store)?;
    let mut kept = (*run).clone();
    kept.url.keep_alive();
    runtime.keep_warm(kept);
    // Opened once now, so that the first command finds the engine warm (a run not made yet is
    // served all the same: its first writer makes it).
    let warmed = runtime
        .open_location(Location::Postgres(run.clone()), evodb_host::Access::Read)
        .and_then(|mut session| session.read(|m, st, db| crate::session::ok(m.call_info(st, db))));
    match warmed {
        Ok(_) | Err(Failure::NotFound(_)) => {}
        Err(failure) => return Err(failure),
    }
    let listener = bind(&socket)?;
    // Ctrl-C or SIGTERM: the command being answered finishes, then the socket goes, so later
    // commands run by themselves at once instead of finding a stale socket.
    let stopping = socket.clone();
    ctrlc::set_handler(move || {
        let _answering = ANSWERING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let _ = fs::remove_file(&stopping);
        eprintln!("evodb serve: stopped");
        std::process::exit(130);
    })
    .map_err(|e| Failure::Internal(format!("cannot install the Ctrl-C/SIGTERM handler: {e}")))?;
    let started = serde_json::json!({"serving": run.shown(), "socket": socket});
    println!("{started}");
    let _ = std::io::stdout().flush();
    eprintln!(
        "Serving {} on {}; evodb commands on this run are answered here. Ctrl-C stops.",
        run.shown(),
        socket.display()
    );
    let (jobs, queue) = std::sync::mpsc::channel::<Job>();
    let limits = (runtime.sandbox.time_budget_ms, runtime.sandbox.memory_limit_mb);
    let credential = run.url.credential();
    std::thread::spawn(move || accept(&listener, &jobs, limits, credential.as_deref()));
    // Commands run here, one at a time (the engine is this thread's); clients' requests are
    // read and their replies written on threads of their own, so no client holds up another.
    for job in queue {
        let _answering = ANSWERING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        job.run(&mut runtime, &run);
    }
    Ok(Printed::from(String::new()))
}

/// A client's request, read and acknowledged, waiting for its turn; the reply goes back to the
/// client's thread through `reply` (`None`: the client gave up, nothing was run).
struct Job {
    request: Request,
    stream: UnixStream,
    received: Instant,
    reply: std::sync::mpsc::Sender<Option<Reply>>,
}

impl Job {
    /// Tells the client its turn has come, runs the command once it says go, and hands the
    /// reply to the client's thread. One line per command for the operator: which, its exit
    /// code, how long (never its flags, which may hold a password).
    fn run(mut self, runtime: &mut Runtime, run: &PgRun) {
        let name = command_name(&self.request.argv);
        let _ = self.stream.set_write_timeout(Some(HANDSHAKE));
        let go =
            self.stream.write_all(&[STARTING]).is_ok() && read_byte(&mut self.stream, HANDSHAKE).ok() == Some(Some(GO));
        if !go {
            eprintln!("dropped `{name}`: the client gave up before its turn (it runs the command by itself)");
            let _ = self.reply.send(None);
            return;
        }
        let started = Instant::now();
        let reply = Reply::of(run_request(runtime, self.request, run));
        eprintln!(
            "answered `{name}`: exit {} in {:.1} ms ({:.1} ms after it arrived)",
            reply.exit,
            started.elapsed().as_secs_f64() * 1e3,
            self.received.elapsed().as_secs_f64() * 1e3
        );
        let _ = self.reply.send(Some(reply));
    }
}

/// Accepts clients, each read on a thread of its own (at most [`MAX_CLIENTS`] at once; beyond,
/// a client finds the connection closed and runs the command by itself).
fn accept(listener: &UnixListener, jobs: &std::sync::mpsc::Sender<Job>, limits: (u64, u64), credential: Option<&str>) {
    let clients = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            // Out of file descriptors, say: not a loop at full speed.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        if clients.fetch_add(1, std::sync::atomic::Ordering::SeqCst) >= MAX_CLIENTS {
            clients.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
            continue;
        }
        let (clients, jobs, credential) = (std::sync::Arc::clone(&clients), jobs.clone(), credential.map(String::from));
        std::thread::spawn(move || {
            serve_client(stream, &jobs, limits, credential.as_deref());
            clients.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        });
    }
}

/// One client: its request read within [`TRANSFER`], checked, acknowledged and queued; then its
/// reply written.
fn serve_client(
    mut stream: UnixStream,
    jobs: &std::sync::mpsc::Sender<Job>,
    limits: (u64, u64),
    credential: Option<&str>,
) {
    // Only this user's processes: the socket's directory is private, and this says so again.
    let peer = nix::sys::socket::getsockopt(&stream, nix::sys::socket::sockopt::PeerCredentials);
    if !peer.is_ok_and(|peer| peer.uid() == nix::unistd::geteuid().as_raw()) {
        return;
    }
    let _ = stream.set_write_timeout(Some(TRANSFER));
    let request = match read_request(&mut stream).map(|text| serde_json::from_str::<Request>(&text)) {
        Ok(Ok(request)) => request,
        Ok(Err(e)) => {
            let failure = Failure::Usage(format!("evodb serve: the request is not one ({e})"));
            let _ = serde_json::to_writer(&mut stream, &Reply::of(Err(failure)));
            return;
        }
        Err(_) => return,
    };
    // Run by the client itself: another build, other limits, or a password that is not the
    // server's (the store would refuse the client; the client then hears it from the store).
    let name = command_name(&request.argv);
    let why = if request.build != build() {
        Some("another evodb build")
    } else if request.limits != limits {
        Some("other sandbox limits")
    } else if credential.is_some() && request.credential.as_deref() != credential {
        Some("the client's store password is not the server's, or it has none")
    } else {
        None
    };
    if let Some(why) = why {
        eprintln!("passed `{name}` back to run by itself: {why}");
        let local = Reply { exit: 0, stdout: String::new(), stderr: String::new(), local: true };
        let _ = serde_json::to_writer(&mut stream, &local);
        return;
    }
    let (Ok(handshake), true) = (stream.try_clone(), stream.write_all(&[RECEIVED]).is_ok()) else { return };
    let (reply, replied) = std::sync::mpsc::channel();
    let job = Job { request, stream: handshake, received: Instant::now(), reply };
    if jobs.send(job).is_err() {
        return;
    }
    if let Ok(Some(reply)) = replied.recv() {
        // The handshake shortened the socket's timeout (the clone shares it); the reply may be
        // a whole database.
        let _ = stream.set_write_timeout(Some(TRANSFER));
        let _ = serde_json::to_writer(&mut stream, &reply);
    }
}

/// The largest request read (a command's flags: code up to the engine's limits, and more).
const MAX_REQUEST: usize = 64 << 20;

/// The request's text, read within [`TRANSFER`] in all: one line of JSON (the client then waits
/// for its turn), or JSON to the end of the stream (a client of an earlier build).
fn read_request(stream: &mut UnixStream) -> std::io::Result<String> {
    let deadline = Instant::now() + TRANSFER;
    let mut bytes = Vec::new();
    let mut chunk = [0; 64 * 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the client took too long"));
        }
        stream.set_read_timeout(Some(left))?;
        let n = stream.read(&mut chunk)?;
        if let Some(end) = chunk[..n].iter().position(|&b| b == b'\n') {
            bytes.extend_from_slice(&chunk[..end]);
            break;
        }
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&chunk[..n]);
        if bytes.len() > MAX_REQUEST {
            return Err(std::io::Error::other("the request is too large"));
        }
    }
    String::from_utf8(bytes).map_err(std::io::Error::other)
}

/// The command a request names: its first argument that is not a flag or a flag's value.
fn command_name(argv: &[String]) -> String {
    let names: Vec<&str> = evodb_cli_spec::CLI.commands.iter().map(|c| c.name).collect();
    argv.iter().skip(1).find(|arg| names.contains(&arg.as_str())).cloned().unwrap_or_else(|| "?".into())
}

fn run_request(runtime: &mut Runtime, request: Request, run: &PgRun) -> Result<Printed, Failure> {
    let mut cli = crate::args::parse(&request.argv).map_err(|e| Failure::Usage(e.to_string()))?;
    let refused = || {
        Failure::Usage(format!(
            "`evodb serve` answers the commands on {} that read no standard input; run this one without it \
             (EVODB_SERVE=off)",
            run.shown()
        ))
    };
    let db = answers(&cli.command).ok_or_else(refused)?;
    match cli.store.locate(db)? {
        Location::Postgres(asked) if runtime.keeps_warm(&asked) => {}
        _ => return Err(refused()),
    }
    in_directory(&mut cli.command, &request.cwd);
    runtime.store_args = cli.store;
    commands::run(runtime, cli.command)
}

/// The lock beside the run's socket, taken; refused while another server holds it.
fn claim(socket: &Path, run: &PgRun) -> Result<fs::File, Failure> {
    let path = socket.with_extension("lock");
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .open(&path)
        .map_err(|e| Failure::Io(format!("cannot open {}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => Err(Failure::Usage(format!(
            "{} is served already (socket {}); one evodb serve per run and machine",
            run.shown(),
            socket.display()
        ))),
        Err(fs::TryLockError::Error(e)) => Err(Failure::Io(format!("cannot lock {}: {e}", path.display()))),
    }
}

/// Binds the run's socket, private to this user; a stale one (its server died) is replaced.
fn bind(socket: &Path) -> Result<UnixListener, Failure> {
    let _ = fs::remove_file(socket);
    let listener =
        UnixListener::bind(socket).map_err(|e| Failure::Io(format!("cannot listen on {}: {e}", socket.display())))?;
    fs::set_permissions(socket, fs::Permissions::from_mode(0o600))
        .map_err(|e| Failure::Io(format!("cannot make {} private: {e}", socket.display())))?;
    Ok(listener)
}

/// `$XDG_RUNTIME_DIR/evodb`, else `/tmp/evodb-<uid>` (`$TMPDIR`'s), made absolute.
fn socket_dir() -> PathBuf {
    let dir = match std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from).filter(|dir| dir.is_absolute()) {
        Some(dir) => dir.join("evodb"),
        None => std::env::temp_dir().join(format!("evodb-{}", nix::unistd::geteuid())),
    };
    std::path::absolute(&dir).unwrap_or(dir)
}

/// The socket of `run` in [`socket_dir`], created private when missing; `None` when the
/// directory is not this user's alone (a socket there could be anyone's).
fn socket_of(run: &PgRun) -> Option<PathBuf> {
    let dir = socket_dir();
    let _ = fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir);
    let meta = fs::symlink_metadata(&dir).ok()?;
    let private = meta.is_dir() && meta.uid() == nix::unistd::geteuid().as_raw() && meta.mode() & 0o077 == 0;
    private.then(|| dir.join(format!("{:016x}.sock", fnv1a(run.identity().as_bytes()))))
}

/// FNV-1a, 64 bits: a name for the run's socket that every evodb computes alike.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}
