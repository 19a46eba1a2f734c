//! A trial in its own git worktree: the user's working tree is never touched, so trials of one
//! target need no lock and run side by side.
//!
//! The worktree mirrors the working tree as git sees it: it is checked out detached at `HEAD`,
//! then the files that differ from `HEAD` (uncommitted changes, staged or not, and deletions) and
//! the untracked files that are not ignored are copied in. Ignored files (dependencies, build
//! output) are not: `--setup` can bring them. Every git call in the user's repository runs with
//! `--no-optional-locks`, so trials never contend for its index lock.
//!
//! Worktrees live in `<temp dir>/evodb-trials-<uid>/`, each beside a `<name>.lock` its trial
//! holds (flock) while it lives. A trial removes its worktree when it ends, on every path, and
//! the interrupt handler does on Ctrl-C/SIGTERM/SIGHUP. A worktree whose lock nobody holds was
//! left by a killed trial: the next trial of the repository removes it first. The `git` command
//! line is used, not a library: worktrees, `stash create` and `worktree remove` are its features,
//! it is on every machine with a repository, and it honours the user's git configuration.

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use super::git::git;
use super::interrupt;

/// A live worktree; [`Worktree::remove`] (or dropping it) removes it and its lock file.
#[derive(Debug)]
pub struct Worktree {
    pub path: PathBuf,
    /// The worktree's copy of the target.
    pub target: PathBuf,
    /// The directory the commands run in, inside the worktree.
    pub cwd: PathBuf,
    checkout: Checkout,
    _lock: File,
}

/// What removing a worktree needs; the interrupt handler keeps a copy.
#[derive(Debug, Clone)]
pub struct Checkout {
    pub repo: PathBuf,
    pub path: PathBuf,
}

impl Checkout {
    fn lock_path(&self) -> PathBuf {
        lock_path(&self.path)
    }

    /// `git worktree remove --force`, then whatever is left of the directory, then the lock file.
    pub fn remove(&self) -> io::Result<()> {
        let _admin = admin_lock(&self.repo).map_err(io::Error::other)?;
        let path = self.path.as_os_str();
        let removed =
            git(&self.repo, &[OsStr::new("worktree"), "remove".as_ref(), "--force".as_ref(), "--force".as_ref(), path]);
        if removed.is_err() || self.path.exists() {
            match fs::remove_dir_all(&self.path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
            let _ = git(&self.repo, &["worktree", "prune"]);
        }
        let _ = fs::remove_file(self.lock_path());
        Ok(())
    }
}

impl interrupt::Removal for Checkout {
    fn remove(&self) -> io::Result<()> {
        Checkout::remove(self)
    }

    fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        let _ = self.checkout.remove();
        interrupt::with(|active| active.worktree = None);
    }
}

/// Where this user's trial worktrees live (created 0700 and checked to be this user's, so
/// another user of the machine cannot plant one).
fn trials_root() -> io::Result<PathBuf> {
    let uid = nix::unistd::getuid().as_raw();
    let root = std::env::temp_dir().join(format!("evodb-trials-{uid}"));
    match fs::DirBuilder::new().mode(0o700).create(&root) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
        _ => {}
    }
    let meta = fs::symlink_metadata(&root)?;
    if !meta.is_dir() || meta.uid() != uid {
        return Err(io::Error::other(format!(
            "`{}` is not a directory of this user; remove it, or set TMPDIR to another directory",
            root.display()
        )));
    }
    Ok(root)
}

/// Git's worktree commands are not safe to run at once on one repository: `worktree add` reads
/// every registered worktree, which another `add` may have half-written (`failed to read
/// .git/worktrees/…/commondir`) or a `prune` may be deleting. Trials of every process take this
/// lock, a file in the repository's git directory, around them.
fn admin_lock(repo: &Path) -> Result<File, String> {
    let git_dir = repo.join(git(repo, &["rev-parse", "--git-common-dir"])?.trim());
    let path = git_dir.join("evodb-worktrees.lock");
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot create `{}`: {e}", path.display()))?;
    file.lock().map_err(|e| format!("cannot lock `{}`: {e}", path.display()))?;
    Ok(file)
}

