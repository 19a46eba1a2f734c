//! A run stored in PostgreSQL, behind the same `files` import a directory sits behind: the
//! component still reads one `database.json` and commits it with its events, and never sees the
//! connection or its credentials. docs/postgres.md gives the design and why.
//!
//! One transaction per operation. A writer takes a transaction-scoped advisory lock on its run
//! first, so writers on any number of machines queue on the run and none loses an add; its
//! commit appends the events and, when the snapshot is due, stores the new database, then
//! commits. Between snapshots the load re-runs the events after the snapshot, so an operation
//! does not write the whole population. A reader reads in one `REPEATABLE READ` snapshot and
//! takes no lock.

mod connection;
mod failure;
mod fleet;
mod group;
mod location;
mod schema;
mod url;

use std::time::{Duration, Instant};

use postgres::Client;
use postgres::types::Type;

use std::any::Any;

use crate::error::HostError;
use crate::storage::{Files, FilesError, History, Lineage, Position};
pub use failure::{RETRIES, backoff, retry_warning};
pub use fleet::{RunSummary, RunsError, closest_name, delete_run, list_runs, rename_run};
pub use group::{Carried, Grouped, commit_group};

use connection::connect;
use failure::{describe, is_timeout, is_transient, out_of_time, sql_failure, timed_out_failure, uncertain_commit};
pub use location::{Form, form, redact_passwords, shown_location};
pub use url::{PgUrl, name_sessions_after};

/// A run: where it is stored and its name.
#[derive(Clone, Debug)]
pub struct PgRun {
    pub url: PgUrl,
    pub name: String,
}

impl PgRun {
    /// Checks the name: 1 to 200 characters, none of them control characters.
    pub fn new(url: PgUrl, name: &str) -> Result<PgRun, String> {
        if name.is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
            return Err(format!(
                "--run `{}` is not a run name; pass 1 to 200 printable characters, e.g. --run exp-1",
                name.escape_debug()
            ));
        }
        Ok(PgRun { url, name: name.to_string() })
    }

    /// `postgres://user@host:port/dbname run NAME`, for messages.
    pub fn shown(&self) -> String {
        format!("{} run `{}`", self.url.shown(), self.name)
    }

    /// What names this run apart from any other, whatever the password (see [`PgUrl::identity`]).
    pub fn identity(&self) -> String {
        format!("{}\n{}", self.url.identity(), self.name)
    }
}

/// An open operation on a run: the connection with its transaction begun, and what was stored
/// when it began.
pub struct PgFiles {
    client: Client,
    run: PgRun,
    writable: bool,
    /// What is stored; `None` when the run does not exist yet.
    stored: Option<Stored>,
    /// The size of the events after the snapshot, once read.
    pending_bytes: Option<u64>,
    /// The server's message when it aborted this transaction for a deadlock or a serialization
    /// failure: the operation may be run again from the start.
    transient_failure: Option<String>,
    /// A warm engine's position (`evodb serve`): its database reflects the events up to this
    /// sequence number, so `read_pending` reads those after it and the snapshot is not read.
    resumed_at: Option<i64>,
    /// The size of the events after the snapshot up to the warm engine's position, when its
    /// operation before knew it (and the snapshot is the same): `read_pending` adds the events
    /// it reads to it, and no statement sums them.
    warm_pending: Option<u64>,
    /// The operation's transaction is open (not committed yet).
    in_transaction: bool,
    /// When the operation's time budget runs out: every statement (a wait for a lock included)
    /// is bounded by what is left of it, and no commit starts after it. `None`: no bound.
    deadline: Option<Deadline>,
    /// The message when a statement ran into that bound (the command exits 4, nothing saved).
    timed_out: Option<String>,
    /// This operation's commit went through (whatever happens to the call after it); in a
    /// group, its writes are in the group's transaction.
    committed: bool,
    /// Whether the operation has a transaction of its own or is one of `evodb serve`'s group.
    grouped: Grouped,
    /// This operation stored a snapshot inside a group: the space of the one it replaced is
    /// reclaimed once the group has committed (`VACUUM` cannot run inside a transaction).
    reclaim_due: bool,
}

/// An operation's time budget: when it ends, and how long it was (for messages).
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    pub at: Instant,
    pub budget: Duration,
}

