//! The `files` import: the two files of one database directory (or one PostgreSQL run, see
//! `crate::postgres`), as the host grants them to an instance. The component names a file; the host decides where it is, refuses anything but a
//! regular file (a symlink could point out of the directory, a FIFO would block the call), and
//! commits atomically: a new temp file (`database.json.tmp-<random>`) written and synced, renamed
//! over `database.json`, then the events appended to `history.ndjson` in one write — or, when
//! that append fails, everything put back as it was.

use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use crate::bindings::evodb::population::files::Host;
use crate::directory::{DATABASE_FILE, DatabaseDir, PREVIOUS_FILE, remove_stale_temps, temp_name};
use crate::history::HISTORY_FILE;
use crate::postgres::PgFiles;
use evodb_safe_files::open_regular;

/// Where an instance's database lives, and what it may do there.
#[derive(Debug)]
pub enum Files {
    Directory(DirectoryFiles),
    Postgres(Box<PgFiles>),
}

impl Default for Files {
    /// No database at all: reads find nothing, commits are refused.
    fn default() -> Files {
        Files::Directory(DirectoryFiles::default())
    }
}

impl Files {
    /// What an instance may do in `dir`: read and commit under its writer's lock, or only read.
    /// `shown` is the directory as the user named it, for messages.
    pub fn for_directory(dir: &DatabaseDir, shown: &Path) -> Files {
        match dir.path() {
            Some(path) if dir.is_writer() => Files::read_write(path, shown),
            path => Files::read_only(path, shown),
        }
    }

    /// Reads and commits in `dir`: for a caller that holds the directory's lock.
    pub fn read_write(dir: &Path, shown: &Path) -> Files {
        Files::Directory(DirectoryFiles {
            dir: Some(dir.to_path_buf()),
            shown: shown.to_path_buf(),
            writable: true,
            committed: false,
        })
    }

    /// Reads in `dir` (nothing when `None`); a commit is refused.
    pub fn read_only(dir: Option<&Path>, shown: &Path) -> Files {
        Files::Directory(DirectoryFiles {
            dir: dir.map(Path::to_path_buf),
            shown: shown.to_path_buf(),
            writable: false,
            committed: false,
        })
    }

    /// Stores `database` and appends `events` (history lines), atomically: what the component's
    /// `commit` does, for the host's own writers (`evodb copy`). Without `database` (a snapshot
    /// store only), appends the events alone.
    pub fn commit(&mut self, database: Option<&[u8]>, events: &[u8]) -> Result<(), String> {
        match (self, database) {
            (Files::Directory(files), Some(database)) => {
                files.commit(database, events)?;
                files.committed = true;
                Ok(())
            }
            (Files::Directory(_), None) => Err("a directory's database.json is written with every commit; \
                 this is a bug in evodb"
                .into()),
            (Files::Postgres(run), database) => run.commit(database, events),
        }
    }

    /// Whether the stored `database.json` reflects every stored event (always, for a directory);
    /// otherwise a load re-runs the pending ones.
    pub fn is_current(&self) -> bool {
        match self {
            Files::Directory(_) => true,
            Files::Postgres(run) => run.is_current(),
        }
    }

    /// The stored `database.json`, byte for byte (`None`: there is none).
    pub fn read_database(&mut self) -> Result<Option<Vec<u8>>, String> {
        match self {
            Files::Directory(files) => files.read(DATABASE_FILE),
            Files::Postgres(run) => run.read_database(),
        }
    }

    /// Whether a database is stored there (before this call's commit).
    pub fn holds_database(&self) -> bool {
        match self {
            Files::Directory(files) => files.dir.as_ref().is_some_and(|dir| dir.join(DATABASE_FILE).exists()),
            Files::Postgres(run) => run.holds_database(),
        }
    }

    /// Where a PostgreSQL run stands after this operation (for an engine kept warm); `None` for
    /// a directory, or a run that does not exist.
    pub fn position(&self) -> Option<crate::postgres::Position> {
        match self {
            Files::Directory(_) => None,
            Files::Postgres(run) => run.position(),
        }
    }

