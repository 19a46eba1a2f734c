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
//!
//! Writers that queue while one runs are answered as one group, in arrival order, and committed
//! once (`evodb_host::postgres::group`); readers are answered on a lane of their own, by a second
//! warm engine, so that none waits behind a writer.

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::ArgMatches;
use evodb_host::postgres::PgRun;

use crate::context::{Answer, Context};
use crate::failure::Failure;
use crate::location::Location;
use crate::matches::required;
use crate::reply::{Output, Reply};
use crate::serve_protocol::{
    GO, HANDSHAKE, MAX_CLIENTS, RECEIVED, Request, STARTING, TRANSFER, build, read_byte, socket_dir, socket_of,
};
use crate::session::Engine;

/// Held (shared) while a lane answers a command or a group, so that stopping waits for them.
static ANSWERING: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// The commands that only read the run. They are answered on a lane of their own, by a second
/// engine kept warm, in a read-only transaction that waits for no lock: a reader never queues
/// behind a writer (one waiting for the run's lock, which another machine holds, say).
const READERS: &[&str] = &["info", "best", "stats", "history", "export", "lineage", "notes", "should-stop", "leases"];

/// The most commands answered in one group (one transaction, one commit), unless
/// `EVODB_SERVE_GROUP_MAX` says otherwise (1: every command alone, as before group commit).
const GROUP_MAX: usize = 64;

/// [`GROUP_MAX`], or what `EVODB_SERVE_GROUP_MAX` names (a whole number from 1).
fn group_max() -> Result<usize, Failure> {
    match std::env::var("EVODB_SERVE_GROUP_MAX") {
        Err(_) => Ok(GROUP_MAX),
        Ok(text) => text.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
            Failure::Usage(format!(
                "EVODB_SERVE_GROUP_MAX is `{text}`: give the most commands one commit may hold, a whole number from 1 \
                 (1 commits each alone), or unset it for {GROUP_MAX}"
            ))
        }),
    }
}

/// `evodb serve`: binds the run's socket, prints it, and answers commands until stopped:
/// writers in groups, readers on a lane of their own.
#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        serve(ctx, self.db)
    }
}

