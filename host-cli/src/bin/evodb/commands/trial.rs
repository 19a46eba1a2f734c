//! `evodb trial`: the flags, and `evodb_trial` as a command.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_trial::{self as trial, Candidate, Isolation, Spec};

use crate::context::Context;
use crate::failure::Failure;
use crate::input::timeout_of;
use crate::matches::{optional, required};
use crate::reply::Reply;

/// `evodb trial`'s flags (their help is in the command-line table, `evodb_cli_spec`).
#[derive(Debug)]
pub struct Args {
    pub target: PathBuf,
    pub candidate: PathBuf,
    pub test: Option<String>,
    pub bench: Option<String>,
    pub score_key: String,
    pub timeout_sec: f64,
    pub judge: Option<PathBuf>,
    pub cwd: Option<PathBuf>,
    pub setup: Option<String>,
    pub worktree: bool,
    pub in_place: bool,
    pub repeat: u32,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            target: required(m, "target"),
            candidate: required(m, "candidate"),
            test: optional(m, "test"),
            bench: optional(m, "bench"),
            score_key: required(m, "scoreKey"),
            timeout_sec: required(m, "timeoutSec"),
            judge: optional(m, "judge"),
            cwd: optional(m, "cwd"),
            setup: optional(m, "setup"),
            worktree: m.get_flag("worktree"),
            in_place: m.get_flag("inPlace"),
            repeat: required(m, "repeat"),
        }
    }

    pub fn run(self, _: &Context) -> Result<Reply, Failure> {
        let timeout = timeout_of(self.timeout_sec)?;
        if self.repeat == 0 {
            return Err(Failure::Usage("--repeat 0 runs nothing; pass at least 1 (e.g. --repeat 5)".into()));
        }
        trial::install_interrupt_handler().map_err(|e| Failure::Internal(e.message))?;
        let spec = Spec {
            target: self.target,
            candidate: Candidate::File(self.candidate),
            test: self.test,
            bench: self.bench,
            score_key: self.score_key,
            timeout,
            judge: self.judge,
            cwd: self.cwd,
            setup: self.setup,
            isolation: match (self.worktree, self.in_place) {
                (true, _) => Isolation::Worktree,
                (false, true) => Isolation::InPlace,
                (false, false) => Isolation::Auto,
            },
            repeat: self.repeat,
        };
        // The trial's steps are progress, printed as they happen; the report is the reply.
        match trial::run(&spec, &mut |note| eprintln!("{note}")) {
            Ok(report) => Ok(Reply::json(&report)),
            Err(err) => Ok(Reply::from(err)),
        }
    }
}
