//! A command on a PostgreSQL run, answered by the `evodb serve` that keeps the run warm: the
//! client's side (`forward`), and what the server does with the command line it receives
//! (`answer`). No server there (or a stale socket) and the command runs here, as it does when
//! the server asks it to (another evodb version, other sandbox limits); an answer lost half-way
//! is an IO failure, never a second attempt. `EVODB_SERVE=off` bypasses it.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use evodb_host::postgres::PgRun;

use crate::cli::{Cli, Command};
use crate::context::Context;
use crate::failure::Failure;
use crate::location::{Environment, Location};
use crate::reply::{Output, Reply};
use crate::serve_protocol::{
    ACKNOWLEDGE, GO, RECEIVED, Request, STARTING, TRANSFER, build, is_stopped, read_byte, socket_of,
};
use crate::session::Engine;

/// The commands a server answers: those on one database that read no standard input and need
/// nothing of the client's but its files (git mode's repository, a whole import are not).
fn answers(command: &Command) -> Option<&Path> {
    if file_flags(command).iter().any(|path| path.as_os_str() == "-") {
        return None;
    }
    let db = match command {
        Command::Info(args) => &args.db,
        Command::Stats(args) => &args.db,
        Command::Sample(args) => &args.db,
        Command::Best(args) => &args.db,
        Command::ShouldStop(args) => &args.db,
        Command::Lineage(args) => &args.db,
        Command::Export(args) => &args.db,
        Command::History(args) => &args.db,
        Command::Plan(args) => &args.db,
        Command::Seed(args) => &args.db,
        Command::Add(args) if !args.git.is_on() => &args.db,
        Command::Note(args) => &args.db,
        Command::Notes(args) => &args.db,
        _ => return None,
    };
    Some(db.as_path())
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
    let flags: Vec<&mut Option<PathBuf>> = match command {
        Command::Add(args) => args.candidate.files_mut().into(),
        Command::Seed(args) => args.candidate.files_mut().into(),
        Command::Note(args) => vec![&mut args.text_file],
        _ => Vec::new(),
    };
    for path in flags.into_iter().flatten() {
        *path = cwd.join(&*path);
    }
}

/// Runs `cli`'s command in the server that keeps its run warm, when one is listening; `None`:
/// run it here. Every way of falling back but "no server" says so on one line of stderr.
pub fn forward(cli: &Cli, argv: &[OsString]) -> Option<Output> {
    if cli.serve_off {
        return None;
    }
    let db = answers(&cli.command)?;
    let Ok(Location::Postgres(run)) = cli.store.locate(db) else { return None };
    let mut argv: Vec<String> = argv.iter().map(|arg| arg.to_str().map(String::from)).collect::<Option<_>>()?;
    // The run as this process resolved it (EVODB_RUN and EVODB_STORE are not the server's).
    if cli.store.run.is_none() {
        argv.splice(1..1, ["--run".to_string(), run.name.clone()]);
    }
    let argv = crate::location::with_store_as_db_path(
        argv.into_iter().map(OsString::from).collect(),
        cli.store.env_store.as_ref(),
    )
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
        Output::of(Err(Failure::Io(format!(
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

/// The reply, read to its end within `limit`; the error says what went wrong, for a message. A
/// server seen stopped for [`STOPPED_LIMIT`] is given up on.
fn read_reply(stream: &mut UnixStream, mut bytes: Vec<u8>, limit: Duration, pid: i32) -> Result<Output, String> {
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

/// `evodb serve`'s answer to a client's command on the run it keeps warm ([`crate::context::Answer`]):
/// parsed as the client would, refused unless the server may answer it, its file flags read
/// against the client's directory, then run on the warm engine.
pub fn answer(engine: Engine, argv: &[String], cwd: &Path, run: &PgRun) -> (Engine, Result<Reply, Failure>) {
    match answerable(argv, cwd, run, &engine) {
        Err(failure) => (engine, Err(failure)),
        Ok(cli) => {
            let mut engine = engine;
            engine.store_args = cli.store;
            let ctx = Context::holding(engine, answer, crate::cli::dispatch);
            let result = cli.command.run(&ctx);
            (ctx.into_engine().expect("the context holds the served engine"), result)
        }
    }
}

/// The client's command line, if the server may answer it.
fn answerable(argv: &[String], cwd: &Path, run: &PgRun, engine: &Engine) -> Result<Cli, Failure> {
    // The client resolved its environment into the arguments (the store, the run); the server's
    // own environment plays no part.
    let mut cli = crate::cli::parse(argv, &Environment::default()).map_err(|e| Failure::Usage(e.to_string()))?;
    let refused = || {
        Failure::Usage(format!(
            "`evodb serve` answers the commands on {} that read no standard input; run this one without it \
             (EVODB_SERVE=off)",
            run.shown()
        ))
    };
    let db = answers(&cli.command).ok_or_else(refused)?;
    match cli.store.locate(db)? {
        Location::Postgres(asked) if engine.keeps_warm(&asked) => {}
        _ => return Err(refused()),
    }
    in_directory(&mut cli.command, cwd);
    Ok(cli)
}
