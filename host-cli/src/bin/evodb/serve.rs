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
use std::time::Duration;

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

/// This evodb's build: its version and the component it runs.
fn build() -> String {
    format!("{} {}", env!("CARGO_PKG_VERSION"), evodb_host::embedded::COMPONENT_SHA256)
}

/// How long a client may take to send its request, and the server its reply.
const TRANSFER: Duration = Duration::from_secs(10);

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
/// run it here.
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
    let mut stream = UnixStream::connect(socket_of(&run)?).ok()?;
    // The request may carry a password: only to a server of this user's.
    let peer = nix::sys::socket::getsockopt(&stream, nix::sys::socket::sockopt::PeerCredentials).ok()?;
    if peer.uid() != nix::unistd::geteuid().as_raw() {
        return None;
    }
    let limits = (cli.sandbox.time_budget_ms, cli.sandbox.memory_limit_mb);
    let request = Request { argv, cwd: std::env::current_dir().ok()?, build: build(), limits };
    let _ = stream.set_write_timeout(Some(TRANSFER));
    let sent = serde_json::to_writer(&mut stream, &request)
        .map_err(std::io::Error::from)
        .and_then(|()| stream.shutdown(std::net::Shutdown::Write));
    if sent.is_err() {
        // Nothing reached the server: it runs here.
        return None;
    }
    let mut answer = String::new();
    let reply = stream.read_to_string(&mut answer).ok().and_then(|_| serde_json::from_str::<Reply>(&answer).ok());
    if reply.as_ref().is_some_and(|reply| reply.local) {
        return None;
    }
    Some(reply.unwrap_or_else(|| {
        Reply::of(Err(Failure::Io(format!(
            "`evodb serve` for {} stopped before it answered; the operation may or may not have been saved: run the \
             same command again (an add that carries --id is then answered, not added twice)",
            run.shown()
        ))))
    }))
}

/// `evodb serve`: binds the run's socket, prints it, and answers commands one at a time until
/// stopped.
pub fn run(sandbox: &SandboxArgs, store: StoreArgs, DbArg { db }: DbArg) -> Result<Printed, Failure> {
    let Location::Postgres(run) = store.locate(&db)? else {
        return Err(Failure::Usage(format!(
            "`{}` is a directory: serve keeps a PostgreSQL run warm; pass --store postgres://… --run NAME",
            db.display()
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
    let mut runtime = Runtime::start(sandbox, store)?;
    let mut kept = (*run).clone();
    kept.url.keep_alive();
    runtime.keep_warm(kept);
    // Opened once now, so that the first command finds the engine warm.
    runtime
        .open_location(Location::Postgres(run.clone()), evodb_host::Access::Read)?
        .read(|m, st, db| crate::session::ok(m.call_info(st, db)))?;
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
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            // Out of file descriptors, say: not a loop at full speed.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let _answering = ANSWERING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        answer(&mut runtime, stream, &run);
    }
    Ok(Printed::from(String::new()))
}

/// Reads one request, runs it, writes the reply. A client that never finishes its request is
/// dropped after a while, so it cannot hold the others up.
fn answer(runtime: &mut Runtime, mut stream: UnixStream, run: &PgRun) {
    let started = std::time::Instant::now();
    let mut name = "?".to_string();
    let _ = stream.set_write_timeout(Some(TRANSFER));
    let text = read_request(&mut stream);
    let reply = match text.map(|text| serde_json::from_str::<Request>(&text)) {
        Ok(Ok(request)) => {
            name = command_name(&request.argv);
            execute(runtime, request, run)
        }
        Ok(Err(e)) => Reply::of(Err(Failure::Usage(format!("evodb serve: the request is not one ({e})")))),
        Err(e) => Reply::of(Err(Failure::Io(format!("evodb serve: cannot read the request ({e})")))),
    };
    let _ = serde_json::to_writer(&mut stream, &reply);
    // One line per command for the operator: which, its exit code, how long (never its flags,
    // which may hold a password).
    match reply.local {
        true => eprintln!("passed `{name}` back to run by itself: another evodb build, or other sandbox limits"),
        false => eprintln!("answered `{name}`: exit {} in {:.1} ms", reply.exit, started.elapsed().as_secs_f64() * 1e3),
    }
}

/// The request's text, read within [`TRANSFER`] in all.
fn read_request(stream: &mut UnixStream) -> std::io::Result<String> {
    let deadline = std::time::Instant::now() + TRANSFER;
    let mut bytes = Vec::new();
    let mut chunk = [0; 64 * 1024];
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the client took too long"));
        }
        stream.set_read_timeout(Some(left))?;
        match stream.read(&mut chunk)? {
            0 => return String::from_utf8(bytes).map_err(std::io::Error::other),
            n => bytes.extend_from_slice(&chunk[..n]),
        }
    }
}

/// The command a request names: its first argument that is not a flag or a flag's value.
fn command_name(argv: &[String]) -> String {
    let names: Vec<&str> = evodb_cli_spec::CLI.commands.iter().map(|c| c.name).collect();
    argv.iter().skip(1).find(|arg| names.contains(&arg.as_str())).cloned().unwrap_or_else(|| "?".into())
}

fn execute(runtime: &mut Runtime, request: Request, run: &PgRun) -> Reply {
    let sandbox = &runtime.sandbox;
    if request.build != build() || request.limits != (sandbox.time_budget_ms, sandbox.memory_limit_mb) {
        return Reply { exit: 0, stdout: String::new(), stderr: String::new(), local: true };
    }
    Reply::of(run_request(runtime, request, run))
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
