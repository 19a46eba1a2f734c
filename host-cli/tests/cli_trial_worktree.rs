//! `evodb trial` in git worktrees: trials of one target run at once, each in its own checkout of
//! the working tree, and the user's files and repository are left exactly as they were: after
//! passing and failing candidates, timeouts, SIGTERM, and a SIGKILL (cleaned by the next trial).

use crate::cli;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use cli::git_repo::{Repo, git};
use cli::{Run, command};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde_json::Value;
use tempfile::TempDir;

const ORIGINAL: &str = "def f(x):\n    return x  # original\n";

/// A repository with one commit: `src/target.py`, `tests/check.sh`, a `.gitignore`.
fn repo() -> Repo {
    Repo::with(&[
        ("src/target.py", ORIGINAL),
        ("tests/check.sh", "grep -q \"$1\" src/target.py\n"),
        (".gitignore", "ignored/\n"),
    ])
}

/// A candidate outside the repository (as the skill keeps them in its own directory).
fn candidate(scratch: &TempDir, name: &str, marker: &str) -> PathBuf {
    let path = scratch.path().join(name);
    fs::write(&path, format!("def f(x):\n    return x + 1  # {marker}\n")).unwrap();
    path
}

/// `evodb trial --target src/target.py --candidate <candidate> <args>`, run in the repository.
fn trial_command(repo: &Repo, candidate: &Path, args: &[&str]) -> Command {
    let mut cmd = command();
    cmd.current_dir(repo.root()).args(["trial", "--target", "src/target.py", "--candidate"]).arg(candidate);
    cmd.args(args);
    cmd
}

fn trial(repo: &Repo, candidate: &Path, args: &[&str]) -> Run {
    Run::from(trial_command(repo, candidate, args).output().expect("evodb runs"))
}

fn spawn(repo: &Repo, candidate: &Path, args: &[&str]) -> Child {
    trial_command(repo, candidate, args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("evodb starts")
}

/// Waits for a file the test command writes (its shell's pid).
fn wait_for(path: &Path) -> String {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        if let Ok(text) = fs::read_to_string(path)
            && text.ends_with('\n')
        {
            return text.trim().to_string();
        }
        thread::sleep(Duration::from_millis(20));
    }
    panic!("the test command never wrote {}", path.display());
}

#[test]
fn four_trials_of_one_target_run_at_once_each_in_its_own_worktree() {
    let repo = repo();
    let scratch = tempfile::tempdir().unwrap();
    let before = repo.state();
    let trials: Vec<Child> = (0..4)
        .map(|i| {
            let candidate = candidate(&scratch, &format!("c{i}.py"), &format!("candidate-{i}"));
            // Passes only while this trial's own candidate is in place, after a second.
            let test = format!("sleep 1 && sh tests/check.sh candidate-{i}");
            spawn(&repo, &candidate, &["--test", &test])
        })
        .collect();
    let reports: Vec<Value> = trials
        .into_iter()
        .map(|child| {
            let run = Run::from(child.wait_with_output().unwrap());
            assert_eq!(run.code, 0, "{run:?}");
            run.json()
        })
        .collect();
    for out in &reports {
        assert_eq!(out["passed"], true, "{out}");
        assert_eq!(out["isolation"], "worktree");
        assert!(out["tests"]["seconds"].as_f64().unwrap() >= 1.0);
        assert!(!Path::new(out["worktree"].as_str().unwrap()).exists(), "the worktree is removed");
    }
    // Overlapping, by the trials' own clocks: every one started before any one ended.
    let latest_start = reports.iter().map(|r| r["started"].as_f64().unwrap()).fold(f64::MIN, f64::max);
    let earliest_end = reports.iter().map(|r| r["ended"].as_f64().unwrap()).fold(f64::MAX, f64::min);
    assert!(latest_start < earliest_end, "the trials ran one after another: {reports:?}");
    assert_eq!(repo.state(), before, "the user's files and git status are unchanged");
    assert!(repo.worktrees().is_empty(), "no worktree is left: {:?}", repo.worktrees());
}