impl Deadline {
    /// `budget` from now.
    pub fn after(budget: Duration) -> Deadline {
        Deadline { at: Instant::now() + budget, budget }
    }

    /// What is left, in whole milliseconds (0: spent).
    fn left_ms(self) -> u64 {
        u64::try_from(self.at.saturating_duration_since(Instant::now()).as_millis()).unwrap_or(u64::MAX)
    }
}

impl std::fmt::Debug for PgFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PgFiles({}, writable: {})", self.run.shown(), self.writable)
    }
}

/// A run's row: its snapshot of `database.json` (read only when a load needs it), its event
/// count, how many of those events the snapshot reflects, and what identifies its history.
struct Stored {
    database: Option<Vec<u8>>,
    snapshot_len: u64,
    seq: i64,
    snapshot_seq: i64,
    lineage: Lineage,
    /// The schema's version as this operation found it.
    schema_version: i32,
}

/// A snapshot is stored again once the events after it reach this fraction of its size: a load
/// then re-runs at most a sixteenth of the population's bytes in events, and a writer stores the
/// whole population about once every `size / 16` bytes of events instead of at every operation.
const SNAPSHOT_FRACTION: u64 = 16;

/// The advisory-lock class of evodb's run locks (the other key is the run name's hash).
const RUN_LOCK_CLASS: i32 = 0x6576_6f64; // "evod"

impl PgFiles {
    /// Connects, creates or migrates the schema when needed, begins the operation's transaction
    /// and, for a writer, waits for the run's lock.
    pub fn open(run: &PgRun, writable: bool) -> Result<PgFiles, HostError> {
        PgFiles::begin(PgFiles::connect(run)?, run, writable, None, None, Grouped::Alone, None)
    }

    /// [`PgFiles::open`] within a time budget, which starts once connected (connecting is bounded
    /// by the URL's connect timeout): every statement of the operation, a wait for the run's lock
    /// included, ends within it or fails with exit 4, nothing saved ([`PgFiles::deadline`]).
    pub fn open_within(run: &PgRun, writable: bool, budget: Duration) -> Result<PgFiles, HostError> {
        let client = PgFiles::connect(run)?;
        PgFiles::begin(client, run, writable, None, Some(Deadline::after(budget)), Grouped::Alone, None)
    }

    /// [`PgFiles::open`] for an operation whose budget ends at `deadline` (one run again after a
    /// deadlock, say).
    pub fn open_until(run: &PgRun, writable: bool, deadline: Deadline) -> Result<PgFiles, HostError> {
        PgFiles::begin(PgFiles::connect(run)?, run, writable, None, Some(deadline), Grouped::Alone, None)
    }

    /// When this operation's time budget ends.
    pub fn deadline(&self) -> Option<Deadline> {
        self.deadline
    }

    /// A connection to the run's server, its schema brought up to date.
    pub fn connect(run: &PgRun) -> Result<Client, HostError> {
        let mut client = connect(&run.url)?;
        schema::ensure(&mut client, &run.url)?;
        Ok(client)
    }

    /// [`PgFiles::open`] on a connection kept from an earlier operation, as one of a group or
    /// alone (`grouped`), for an engine whose database stands at `warm` (`None`: none is
    /// loaded): when the run's lineage is unchanged and the events after `warm` are at most
    /// twice what a load would re-run, the snapshot is not read, and `read_pending` gives the
    /// events after `warm` ([`PgFiles::resumes`]).
    /// Fails when the connection does (the server restarted: connect again) or when the schema
    /// changed under it (a newer evodb migrated it).
    pub fn resume(
        client: Client,
        run: &PgRun,
        writable: bool,
        warm: Option<Position>,
        deadline: Option<Deadline>,
        grouped: Grouped,
        carried: Option<Carried>,
    ) -> Result<PgFiles, HostError> {
        let carried = carried.filter(|_| grouped == Grouped::Joins);
        PgFiles::begin(client, run, writable, warm, deadline, grouped, carried)
    }

