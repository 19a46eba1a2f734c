//! `evodb trial`: the seed skill's correctness gate and benchmark, done safely. The test command
//! runs with the candidate in the target's place, then (when the tests pass) the benchmark.
//!
//! Where the candidate goes depends on the isolation:
//! - **worktree** (the default inside a git repository): a fresh worktree of the repository
//!   gets the candidate, the commands run there, and the worktree is removed afterwards
//!   (`worktree.rs`). The user's files are never touched, so trials run side by side.
//! - **in place**: the candidate replaces the target file and the original is always put back:
//!   on success, on error, on Ctrl-C/SIGTERM/SIGHUP, and after a SIGKILL by the next trial of
//!   the same target (`files.rs`). Trials of one target take turns.
//!
//! Commands run with `sh -c` in their own process group, which is killed on timeout.
//!
//! Nothing here needs the database component: this is the one host-only command.

mod files;
pub mod git;
mod interrupt;
mod process;
pub mod score;
pub mod spread;
mod worktree;

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use self::files::{Paths, TargetLock};
use self::process::Finished;
use self::score::JudgeScore;
use self::spread::Spread;
use self::worktree::Worktree;
pub use interrupt::INTERRUPTED_EXIT;

/// How many characters of a command's output the report keeps (its end).
pub const OUTPUT_CHARS: usize = 2000;

/// What a trial runs.
#[derive(Debug, Clone)]
pub struct Spec {
    pub target: PathBuf,
    pub candidate: Candidate,
    pub test: Option<String>,
    pub bench: Option<String>,
    pub score_key: String,
    /// For each command.
    pub timeout: Duration,
    /// A file holding the LLM judge's answer.
    pub judge: Option<PathBuf>,
    /// Where the commands run; the current directory when `None`.
    pub cwd: Option<PathBuf>,
    /// A command run before the tests (in the worktree, with the candidate in place).
    pub setup: Option<String>,
    pub isolation: Isolation,
    /// How many times the benchmark runs (at least 1): the report's score is their median.
    pub repeat: u32,
}

/// The code a trial puts in the target's place.
#[derive(Debug, Clone)]
pub enum Candidate {
    /// A file holding it (`--candidate`).
    File(PathBuf),
    /// The code itself, e.g. a stored program's (`evodb apply`).
    Code(Vec<u8>),
}

/// Where the candidate is put while the commands run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isolation {
    /// A worktree when the target is in a git repository, else in place.
    Auto,
    /// A worktree of the target's git repository; an error outside one.
    Worktree,
    /// Over the target file itself, restored afterwards; trials of a target take turns.
    InPlace,
}

/// The classes of failure; the CLI maps each to its exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad flags: nothing to run.
    Usage,
    /// A file or directory named by a flag is missing.
    NotFound,
    /// The benchmark failed or printed no usable score; a flag names a directory.
    BadInput,
    /// The benchmark outlived `--timeoutSec`.
    Timeout,
    /// The judge's answer holds no valid score: ask the judge again.
    Retry,
    /// The target cannot be backed up, swapped or restored; a command cannot be started.
    Io,
    Internal,
}

#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct TrialError {
    pub kind: ErrorKind,
    pub message: String,
    /// The report to print on stdout too (with an `error` field), when there is one.
    pub report: Option<Value>,
}

fn fail(kind: ErrorKind, message: impl Into<String>) -> TrialError {
    TrialError { kind, message: message.into(), report: None }
}

fn io_error(action: &str, path: &Path, e: io::Error) -> TrialError {
    fail(ErrorKind::Io, format!("cannot {action} `{}`: {e}; check the path and its permissions", path.display()))
}

/// Installs the Ctrl-C/SIGTERM/SIGHUP handler that restores the target; once per process.
pub fn install_interrupt_handler() -> Result<(), TrialError> {
    interrupt::install().map_err(|m| fail(ErrorKind::Internal, m))
}

/// The lock, registered with the interrupt handler (which removes its file) while held.
struct Held {
    _lock: TargetLock,
}

impl Held {
    fn new(lock: TargetLock, path: &Path) -> Held {
        interrupt::with(|active| active.lock = Some(path.to_path_buf()));
        Held { _lock: lock }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        interrupt::with(|active| active.lock = None);
    }
}

