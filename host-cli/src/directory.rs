//! The database directory as the host sees it: resolved, created for writers, and locked.
//!
//! WASI has no file locks, so the host takes them: writers (every command that changes
//! `database.json`, `sample` included, since it advances the saved PRNG) hold an exclusive lock
//! on `<dir>/.evodb.lock` for the whole read-modify-write; parallel workers queue on it and no
//! add is lost. Readers take no lock: the component replaces `database.json` atomically, so a
//! reader sees the old file or the new one.

use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};

use crate::error::HostError;

const LOCK_FILE: &str = ".evodb.lock";
/// The database file inside the directory.
pub const DATABASE_FILE: &str = "database.json";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Create the directory when missing and hold the exclusive lock.
    Write,
    /// Leave the file system as it is; a missing directory is an empty database.
    Read,
}

/// A resolved database directory; for writers, the lock is held until this is dropped.
#[derive(Debug)]
pub struct DatabaseDir {
    path: Option<PathBuf>,
    _lock: Option<File>,
    /// What the writer repaired before the call (a torn history tail), to tell the user.
    repaired: Option<String>,
}

impl DatabaseDir {
    /// Resolves `path` (`..` and symlinks are resolved here, so the component is confined to
    /// the directory the path names, never its parent). A missing directory is created for
    /// [`Access::Write`] and reported as [`DatabaseDir::path`] `None` for [`Access::Read`].
    pub fn open(path: &Path, access: Access) -> Result<DatabaseDir, HostError> {
        let io = |action: &str, p: &Path, e: std::io::Error| {
            HostError::Io(format!("cannot {action} `{}`: {e}; check the path and its permissions", p.display()))
        };
        if access == Access::Read && !path.exists() {
            return Ok(DatabaseDir { path: None, _lock: None, repaired: None });
        }
        if path.exists() && !path.is_dir() {
            return Err(HostError::Io(format!(
                "`{}` is not a directory; pass the database directory (the one holding database.json)",
                path.display()
            )));
        }
        if access == Access::Write {
            fs::create_dir_all(path).map_err(|e| io("create the database directory", path, e))?;
        }
        let resolved = path.canonicalize().map_err(|e| io("resolve", path, e))?;
        let lock = match access {
            Access::Read => None,
            Access::Write => {
                let lock_path = resolved.join(LOCK_FILE);
                let file = OpenOptions::new()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .open(&lock_path)
                    .map_err(|e| io("open the lock file", &lock_path, e))?;
                file.lock().map_err(|e| io("lock", &lock_path, e))?;
                Some(file)
            }
        };
        let repaired = match access {
            Access::Write => crate::history::repair_torn_tail(&resolved).map_err(HostError::Io)?,
            Access::Read => None,
        };
        Ok(DatabaseDir { path: Some(resolved), _lock: lock, repaired })
    }

    /// What was repaired before the call, e.g. a torn last line of the history.
    pub fn repaired(&self) -> Option<&str> {
        self.repaired.as_deref()
    }

    /// The resolved directory; `None` when a reader found no directory.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}
