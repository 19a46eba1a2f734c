//! The target file's swap, done so that no crash loses the original:
//!
//! - the backup `<target>.evodb-trial.bak` is written to a temporary file, synced and renamed,
//!   so it exists only whole;
//! - the candidate replaces the target the same way (temporary file, sync, rename); temporary
//!   files are created new with unpredictable names ([`replace_file`]), so a planted symlink
//!   never redirects a write;
//! - a leftover backup is put back only when it is a regular file: a planted symlink at
//!   `.evodb-trial.bak` is refused, never "restored" over the user's file;
//! - restoring renames the backup over the target: one atomic step that both puts the original
//!   back and removes the backup. A backup left behind (the process was killed) is therefore
//!   always the original, and the next trial renames it back first.
//!
//! Trials of one target queue on an exclusive lock of `<target>.evodb-trial.lock`, so a trial
//! never mistakes a running trial's backup for a leftover one. The lock file is removed when the
//! trial ends; a waiter that then holds a lock on the removed file takes it again on the new one.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions, Permissions};
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use evodb_safe_files::open_regular;
use evodb_safe_files::{own_regular_file, replace_file, sync_dir};

/// The target (symlinks resolved: the file itself is swapped, never the link) and its siblings.
#[derive(Debug, Clone)]
pub struct Paths {
    pub target: PathBuf,
    pub backup: PathBuf,
    /// The fixed-name temporary file evodb 0.x wrote; only ever removed (never written).
    pub legacy_temp: PathBuf,
    pub lock: PathBuf,
}

impl Paths {
    /// Resolves `target`, which may be missing (a killed trial's backup can still restore it),
    /// but whose directory must exist. Errors are plain messages for the caller to classify.
    pub fn resolve(target: &Path) -> Result<Paths, String> {
        let target = match target.canonicalize() {
            Ok(resolved) => resolved,
            Err(_) => {
                let name = target
                    .file_name()
                    .ok_or_else(|| format!("--target `{}` names no file; pass the file to swap", target.display()))?;
                let parent = match target.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p,
                    _ => Path::new("."),
                };
                let dir = parent.canonicalize().map_err(|e| {
                    format!("--target `{}`: its directory cannot be opened ({e}); check the path", target.display())
                })?;
                dir.join(name)
            }
        };
        let sibling = |suffix: &str| {
            let mut name = OsString::from(target.file_name().unwrap_or_default());
            name.push(suffix);
            target.with_file_name(name)
        };
        Ok(Paths {
            backup: sibling(".evodb-trial.bak"),
            legacy_temp: sibling(".evodb-trial.tmp"),
            lock: sibling(".evodb-trial.lock"),
            target,
        })
    }
}

/// The exclusive lock on a target's trials; dropping it removes the lock file and unlocks.
#[derive(Debug)]
pub struct TargetLock {
    _file: File,
    path: PathBuf,
}

impl TargetLock {
    /// Takes the lock, calling `waiting` once if another trial of the target holds it.
    pub fn acquire(path: &Path, mut waiting: impl FnMut()) -> io::Result<TargetLock> {
        let mut told = false;
        loop {
            // Never through a symlink (a planted one would create files wherever it points),
            // never blocking on a FIFO: the rule every file evodb opens follows.
            let file = open_regular(path, OpenOptions::new().create(true).truncate(false).write(true))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(fs::TryLockError::WouldBlock) => {
                    if !told {
                        waiting();
                        told = true;
                    }
                    file.lock()?;
                }
                Err(fs::TryLockError::Error(e)) => return Err(e),
            }
            // The holder before us may have removed the file we locked: lock the one in place.
            let held = file.metadata()?;
            match fs::metadata(path) {
                Ok(now) if now.dev() == held.dev() && now.ino() == held.ino() => {
                    return Ok(TargetLock { _file: file, path: path.to_path_buf() });
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for TargetLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Puts a leftover backup back over the target (and drops a leftover temporary file); true when
/// there was one. A backup that is not a regular file was not written by evodb: refused.
pub fn recover(paths: &Paths) -> io::Result<bool> {
    match fs::remove_file(&paths.legacy_temp) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    match own_regular_file(&paths.backup) {
        Ok(_) => restore(paths).map(|()| true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Writes the backup: a copy of the target, whole or not at all.
pub fn back_up(paths: &Paths) -> io::Result<()> {
    let meta = fs::metadata(&paths.target)?;
    let contents = fs::read(&paths.target)?;
    replace_file(&paths.backup, &contents, Some(meta.permissions()))
}

/// Replaces the target with `contents`, keeping the target's permissions.
pub fn install(paths: &Paths, contents: &[u8], permissions: Permissions) -> io::Result<()> {
    replace_file(&paths.target, contents, Some(permissions))
}

/// Renames the backup over the target: the original is back and the backup gone, atomically.
pub fn restore(paths: &Paths) -> io::Result<()> {
    fs::rename(&paths.backup, &paths.target)?;
    sync_dir(&paths.target);
    Ok(())
}
