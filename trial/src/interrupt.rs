//! Ctrl-C, SIGTERM and SIGHUP during a trial: kill the running command's process group, put the
//! original target back (or remove the trial's worktree), remove the lock file, exit 130.
//!
//! The handler runs on its own thread (the `ctrlc` crate). Every step of a trial that changes the
//! file system or starts or reaps a command does so holding [`ACTIVE`]; the handler takes it too
//! and exits without releasing it, so nothing happens after the handler's restore.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use super::files::{self, Paths};

/// The exit code after an interruption (128 + SIGINT, as shells report Ctrl-C).
pub const INTERRUPTED_EXIT: i32 = 130;

/// A directory the handler removes (the trial's worktree, `worktree::Checkout`): named by a
/// trait so that this module needs nothing of the module that makes it.
pub trait Removal: Send + std::fmt::Debug {
    fn remove(&self) -> std::io::Result<()>;
    fn path(&self) -> &Path;
}

/// What the handler must undo.
#[derive(Debug, Default)]
pub struct Active {
    /// The target is swapped: the backup holds the original.
    pub swapped: Option<Paths>,
    /// The lock file this process holds.
    pub lock: Option<PathBuf>,
    /// The running command's process group.
    pub group: Option<Pid>,
    /// The trial's worktree, to remove.
    pub worktree: Option<Box<dyn Removal>>,
}

static ACTIVE: Mutex<Active> = Mutex::new(Active { swapped: None, lock: None, group: None, worktree: None });

/// Runs `f` with the state held: the handler waits until `f` is done.
pub fn with<R>(f: impl FnOnce(&mut Active) -> R) -> R {
    f(&mut lock())
}

fn lock() -> MutexGuard<'static, Active> {
    ACTIVE.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Kills a process group; one already gone is no error.
pub fn kill_group(group: Pid) {
    let _ = killpg(group, Signal::SIGKILL);
}

/// Installs the handler (once per process).
pub fn install() -> Result<(), String> {
    ctrlc::set_handler(on_signal).map_err(|e| format!("cannot install the Ctrl-C/SIGTERM handler: {e}"))
}

fn on_signal() {
    let mut active = lock();
    if let Some(group) = active.group.take() {
        kill_group(group);
    }
    if let Some(paths) = active.swapped.take() {
        match files::restore(&paths) {
            Ok(()) => eprintln!("interrupted: restored `{}`", paths.target.display()),
            Err(e) => eprintln!(
                "interrupted: cannot restore `{}` ({e}); the original is `{}`: the next `evodb trial` of this \
                 target restores it, or rename it back yourself",
                paths.target.display(),
                paths.backup.display()
            ),
        }
    } else if let Some(worktree) = active.worktree.take() {
        match worktree.remove() {
            Ok(()) => eprintln!("interrupted: removed the trial's worktree `{}`", worktree.path().display()),
            Err(e) => eprintln!(
                "interrupted: cannot remove the trial's worktree `{}` ({e}); the next `evodb trial` in this \
                 repository removes it",
                worktree.path().display()
            ),
        }
    } else {
        eprintln!("interrupted");
    }
    if let Some(lock) = active.lock.take() {
        let _ = std::fs::remove_file(lock);
    }
    std::process::exit(INTERRUPTED_EXIT);
}