    fn begin(
        mut client: Client,
        run: &PgRun,
        writable: bool,
        warm: Option<Position>,
        deadline: Option<Deadline>,
        grouped: Grouped,
        mut carried: Option<Carried>,
    ) -> Result<PgFiles, HostError> {
        let mut attempt = 0;
        let mut stored = loop {
            if let Some(Carried(stored)) = carried.take() {
                client.batch_execute(group::SAVEPOINT).map_err(|e| sql_failure(&run.url, "begin the operation", &e))?;
                break Some(stored);
            }
            let left = match deadline.map(Deadline::left_ms) {
                Some(0) => return Err(HostError::Deadline(out_of_time(run, deadline, "begin the operation"))),
                left => left,
            };
            match begin_operation(&mut client, &run.name, writable, warm.is_none(), left, grouped) {
                Ok(stored) => break stored,
                Err(e) if is_transient(&e) && attempt < RETRIES => {
                    attempt += 1;
                    let _ = client.batch_execute(grouped.undo());
                    eprintln!("{}", run.url.redact(&retry_warning(&describe(&e), attempt)));
                    std::thread::sleep(backoff(attempt));
                }
                Err(e) if is_timeout(&e) => {
                    let action = if writable { "take the run's lock (another session holds it)" } else { "read" };
                    return Err(HostError::Deadline(timed_out_failure(run, deadline, action, &e)));
                }
                Err(e) => return Err(sql_failure(&run.url, "begin the operation", &e)),
            }
        };
        if let Some(version) = stored.as_ref().map(|stored| stored.schema_version)
            && version != schema::VERSION
        {
            return Err(HostError::Io(format!(
                "the evodb tables at {} are now schema version {version}, and this evodb writes {}; run the \
                 command again (an evodb serve: restart it, upgraded if the schema is newer)",
                run.url.shown(),
                schema::VERSION
            )));
        }
        let resumed_at = match (warm, &stored) {
            (Some(warm), Some(now)) if warm.lineage == now.lineage && warm.seq <= now.seq => {
                // Behind a snapshot stored since, the events to re-run may be many (a server
                // left idle while others wrote): beyond twice what a load re-runs, it loads.
                let behind = match warm.seq >= now.snapshot_seq {
                    true => Some(0),
                    false => events_bytes_after(&mut client, &run.name, warm.seq).ok(),
                };
                behind.filter(|&bytes| bytes <= 2 * now.snapshot_len / SNAPSHOT_FRACTION).map(|_| warm.seq)
            }
            _ => None,
        };
        let warm_pending = match (resumed_at, warm.and_then(|warm| warm.pending), &stored) {
            (Some(_), Some((snapshot_seq, bytes)), Some(now)) if snapshot_seq == now.snapshot_seq => Some(bytes),
            _ => None,
        };
        if let (None, Some(stored @ Stored { database: None, .. })) = (resumed_at, stored.as_mut()) {
            let row = client.query_typed_one(SELECT_DATABASE, &[(&run.name, Type::TEXT)]);
            let row = row.map_err(|e| match is_timeout(&e) {
                true => HostError::Deadline(timed_out_failure(run, deadline, "read the database", &e)),
                false => sql_failure(&run.url, "read the database", &e),
            })?;
            stored.database = Some(row.get(0));
        }
        Ok(PgFiles {
            client,
            run: run.clone(),
            writable,
            stored,
            pending_bytes: None,
            transient_failure: None,
            resumed_at,
            warm_pending,
            in_transaction: true,
            deadline,
            timed_out: None,
            committed: false,
            grouped,
            reclaim_due: false,
        })
    }

    /// The names of the runs stored beside this one, most recently changed first (at most
    /// `limit`): for the message that names a run that is not there.
    pub fn run_names(&mut self, limit: i64) -> Vec<String> {
        let rows = self
            .client
            .query_typed("SELECT name FROM evodb.runs ORDER BY updated DESC LIMIT $1", &[(&limit, Type::INT8)]);
        rows.map(|rows| rows.iter().map(|row| row.get(0)).collect()).unwrap_or_default()
    }

    /// Whether an engine kept warm may go on from where it stands (see [`PgFiles::resume`]);
    /// otherwise it loads the database as a fresh one does.
    pub fn resumes(&self) -> bool {
        self.resumed_at.is_some()
    }