fn lock_path(worktree: &Path) -> PathBuf {
    let mut name = worktree.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Removes the worktrees of `repo` left by killed trials; how many there were.
pub fn remove_leftovers(repo: &Path) -> Result<usize, String> {
    let root = trials_root().map_err(|e| format!("cannot open the trials' directory: {e}"))?;
    let listing = git(repo, &["worktree", "list", "--porcelain"])?;
    let mut removed = 0;
    for path in listing.lines().filter_map(|line| line.strip_prefix("worktree ")).map(PathBuf::from) {
        if !path.starts_with(&root) {
            continue;
        }
        let checkout = Checkout { repo: repo.to_path_buf(), path };
        let Ok(lock) = OpenOptions::new().create(true).truncate(false).write(true).open(checkout.lock_path()) else {
            continue;
        };
        // Held: its trial is still running.
        if lock.try_lock().is_ok() {
            kill_processes_in(&checkout.path);
            checkout.remove().map_err(|e| format!("cannot remove `{}`: {e}", checkout.path.display()))?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// Kills what a killed trial left running in its worktree: its test command's process group
/// outlives a `kill -9` of the trial, and would go on running (and writing) while the worktree
/// is deleted under it. A process counts when its working directory is inside `dir`; only this
/// user's processes can be signalled.
fn kill_processes_in(dir: &Path) {
    use nix::sys::signal::{Signal, kill, killpg};
    use nix::unistd::{Pid, getpgid, getpgrp};
    let Ok(entries) = fs::read_dir("/proc") else { return };
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|name| name.parse::<i32>().ok()) else { continue };
        if !fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| cwd.starts_with(dir)) {
            continue;
        }
        let pid = Pid::from_raw(pid);
        if let Ok(group) = getpgid(Some(pid))
            && group != getpgrp()
        {
            let _ = killpg(group, Signal::SIGKILL);
        }
        let _ = kill(pid, Signal::SIGKILL);
    }
}

impl Worktree {
    /// Checks out the working tree of `repo` into a new worktree, registered with the interrupt
    /// handler. `target` and `cwd` are paths inside the repository, relative to its top.
    pub fn create(repo: &Path, target: &Path, cwd: &Path) -> Result<Worktree, String> {
        if git(repo, &["rev-parse", "--verify", "--quiet", "HEAD"]).is_err() {
            return Err(format!(
                "the repository `{}` has no commit yet, so it has no worktree to check out; commit once, or pass \
                 --inPlace",
                repo.display()
            ));
        }
        // A throwaway commit object: any identity will do, and a machine without one still works.
        let root = trials_root().map_err(|e| format!("cannot create the trials' directory: {e}"))?;
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "{}-{}-{}",
            repo.file_name().and_then(|n| n.to_str()).unwrap_or("repo"),
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let checkout = Checkout { repo: repo.to_path_buf(), path: root.join(name) };
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(checkout.lock_path())
            .map_err(|e| format!("cannot create `{}`: {e}", checkout.lock_path().display()))?;
        lock.lock().map_err(|e| format!("cannot lock `{}`: {e}", checkout.lock_path().display()))?;
        // Registered before it exists: an interruption during `git worktree add` still removes it.
        interrupt::with(|active| active.worktree = Some(Box::new(checkout.clone())));
        let worktree = Worktree {
            target: checkout.path.join(target),
            cwd: checkout.path.join(cwd),
            path: checkout.path.clone(),
            checkout,
            _lock: lock,
        };
        let path = worktree.path.as_os_str();
        let admin = admin_lock(repo)?;
        git(
            repo,
            &[OsStr::new("worktree"), "add".as_ref(), "--detach".as_ref(), "--quiet".as_ref(), path, "HEAD".as_ref()],
        )
        .map_err(|e| format!("cannot check out a worktree of `{}`: {e}", repo.display()))?;
        drop(admin);
        worktree.mirror_working_tree(repo)?;
        Ok(worktree)
    }

    /// Brings the working tree's differences from `HEAD` into the worktree: changed and
    /// untracked (not ignored) files are copied (symlinks as symlinks), deleted ones removed.
    fn mirror_working_tree(&self, repo: &Path) -> Result<(), String> {
        let changed = git(repo, &["diff", "HEAD", "--name-only", "--no-renames", "--ignore-submodules", "-z"])?;
        let untracked = git(repo, &["ls-files", "--others", "--exclude-standard", "-z"])?;
        for rel in changed.split('\0').chain(untracked.split('\0')).filter(|p| !p.is_empty()) {
            let (from, to) = (repo.join(rel), self.path.join(rel));
            let mirrored = (|| -> io::Result<()> {
                let meta = match fs::symlink_metadata(&from) {
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {
                        return match fs::remove_file(&to) {
                            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
                            _ => Ok(()),
                        };
                    }
                    meta => meta?,
                };
                if let Some(dir) = to.parent() {
                    fs::create_dir_all(dir)?;
                }
                match fs::remove_file(&to) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                    _ => {}
                }
                if meta.file_type().is_symlink() {
                    std::os::unix::fs::symlink(fs::read_link(&from)?, &to)
                } else if meta.is_file() {
                    fs::copy(&from, &to).map(drop)
                } else {
                    Ok(())
                }
            })();
            mirrored.map_err(|e| format!("cannot copy `{rel}` from the working tree into the worktree: {e}"))?;
        }
        Ok(())
    }

    /// Removes the worktree now, reporting a failure (dropping it removes it silently).
    pub fn remove(self) -> io::Result<()> {
        let removed = self.checkout.remove();
        drop(self);
        removed
    }
}
