//! What a command answers, and how it is printed. A command never prints on its own: it returns
//! a [`Reply`] (JSON for stdout, warnings for stderr, and a failure that may come with a
//! report), and `main` — or the server answering for a client — renders it as an [`Output`].
//! The only exceptions are progress notes of long commands (`trial`'s steps, a store's retry)
//! and the first line of the two servers (`view`, `serve`), which must reach the reader before
//! the command ends.

use evodb_trial::TrialError;
use serde::{Deserialize, Serialize};

use crate::failure::Failure;

/// A command's answer: stdout (without its final newline), warnings, and, for a command that
/// fails with a report (`validate`, `strategy check`, a failed trial), the failure.
#[derive(Debug, Default)]
pub struct Reply {
    pub stdout: String,
    pub warnings: Vec<String>,
    pub failure: Option<Failure>,
}

impl Reply {
    /// A value as the CLI prints JSON (`evodb_host::bridge::json`).
    pub fn json(value: &impl Serialize) -> Reply {
        Reply::from(evodb_host::bridge::json(value))
    }

    /// This reply, with `warnings` printed before its own.
    pub fn warned(mut self, mut warnings: Vec<String>) -> Reply {
        warnings.append(&mut self.warnings);
        self.warnings = warnings;
        self
    }

    /// A failure whose report still goes to stdout.
    pub fn failed(stdout: String, failure: Failure) -> Reply {
        Reply { stdout, warnings: Vec::new(), failure: Some(failure) }
    }
}

impl From<String> for Reply {
    fn from(stdout: String) -> Reply {
        Reply { stdout, ..Reply::default() }
    }
}

/// A failed trial: the failure to exit with, and the report that comes with it, if any.
impl From<TrialError> for Reply {
    fn from(err: TrialError) -> Reply {
        let stdout = err.report.as_ref().map(evodb_host::bridge::json).unwrap_or_default();
        Reply::failed(stdout, Failure::from(err))
    }
}

/// What is printed and the exit code, whether the command ran here or in `evodb serve`: the
/// server sends it to the client as JSON.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Output {
    pub exit: u8,
    pub stdout: String,
    pub stderr: String,
    /// The server did not run the command: the client runs it itself.
    #[serde(default)]
    pub local: bool,
}

impl Output {
    /// A command's result as the CLI prints it: the report on stdout; warnings, then the
    /// failure, on stderr.
    pub fn of(result: Result<Reply, Failure>) -> Output {
        let reply = result.unwrap_or_else(|failure| Reply { failure: Some(failure), ..Reply::default() });
        let mut stderr: String = reply.warnings.iter().map(|warning| format!("warning: {warning}\n")).collect();
        let exit = match &reply.failure {
            None => 0,
            Some(failure) => {
                stderr.push_str(&format!("{failure}\n"));
                u8::try_from(failure.exit_code()).unwrap_or(70)
            }
        };
        let stdout = if reply.stdout.is_empty() { String::new() } else { format!("{}\n", reply.stdout) };
        Output { exit, stdout, stderr, local: false }
    }

    /// The server's answer to a client it does not run a command for.
    pub fn run_it_yourself() -> Output {
        Output { exit: 0, stdout: String::new(), stderr: String::new(), local: true }
    }
}