    /// Ends the operation (a transaction not committed is rolled back; in a group, what the
    /// operation wrote) and hands back the connection for the next one; `None` when it no
    /// longer works.
    pub fn into_client(mut self) -> Option<Client> {
        if self.in_transaction && self.client.batch_execute(self.grouped.undo()).is_err() {
            return None;
        }
        (!self.client.is_closed()).then_some(self.client)
    }

    /// Where the run stands now, for the next operation of this one's group.
    pub fn carried(&self) -> Option<Carried> {
        let stored = self.stored.as_ref().filter(|_| self.grouped != Grouped::Alone)?;
        Some(Carried(Stored { database: None, ..*stored }))
    }

    /// Whether this operation, in a group, stored a snapshot whose predecessor's space is to be
    /// reclaimed once the group has committed ([`reclaim_snapshot_space`]).
    pub fn reclaim_due(&self) -> bool {
        self.reclaim_due
    }

    /// The events after `seq`, as history lines.
    fn read_events_after(&mut self, seq: i64) -> Result<Vec<u8>, String> {
        if self.stored.as_ref().is_none_or(|stored| stored.seq <= seq) {
            return Ok(Vec::new());
        }
        let rows = self
            .client
            .query_typed(
                "SELECT line FROM evodb.events WHERE run = $1 AND seq > $2 ORDER BY seq",
                &[(&self.run.name, Type::TEXT), (&seq, Type::INT8)],
            )
            .map_err(|e| self.failed("read the events after the snapshot of", &e))?;
        Ok(lines_text(&rows))
    }

    /// A failed statement's message; a deadlock or serialization failure is remembered as one
    /// that a retry may get past.
    fn failed(&mut self, action: &str, err: &postgres::Error) -> String {
        if is_transient(err) {
            self.transient_failure = Some(describe(err));
        }
        if is_timeout(err) {
            let message = timed_out_failure(&self.run, self.deadline, action, err);
            self.timed_out = Some(message.clone());
            return message;
        }
        sql_failure(&self.run.url, &format!("{action} {}", self.run.shown()), err).to_string()
    }
}

impl Files for PgFiles {
    /// The message when a statement of this operation ran out of its time budget (exit 4:
    /// nothing was saved).
    fn timed_out(&self) -> Option<&str> {
        self.timed_out.as_deref()
    }

    /// Whether this operation's commit went through. Reset by [`PgFiles::take_committed`].
    fn committed(&self) -> bool {
        self.committed
    }

    /// Whether a commit went through since the last call, which is forgotten.
    fn take_committed(&mut self) -> bool {
        std::mem::take(&mut self.committed)
    }

    /// Where the run stands now: after this operation's commit, or as it read the run.
    fn position(&self) -> Option<Position> {
        self.stored.as_ref().map(|stored| Position {
            seq: stored.seq,
            lineage: stored.lineage,
            pending: self.pending_bytes.map(|bytes| (stored.snapshot_seq, bytes)),
        })
    }

    /// The engine's database now reflects every event of the run: a later catch-up in this
    /// operation reads only what comes after.
    fn caught_up(&mut self) {
        self.resumed_at = self.stored.as_ref().map(|stored| stored.seq);
    }

    /// The engine loads the run afresh: `read_pending` gives the events after the snapshot.
    fn reload(&mut self) {
        self.resumed_at = None;
    }

    /// The server's message when it aborted this operation for a deadlock or a serialization
    /// failure, so that running it again from the start may succeed.
    fn transient_failure(&self) -> Option<&str> {
        self.transient_failure.as_deref()
    }

    fn holds_database(&self) -> bool {
        self.stored.is_some()
    }

    /// The stored snapshot of `database.json` (see [`PgFiles::is_current`]).
    fn read_database(&mut self) -> Result<Option<Vec<u8>>, FilesError> {
        let Some(stored) = &self.stored else { return Ok(None) };
        if let Some(database) = &stored.database {
            return Ok(Some(database.clone()));
        }
        let row = self.client.query_typed_one(SELECT_DATABASE, &[(&self.run.name, Type::TEXT)]);
        let database: Vec<u8> = row.map_err(|e| self.failed("read the database of", &e))?.get(0);
        if let Some(stored) = self.stored.as_mut() {
            stored.database = Some(database.clone());
        }
        Ok(Some(database))
    }