#[test]
fn the_worktree_holds_uncommitted_changes_and_untracked_files_not_ignored_ones() {
    let repo = repo();
    let scratch = tempfile::tempdir().unwrap();
    repo.write("tests/check.sh", "grep -q \"$1\" src/target.py && echo uncommitted\n");
    repo.write("notes/untracked.txt", "untracked\n");
    repo.write("ignored/build.txt", "ignored\n");
    repo.git(&["rm", "--quiet", ".gitignore"]);
    repo.write(".git/info/exclude", "ignored/\n");
    let before = repo.state();
    let candidate = candidate(&scratch, "c.py", "mine");
    let test = "sh tests/check.sh mine | grep -q uncommitted && test -f notes/untracked.txt && \
                test ! -e ignored/build.txt && test ! -e .gitignore && test \"$PWD\" = \"$EVODB_WORKTREE\"";
    let out = trial(&repo, &candidate, &["--test", test]).json();
    assert_eq!(out["passed"], true, "{out}");
    assert_eq!(repo.state(), before);
    assert!(repo.worktrees().is_empty());
}

#[test]
fn a_failing_candidate_and_a_timeout_remove_their_worktrees() {
    let repo = repo();
    let scratch = tempfile::tempdir().unwrap();
    let before = repo.state();
    let candidate = candidate(&scratch, "c.py", "wrong");
    let failed = trial(&repo, &candidate, &["--test", "sh tests/check.sh right", "--bench", "echo 1"]);
    assert_eq!(failed.code, 0, "a failing candidate is an outcome: {failed:?}");
    let out = failed.json();
    assert_eq!(out["passed"], false);
    assert_eq!(out["benchmark"], Value::Null);

    let slow = trial(&repo, &candidate, &["--test", "sleep 10", "--timeoutSec", "0.3"]).json();
    assert_eq!(slow["passed"], false);
    assert_eq!(slow["tests"]["timedOut"], true);
    assert_eq!(repo.state(), before);
    assert!(repo.worktrees().is_empty());
}

#[test]
fn a_killed_trial_leaves_a_worktree_that_the_next_trial_removes() {
    let repo = repo();
    let scratch = tempfile::tempdir().unwrap();
    let before = repo.state();
    let candidate = candidate(&scratch, "c.py", "c");
    let pid_file = scratch.path().join("pid");
    let mut child = spawn(&repo, &candidate, &["--test", &format!("echo $$ > {} && sleep 30", pid_file.display())]);
    let shell = wait_for(&pid_file);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGKILL).unwrap();
    child.wait().unwrap();
    // The test command outlives the trial (its own process group) until the next trial ends it.
    assert!(running(&shell), "the killed trial's test command still runs");
    let left = repo.worktrees();
    assert_eq!(left.len(), 1, "SIGKILL leaves the worktree");
    assert!(Path::new(&left[0]).exists());

    let next = trial(&repo, &candidate, &["--test", "sh tests/check.sh c"]);
    assert_eq!(next.code, 0, "{next:?}");
    assert_eq!(next.json()["recovered"], true);
    assert!(next.stderr.contains("left by interrupted trials"), "{}", next.stderr);
    assert!(repo.worktrees().is_empty());
    assert!(!Path::new(&left[0]).exists(), "its directory is gone");
    assert!(ends_soon(&shell), "the next trial killed the leftover's test command before deleting its worktree");
    assert_eq!(repo.state(), before);
}

/// Whether process `pid` is alive (a zombie waiting to be reaped is not).
fn running(pid: &str) -> bool {
    let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok();
    state.as_deref().and_then(|s| s.rsplit(')').next()).is_some_and(|rest| !rest.trim_start().starts_with('Z'))
}

/// Whether `pid` ends within a few seconds (a process just killed takes a moment to die).
fn ends_soon(pid: &str) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while running(pid) {
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    true
}

#[test]
fn a_running_trial_is_not_mistaken_for_a_leftover() {
    let repo = repo();
    let scratch = tempfile::tempdir().unwrap();
    let candidate = candidate(&scratch, "c.py", "c");
    let pid_file = scratch.path().join("pid");
    let running = spawn(&repo, &candidate, &["--test", &format!("echo $$ > {} && sleep 1", pid_file.display())]);
    wait_for(&pid_file);
    let quick = trial(&repo, &candidate, &["--test", "true"]);
    assert_eq!(quick.json()["recovered"], false, "{quick:?}");
    let out = Run::from(running.wait_with_output().unwrap());
    assert_eq!(out.json()["passed"], true, "the running trial kept its worktree: {out:?}");
}

