//! One shell command of a trial: `sh -c <command>` in its own process group, stdin closed,
//! stdout and stderr captured, killed (the whole group) when it outlives its timeout. When the
//! shell exits, whatever it left running in its group is killed too: nothing of the candidate
//! runs on once the target is restored.

use std::ffi::OsStr;
use std::io::{self, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use nix::unistd::Pid;

use super::interrupt;

/// How much of stdout is kept for score parsing (its end when longer).
const STDOUT_CAP: usize = 8 << 20;
/// How much of stdout and stderr, interleaved, is kept for the report's `output`.
const OUTPUT_CAP: usize = 64 << 10;
/// How long to wait for the pipes to close once the group is gone (a daemon that left the group
/// may hold them).
const DRAIN_WAIT: Duration = Duration::from_secs(2);

/// How a command ended.
#[derive(Debug)]
pub struct Finished {
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub seconds: f64,
    pub stdout: String,
    /// stdout and stderr as they came, the last [`OUTPUT_CAP`] bytes.
    pub output: String,
}

impl Finished {
    pub fn succeeded(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out
    }
}

/// The end of a growing byte stream, at most `cap` bytes (amortised: trimmed at 2 × cap).
#[derive(Debug)]
struct Tail {
    bytes: Vec<u8>,
    cap: usize,
}

impl Tail {
    fn new(cap: usize) -> Arc<Mutex<Tail>> {
        Arc::new(Mutex::new(Tail { bytes: Vec::new(), cap }))
    }

    fn push(&mut self, data: &[u8]) {
        self.bytes.extend_from_slice(data);
        if self.bytes.len() > 2 * self.cap {
            let excess = self.bytes.len() - self.cap;
            self.bytes.drain(..excess);
        }
    }

    fn text(tail: &Arc<Mutex<Tail>>) -> String {
        let tail = tail.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let start = tail.bytes.len().saturating_sub(tail.cap);
        String::from_utf8_lossy(&tail.bytes[start..]).into_owned()
    }
}

/// Copies `source` into each of `sinks` until it closes, then says so on `done`.
fn pump(mut source: impl Read + Send + 'static, sinks: Vec<Arc<Mutex<Tail>>>, done: mpsc::Sender<()>) {
    thread::spawn(move || {
        let mut buffer = [0u8; 16 << 10];
        loop {
            match source.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => {
                    for sink in &sinks {
                        sink.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(&buffer[..n]);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = done.send(());
    });
}

/// Runs `command` with `sh -c` in `cwd` (else the current directory) for at most `timeout`, with
/// `env` added to the environment. The error is the spawn's (no shell, a bad directory).
pub fn run(command: &str, cwd: Option<&Path>, timeout: Duration, env: &[(&str, &OsStr)]) -> io::Result<Finished> {
    let mut shell = Command::new("sh");
    shell.arg("-c").arg(command).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    shell.envs(env.iter().copied());
    shell.process_group(0);
    if let Some(dir) = cwd {
        shell.current_dir(dir);
    }
    let started = Instant::now();
    // Spawned and registered in one step: an interruption either finds the group or no command.
    let (mut child, group) = interrupt::with(|active| -> io::Result<(Child, Pid)> {
        let child = shell.spawn()?;
        let group = Pid::from_raw(child.id() as i32);
        active.group = Some(group);
        Ok((child, group))
    })?;
    let (stdout, output) = (Tail::new(STDOUT_CAP), Tail::new(OUTPUT_CAP));
    let (done, drained) = mpsc::channel();
    if let Some(pipe) = child.stdout.take() {
        pump(pipe, vec![stdout.clone(), output.clone()], done.clone());
    }
    if let Some(pipe) = child.stderr.take() {
        pump(pipe, vec![output.clone()], done.clone());
    }
    drop(done);

    let deadline = started + timeout;
    let mut pause = Duration::from_millis(1);
    let (status, timed_out) = loop {
        // Reaped and unregistered in one step, so the handler never signals a reaped group.
        let exited = interrupt::with(|active| -> io::Result<Option<ExitStatus>> {
            let status = child.try_wait();
            if !matches!(status, Ok(None)) {
                interrupt::kill_group(group);
                active.group = None;
            }
            status
        })?;
        if let Some(status) = exited {
            break (status, false);
        }
        if Instant::now() >= deadline {
            let status = interrupt::with(|active| -> io::Result<ExitStatus> {
                interrupt::kill_group(group);
                let status = child.wait();
                active.group = None;
                status
            })?;
            break (status, true);
        }
        thread::sleep(pause.min(deadline.saturating_duration_since(Instant::now())));
        pause = (pause * 2).min(Duration::from_millis(25));
    };
    let seconds = started.elapsed().as_secs_f64();
    let drain_deadline = Instant::now() + DRAIN_WAIT;
    for _ in 0..2 {
        if drained.recv_timeout(drain_deadline.saturating_duration_since(Instant::now())).is_err() {
            break;
        }
    }
    Ok(Finished {
        exit_code: status.code(),
        signal: status.signal(),
        timed_out,
        seconds,
        stdout: Tail::text(&stdout),
        output: Tail::text(&output),
    })
}