    /// Whether the snapshot reflects every event of the run.
    fn is_current(&self) -> bool {
        self.stored.as_ref().is_none_or(|stored| stored.seq == stored.snapshot_seq)
    }

    /// The events after the snapshot, as history lines, oldest first.
    fn read_pending(&mut self) -> Result<Vec<u8>, FilesError> {
        if let Some(warm) = self.resumed_at {
            let text = self.read_events_after(warm)?;
            if let Some(before) = self.warm_pending.take() {
                self.pending_bytes = Some(before + text.len() as u64);
            }
            return Ok(text);
        }
        let Some(stored) = self.stored.as_ref().filter(|_| !self.is_current()) else {
            self.pending_bytes = Some(0);
            return Ok(Vec::new());
        };
        let text = self.read_events_after(stored.snapshot_seq)?;
        self.pending_bytes = Some(text.len() as u64);
        Ok(text)
    }

    /// Whether a commit adding `events_bytes` of events must store the database too: when the
    /// run is new, or the events after the snapshot would reach `SNAPSHOT_FRACTION` of it.
    fn database_due(&mut self, events_bytes: u64) -> bool {
        let Some(stored) = self.stored.as_ref() else { return true };
        let (snapshot, snapshot_seq) = (stored.snapshot_len, stored.snapshot_seq);
        if self.pending_bytes.is_none() && self.is_current() {
            self.pending_bytes = Some(0);
        }
        if self.pending_bytes.is_none() {
            // A warm engine did not read the events after the snapshot: they are summed here.
            match events_bytes_after(&mut self.client, &self.run.name, snapshot_seq) {
                Ok(bytes) => self.pending_bytes = Some(bytes),
                Err(e) => {
                    // The transaction is aborted and the commit will fail; remembered, so that
                    // a deadlock or serialization failure is retried as one.
                    self.failed("size the events after the snapshot of", &e);
                    return true;
                }
            }
        }
        self.pending_bytes.unwrap_or(0) + events_bytes >= snapshot / SNAPSHOT_FRACTION
    }

    /// The run's events as `history.ndjson` text: one line per event, oldest first.
    fn read_history(&mut self) -> Result<Option<Vec<u8>>, FilesError> {
        if self.stored.is_none() {
            return Ok(None);
        }
        let rows = self
            .client
            .query_typed("SELECT line FROM evodb.events WHERE run = $1 ORDER BY seq", &[(&self.run.name, Type::TEXT)])
            .map_err(|e| self.failed("read the history of", &e))?;
        Ok(Some(lines_text(&rows)))
    }

