//! A command on a PostgreSQL run, answered by the `evodb serve` that keeps the run warm: the
//! client's side (`forward`), and what the server does with the command line it receives
//! (`answer`). No server there (or a stale socket) and the command runs here, as it does when
//! the server asks it to (another evodb version, other sandbox limits); an answer lost half-way
//! is an IO failure, never a second attempt. `EVODB_SERVE=off` bypasses it.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use evodb_host::postgres::PgRun;

use serde::{Deserialize, Serialize};

use crate::cli::{Cli, Command};
use crate::commands::{
    add, best, export, heartbeat, history, info, leases, lineage, note, notes, plan, sample, seed, should_stop, stats,
};
use crate::context::Context;
use crate::failure::Failure;
use crate::location::{Location, StoreArgs};
use crate::reply::{Output, Reply};
use crate::serve_protocol::{
    ACKNOWLEDGE, GO, RECEIVED, Request, STARTING, TRANSFER, build, is_stopped, read_byte, socket_of,
};
use crate::session::Engine;

/// The commands a server answers, as they travel to it: parsed by the client, never again.
/// Each travels under its command's name (`{"should-stop": {…}}`).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Served {
    Info(info::Args),
    Stats(stats::Args),
    Sample(sample::Args),
    Best(best::Args),
    ShouldStop(should_stop::Args),
    Lineage(lineage::Args),
    Export(export::Args),
    History(history::Args),
    Plan(plan::Args),
    Heartbeat(heartbeat::Args),
    Leases(leases::Args),
    Seed(seed::Args),
    Add(Box<add::Args>),
    Note(note::Args),
    Notes(notes::Args),
}

impl Served {
    /// The command, if a server may answer it: one on one database that reads no standard input
    /// and needs nothing of the client's but its files (git mode's repository, a whole import
    /// are not).
    fn of(command: &Command) -> Option<Served> {
        if file_flags(command).iter().any(|path| path.as_os_str() == "-") {
            return None;
        }
        Some(match command {
            Command::Info(args) => Served::Info(args.clone()),
            Command::Stats(args) => Served::Stats(args.clone()),
            Command::Sample(args) => Served::Sample(args.clone()),
            Command::Best(args) => Served::Best(args.clone()),
            Command::ShouldStop(args) => Served::ShouldStop(args.clone()),
            Command::Lineage(args) => Served::Lineage(args.clone()),
            // Files written by `--out` are the caller's to write, where the caller runs.
            Command::Export(args) if args.out.is_none() => Served::Export(args.clone()),
            Command::History(args) => Served::History(args.clone()),
            Command::Plan(args) => Served::Plan(args.clone()),
            Command::Heartbeat(args) => Served::Heartbeat(args.clone()),
            Command::Leases(args) => Served::Leases(args.clone()),
            Command::Seed(args) => Served::Seed(args.clone()),
            Command::Add(args) if !args.git.is_on() => Served::Add(args.clone()),
            Command::Note(args) => Served::Note(args.clone()),
            Command::Notes(args) => Served::Notes(args.clone()),
            _ => return None,
        })
    }

    /// The database the command names.
    fn db(&self) -> &Path {
        match self {
            Served::Info(args) => &args.db,
            Served::Stats(args) => &args.db,
            Served::Sample(args) => &args.db,
            Served::Best(args) => &args.db,
            Served::ShouldStop(args) => &args.db,
            Served::Lineage(args) => &args.db,
            Served::Export(args) => &args.db,
            Served::History(args) => &args.db,
            Served::Plan(args) => &args.db,
            Served::Heartbeat(args) => &args.db,
            Served::Leases(args) => &args.db,
            Served::Seed(args) => &args.db,
            Served::Add(args) => &args.db,
            Served::Note(args) => &args.db,
            Served::Notes(args) => &args.db,
        }
    }

    fn into_command(self) -> Command {
        match self {
            Served::Info(args) => Command::Info(args),
            Served::Stats(args) => Command::Stats(args),
            Served::Sample(args) => Command::Sample(args),
            Served::Best(args) => Command::Best(args),
            Served::ShouldStop(args) => Command::ShouldStop(args),
            Served::Lineage(args) => Command::Lineage(args),
            Served::Export(args) => Command::Export(args),
            Served::History(args) => Command::History(args),
            Served::Plan(args) => Command::Plan(args),
            Served::Heartbeat(args) => Command::Heartbeat(args),
            Served::Leases(args) => Command::Leases(args),
            Served::Seed(args) => Command::Seed(args),
            Served::Add(args) => Command::Add(args),
            Served::Note(args) => Command::Note(args),
            Served::Notes(args) => Command::Notes(args),
        }
    }
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
pub fn forward(cli: &Cli) -> Option<Output> {
    if cli.serve_off {
        return None;
    }
    let served = Served::of(&cli.command)?;
    let Ok(Location::Postgres(run)) = cli.store.locate(served.db()) else { return None };
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
    let command = serde_json::to_value(&served).ok()?;
    let request = Request {
        name: command.as_object().and_then(|named| named.keys().next().cloned()).unwrap_or_default(),
        command,
        // The run as this process resolved it (EVODB_RUN and EVODB_STORE are not the server's).
        run: run.name.clone(),
        connect_timeout_secs: connect,
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
/// the command as the client parsed it, refused unless the server may answer it, its file flags
/// read against the client's directory, then run on the warm engine.
pub fn answer(engine: Engine, request: &Request, run: &PgRun) -> (Engine, Result<Reply, Failure>) {
    match answerable(request, run, &engine) {
        Err(failure) => (engine, Err(failure)),
        Ok((command, store)) => {
            let mut engine = engine;
            engine.store_args = store;
            let ctx = Context::holding(engine, answer, crate::cli::dispatch);
            let result = command.run(&ctx);
            (ctx.into_engine().expect("the context holds the served engine"), result)
        }
    }
}

/// The client's command and the store flags it runs with, if the server may answer it.
fn answerable(request: &Request, run: &PgRun, engine: &Engine) -> Result<(Command, StoreArgs), Failure> {
    let refused = || {
        Failure::Usage(format!(
            "`evodb serve` answers the commands on {} that read no standard input; run this one without it \
             (EVODB_SERVE=off)",
            run.shown()
        ))
    };
    let served: Served = serde_json::from_value(request.command.clone()).map_err(|_| refused())?;
    // The client resolved its environment (the store, the run); the server's own plays no part.
    let store = StoreArgs {
        run: Some(request.run.clone()),
        connect_timeout_secs: request.connect_timeout_secs,
        ..StoreArgs::default()
    };
    match store.locate(served.db())? {
        Location::Postgres(asked) if engine.keeps_warm(&asked) => {}
        _ => return Err(refused()),
    }
    let mut command = served.into_command();
    if file_flags(&command).iter().any(|path| path.as_os_str() == "-") {
        return Err(refused());
    }
    in_directory(&mut command, &request.cwd);
    Ok((command, store))
}
