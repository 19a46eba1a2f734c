//! The exchange between an evodb command and `evodb serve`, which both sides must agree on: the
//! request, the handshake bytes, the time limits, and where the run's socket lives.
//!
//! A command finds the server by the run alone: the socket's name is a hash of the run (server,
//! database and run name, never the password) in a directory only this user may enter.

use std::fs;
use std::io::Read;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::time::Duration;

use evodb_host::postgres::PgRun;
use serde::{Deserialize, Serialize};

/// A command sent to the server: the command as the client parsed it (never parsed again), the
/// run it resolved, its working directory, against which file flags are read, and what the
/// server must share with the client to answer for it.
#[derive(Serialize, Deserialize)]
pub struct Request {
    /// The command's name, for the server's log.
    pub name: String,
    /// The command and its arguments, typed (`forward::Served`); kept as JSON here so the
    /// exchange knows no command.
    pub command: serde_json::Value,
    /// The run, as the client resolved it (`--run` or `EVODB_RUN`: the server's environment
    /// plays no part), and its connect timeout.
    pub run: String,
    pub connect_timeout_secs: u64,
    pub cwd: PathBuf,
    /// [`build`]: a server of another build asks the client to run the command itself.
    pub build: String,
    /// The client's `--timeBudgetMs` and `--memoryLimitMb`, which must be the server's.
    pub limits: (u64, u64),
    /// A digest of the password the client would log in with (`PgUrl::credential`), which
    /// must be the server's when the server logs in with one: the server answers no client that
    /// the store itself would refuse for a wrong or missing password.
    #[serde(default)]
    pub credential: Option<String>,
}

/// This evodb's build: its version, the component it runs and the exchange it speaks.
pub fn build() -> String {
    format!("{} {} {PROTOCOL}", env!("CARGO_PKG_VERSION"), evodb_host::embedded::COMPONENT_SHA256)
}

/// The exchange on the socket: the request; the server's [`RECEIVED`] once it has read it (or at
/// once a whole reply, which a client of another build understands: run it yourself); the
/// server's [`STARTING`] when the command's turn comes, and the client's [`GO`], without which
/// the server does not run it; then the reply. A client that gave up before its `GO` runs the
/// command itself, and the server never does: the command runs once.
pub const PROTOCOL: &str = "serve-3";
pub const RECEIVED: u8 = b'R';
pub const STARTING: u8 = b'S';
pub const GO: u8 = b'G';

/// How long a client may take to send its request, and the server its reply.
pub const TRANSFER: Duration = Duration::from_secs(10);

/// How long a client waits for the server to acknowledge its request: a server that is alive
/// reads it at once (it reads every client's request on a thread of its own).
pub const ACKNOWLEDGE: Duration = Duration::from_secs(5);

/// How long the server waits for a client's [`GO`] (it answers at once when it still waits).
pub const HANDSHAKE: Duration = Duration::from_secs(2);

/// The most clients whose requests the server reads at once; beyond, a client runs by itself.
pub const MAX_CLIENTS: usize = 64;

/// Whether process `pid` is stopped (state `T` or `t` in `/proc/<pid>/stat`).
pub fn is_stopped(pid: i32) -> bool {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
    let state = stat.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next());
    matches!(state, Some('T' | 't'))
}

/// One byte within `limit`; `None` at the end of the stream.
pub fn read_byte(stream: &mut UnixStream, limit: Duration) -> std::io::Result<Option<u8>> {
    stream.set_read_timeout(Some(limit.max(Duration::from_millis(1))))?;
    let mut byte = [0];
    match stream.read(&mut byte)? {
        0 => Ok(None),
        _ => Ok(Some(byte[0])),
    }
}

/// `$XDG_RUNTIME_DIR/evodb`, else `/tmp/evodb-<uid>` (`$TMPDIR`'s), made absolute.
pub fn socket_dir() -> PathBuf {
    let dir = match std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from).filter(|dir| dir.is_absolute()) {
        Some(dir) => dir.join("evodb"),
        None => std::env::temp_dir().join(format!("evodb-{}", nix::unistd::geteuid())),
    };
    std::path::absolute(&dir).unwrap_or(dir)
}

/// The socket of `run` in [`socket_dir`], created private when missing; `None` when the
/// directory is not this user's alone (a socket there could be anyone's).
pub fn socket_of(run: &PgRun) -> Option<PathBuf> {
    let dir = socket_dir();
    let _ = fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir);
    let meta = fs::symlink_metadata(&dir).ok()?;
    let private = meta.is_dir() && meta.uid() == nix::unistd::geteuid().as_raw() && meta.mode() & 0o077 == 0;
    private.then(|| dir.join(format!("{:016x}.sock", fnv1a(run.identity().as_bytes()))))
}

/// FNV-1a, 64 bits: a name for the run's socket that every evodb computes alike.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}
