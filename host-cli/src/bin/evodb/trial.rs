//! `evodb trial`: the flags, and the library's trial (`evodb_host::trial`) as a command.

use std::path::PathBuf;
use std::time::Duration;

use evodb_host::trial::{self, Candidate, ErrorKind, Isolation, Spec, TrialError};
use evodb_host::views::json;

use crate::commands::Printed;
use crate::failure::Failure;

/// `evodb trial`'s flags (their help is in the command-line table, `evodb_cli_spec`).
#[derive(Debug)]
pub struct TrialArgs {
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
}

/// `--timeoutSec` as a duration: positive and finite.
pub fn timeout_of(seconds: f64) -> Result<Duration, Failure> {
    Duration::try_from_secs_f64(seconds).ok().filter(|t| !t.is_zero()).ok_or_else(|| {
        Failure::Usage(format!(
            "--timeoutSec {seconds} is not a positive number of seconds; pass e.g. --timeoutSec 300"
        ))
    })
}

pub fn run(args: TrialArgs) -> Result<Printed, Failure> {
    let timeout = timeout_of(args.timeout_sec)?;
    trial::install_interrupt_handler().map_err(|e| Failure::Internal(e.message))?;
    let spec = Spec {
        target: args.target,
        candidate: Candidate::File(args.candidate),
        test: args.test,
        bench: args.bench,
        score_key: args.score_key,
        timeout,
        judge: args.judge,
        cwd: args.cwd,
        setup: args.setup,
        isolation: match (args.worktree, args.in_place) {
            (true, _) => Isolation::Worktree,
            (false, true) => Isolation::InPlace,
            (false, false) => Isolation::Auto,
        },
    };
    trial::run(&spec, &mut |note| eprintln!("{note}")).map(|report| json(&report).into()).map_err(failure_of)
}

/// The failure to exit with; a report that comes with it is printed on stdout first.
pub fn failure_of(err: TrialError) -> Failure {
    if let Some(report) = &err.report {
        println!("{}", json(report));
    }
    match err.kind {
        ErrorKind::Usage => Failure::Usage(err.message),
        ErrorKind::NotFound => Failure::NotFound(err.message),
        ErrorKind::BadInput => Failure::BadInput(err.message),
        ErrorKind::Timeout => Failure::Limit(err.message),
        ErrorKind::Retry => Failure::Retry(err.message),
        ErrorKind::Io => Failure::Io(err.message),
        ErrorKind::Internal => Failure::Internal(err.message),
    }
}