#[test]
fn sigterm_kills_the_command_and_removes_the_worktree() {
    let repo = repo();
    let scratch = tempfile::tempdir().unwrap();
    let before = repo.state();
    let candidate = candidate(&scratch, "c.py", "c");
    let pid_file = scratch.path().join("pid");
    let child = spawn(&repo, &candidate, &["--test", &format!("echo $$ > {} && sleep 30", pid_file.display())]);
    let shell = wait_for(&pid_file);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).unwrap();
    let run = Run::from(child.wait_with_output().unwrap());
    assert_eq!(run.code, 130, "{run:?}");
    assert!(run.stderr.contains("removed the trial's worktree"), "{}", run.stderr);
    assert!(
        !Path::new(&format!("/proc/{shell}")).exists()
            || fs::read_to_string(format!("/proc/{shell}/stat")).unwrap().contains(") Z")
    );
    assert!(repo.worktrees().is_empty());
    assert_eq!(repo.state(), before);
}

#[test]
fn setup_runs_first_and_a_failing_setup_is_the_setup_s_error() {
    let repo = repo();
    let scratch = tempfile::tempdir().unwrap();
    let candidate = candidate(&scratch, "c.py", "c");
    let built = trial(
        &repo,
        &candidate,
        &["--setup", "mkdir ignored && echo ok > ignored/dep", "--test", "test -f ignored/dep"],
    );
    let out = built.json();
    assert_eq!(out["passed"], true, "{out}");
    assert_eq!(out["setup"]["exitCode"], 0);
    assert!(!repo.path("ignored").exists(), "setup ran in the worktree");

    let broken = trial(&repo, &candidate, &["--setup", "echo no network; exit 3", "--test", "true"]);
    assert_eq!(broken.code, 1, "{broken:?}");
    assert!(broken.stderr.contains("--setup command exited with code 3"), "{}", broken.stderr);
    let out: Value = serde_json::from_str(broken.stdout.trim()).unwrap();
    assert_eq!(out["passed"], false);
    assert!(out["setup"]["output"].as_str().unwrap().contains("no network"));
    assert!(repo.worktrees().is_empty());
}

#[test]
fn in_place_and_worktree_are_chosen_by_flag_and_refused_where_they_cannot_work() {
    let repo = repo();
    let scratch = tempfile::tempdir().unwrap();
    let candidate = candidate(&scratch, "c.py", "c");
    let swapped = trial(&repo, &candidate, &["--inPlace", "--test", "sh tests/check.sh c"]).json();
    assert_eq!(swapped["isolation"], "inPlace");
    assert_eq!(swapped["passed"], true);
    assert_eq!(swapped["worktree"], Value::Null);
    assert_eq!(fs::read_to_string(repo.path("src/target.py")).unwrap(), ORIGINAL);

    let both = trial(&repo, &candidate, &["--inPlace", "--worktree", "--test", "true"]);
    assert_eq!(both.code, 2, "{both:?}");

    let outside = trial(&repo, &candidate, &["--test", "true", "--cwd", scratch.path().to_str().unwrap()]);
    assert_eq!(outside.code, 2, "{outside:?}");
    assert!(
        outside.stderr.contains("outside the repository") && outside.stderr.contains("--inPlace"),
        "{}",
        outside.stderr
    );

    // Not a repository: --worktree is refused, and the default swaps in place.
    fs::write(scratch.path().join("t.py"), ORIGINAL).unwrap();
    let mut cmd = command();
    cmd.current_dir(scratch.path()).args(["trial", "--target", "t.py", "--candidate", "c.py", "--test", "true"]);
    let plain = Run::from(cmd.output().unwrap());
    assert_eq!(plain.json()["isolation"], "inPlace", "{plain:?}");
    let run = Run::from(cmd.arg("--worktree").output().unwrap());
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("not in a git repository"), "{}", run.stderr);
    assert_eq!(fs::read_to_string(scratch.path().join("t.py")).unwrap(), ORIGINAL);
    assert!(repo.worktrees().is_empty());
}

#[test]
fn a_repository_without_a_commit_says_commit_once() {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "--quiet"]);
    fs::write(dir.path().join("t.py"), ORIGINAL).unwrap();
    fs::write(dir.path().join("c.py"), "x\n").unwrap();
    let mut cmd = command();
    cmd.current_dir(dir.path()).args(["trial", "--target", "t.py", "--candidate", "c.py", "--test", "true"]);
    let run = Run::from(cmd.output().unwrap());
    assert_eq!(run.code, 5, "{run:?}");
    assert!(run.stderr.contains("no commit yet") && run.stderr.contains("--inPlace"), "{}", run.stderr);
    assert_eq!(fs::read_to_string(dir.path().join("t.py")).unwrap(), ORIGINAL);
}
