//! The storage seam: what a place that holds a run must do for the component's `files` import
//! and for the host's own readers and writers (`evodb view`, `evodb copy`). A directory
//! ([`crate::DirectoryFiles`]) and a PostgreSQL run ([`crate::postgres::PgFiles`]) each implement
//! [`Files`]; the host's `files` import (`impl files::Host for State`, in `runtime`) only
//! forwards to it, so a third store is one new module that implements this trait.
//!
//! The component sees two files, `database.json` and `history.ndjson`, and one atomic commit of
//! both. A store may keep the database as a snapshot that lags its events (PostgreSQL stores it
//! every `1/16` of its size in events); [`Files::is_current`] says so, and [`Files::read_pending`]
//! gives the events a load re-runs on it.

use std::any::Any;
use std::fmt::Debug;
use std::path::Path;

/// Where an instance's database lives, and what it may do there.
pub trait Files: Debug + Send + Any {
    /// The stored `database.json`, byte for byte (`None`: there is none).
    fn read_database(&mut self) -> Result<Option<Vec<u8>>, FilesError>;

    /// The history's bytes from byte `from` on, with its whole length (`None`: there is no
    /// history). `from` beyond the end gives no bytes; the caller compares it with the length.
    fn read_history_from(&mut self, from: u64) -> Result<Option<History>, FilesError>;

    /// Stores `database` and appends `events` (history lines), atomically: a failed commit
    /// stores nothing, or says that it cannot tell. Without `database` (a store that keeps
    /// snapshots only now and then, see [`Files::database_due`]), appends the events alone.
    fn commit(&mut self, database: Option<&[u8]>, events: &[u8]) -> Result<(), FilesError>;

    /// Whether a database is stored there (before this operation's commit).
    fn holds_database(&self) -> bool;

    /// Whether a commit went through since [`Files::take_committed`] last asked.
    fn committed(&self) -> bool;

    /// Whether a commit went through since the last time this was asked (which forgets it): a
    /// call that fails after its commit has still stored its operation.
    fn take_committed(&mut self) -> bool;

    /// The whole history (`None`: there is none).
    fn read_history(&mut self) -> Result<Option<Vec<u8>>, FilesError> {
        Ok(self.read_history_from(0)?.map(|history| history.bytes))
    }

    /// Whether the stored `database.json` reflects every stored event; otherwise a load re-runs
    /// [`Files::read_pending`] on it.
    fn is_current(&self) -> bool {
        true
    }

    /// The events the stored database does not reflect yet, as history lines, oldest first.
    fn read_pending(&mut self) -> Result<Vec<u8>, FilesError> {
        Ok(Vec::new())
    }

    /// Whether a commit adding `events_bytes` of events must store the database too.
    fn database_due(&mut self, _events_bytes: u64) -> bool {
        true
    }

    /// The message when a statement of this operation ran out of the time budget (nothing was
    /// saved; exit 4).
    fn timed_out(&self) -> Option<&str> {
        None
    }

    /// The message when the store aborted this operation for a reason that running it again from
    /// the start may get past (a deadlock, a serialization failure).
    fn transient_failure(&self) -> Option<&str> {
        None
    }

    /// Where the run stands after this operation, for an engine kept warm between operations
    /// (`evodb serve`); `None` for a store whose engines are never kept warm.
    fn position(&self) -> Option<Position> {
        None
    }

    /// The engine's database now reflects every stored event: a later catch-up in this operation
    /// reads only what comes after.
    fn caught_up(&mut self) {}

    /// The next load starts from the stored database.
    fn reload(&mut self) {}

    /// After a failed call: removes what the call left behind (a temp file, a directory it
    /// created), so a refused call leaves the store as it found it.
    fn clean_up_after_failure(&self) {}

    /// The directory the store is, for what only a directory has (its history file's torn lines).
    fn directory(&self) -> Option<&Path> {
        None
    }

    /// The store as [`Any`], for the one owner that knows its concrete type (the warm engine
    /// takes its PostgreSQL connection back).
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

/// What [`Files::read_history_from`] read.
#[derive(Debug, Default)]
pub struct History {
    /// The history's length in bytes.
    pub len: u64,
    /// The bytes from the offset asked for to the end.
    pub bytes: Vec<u8>,
}

/// Why a store could not do what it was asked; its message names the problem and the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilesError {
    /// A file of the run is something else than a regular file (a symlink, a FIFO…): it is never
    /// read through.
    #[error("{0}")]
    Refused(String),
    /// Reading or writing failed.
    #[error("{0}")]
    Failed(String),
}

impl From<String> for FilesError {
    fn from(message: String) -> FilesError {
        FilesError::Failed(message)
    }
}

impl From<FilesError> for String {
    fn from(err: FilesError) -> String {
        err.to_string()
    }
}

/// Where an engine's database stands in its run: a later operation brings it up to date by
/// re-running the events after `seq`, as long as the run's lineage is the same (see
/// [`crate::postgres`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) seq: i64,
    pub(crate) lineage: Lineage,
    /// The size of the events from the snapshot at `.0` up to `seq`, when known: the next
    /// operation adds what it catches up on, instead of summing them again in the store.
    pub(crate) pending: Option<(i64, u64)>,
}

/// What must not change under an engine kept warm: the run itself (its creation, in
/// microseconds) and its epoch (bumped when a database is stored that its events do not explain).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lineage {
    pub(crate) born: i64,
    pub(crate) epoch: i64,
}

/// No database at all: reads find nothing, commits are refused. What an instance holds between
/// two owners.
#[derive(Debug, Default)]
pub struct NoFiles;

impl Files for NoFiles {
    fn read_database(&mut self) -> Result<Option<Vec<u8>>, FilesError> {
        Ok(None)
    }

    fn read_history_from(&mut self, _from: u64) -> Result<Option<History>, FilesError> {
        Ok(None)
    }

    fn commit(&mut self, _database: Option<&[u8]>, _events: &[u8]) -> Result<(), FilesError> {
        Err(FilesError::Failed("this instance was granted no database; this is a bug in evodb".into()))
    }

    fn holds_database(&self) -> bool {
        false
    }

    fn committed(&self) -> bool {
        false
    }

    fn take_committed(&mut self) -> bool {
        false
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}
