//! What an import may read of another tool's run, under the rules every evodb command keeps for
//! its files: regular files only (a FIFO would block the read for ever, a device such as
//! `/dev/zero` never ends), nothing reached through a symbolic link below the path the user
//! named (a link in a run handed around could lead to any file on this machine), at most
//! `--memoryLimitMb` read in all, and all of it within `--timeBudgetMs` (the replay that
//! follows is one component call with a budget of its own, as every command's is).
//!
//! The path the user named may itself be a link: that is the user's choice, as a database path
//! may be one.

use std::cell::Cell;
use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use nix::fcntl::OFlag;

use crate::failure::Failure;
use crate::session::SandboxArgs;

/// The budget an import's reading runs under: the command's time budget and memory cap.
#[derive(Debug)]
pub(super) struct Reading {
    started: Instant,
    budget: Duration,
    /// The memory cap, in bytes: the most the source's files and rows may amount to.
    cap: u64,
    cap_mb: u64,
    /// What has been read so far.
    read: Cell<u64>,
}

impl Reading {
    pub fn new(sandbox: &SandboxArgs) -> Reading {
        Reading {
            started: Instant::now(),
            budget: Duration::from_millis(sandbox.time_budget_ms),
            cap: sandbox.memory_limit_mb.saturating_mul(1 << 20),
            cap_mb: sandbox.memory_limit_mb,
            read: Cell::new(0),
        }
    }

    /// A budget for tests: `budget` and `cap` bytes.
    #[cfg(test)]
    pub fn with(budget: Duration, cap: u64) -> Reading {
        Reading { started: Instant::now(), budget, cap, cap_mb: cap >> 20, read: Cell::new(0) }
    }

    /// When the reading must be done.
    pub fn deadline(&self) -> Instant {
        self.started + self.budget
    }

    /// Exit 4 once the time budget is spent (a budget of 0 is spent before anything is read).
    pub fn check_time(&self, source: &Path) -> Result<(), Failure> {
        match self.budget.is_zero() || Instant::now() >= self.deadline() {
            true => Err(self.out_of_time(source)),
            false => Ok(()),
        }
    }

    pub fn out_of_time(&self, source: &Path) -> Failure {
        Failure::Limit(format!(
            "import exceeded its time budget ({} ms) reading `{}`; a very large run may need more: pass --timeBudgetMs",
            self.budget.as_millis(),
            source.display()
        ))
    }

    pub fn out_of_memory(&self, source: &Path) -> Failure {
        Failure::Limit(format!(
            "import exceeded its memory cap ({} MiB) reading `{}`; a very large run may need more: pass --memoryLimitMb",
            self.cap_mb,
            source.display()
        ))
    }

    /// Counts `bytes` more read from `source`; exit 4 past the memory cap.
    pub fn charge(&self, bytes: u64, source: &Path) -> Result<(), Failure> {
        let total = self.read.get().saturating_add(bytes);
        self.read.set(total);
        match total > self.cap {
            true => Err(self.out_of_memory(source)),
            false => Ok(()),
        }
    }

    /// The memory cap, in bytes.
    pub fn cap_bytes(&self) -> u64 {
        self.cap
    }

    /// How many more bytes may be read.
    fn left(&self) -> u64 {
        self.cap.saturating_sub(self.read.get())
    }

    /// The bytes of the regular file `path` (a link, FIFO, directory, device or socket there is
    /// refused before anything waits on it), counted against the cap, within the time budget.
    pub fn read_file(&self, path: &Path) -> Result<Vec<u8>, Failure> {
        self.check_time(path)?;
        let mut file = open_regular(path)?;
        let size = file.metadata().map_err(|e| cannot_read(path, &e))?.len();
        if size > self.left() {
            self.charge(size, path)?;
        }
        // Read no more than is left, in case the file grows while it is read.
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        (&mut file).take(self.left().saturating_add(1)).read_to_end(&mut bytes).map_err(|e| cannot_read(path, &e))?;
        self.charge(bytes.len() as u64, path)?;
        Ok(bytes)
    }

    /// `read_file` as UTF-8 text.
    pub fn read_text(&self, path: &Path) -> Result<String, Failure> {
        String::from_utf8(self.read_file(path)?).map_err(|e| {
            Failure::BadInput(format!("`{}` is not UTF-8 text ({e}); is the run's file damaged?", path.display()))
        })
    }
}

fn cannot_read(path: &Path, err: &std::io::Error) -> Failure {
    Failure::BadInput(format!("cannot read `{}`: {err}", path.display()))
}

/// What an import says of a path below the named one that is not what it should be.
pub(super) fn not_regular(path: &Path, kind: fs::FileType) -> Failure {
    if kind.is_symlink() {
        return Failure::BadInput(format!(
            "`{}` is a symbolic link; an import reads nothing through a link below the path it is given (it could \
             lead to any file on this machine): replace the link with what it points to, or name that path itself",
            path.display()
        ));
    }
    Failure::BadInput(format!(
        "`{}` is {}, not a regular file; an import reads only regular files: move it away",
        path.display(),
        evodb_host::describe_file_type(kind)
    ))
}

/// Opens `path` for reading only if it is a regular file: never through a final symlink, and
/// without blocking on a FIFO.
fn open_regular(path: &Path) -> Result<File, Failure> {
    let opened = OpenOptions::new().read(true).custom_flags((OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK).bits()).open(path);
    let file = match opened {
        Ok(file) => file,
        Err(e) => {
            return Err(match fs::symlink_metadata(path) {
                Ok(meta) if !meta.is_file() => not_regular(path, meta.file_type()),
                _ => cannot_read(path, &e),
            });
        }
    };
    let kind = file.metadata().map_err(|e| cannot_read(path, &e))?.file_type();
    match kind.is_file() {
        true => Ok(file),
        false => Err(not_regular(path, kind)),
    }
}

/// The directory `path` below the named one: `None` when nothing is there, refused when it is a
/// link or not a directory.
pub(super) fn directory_below(path: &Path) -> Result<Option<()>, Failure> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => Ok(Some(())),
        Ok(meta) if meta.file_type().is_symlink() => Err(not_regular(path, meta.file_type())),
        Ok(_) => Ok(None),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(cannot_read(path, &e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_file_is_read_whole_and_counted() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.json");
        fs::write(&file, "{}").unwrap();
        let reading = Reading::with(Duration::from_secs(10), 3);
        assert_eq!(reading.read_file(&file).unwrap(), b"{}");
        let again = reading.read_file(&file).unwrap_err();
        assert!(matches!(again, Failure::Limit(_)), "{again:?}");
    }

    #[test]
    fn links_fifos_devices_and_directories_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let reading = Reading::with(Duration::from_secs(10), 1 << 20);
        let fifo = dir.path().join("fifo.json");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let link = dir.path().join("zero.json");
        symlink("/dev/zero", &link).unwrap();
        for (path, says) in [
            (fifo.as_path(), "is a FIFO, not a regular file"),
            (link.as_path(), "is a symbolic link"),
            (dir.path(), "is a directory, not a regular file"),
            (Path::new("/dev/zero"), "is a device, not a regular file"),
        ] {
            let err = reading.read_file(path).unwrap_err();
            assert!(matches!(&err, Failure::BadInput(m) if m.contains(says)), "{}: {err:?}", path.display());
        }
    }

    #[test]
    fn a_spent_budget_reads_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.json");
        fs::write(&file, "{}").unwrap();
        let err = Reading::with(Duration::ZERO, 1 << 20).read_file(&file).unwrap_err();
        assert!(matches!(&err, Failure::Limit(m) if m.contains("time budget (0 ms)")), "{err:?}");
    }
}