/// The swapped target: restored by [`Swap::restore`], or at the latest when dropped.
struct Swap;

impl Swap {
    /// Backs the target up and installs the candidate.
    fn start(paths: &Paths, candidate: &[u8]) -> Result<Swap, TrialError> {
        let permissions = fs::metadata(&paths.target).map_err(|e| io_error("read", &paths.target, e))?.permissions();
        interrupt::with(|active| {
            if let Err(e) = files::back_up(paths) {
                return Err(io_error("back up the target to", &paths.backup, e));
            }
            active.swapped = Some(paths.clone());
            Ok(())
        })?;
        let swap = Swap;
        interrupt::with(|_| files::install(paths, candidate, permissions))
            .map_err(|e| io_error("copy the candidate over", &paths.target, e))?;
        Ok(swap)
    }

    fn restore(&self) -> io::Result<()> {
        interrupt::with(|active| match active.swapped.take() {
            Some(paths) => files::restore(&paths),
            None => Ok(()),
        })
    }
}

impl Drop for Swap {
    fn drop(&mut self) {
        let _ = self.restore();
    }
}

/// Runs the trial. `note` receives what stderr should say (a recovered leftover, a wait).
pub fn run(spec: &Spec, note: &mut dyn FnMut(&str)) -> Result<Value, TrialError> {
    let paths = Paths::resolve(&spec.target).map_err(|m| fail(ErrorKind::NotFound, m))?;
    let started = epoch_seconds();
    let repo = match spec.isolation {
        Isolation::InPlace => None,
        Isolation::Auto => repository_for(&paths.target)?,
        Isolation::Worktree => Some(repository_for(&paths.target)?.ok_or_else(|| {
            fail(
                ErrorKind::Usage,
                format!(
                    "--worktree: `{}` is not in a git repository; leave out --worktree to swap it in place",
                    paths.target.display()
                ),
            )
        })?),
    };
    let mut ran = match repo {
        Some(repo) => run_in_worktree(spec, &paths, &repo, note)?,
        None => run_in_place(spec, &paths, note)?,
    };
    ran.started = started;
    report(spec, ran)
}

/// The repository whose worktree a trial of `target` runs in, if any. A repository git refuses
/// is an error, never a silent swap of the user's file in place.
fn repository_for(target: &Path) -> Result<Option<PathBuf>, TrialError> {
    let dir = target.parent().unwrap_or(Path::new("/"));
    git::find_repository(dir).map_err(|e| {
        fail(
            ErrorKind::Usage,
            format!(
                "git refuses the repository holding `{}` ({e}); fix what git names (for another user's repository: \
                 git config --global --add safe.directory <dir>), or pass --inPlace to swap the file in place",
                target.display()
            ),
        )
    })
}

/// What ran, for the report.
struct Ran {
    setup: Option<Finished>,
    tests: Option<Finished>,
    /// Every benchmark run, in order (`--repeat`); empty when it did not run.
    bench: Vec<Finished>,
    judge: Option<JudgeScore>,
    /// A killed trial's leftover (backup or worktree) was cleaned up first.
    recovered: bool,
    /// The worktree the commands ran in (removed since), or `None` in place.
    worktree: Option<PathBuf>,
    started: f64,
}

/// The in-place trial: swap, run, restore; trials of the target queue on its lock.
fn run_in_place(spec: &Spec, paths: &Paths, note: &mut dyn FnMut(&str)) -> Result<Ran, TrialError> {
    let target = paths.target.display().to_string();
    let lock = TargetLock::acquire(&paths.lock, || note(&format!("waiting for another trial of `{target}` to end")))
        .map_err(|e| io_error("lock", &paths.lock, e))?;
    let _held = Held::new(lock, &paths.lock);
    let recovered = interrupt::with(|_| files::recover(paths))
        .map_err(|e| io_error("restore the backup left by an interrupted trial,", &paths.backup, e))?;
    if recovered {
        note(&format!("restored `{target}` from `{}`, left by an interrupted trial", paths.backup.display()));
    }
    let (candidate, judge) = check(spec, paths)?;

    let swap = Swap::start(paths, &candidate)?;
    let ran = run_commands(spec, spec.cwd.as_deref(), &[]);
    let restored = swap.restore();
    drop(swap);
    if let Err(e) = restored {
        let mut message = format!(
            "cannot restore `{target}` ({e}); the original is `{}`: the next `evodb trial` of this target restores \
             it, or rename it back yourself",
            paths.backup.display()
        );
        if let Err(first) = &ran {
            message = format!("{first}; and {message}");
        }
        return Err(fail(ErrorKind::Io, message));
    }
    let (setup, tests, bench) = ran?;
    Ok(Ran { setup, tests, bench, judge, recovered, worktree: None, started: 0.0 })
}