    /// Appends the lines of `events`, stores `database` as the new snapshot when given, and
    /// commits the transaction. Without `database`, the run must exist.
    fn commit(&mut self, database: Option<&[u8]>, events: &[u8]) -> Result<(), FilesError> {
        if !self.writable {
            return Err(FilesError::Failed("this call opened the run for reading only; this is a bug in evodb".into()));
        }
        if database.is_none() && self.stored.is_none() {
            return Err(FilesError::Failed(
                "a new run's first commit stores its database; this is a bug in evodb".into(),
            ));
        }
        // No commit starts once the budget is spent; what is left of it bounds each statement.
        let left = match self.deadline.map(Deadline::left_ms) {
            Some(0) => {
                let message = out_of_time(&self.run, self.deadline, "save");
                self.timed_out = Some(message.clone());
                return Err(message.into());
            }
            left => left,
        };
        // A group's operation keeps the bounds its begin set: one round trip fewer per command.
        if let (Some(left), Grouped::Alone) = (left, self.grouped) {
            let set = self.client.execute_typed(
                "SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', $1, true)",
                &[(&format!("{left}ms"), Type::TEXT)],
            );
            set.map_err(|e| self.failed("save", &e))?;
        }
        let lines: Vec<&[u8]> = events.split(|&b| b == b'\n').filter(|line| !line.is_empty()).collect();
        let before = self.stored.as_ref().map_or(0, |stored| stored.seq);
        let after = before + lines.len() as i64;
        // A database its events do not explain moves the run to a new epoch: an engine kept warm
        // elsewhere must load it rather than catch up.
        let unexplained = database.is_some() && lines.is_empty();
        let stored = (|| {
            let row = match database {
                Some(database) => {
                    let row = self.client.query_typed_one(
                        &format!(
                            "INSERT INTO evodb.runs (name, seq, snapshot_seq) VALUES ($1, $2, $2)
                             ON CONFLICT (name) DO UPDATE
                             SET seq = excluded.seq, snapshot_seq = excluded.snapshot_seq,
                                 epoch = runs.epoch + $3, updated = now()
                             RETURNING {LINEAGE}"
                        ),
                        &[(&self.run.name, Type::TEXT), (&after, Type::INT8), (&i64::from(unexplained), Type::INT8)],
                    )?;
                    self.client.execute_typed(
                        "INSERT INTO evodb.snapshots (run, database) VALUES ($1, $2)
                         ON CONFLICT (run) DO UPDATE SET database = excluded.database",
                        &[(&self.run.name, Type::TEXT), (&database, Type::BYTEA)],
                    )?;
                    row
                }
                // The events and the run's new position in one statement: one round trip.
                None => {
                    return self
                        .client
                        .query_typed_one(
                            &format!(
                                "WITH appended AS (
                                   INSERT INTO evodb.events (run, seq, line)
                                   SELECT $1, $3 + n, line FROM unnest($4::bytea[]) WITH ORDINALITY AS t(line, n))
                                 UPDATE evodb.runs SET seq = $2, updated = now() WHERE name = $1 RETURNING {LINEAGE}"
                            ),
                            &[
                                (&self.run.name, Type::TEXT),
                                (&after, Type::INT8),
                                (&before, Type::INT8),
                                (&lines, Type::BYTEA_ARRAY),
                            ],
                        )
                        .map(|row| Lineage { born: row.get(0), epoch: row.get(1) });
                }
            };
            if !lines.is_empty() {
                self.client.execute_typed(
                    "INSERT INTO evodb.events (run, seq, line)
                     SELECT $1, $2 + n, line FROM unnest($3::bytea[]) WITH ORDINALITY AS t(line, n)",
                    &[(&self.run.name, Type::TEXT), (&before, Type::INT8), (&lines, Type::BYTEA_ARRAY)],
                )?;
            }
            Ok(Lineage { born: row.get(0), epoch: row.get(1) })
        })();
        let lineage = stored.map_err(|e| self.failed("save", &e))?;
        self.in_transaction = false;
        if self.resumed_at.is_some() {
            self.resumed_at = Some(after);
        }
        match self.grouped {
            Grouped::Alone => {
                self.client.batch_execute("COMMIT").map_err(|e| uncertain_commit(&self.run, &e))?;
                if database.is_some() {
                    reclaim_snapshot_space(&mut self.client);
                }
            }
            // The group's transaction keeps the writes; the server commits them all at once.
            // The operation's savepoint stays (releasing it would cost a round trip and undo
            // nothing): the next one's savepoint, of the same name, is the one rolled back to.
            Grouped::Opens | Grouped::Joins => self.reclaim_due |= database.is_some(),
        }
        self.committed = true;
        match (database, self.stored.as_mut()) {
            (Some(database), _) => {
                self.stored = Some(Stored {
                    database: Some(database.to_vec()),
                    snapshot_len: database.len() as u64,
                    seq: after,
                    snapshot_seq: after,
                    lineage,
                    schema_version: schema::VERSION,
                });
                self.pending_bytes = Some(0);
            }
            (None, Some(stored)) => {
                stored.seq = after;
                stored.lineage = lineage;
                self.pending_bytes = self.pending_bytes.map(|bytes| bytes + events.len() as u64);
            }
            (None, None) => unreachable!("refused above"),
        }
        Ok(())
    }

    fn read_history_from(&mut self, from: u64) -> Result<Option<History>, FilesError> {
        let Some(all) = self.read_history()? else { return Ok(None) };
        let len = all.len() as u64;
        let bytes = usize::try_from(from).ok().and_then(|from| all.get(from..)).map(<[u8]>::to_vec).unwrap_or_default();
        Ok(Some(History { len, bytes }))
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// The transaction of one operation, begun: for a writer, the run's lock taken. Then the run's
/// row (with its snapshot when `with_database`), `None` when the run does not exist yet.
fn begin_operation(
    client: &mut Client,
    run: &str,
    writable: bool,
    with_database: bool,
    left_ms: Option<u64>,
    grouped: Grouped,
) -> Result<Option<Stored>, postgres::Error> {
    let begin = match grouped {
        Grouped::Alone if writable => "BEGIN",
        Grouped::Alone => "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
        // A group's operations, readers too, run in its transaction and under its lock: each
        // sees what those before it wrote, and none waits for the lock again.
        Grouped::Opens => "BEGIN",
        Grouped::Joins => group::SAVEPOINT,
    };
    match left_ms {
        // For this transaction only: a connection kept by `evodb serve` carries no leftover.
        Some(ms) => client.batch_execute(&format!(
            "{begin}; SET LOCAL lock_timeout = '{ms}ms'; SET LOCAL statement_timeout = '{ms}ms'"
        ))?,
        None => client.batch_execute(begin)?,
    }
    if (writable && grouped == Grouped::Alone) || grouped == Grouped::Opens {
        lock_run(client, run)?;
    }
    if grouped == Grouped::Opens {
        client.batch_execute(group::SAVEPOINT)?;
    }
    let row = client.query_typed_opt(
        &format!(
            "SELECT {LINEAGE}, r.seq, r.snapshot_seq, octet_length(s.database)::bigint,
                    CASE WHEN $2 THEN s.database END,
                    (SELECT value FROM evodb.meta WHERE key = 'schema_version')
             FROM evodb.runs r JOIN evodb.snapshots s ON s.run = r.name WHERE r.name = $1"
        ),
        &[(&run, Type::TEXT), (&with_database, Type::BOOL)],
    )?;
    Ok(row.map(|row| Stored {
        database: row.get(5),
        schema_version: row.get::<_, Option<String>>(6).and_then(|v| v.parse().ok()).unwrap_or(0),
        lineage: Lineage { born: row.get(0), epoch: row.get(1) },
        seq: row.get(2),
        snapshot_seq: row.get(3),
        snapshot_len: row.get::<_, i64>(4).unsigned_abs(),
    }))
}

/// The size of a run's events after `seq`, as history lines.
fn events_bytes_after(client: &mut Client, run: &str, seq: i64) -> Result<u64, postgres::Error> {
    let row = client.query_typed_one(
        "SELECT coalesce(sum(octet_length(line) + 1), 0)::bigint FROM evodb.events WHERE run = $1 AND seq > $2",
        &[(&run, Type::TEXT), (&seq, Type::INT8)],
    )?;
    Ok(row.get::<_, i64>(0).unsigned_abs())
}

/// Takes `run`'s lock for the rest of the transaction: writers of one run queue on it.
fn lock_run(client: &mut impl postgres::GenericClient, run: &str) -> Result<(), postgres::Error> {
    client.execute_typed(
        "SELECT pg_advisory_xact_lock($1, hashtext($2))",
        &[(&RUN_LOCK_CLASS, Type::INT4), (&run, Type::TEXT)],
    )?;
    Ok(())
}

/// A run's snapshot.
const SELECT_DATABASE: &str = "SELECT database FROM evodb.snapshots WHERE run = $1";

/// After a commit that stored a snapshot: the snapshot it replaced is dead space, which a
/// `VACUUM` makes reusable at once, so the next snapshot is written over it instead of after it
/// and the table stays near one snapshot per run (rather than growing by a whole snapshot per
/// rewrite until autovacuum comes by). Best effort: `SKIP_LOCKED` never waits for another vacuum
/// of the table, and a role that may not vacuum it (not its owner) leaves it to autovacuum, which
/// the table asks to come early (schema version 5).
pub fn reclaim_snapshot_space(client: &mut Client) {
    let _ = client.batch_execute("VACUUM (SKIP_LOCKED) evodb.snapshots");
}

/// A run's lineage columns, as [`Lineage`] reads them.
const LINEAGE: &str = "(extract(epoch FROM created) * 1000000)::bigint, epoch";

/// Rows of one `line` column as history text: each line and its newline.
fn lines_text(rows: &[postgres::Row]) -> Vec<u8> {
    let mut text = Vec::new();
    for row in rows {
        text.extend_from_slice(row.get::<_, &[u8]>(0));
        text.push(b'\n');
    }
    text
}
