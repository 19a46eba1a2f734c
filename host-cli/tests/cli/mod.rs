//! Running the `evodb` binary from tests: results as exit code + stdout + stderr.
#![allow(dead_code)] // each test file uses its own part

pub mod catalogue;
pub mod git_repo;
pub mod postgres;
pub mod server;
pub mod viewer;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

/// The `evodb` binary under test.
pub fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_evodb"))
}

#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn from(output: Output) -> Run {
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// The one JSON line a successful command prints.
    pub fn json(&self) -> Value {
        assert_eq!(self.code, 0, "expected success: {self:?}");
        serde_json::from_str(self.stdout.trim_end()).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {self:?}"))
    }
}

pub fn evodb<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Run {
    Run::from(command().args(args).output().expect("evodb runs"))
}

/// `add` with the seed's flags.
pub fn add_args(db: &Path, parent: &str, i: usize, score: f64) -> Vec<String> {
    vec![
        "add".into(),
        db.display().to_string(),
        "--codePath".into(),
        format!("/candidates/iteration_{i}.py"),
        "--targetCode".into(),
        format!("def f(x):\n    return {i}\n"),
        "--parentId".into(),
        parent.into(),
        "--metrics".into(),
        format!("{{\"score\": {score}, \"speed\": 0.5}}"),
        "--changes".into(),
        format!("change {i}"),
    ]
}

pub fn seed_args(db: &Path) -> Vec<String> {
    vec![
        "seed".into(),
        db.display().to_string(),
        "--codePath".into(),
        "/candidates/iteration_0.py".into(),
        "--targetCode".into(),
        "def f(x):\n    return 0\n".into(),
        "--metrics".into(),
        "{\"score\": 0.1, \"speed\": 0.5}".into(),
    ]
}

/// The file's bytes, empty when it does not exist.
pub fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_default()
}
