//! A database directory behind the `files` import: the component names a file; the host decides
//! where it is, refuses anything but a regular file (a symlink could point out of the directory,
//! a FIFO would block the call), and commits atomically: a new temp file
//! (`database.json.tmp-<random>`) written and synced, renamed over `database.json`, then the
//! events appended to `history.ndjson` in one write — or, when that append fails, everything put
//! back as it was.

use std::any::Any;
use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::{Access, DATABASE_FILE, DatabaseDir, PREVIOUS_FILE, remove_stale_temps, temp_name};
use crate::error::HostError;
use crate::history::HISTORY_FILE;
use crate::storage::{Files, FilesError, History};
use evodb_safe_files::{describe_file_type, open_regular};

/// A database directory, as an instance may use it: read, and commit under its writer's lock.
#[derive(Debug, Default)]
pub struct DirectoryFiles {
    /// The resolved directory; `None`: no directory (reads find nothing).
    dir: Option<PathBuf>,
    /// The directory as the user named it, for messages.
    shown: PathBuf,
    /// A writer holds the directory's lock; a reader may not commit.
    writable: bool,
    /// A commit went through since [`Files::take_committed`] last asked.
    committed: bool,
    /// The directory opened by [`DirectoryFiles::open`]: its lock, held as long as this is, and
    /// what to clean up after a failed call.
    opened: Option<DatabaseDir>,
}

impl DirectoryFiles {
    /// The directory at `path`, resolved; created and locked for a writer. A reader of a missing
    /// directory reads nothing (the same answer as an empty database), and nothing is created
    /// where the path points.
    pub fn open(path: &Path, access: Access) -> Result<DirectoryFiles, HostError> {
        let opened = DatabaseDir::open(path, access)?;
        let mut files = DirectoryFiles::read_only(opened.path(), path);
        files.writable = opened.is_writer();
        files.opened = Some(opened);
        Ok(files)
    }

    /// Reads and commits in `dir`: for a caller that holds the directory's lock.
    pub fn read_write(dir: &Path, shown: &Path) -> DirectoryFiles {
        DirectoryFiles { writable: true, ..DirectoryFiles::read_only(Some(dir), shown) }
    }

    /// Reads in `dir` (nothing when `None`); a commit is refused.
    pub fn read_only(dir: Option<&Path>, shown: &Path) -> DirectoryFiles {
        DirectoryFiles {
            dir: dir.map(Path::to_path_buf),
            shown: shown.to_path_buf(),
            writable: false,
            committed: false,
            opened: None,
        }
    }

    /// What was repaired as the directory was opened (a torn last line of the history).
    pub fn repaired(&self) -> Option<&str> {
        self.opened.as_ref().and_then(DatabaseDir::repaired)
    }

    /// `name` in the directory, opened for reading only if it is a regular file (never through a
    /// symlink, never blocking on a FIFO); `None` when it is missing.
    fn open_file(&self, name: &str) -> Result<Option<fs::File>, FilesError> {
        let Some(dir) = &self.dir else { return Ok(None) };
        let path = dir.join(name);
        let e = match open_regular(&path, OpenOptions::new().read(true)) {
            Ok(file) => return Ok(Some(file)),
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => e,
        };
        let what = match e.kind() {
            // A symlink, FIFO, directory or device: `open_regular` says which.
            ErrorKind::InvalidData => Some(e.to_string()),
            // A socket cannot even be opened (ENXIO).
            _ => fs::symlink_metadata(&path)
                .ok()
                .filter(|meta| !meta.is_file())
                .map(|meta| format!("it is {}, not a regular file", describe_file_type(meta.file_type()))),
        };
        Err(match what {
            Some(what) => FilesError::Refused(format!(
                "cannot read `{}`: {what}; move it away ({name} must be a file)",
                self.shown.join(name).display()
            )),
            None => FilesError::Failed(self.failed("read", name, &e)),
        })
    }

