//! The database directory as the host sees it: resolved, created for writers, and locked.
//!
//! The host takes the locks: writers (every command that changes
//! `database.json`, `sample` included, since it advances the saved PRNG) hold an exclusive lock
//! on `<dir>/.evodb.lock` for the whole read-modify-write; parallel workers queue on it and no
//! add is lost. Readers take no lock: a commit replaces `database.json` atomically, so a
//! reader sees the old file or the new one.

use std::fs::{self, File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use nix::fcntl::OFlag;

mod files;

use crate::error::HostError;
use evodb_safe_files::describe_file_type;
pub use files::DirectoryFiles;

const LOCK_FILE: &str = ".evodb.lock";
/// The database file inside the directory.
pub const DATABASE_FILE: &str = "database.json";
/// What a commit writes before renaming it over [`DATABASE_FILE`]: this, a dash and 16 random
/// hex digits, created new ([`temp_name`]), so nothing planted under a name known in advance is
/// ever opened (older versions wrote `database.json.tmp` itself).
pub(crate) const TEMP_PREFIX: &str = "database.json.tmp";
/// The `database.json` a commit replaces, kept (a hard link) until the commit's history append
/// succeeded, so a failed append can put it back.
pub(crate) const PREVIOUS_FILE: &str = "database.json.prev";

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
        return Err(not_a_file(&path, name, kind));
    }
    Ok(())
}

/// The refusal of a file of the directory that is something else (a FIFO, a link…).
fn not_a_file(path: &Path, name: &str, kind: fs::FileType) -> HostError {
    let action = if name == LOCK_FILE { "lock" } else { "read" };
    HostError::Io(format!(
        "cannot {action} `{}`: it is {}, not a regular file; move it away ({name} must be a file)",
        path.display(),
        describe_file_type(kind)
    ))
}

enum LockFile {
    Io(std::io::Error),
    NotRegular(fs::FileType),
}

/// The lock file, created when missing: never through a symlink (it could create or lock a file
/// anywhere), and without blocking on a FIFO (opening one to write waits for a reader).
fn open_lock(path: &Path) -> Result<File, LockFile> {
    let opened = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .custom_flags((OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK).bits())
        .open(path);
    let file = match opened {
        Ok(file) => file,
        Err(e) => {
            return Err(match fs::symlink_metadata(path) {
                Ok(meta) if !meta.is_file() => LockFile::NotRegular(meta.file_type()),
                _ => LockFile::Io(e),
            });
        }
    };
    let kind = file.metadata().map_err(LockFile::Io)?.file_type();
    match kind.is_file() {
        true => Ok(file),
        false => Err(LockFile::NotRegular(kind)),
    }
}

/// A new temp file's name: [`TEMP_PREFIX`], a dash and 16 hex digits no one can guess in
/// advance (std's hasher keys come from the OS's randomness).
pub(crate) fn temp_name() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    format!("{TEMP_PREFIX}-{:016x}", hasher.finish())
}

/// Removes the temp files of writers killed mid-commit: regular files and links only (removing a
/// link never touches what it points to; anything else there is left alone, and never used).
pub(crate) fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let stale = entry.file_name().to_str().is_some_and(|name| name.starts_with(TEMP_PREFIX))
            && entry.file_type().is_ok_and(|kind| kind.is_file() || kind.is_symlink());
        if stale {
            let _ = fs::remove_file(entry.path());
        }
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
                let file = open_lock(&lock_path).map_err(|e| match e {
                    LockFile::Io(e) => io("open the lock file", &lock_path, e),
                    LockFile::NotRegular(kind) => not_a_file(&lock_path, LOCK_FILE, kind),
                })?;
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
        remove_stale_temps(dir);
        let _ = fs::remove_file(dir.join(PREVIOUS_FILE));
        // What a refused first commit leaves: the lock, and a history it created and cut back.
        let left_by_this_call = |e: &fs::DirEntry| {
            e.file_name() == LOCK_FILE
                || (e.file_name() == crate::history::HISTORY_FILE
                    && fs::symlink_metadata(e.path()).is_ok_and(|m| m.is_file() && m.len() == 0))
        };
        if self.created && fs::read_dir(dir).is_ok_and(|entries| entries.flatten().all(|e| left_by_this_call(&e))) {
            let _ = fs::remove_file(dir.join(crate::history::HISTORY_FILE));
            let _ = fs::remove_file(dir.join(LOCK_FILE));
            let _ = fs::remove_dir(dir);
        }
    }

    /// Whether this is a writer's: the directory exists and its lock is held.
    pub fn is_writer(&self) -> bool {
        self.path.is_some() && self.lock.is_some()
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