/// Binds the run's socket, prints it, and answers commands until stopped. The first line is
/// printed here: the caller reads it while the server runs.
fn serve(ctx: &Context, db: PathBuf) -> Result<Reply, Failure> {
    let (sandbox, store) = (&ctx.sandbox, ctx.store.clone());
    let Location::Postgres(run) = store.locate(&db)? else {
        return Err(Failure::Usage(format!(
            "`{}` is a directory: serve keeps a PostgreSQL run warm; pass --store postgres://… --run NAME",
            crate::location::shown(&db)
        )));
    };
    let group_max = group_max()?;
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
    let mut engine = Engine::start(sandbox, store)?;
    let mut kept = (*run).clone();
    kept.url.keep_alive();
    engine.keep_warm(kept);
    // Opened once now, so that the first command finds the engine warm (a run not made yet is
    // served all the same: its first writer makes it).
    let warmed = engine
        .open_location(Location::Postgres(run.clone()), evodb_host::Access::Read)
        .and_then(|mut session| session.info());
    match warmed {
        Ok(_) | Err(Failure::NotFound(_)) => {}
        Err(failure) => return Err(failure),
    }
    let listener = bind(&socket)?;
    // Ctrl-C or SIGTERM: the command being answered finishes, then the socket goes, so later
    // commands run by themselves at once instead of finding a stale socket.
    let stopping = socket.clone();
    ctrlc::set_handler(move || {
        let _answering = ANSWERING.write().unwrap_or_else(std::sync::PoisonError::into_inner);
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
    let (writers, writer_queue) = std::sync::mpsc::channel::<Job>();
    let (readers, reader_queue) = std::sync::mpsc::channel::<Job>();
    let limits = (engine.sandbox.time_budget_ms, engine.sandbox.memory_limit_mb);
    let credential = run.url.credential();
    let lanes = Lanes { writers, readers };
    std::thread::spawn(move || accept(&listener, &lanes, limits, credential.as_deref()));
    let (started, ready) = std::sync::mpsc::sync_channel(1);
    let (reader_run, answer, reader_sandbox, reader_store) =
        (run.clone(), ctx.answer, sandbox.clone(), ctx.store.clone());
    // The readers' engine lives on a thread of its own (an engine belongs to the thread it
    // runs on), made there.
    std::thread::spawn(move || {
        let mut engine = match Engine::start(&reader_sandbox, reader_store) {
            Ok(mut engine) => {
                engine.keep_warm((*reader_run).clone());
                let _ = started.send(Ok(()));
                engine
            }
            Err(failure) => {
                let _ = started.send(Err(failure));
                return;
            }
        };
        for job in reader_queue {
            let _answering = ANSWERING.read().unwrap_or_else(std::sync::PoisonError::into_inner);
            let (kept, answered) = job.run(engine, &reader_run, answer);
            engine = kept;
            if let Some(answered) = answered {
                answered.send(None, 1);
            }
        }
    });
    ready.recv().map_err(|_| Failure::Internal("the readers' engine did not start".into()))??;
    // Writers run here: what queued while one ran is answered as one group, in the order it
    // arrived, and committed once; each client hears its answer once the group is stored.
    // Clients' requests are read and their replies written on threads of their own, so no
    // client holds up another.
    while let Ok(first) = writer_queue.recv() {
        let _answering = ANSWERING.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        engine.begin_group();
        let mut answered = Vec::new();
        let mut next = Some(first);
        let mut taken = 0;
        while let Some(job) = next.take() {
            taken += 1;
            let (kept, done) = job.run(engine, &run, ctx.answer);
            engine = kept;
            answered.extend(done);
            if taken < group_max {
                next = writer_queue.try_recv().ok();
            }
        }
        let committed = engine.end_group();
        let failed = committed.err().map(|failure| Output::of(Err(failure)));
        for done in answered {
            done.send(failed.clone(), taken);
        }
    }
    Ok(Reply::default())
}

/// Where a client's request waits for its turn: the writers' lane or the readers'.
struct Lanes {
    writers: std::sync::mpsc::Sender<Job>,
    readers: std::sync::mpsc::Sender<Job>,
}

/// A client's request, read and acknowledged, waiting for its turn; the reply goes back to the
/// client's thread through `reply` (`None`: the client gave up, nothing was run).
struct Job {
    request: Request,
    stream: UnixStream,
    received: Instant,
    reply: std::sync::mpsc::Sender<Option<Output>>,
}

impl Job {
    /// Tells the client its turn has come and runs the command once it says go; its answer,
    /// to be sent once stored (`None`: the client gave up, nothing was run).
    fn run(mut self, engine: Engine, run: &PgRun, answer: Answer) -> (Engine, Option<Answered>) {
        let name = self.request.name.clone();
        let _ = self.stream.set_write_timeout(Some(HANDSHAKE));
        let go =
            self.stream.write_all(&[STARTING]).is_ok() && read_byte(&mut self.stream, HANDSHAKE).ok() == Some(Some(GO));
        if !go {
            eprintln!("dropped `{name}`: the client gave up before its turn (it runs the command by itself)");
            let _ = self.reply.send(None);
            return (engine, None);
        }
        let started = Instant::now();
        let (engine, result) = answer(engine, &self.request, run);
        let answered = Answered {
            name,
            output: Output::of(result),
            took: started.elapsed(),
            received: self.received,
            reply: self.reply,
        };
        (engine, Some(answered))
    }
}

/// A command answered, its reply held until what it wrote is stored.
struct Answered {
    name: String,
    output: Output,
    took: Duration,
    received: Instant,
    reply: std::sync::mpsc::Sender<Option<Output>>,
}

impl Answered {
    /// Hands the reply to the client's thread: the command's own, or `failed`, the group's
    /// failure to store it (a command that was refused keeps its refusal: it stored nothing).
    /// One line per command for the operator: which, its exit code, how long, and in a group of
    /// how many (never its flags, which may hold a password).
    fn send(self, failed: Option<Output>, group: usize) {
        let reply = match failed {
            Some(failed) if self.output.exit == 0 => failed,
            _ => self.output,
        };
        let grouped = if group > 1 { format!(", in a group of {group}") } else { String::new() };
        eprintln!(
            "answered `{}`: exit {} in {:.1} ms ({:.1} ms after it arrived{grouped})",
            self.name,
            reply.exit,
            self.took.as_secs_f64() * 1e3,
            self.received.elapsed().as_secs_f64() * 1e3
        );
        let _ = self.reply.send(Some(reply));
    }
}

/// Accepts clients, each read on a thread of its own (at most [`MAX_CLIENTS`] at once; beyond,
/// a client finds the connection closed and runs the command by itself).
fn accept(listener: &UnixListener, lanes: &Lanes, limits: (u64, u64), credential: Option<&str>) {
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
        let lane = Lanes { writers: lanes.writers.clone(), readers: lanes.readers.clone() };
        let (clients, credential) = (std::sync::Arc::clone(&clients), credential.map(String::from));
        std::thread::spawn(move || {
            serve_client(stream, &lane, limits, credential.as_deref());
            clients.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        });
    }
}

/// One client: its request read within [`TRANSFER`], checked, acknowledged and queued; then its
/// reply written.
fn serve_client(mut stream: UnixStream, lanes: &Lanes, limits: (u64, u64), credential: Option<&str>) {
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
            let _ = serde_json::to_writer(&mut stream, &Output::of(Err(failure)));
            return;
        }
        Err(_) => return,
    };
    // Run by the client itself: another build, other limits, or a password that is not the
    // server's (the store would refuse the client; the client then hears it from the store).
    let name = request.name.clone();
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
        let local = Output::run_it_yourself();
        let _ = serde_json::to_writer(&mut stream, &local);
        return;
    }
    let (Ok(handshake), true) = (stream.try_clone(), stream.write_all(&[RECEIVED]).is_ok()) else { return };
    let (reply, replied) = std::sync::mpsc::channel();
    let job = Job { request, stream: handshake, received: Instant::now(), reply };
    let lane = if READERS.contains(&name.as_str()) { &lanes.readers } else { &lanes.writers };
    if lane.send(job).is_err() {
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