/// The worktree trial: no lock and no change to the user's files.
fn run_in_worktree(spec: &Spec, paths: &Paths, repo: &Path, note: &mut dyn FnMut(&str)) -> Result<Ran, TrialError> {
    let leftovers = worktree::remove_leftovers(repo).map_err(|m| fail(ErrorKind::Io, m))?;
    if leftovers > 0 {
        note(&format!("removed {leftovers} worktree(s) left by interrupted trials of `{}`", repo.display()));
    }
    let (candidate, judge) = check(spec, paths)?;
    let cwd = match &spec.cwd {
        Some(dir) => dir.canonicalize().map_err(|e| io_error("open", dir, e))?,
        None => std::env::current_dir()
            .and_then(|d| d.canonicalize())
            .map_err(|e| fail(ErrorKind::Io, format!("cannot read the current directory: {e}")))?,
    };
    let inside = |what: &str, path: &Path| {
        path.strip_prefix(repo).map(Path::to_path_buf).map_err(|_| {
            fail(
                ErrorKind::Usage,
                format!(
                    "{what} `{}` is outside the repository `{}` whose worktree the trial runs in; pass one inside it, \
                     or --inPlace",
                    path.display(),
                    repo.display()
                ),
            )
        })
    };
    let (target, cwd) = (inside("--target", &paths.target)?, inside("the commands' directory (--cwd)", &cwd)?);
    if git::is_ignored(repo, &paths.target) {
        return Err(fail(
            ErrorKind::Usage,
            format!(
                "--target `{}` is ignored by git, so the trial's worktree has no such file; pass --inPlace to swap \
                 it in place",
                paths.target.display()
            ),
        ));
    }
    let tree = Worktree::create(repo, &target, &cwd).map_err(|m| fail(ErrorKind::Io, m))?;
    let permissions = fs::metadata(&paths.target).map_err(|e| io_error("read", &paths.target, e))?.permissions();
    fs::write(&tree.target, &candidate)
        .and_then(|()| fs::set_permissions(&tree.target, permissions))
        .map_err(|e| io_error("write the candidate to", &tree.target, e))?;
    let env = [("EVODB_WORKTREE", tree.path.as_os_str()), ("EVODB_REPOSITORY", repo.as_os_str())];
    let ran = run_commands(spec, Some(&tree.cwd), &env);
    let path = tree.path.clone();
    let removed = tree.remove();
    let (setup, tests, bench) = ran?;
    if let Err(e) = removed {
        note(&format!("cannot remove the trial's worktree `{}` ({e}); the next trial removes it", path.display()));
    }
    Ok(Ran { setup, tests, bench, judge, recovered: leftovers > 0, worktree: Some(path), started: 0.0 })
}

fn epoch_seconds() -> f64 {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs_f64();
    (now * 1000.0).round() / 1000.0
}

