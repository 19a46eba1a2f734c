//! `evodb trial`: the flags, and the library's trial (`evodb_host::trial`) as a command.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use evodb_host::trial::{self, ErrorKind, Spec};
use evodb_host::views::json;

use crate::commands::Printed;
use crate::failure::Failure;

pub const ABOUT: &str =
    "Swap a candidate into the target file, run the tests, then the benchmark; always restore the file";

pub const LONG_ABOUT: &str = "\
Swap a candidate into the target file, run the tests, then the benchmark; always restore the file.

The seed skill's correctness gate and benchmark, done safely:
  1. a backup `<target>.evodb-trial.bak` left by a killed trial is first renamed back over the
     target (said on stderr);
  2. the target is backed up to `<target>.evodb-trial.bak` (written whole, synced) and the
     candidate replaces it atomically (permissions kept);
  3. --test runs (`sh -c`, in --cwd, stdin closed, its own process group); a non-zero exit or a
     timeout fails the trial;
  4. when the tests pass, --bench runs the same way; its score is its stdout as JSON (the
     --scoreKey key, or a bare number; the whole stdout, else its last line), else the last
     number it prints; it must be finite and in [0, 1];
  5. the backup is renamed back over the target: byte-identical, and the backup is gone. This
     also happens on errors and on Ctrl-C/SIGTERM/SIGHUP (the running command's process group
     is killed, exit 130); after a SIGKILL the next trial of the target does it (step 1).
Trials of one target queue on `<target>.evodb-trial.lock` (removed afterwards). A symlinked
target is resolved: the file it points to is swapped, and the backup sits beside that file.

--judge names a file holding the LLM judge's answer, `{\"efficiency-score\": n}` with n from 1 to
10 (prose or a code fence around the object is fine): its score is n / 10. It is checked
before anything runs; an invalid answer exits 6 with {\"retry\": true, \"error\": …} on stdout,
the target untouched: ask the judge again.

Prints one JSON object:
  {\"passed\": true|false,                         the tests passed (true without --test)
   \"tests\": {\"exitCode\", \"signal\", \"seconds\", \"timedOut\", \"output\"} | null,
   \"benchmark\": {… the same, \"score\"} | null,     null when not given or the tests failed
   \"judge\": {\"score\": 0.8, \"raw\": 8} | null,
   \"combined\": x | null,   the mean of the benchmark and judge scores present; null if none or not passed
   \"restored\": true,       the target is the original again
   \"recovered\": bool}      a killed trial's backup was restored first
`output` is the last 2000 characters of stdout and stderr, interleaved.

A failing candidate (tests fail or time out) is a normal outcome: exit 0 with \"passed\": false.
A benchmark that fails, times out or prints no valid score exits non-zero with the same JSON
plus \"error\" on stdout (the seed halts the run then: its setup is likely broken).";

pub const EXIT_CODES: &str = "\
Exit codes:
  0  the trial ran: see \"passed\" (a failing candidate is not an error)
  1  the benchmark failed or printed no score in [0, 1] (JSON with \"error\" on stdout);
     --target, --candidate or --judge is a directory
  2  usage: neither --test nor --bench, a bad --timeoutSec, an unknown flag
  3  not found: --target, --candidate, --judge or --cwd does not exist
  4  the benchmark exceeded --timeoutSec and was killed (JSON with \"error\" on stdout)
  5  IO: the target cannot be backed up, swapped or restored; a command cannot start
  6  retry: --judge holds no valid {\"efficiency-score\": 1-10}; ask the judge again
 130 interrupted (Ctrl-C, SIGTERM, SIGHUP): the command was killed and the target restored";

#[derive(Debug, Args)]
pub struct TrialArgs {
    /// The file the candidate replaces while the commands run (restored afterwards).
    #[arg(long = "target", value_name = "FILE")]
    pub target: PathBuf,
    /// The candidate's code: a whole file that replaces --target.
    #[arg(long = "candidate", value_name = "FILE")]
    pub candidate: PathBuf,
    /// The correctness gate, run with `sh -c`; exit 0 passes, e.g. --test "npm test".
    #[arg(long = "test", value_name = "SHELL CMD", allow_hyphen_values = true)]
    pub test: Option<String>,
    /// The benchmark, run with `sh -c` when the tests pass; prints a score in [0, 1] on stdout.
    #[arg(long = "bench", value_name = "SHELL CMD", allow_hyphen_values = true)]
    pub bench: Option<String>,
    /// The key of the score when the benchmark prints a JSON object.
    #[arg(long = "scoreKey", value_name = "KEY", default_value = "score")]
    pub score_key: String,
    /// Time limit of each command, in seconds; the command's process group is killed after it.
    #[arg(long = "timeoutSec", value_name = "SECONDS", default_value_t = 300.0, allow_negative_numbers = true)]
    pub timeout_sec: f64,
    /// A file holding the LLM judge's answer, {"efficiency-score": 1-10}.
    #[arg(long = "judge", value_name = "FILE")]
    pub judge: Option<PathBuf>,
    /// The directory the commands run in (default: the current directory). Paths given to
    /// --target, --candidate and --judge are relative to the current directory, not this one.
    #[arg(long = "cwd", value_name = "DIR")]
    pub cwd: Option<PathBuf>,
}

pub fn run(args: TrialArgs) -> Result<Printed, Failure> {
    let timeout = Duration::try_from_secs_f64(args.timeout_sec).ok().filter(|t| !t.is_zero()).ok_or_else(|| {
        Failure::Usage(format!(
            "--timeoutSec {} is not a positive number of seconds; pass e.g. --timeoutSec 300",
            args.timeout_sec
        ))
    })?;
    trial::install_interrupt_handler().map_err(|e| Failure::Internal(e.message))?;
    let spec = Spec {
        target: args.target,
        candidate: args.candidate,
        test: args.test,
        bench: args.bench,
        score_key: args.score_key,
        timeout,
        judge: args.judge,
        cwd: args.cwd,
    };
    match trial::run(&spec, &mut |note| eprintln!("{note}")) {
        Ok(report) => Ok(json(&report).into()),
        Err(err) => {
            if let Some(report) = &err.report {
                println!("{}", json(report));
            }
            Err(match err.kind {
                ErrorKind::Usage => Failure::Usage(err.message),
                ErrorKind::NotFound => Failure::NotFound(err.message),
                ErrorKind::BadInput => Failure::BadInput(err.message),
                ErrorKind::Timeout => Failure::Limit(err.message),
                ErrorKind::Retry => Failure::Retry(err.message),
                ErrorKind::Io => Failure::Io(err.message),
                ErrorKind::Internal => Failure::Internal(err.message),
            })
        }
    }
}
