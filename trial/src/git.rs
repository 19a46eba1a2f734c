//! The git commands trials and `evodb apply` run in the user's repository, through the `git`
//! command line (it is on every machine with a repository and honours the user's configuration).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The top directory of the git repository holding `dir`, or `None` outside any repository (or
/// without `git`, or when git refuses the repository: see [`find_repository`]).
pub fn repository_of(dir: &Path) -> Option<PathBuf> {
    find_repository(dir).ok().flatten()
}

/// The top directory of the git repository holding `dir`; `None` outside any repository or
/// without `git`; an error when `dir` is in a repository git refuses (another owner's, "dubious
/// ownership"), so a caller never mistakes it for "no repository" and falls back silently.
pub fn find_repository(dir: &Path) -> Result<Option<PathBuf>, String> {
    match git(dir, &["rev-parse", "--show-toplevel"]) {
        Ok(top) => Ok(PathBuf::from(top.trim_end_matches('\n')).canonicalize().ok()),
        Err(e) if e.contains("not a git repository") || e.starts_with("cannot run `git`") => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether git ignores `file` (`.gitignore` and friends): a worktree checkout does not hold it.
pub fn is_ignored(repo: &Path, file: &Path) -> bool {
    git(repo, &[OsStr::new("check-ignore"), "--quiet".as_ref(), "--".as_ref(), file.as_os_str()]).is_ok()
}

/// Whether `file` differs from `HEAD` (staged or not), or is untracked.
pub fn has_changes(repo: &Path, file: &Path) -> Result<bool, String> {
    let status = git(repo, &[OsStr::new("status"), "--porcelain".as_ref(), "--".as_ref(), file.as_os_str()])?;
    Ok(!status.trim().is_empty())
}

/// Whether git tracks `file` (in the index): an untracked or ignored file cannot be committed
/// with `--only`, and a worktree checkout does not hold it.
pub fn is_tracked(repo: &Path, file: &Path) -> Result<bool, String> {
    let listed = git(repo, &[OsStr::new("ls-files"), "--error-unmatch".as_ref(), "--".as_ref(), file.as_os_str()]);
    Ok(listed.is_ok())
}

/// Commits the working tree's `file` alone, a tracked file (whatever else is staged stays
/// staged); the new commit's hash. A refused commit leaves the index as it was.
pub fn commit_only(repo: &Path, file: &Path, message: &str) -> Result<String, String> {
    git(
        repo,
        &[
            OsStr::new("commit"),
            "--quiet".as_ref(),
            "-m".as_ref(),
            message.as_ref(),
            "--only".as_ref(),
            "--".as_ref(),
            file.as_os_str(),
        ],
    )
    .map_err(|e| format!("{e}; if git asks who you are, set user.name and user.email (git config)"))?;
    Ok(git(repo, &["rev-parse", "HEAD"])?.trim().to_string())
}

/// `git -C <repo> <args>`, its stdout; the error names the command and quotes stderr. Variables
/// that would point git elsewhere (a hook's `GIT_DIR`) are dropped.
pub fn git<S: AsRef<OsStr>>(repo: &Path, args: &[S]) -> Result<String, String> {
    let mut command = Command::new("git");
    command.arg("--no-optional-locks").arg("-C").arg(repo).args(args);
    for var in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR"] {
        command.env_remove(var);
    }
    let shown = || args.iter().map(|a| a.as_ref().to_string_lossy()).collect::<Vec<_>>().join(" ");
    let output = command.output().map_err(|e| format!("cannot run `git` ({e}); is git installed and on PATH?"))?;
    if output.status.success() {
        return String::from_utf8(output.stdout)
            .map_err(|_| format!("`git {}` printed a path that is not UTF-8", shown()));
    }
    Err(format!("`git {}` failed: {}", shown(), String::from_utf8_lossy(&output.stderr).trim()))
}