/// Every input checked before the target is touched: the candidate's bytes and the judge's score.
fn check(spec: &Spec, paths: &Paths) -> Result<(Vec<u8>, Option<JudgeScore>), TrialError> {
    if spec.test.is_none() && spec.bench.is_none() {
        return Err(fail(
            ErrorKind::Usage,
            "nothing to run: pass --test \"<cmd>\" (the correctness gate), --bench \"<cmd>\" (the benchmark), or both",
        ));
    }
    let file = |flag: &str, path: &Path, what: &str| -> Result<(), TrialError> {
        match fs::metadata(path) {
            Ok(m) if m.is_file() => Ok(()),
            Ok(_) => Err(fail(ErrorKind::BadInput, format!("{flag} `{}` is not a file; pass {what}", path.display()))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Err(fail(ErrorKind::NotFound, format!("{flag} `{}` does not exist; pass {what}", path.display())))
            }
            Err(e) => Err(io_error("read", path, e)),
        }
    };
    file("--target", &paths.target, "the file the candidate replaces while the commands run")?;
    let candidate = match &spec.candidate {
        Candidate::File(path) => {
            file("--candidate", path, "the file holding the candidate's code")?;
            fs::read(path).map_err(|e| io_error("read", path, e))?
        }
        Candidate::Code(code) => code.clone(),
    };
    if let Some(dir) = &spec.cwd
        && !dir.is_dir()
    {
        return Err(fail(
            ErrorKind::NotFound,
            format!("--cwd `{}` is not a directory; pass the directory the commands run in", dir.display()),
        ));
    }
    let judge = match &spec.judge {
        None => None,
        Some(path) => {
            file("--judge", path, "the file holding the judge's answer")?;
            let bytes = fs::read(path).map_err(|e| io_error("read", path, e))?;
            let score = score::judge_score(&String::from_utf8_lossy(&bytes)).map_err(|e| TrialError {
                kind: ErrorKind::Retry,
                message: format!("--judge `{}`: {e}", path.display()),
                report: Some(json!({"retry": true, "error": e.0})),
            })?;
            Some(score)
        }
    };
    Ok((candidate, judge))
}

type Commands = (Option<Finished>, Option<Finished>, Vec<Finished>);

/// `--setup`, then `--test`, then (when the tests pass) `--bench` `repeat` times (stopping at
/// the first run that fails), in `cwd`.
fn run_commands(spec: &Spec, cwd: Option<&Path>, env: &[(&str, &OsStr)]) -> Result<Commands, TrialError> {
    let run = |flag: &str, command: &str| {
        process::run(command, cwd, spec.timeout, env)
            .map_err(|e| fail(ErrorKind::Io, format!("cannot start {flag} with `sh -c` ({e}); is `sh` on PATH?")))
    };
    let setup = spec.setup.as_deref().map(|command| run("--setup", command)).transpose()?;
    if let Some(setup) = setup.as_ref().filter(|s| !s.succeeded()) {
        let mut err = fail(
            ErrorKind::BadInput,
            format!(
                "the --setup command {} ({}); run it by hand in a fresh checkout to fix it",
                how_it_ended(setup),
                ends(setup)
            ),
        );
        err.report = Some(json!({"passed": false, "setup": command_json(setup), "error": err.message}));
        return Err(err);
    }
    let tests = spec.test.as_deref().map(|command| run("--test", command)).transpose()?;
    if tests.as_ref().is_some_and(|t| !t.succeeded()) {
        return Ok((setup, tests, Vec::new()));
    }
    let mut bench = Vec::new();
    if let Some(command) = spec.bench.as_deref() {
        for _ in 0..spec.repeat.max(1) {
            let run = run("--bench", command)?;
            let failed = !run.succeeded();
            bench.push(run);
            if failed {
                break;
            }
        }
    }
    Ok((setup, tests, bench))
}

fn report(spec: &Spec, ran: Ran) -> Result<Value, TrialError> {
    let Ran { setup, tests, bench, judge, recovered, worktree, started } = ran;
    let passed = tests.as_ref().is_none_or(Finished::succeeded);
    let bench_scores = bench.iter().map(|b| benchmark_score(spec, b)).collect::<Result<Vec<f64>, _>>();
    let score = bench_scores.as_ref().ok().and_then(|scores| spread::median(scores));
    let (combined, combined_of) = match (passed, score, &judge) {
        (false, _, _) => (None, None),
        (true, Some(b), Some(j)) => (Some((b + j.score) / 2.0), Some("benchmark and judge")),
        (true, Some(b), None) => (Some(b), Some("benchmark")),
        (true, None, Some(j)) => (Some(j.score), Some("judge")),
        (true, None, None) => (None, None),
    };
    let mut out = json!({
        "passed": passed,
        "tests": tests.as_ref().map(command_json),
        "benchmark": benchmark_json(&bench, bench_scores.as_deref().ok(), score),
        "judge": judge.map(|j| json!({"score": j.score, "raw": j.raw})),
        "combined": combined,
        "combinedOf": combined_of,
        "restored": true,
        "recovered": recovered,
        "isolation": if worktree.is_some() { "worktree" } else { "inPlace" },
        "worktree": worktree.map(|w| w.display().to_string()),
        "started": started,
        "ended": epoch_seconds(),
    });
    if let Some(setup) = &setup {
        out["setup"] = command_json(setup);
    }
    match bench_scores {
        Ok(_) => Ok(out),
        Err(mut err) => {
            out["error"] = json!(err.message);
            err.report = Some(out);
            Err(err)
        }
    }
}

