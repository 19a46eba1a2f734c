//! The database directory as the host sees it: resolved, created for writers, and locked.
//!
//! The host takes the locks: writers (every command that changes
//! `database.json`, `sample` included, since it advances the saved PRNG) hold an exclusive lock
//! on `<dir>/.evodb.lock` for the whole read-modify-write; parallel workers queue on it and no
//! add is lost. Readers take no lock: a commit replaces `database.json` atomically, so a
//! reader sees the old file or the new one.

use std::fs::{self, File, OpenOptions};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

use crate::error::HostError;
use crate::files::Files;

const LOCK_FILE: &str = ".evodb.lock";
/// The database file inside the directory.
pub const DATABASE_FILE: &str = "database.json";
/// What a commit writes before renaming it over [`DATABASE_FILE`].
pub(crate) const TEMP_FILE: &str = "database.json.tmp";

/// `database.json` and `history.ndjson` must be regular files where they exist, checked before
/// the call so a refused file changes nothing: a symlink could lead out of the directory, and
/// reading a FIFO would block. (`files` checks again as it opens them.)
fn refuse_special_files(dir: &Path) -> Result<(), HostError> {
    for name in [DATABASE_FILE, crate::history::HISTORY_FILE] {
        let path = dir.join(name);
        let Ok(meta) = fs::symlink_metadata(&path) else { continue };
        let kind = meta.file_type();
        if kind.is_file() {
            continue;
        }
        return Err(HostError::Io(format!(
            "cannot read `{}`: it is {}, not a regular file; move it away ({name} must be a file)",
            path.display(),
            describe_file_type(kind)
        )));
    }
    Ok(())
}

/// "a FIFO", "a directory", … for a message about something that is not a regular file.
pub fn describe_file_type(kind: fs::FileType) -> &'static str {
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "a device"
    }
}

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
    lock: Option<File>,
    /// This writer created the directory (it is removed again if the call fails).
    created: bool,
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
        // A dangling symlink: creating the directory would fail with a bare "File exists".
        if !path.exists()
            && let Ok(target) = fs::read_link(path)
        {
            return Err(HostError::Io(format!(
                "`{}` is a symbolic link to `{}`, which does not exist; create that directory or pass another path",
                path.display(),
                target.display()
            )));
        }
        if access == Access::Read && !path.exists() {
            return Ok(DatabaseDir { path: None, lock: None, created: false, repaired: None });
        }
        if path.exists() && !path.is_dir() {
            return Err(HostError::Io(format!(
                "`{}` is not a directory; pass the database directory (the one holding database.json)",
                path.display()
            )));
        }
        let created = access == Access::Write && !path.exists();
        if created {
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
        refuse_special_files(&resolved)?;
        let repaired = match access {
            Access::Write => crate::history::repair_torn_tail(&resolved).map_err(HostError::Io)?,
            Access::Read => None,
        };
        Ok(DatabaseDir { path: Some(resolved), lock, created, repaired })
    }

    /// After a failed writer call (e.g. interrupted by the time budget mid-save): removes the
    /// temp file a commit may have left and, if this call created the directory, the
    /// directory again, so a refused call leaves the file system as it found it.
    pub fn clean_up_after_failure(&self) {
        let Some(dir) = &self.path else { return };
        let _ = fs::remove_file(dir.join(TEMP_FILE));
        if self.created && fs::read_dir(dir).is_ok_and(|entries| entries.flatten().all(|e| e.file_name() == LOCK_FILE))
        {
            let _ = fs::remove_file(dir.join(LOCK_FILE));
            let _ = fs::remove_dir(dir);
        }
    }

    /// What an instance may do here: read and commit under this writer's lock, or only read.
    /// `shown` is the directory as the user named it, for messages.
    pub fn files(&self, shown: &Path) -> Files {
        match (&self.path, &self.lock) {
            (Some(dir), Some(_)) => Files::read_write(dir, shown),
            (dir, _) => Files::read_only(dir.as_deref(), shown),
        }
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