    /// The engine's database now reflects every stored event (see
    /// [`crate::postgres::PgFiles::caught_up`]); nothing to do for a directory.
    pub fn caught_up(&mut self) {
        if let Files::Postgres(run) = self {
            run.caught_up();
        }
    }

    /// The next load starts from the stored database (see [`crate::postgres::PgFiles::reload`]).
    pub fn reload(&mut self) {
        if let Files::Postgres(run) = self {
            run.reload();
        }
    }

    /// Whether a commit went through since [`Files::take_committed`] last asked.
    pub fn committed(&self) -> bool {
        match self {
            Files::Directory(files) => files.committed,
            Files::Postgres(run) => run.committed(),
        }
    }

    /// Whether a commit went through since the last time this was asked (which forgets it): a
    /// call that fails after its commit has still stored its operation.
    pub fn take_committed(&mut self) -> bool {
        match self {
            Files::Directory(files) => std::mem::take(&mut files.committed),
            Files::Postgres(run) => run.take_committed(),
        }
    }

    /// The message when a PostgreSQL statement of this operation ran out of the time budget
    /// (nothing was saved); a directory has none.
    pub fn timed_out(&self) -> Option<&str> {
        match self {
            Files::Directory(_) => None,
            Files::Postgres(run) => run.timed_out(),
        }
    }

    /// The server's message when PostgreSQL aborted this operation for a deadlock or a
    /// serialization failure (run it again from the start); a directory never does.
    pub fn transient_failure(&self) -> Option<&str> {
        match self {
            Files::Directory(_) => None,
            Files::Postgres(run) => run.transient_failure(),
        }
    }
}

/// What an instance may do with a database directory.
#[derive(Clone, Debug, Default)]
pub struct DirectoryFiles {
    /// The resolved directory; `None`: no directory (reads find nothing).
    dir: Option<PathBuf>,
    /// The directory as the user named it, for messages.
    shown: PathBuf,
    /// A writer holds the directory's lock; a reader may not commit.
    writable: bool,
    /// A commit went through since [`Files::take_committed`] last asked.
    committed: bool,
}

impl DirectoryFiles {
    fn read(&self, name: &str) -> Result<Option<Vec<u8>>, String> {
        let Some(dir) = &self.dir else { return Ok(None) };
        let mut file = match open_regular(&dir.join(name), OpenOptions::new().read(true)) {
            Ok(file) => file,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.failed("read", name, &e)),
        };
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|e| self.failed("read", name, &e))?;
        Ok(Some(bytes))
    }

    /// `database.json` replaced atomically, then the events appended to the history. An append
    /// that fails (a full disk) puts everything back — the history cut to its length before,
    /// the previous `database.json` (kept as a hard link until then) renamed back — so a failed
    /// commit stores nothing; where that cannot be done the message says the operation may have
    /// been stored.
    fn commit(&self, database: &[u8], events: &[u8]) -> Result<(), String> {
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

impl Host for crate::State {
    fn read_database(&mut self) -> Result<Option<Vec<u8>>, String> {
        self.files.read_database()
    }

    fn read_history(&mut self) -> Result<Option<Vec<u8>>, String> {
        match &mut self.files {
            Files::Directory(files) => files.read(HISTORY_FILE),
            Files::Postgres(run) => run.read_history(),
        }
    }

    fn read_pending(&mut self) -> Result<Vec<u8>, String> {
        match &mut self.files {
            Files::Directory(_) => Ok(Vec::new()),
            Files::Postgres(run) => run.read_pending(),
        }
    }

    fn database_due(&mut self, events_bytes: u64) -> bool {
        match &mut self.files {
            Files::Directory(_) => true,
            Files::Postgres(run) => run.database_due(events_bytes),
        }
    }

    fn commit(&mut self, database: Option<Vec<u8>>, events: Vec<u8>) -> Result<(), String> {
        self.files.commit(database.as_deref(), &events)
    }
}