/// The benchmark's part of the report: its (last) run, with `score` the median of the runs'
/// scores; after several runs (`--repeat`), `seconds` is their median too and `spread` gives
/// each metric's median, min, max, MAD and values. `null` when it did not run.
fn benchmark_json(runs: &[Finished], scores: Option<&[f64]>, score: Option<f64>) -> Value {
    let Some(last) = runs.last() else { return Value::Null };
    let mut value = command_json(last);
    value["score"] = json!(score);
    if runs.len() > 1 {
        let seconds: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
        let seconds_spread = Spread::of(&seconds).expect("several runs");
        value["seconds"] = json!(round_to(seconds_spread.median, 1e3));
        value["repeat"] = json!(runs.len());
        let mut spread = json!({"seconds": seconds_spread.to_json(&seconds, |x| round_to(x, 1e3))});
        if let Some(scores) = scores {
            let score_spread = Spread::of(scores).expect("several runs");
            spread["score"] = score_spread.to_json(scores, |x| round_to(x, 1e12));
            value["score"] = json!(round_to(score_spread.median, 1e12));
        }
        value["spread"] = spread;
    }
    value
}

/// `x` rounded to `1 / scale` (seconds to the millisecond, scores to 12 decimals: no binary
/// artefacts such as 0.020000000000000018 from a difference of two scores).
fn round_to(x: f64, scale: f64) -> f64 {
    (x * scale).round() / scale
}

fn how_it_ended(run: &Finished) -> String {
    match (run.timed_out, run.exit_code, run.signal) {
        (true, _, _) => "was killed after --timeoutSec".to_string(),
        (false, Some(code), _) => format!("exited with code {code}"),
        (false, None, Some(signal)) => format!("was killed by signal {signal}"),
        (false, None, None) => "failed".to_string(),
    }
}

fn ends(run: &Finished) -> String {
    let tail = tail(&run.output, 300);
    if tail.trim().is_empty() { "it printed nothing".to_string() } else { format!("its output ends: {tail:?}") }
}

fn benchmark_score(spec: &Spec, bench: &Finished) -> Result<f64, TrialError> {
    if bench.timed_out {
        return Err(fail(
            ErrorKind::Timeout,
            format!(
                "the benchmark was killed after --timeoutSec {} s; raise --timeoutSec, or the candidate is too slow ({})",
                spec.timeout.as_secs_f64(),
                ends(bench)
            ),
        ));
    }
    if !bench.succeeded() {
        return Err(fail(
            ErrorKind::BadInput,
            format!(
                "the benchmark {} ({}); run it by hand in the trial's directory to check the setup",
                how_it_ended(bench),
                ends(bench)
            ),
        ));
    }
    score::benchmark_score(&bench.stdout, &spec.score_key).map_err(|e| fail(ErrorKind::BadInput, e.0))
}

fn command_json(run: &Finished) -> Value {
    json!({
        "exitCode": run.exit_code,
        "signal": run.signal,
        "seconds": (run.seconds * 1000.0).round() / 1000.0,
        "timedOut": run.timed_out,
        "output": tail(&run.output, OUTPUT_CHARS),
    })
}

/// The last `chars` characters of `text`.
fn tail(text: &str, chars: usize) -> &str {
    if chars == 0 {
        return "";
    }
    match text.char_indices().rev().nth(chars - 1) {
        Some((at, _)) => &text[at..],
        None => text,
    }
}
