//! `evodb serve` on one run, for tests and the store bench: its socket in a directory of its own
//! (`XDG_RUNTIME_DIR`), its log in a file; stopped when dropped.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

pub struct Server {
    child: Child,
    runtime_dir: tempfile::TempDir,
    log: PathBuf,
    args: Vec<String>,
    env: Vec<(String, String)>,
    evodb: PathBuf,
}

impl Server {
    /// Starts `evodb serve <url> --run <run>` and waits until it listens.
    pub fn start(evodb: &Path, url: &str, run: &str) -> Server {
        Server::start_with(evodb, &["serve", url, "--run", run], &[])
    }

    /// Starts `evodb <args>` (a `serve` command) with `env` added to the environment, and waits
    /// until it listens.
    pub fn start_with(evodb: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
        let runtime_dir = tempfile::tempdir().unwrap();
        let log = runtime_dir.path().join("serve.log");
        let args: Vec<String> = args.iter().map(ToString::to_string).collect();
        let env: Vec<(String, String)> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let child = spawn(evodb, &args, &env, runtime_dir.path(), &log);
        Server { child, runtime_dir, log, args, env, evodb: evodb.to_path_buf() }
    }

    /// Kills it and starts it again on the same socket (the old one left behind, stale).
    pub fn restart(&mut self) {
        self.kill();
        self.child = spawn(&self.evodb, &self.args, &self.env, self.runtime_dir.path(), &self.log);
    }

    /// Its process id (to stop it with SIGSTOP, say).
    pub fn pid(&self) -> i32 {
        i32::try_from(self.child.id()).unwrap()
    }

    /// Everything it logged on stderr so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The environment under which an `evodb` command finds this server.
    pub fn env(&self) -> Vec<(String, PathBuf)> {
        vec![("XDG_RUNTIME_DIR".into(), self.runtime_dir.path().to_path_buf())]
    }

    /// `evodb <args>` as a client of this server.
    pub fn command(&self, evodb: &Path, args: &[impl AsRef<std::ffi::OsStr>]) -> Command {
        let mut command = Command::new(evodb);
        command.args(args).envs(self.env());
        command
    }

    /// The log's `answered` lines: one per command the server ran.
    pub fn answered(&self) -> Vec<String> {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        log.lines().filter(|line| line.starts_with("answered")).map(String::from).collect()
    }

    /// Stops it with SIGTERM, as an operator would; its exit code.
    pub fn terminate(&mut self) -> Option<i32> {
        let pid = nix::unistd::Pid::from_raw(i32::try_from(self.child.id()).unwrap());
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
        self.child.wait().unwrap().code()
    }

    /// The sockets in its runtime directory.
    pub fn sockets(&self) -> Vec<PathBuf> {
        let dir = self.runtime_dir.path().join("evodb");
        let entries = std::fs::read_dir(dir).into_iter().flatten().flatten();
        entries.map(|entry| entry.path()).filter(|path| path.extension().is_some_and(|e| e == "sock")).collect()
    }

    /// Stops it at once (SIGKILL), leaving its socket behind.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

fn spawn(evodb: &Path, args: &[String], env: &[(String, String)], runtime_dir: &Path, log: &Path) -> Child {
    let log_file = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
    let mut child = Command::new(evodb)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .env("XDG_RUNTIME_DIR", runtime_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log_file)
        .spawn()
        .unwrap();
    // It prints its socket once the run is loaded.
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(
        first.contains("\"socket\""),
        "evodb serve did not start: {first} {}",
        std::fs::read_to_string(log).unwrap()
    );
    child
}