    fn read(&self, name: &str) -> Result<Option<Vec<u8>>, FilesError> {
        let Some(mut file) = self.open_file(name)? else { return Ok(None) };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|e| FilesError::Failed(self.failed("read", name, &e)))?;
        Ok(Some(bytes))
    }

    /// `database.json` replaced atomically, then the events appended to the history. An append
    /// that fails (a full disk) puts everything back — the history cut to its length before,
    /// the previous `database.json` (kept as a hard link until then) renamed back — so a failed
    /// commit stores nothing; where that cannot be done the message says the operation may have
    /// been stored.
    fn commit_both(&self, database: &[u8], events: &[u8]) -> Result<(), String> {
        let (Some(dir), true) = (&self.dir, self.writable) else {
            return Err("this call opened the database for reading only; this is a bug in evodb".into());
        };
        // The history is opened first: an unwritable history fails the call before anything changed.
        let mut history = open_regular(&dir.join(HISTORY_FILE), OpenOptions::new().append(true).create(true))
            .map_err(|e| self.failed("open", HISTORY_FILE, &e))?;
        // Under the writer's lock nobody else appends: this is where a failed append is cut back to.
        let history_len = history.metadata().map_err(|e| self.failed("open", HISTORY_FILE, &e))?.len();
        // Temp files of writers killed mid-write are removed; this one is created new under a
        // name no one could plant anything at (`create_new` would refuse it anyway).
        remove_stale_temps(dir);
        let name = temp_name();
        let temp = dir.join(&name);
        let write = || -> std::io::Result<()> {
            let mut file = OpenOptions::new().write(true).create_new(true).open(&temp)?;
            file.write_all(database)?;
            file.sync_all()
        };
        if let Err(e) = write() {
            let _ = fs::remove_file(&temp);
            return Err(self.failed("write", &name, &e));
        }
        let target = dir.join(DATABASE_FILE);
        let previous = Previous::keep(dir);
        if let Err(e) = fs::rename(&temp, &target) {
            previous.forget();
            let _ = fs::remove_file(&temp);
            return Err(self.failed("replace", DATABASE_FILE, &e));
        }
        // One write call for the operation's lines, so a killed process leaves whole lines only.
        match history.write_all(events) {
            Ok(()) => {
                previous.forget();
                Ok(())
            }
            Err(e) => {
                let put_back = history.set_len(history_len).is_ok() && previous.put_back(&target);
                let path = self.shown.join(HISTORY_FILE);
                Err(match put_back {
                    true => format!(
                        "cannot append to `{}`: {e}; nothing was stored (database.json was put back as it was); \
                         free some space or check that the directory is writable, then run the command again",
                        path.display()
                    ),
                    false => format!(
                        "cannot append to `{}`: {e}; database.json was saved but its history lines were not, so the \
                         operation may or may not have been stored: check with `evodb info` before running it again \
                         (an add retried with the same --id is answered, not added twice)",
                        path.display()
                    ),
                })
            }
        }
    }

    fn failed(&self, action: &str, name: &str, err: &std::io::Error) -> String {
        let path = self.shown.join(name);
        match err.kind() {
            ErrorKind::InvalidData => format!("cannot {action} `{}`: {err}; move it away", path.display()),
            _ => {
                format!("cannot {action} `{}`: {err}; check that the directory exists and is writable", path.display())
            }
        }
    }
}

impl Files for DirectoryFiles {
    fn read_database(&mut self) -> Result<Option<Vec<u8>>, FilesError> {
        self.read(DATABASE_FILE)
    }

    /// Only the part asked for is read: a long run's history is megabytes, and `evodb view`
    /// polls it twice a second.
    fn read_history_from(&mut self, from: u64) -> Result<Option<History>, FilesError> {
        let Some(mut file) = self.open_file(HISTORY_FILE)? else { return Ok(None) };
        let failed = |e: std::io::Error| FilesError::Failed(self.failed("read", HISTORY_FILE, &e));
        let len = file.metadata().map_err(failed)?.len();
        let mut bytes = Vec::new();
        if from < len {
            file.seek(SeekFrom::Start(from))
                .and_then(|_| file.take(len - from).read_to_end(&mut bytes))
                .map_err(failed)?;
        }
        Ok(Some(History { len, bytes }))
    }

    fn commit(&mut self, database: Option<&[u8]>, events: &[u8]) -> Result<(), FilesError> {
        let Some(database) = database else {
            return Err(FilesError::Failed(
                "a directory's database.json is written with every commit; this is a bug in evodb".into(),
            ));
        };
        self.commit_both(database, events).map_err(FilesError::Failed)?;
        self.committed = true;
        Ok(())
    }

    fn holds_database(&self) -> bool {
        self.dir.as_ref().is_some_and(|dir| dir.join(DATABASE_FILE).exists())
    }

    fn committed(&self) -> bool {
        self.committed
    }

    fn take_committed(&mut self) -> bool {
        std::mem::take(&mut self.committed)
    }

    fn clean_up_after_failure(&self) {
        if let Some(opened) = &self.opened {
            opened.clean_up_after_failure();
        }
    }

    fn directory(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// The `database.json` a commit is replacing, kept as a hard link ([`PREVIOUS_FILE`]) until the
/// history append succeeded, so a failed append can put it back. Where no link can be made (a
/// file system without hard links), a failed append cannot be undone and says so.
struct Previous {
    link: PathBuf,
    /// Whether there was a database before (put back means: remove the new one).
    existed: bool,
    kept: bool,
}

impl Previous {
    fn keep(dir: &Path) -> Previous {
        let link = dir.join(PREVIOUS_FILE);
        // A link left by a writer killed mid-commit; never followed (unlink removes a link itself).
        let _ = fs::remove_file(&link);
        match fs::hard_link(dir.join(DATABASE_FILE), &link) {
            Ok(()) => Previous { link, existed: true, kept: true },
            Err(e) if e.kind() == ErrorKind::NotFound => Previous { link, existed: false, kept: true },
            Err(_) => Previous { link, existed: true, kept: false },
        }
    }

    fn forget(self) {
        if self.kept && self.existed {
            let _ = fs::remove_file(&self.link);
        }
    }

    /// Puts the previous `database.json` back over `target`; whether that was done.
    fn put_back(self, target: &Path) -> bool {
        match (self.kept, self.existed) {
            (false, _) => false,
            (true, true) => fs::rename(&self.link, target).is_ok(),
            (true, false) => fs::remove_file(target).is_ok(),
        }
    }
}
