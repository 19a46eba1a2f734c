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

mod schema;
mod url;

use std::sync::Arc;
use std::time::Duration;

use postgres::error::SqlState;
use postgres::{Client, NoTls};

use crate::error::HostError;
pub use url::PgUrl;

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
}

impl std::fmt::Debug for PgFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PgFiles({}, writable: {})", self.run.shown(), self.writable)
    }
}

/// A run's row: its snapshot of `database.json`, its event count and how many of those events
/// the snapshot reflects.
struct Stored {
    database: Vec<u8>,
    seq: i64,
    snapshot_seq: i64,
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
        let mut client = connect(&run.url)?;
        schema::ensure(&mut client, &run.url)?;
        let mut attempt = 0;
        let stored = loop {
            match begin_operation(&mut client, &run.name, writable) {
                Ok(stored) => break stored,
                Err(e) if is_transient(&e) && attempt < RETRIES => {
                    attempt += 1;
                    let _ = client.batch_execute("ROLLBACK");
                    eprintln!("{}", retry_warning(&describe(&e), attempt));
                    std::thread::sleep(backoff(attempt));
                }
                Err(e) => return Err(sql_failure(&run.url, "begin the operation", &e)),
            }
        };
        Ok(PgFiles { client, run: run.clone(), writable, stored, pending_bytes: None, transient_failure: None })
    }

    /// The server's message when it aborted this operation for a deadlock or a serialization
    /// failure, so that running it again from the start may succeed.
    pub fn transient_failure(&self) -> Option<&str> {
        self.transient_failure.as_deref()
    }

    pub fn holds_database(&self) -> bool {
        self.stored.is_some()
    }

    /// The stored snapshot of `database.json` (see [`PgFiles::is_current`]).
    pub fn read_database(&self) -> Option<Vec<u8>> {
        self.stored.as_ref().map(|stored| stored.database.clone())
    }

    /// Whether the snapshot reflects every event of the run.
    pub fn is_current(&self) -> bool {
        self.stored.as_ref().is_none_or(|stored| stored.seq == stored.snapshot_seq)
    }

    /// The events after the snapshot, as history lines, oldest first.
    pub fn read_pending(&mut self) -> Result<Vec<u8>, String> {
        let Some(stored) = self.stored.as_ref().filter(|_| !self.is_current()) else {
            self.pending_bytes = Some(0);
            return Ok(Vec::new());
        };
        let snapshot_seq = stored.snapshot_seq;
        let rows = self
            .client
            .query(
                "SELECT line FROM evodb.events WHERE run = $1 AND seq > $2 ORDER BY seq",
                &[&self.run.name, &snapshot_seq],
            )
            .map_err(|e| self.failed("read the events after the snapshot of", &e))?;
        let text = lines_text(&rows);
        self.pending_bytes = Some(text.len() as u64);
        Ok(text)
    }

    /// Whether a commit adding `events_bytes` of events must store the database too: when the
    /// run is new, or the events after the snapshot would reach `SNAPSHOT_FRACTION` of it.
    pub fn database_due(&mut self, events_bytes: u64) -> bool {
        let Some(snapshot) = self.stored.as_ref().map(|stored| stored.database.len() as u64) else { return true };
        if self.pending_bytes.is_none() && self.read_pending().is_err() {
            return true;
        }
        self.pending_bytes.unwrap_or(0) + events_bytes >= snapshot / SNAPSHOT_FRACTION
    }

    /// The run's events as `history.ndjson` text: one line per event, oldest first.
    pub fn read_history(&mut self) -> Result<Option<Vec<u8>>, String> {
        if self.stored.is_none() {
            return Ok(None);
        }
        let rows = self
            .client
            .query("SELECT line FROM evodb.events WHERE run = $1 ORDER BY seq", &[&self.run.name])
            .map_err(|e| self.failed("read the history of", &e))?;
        Ok(Some(lines_text(&rows)))
    }

    /// Appends the lines of `events`, stores `database` as the new snapshot when given, and
    /// commits the transaction. Without `database`, the run must exist.
    pub fn commit(&mut self, database: Option<&[u8]>, events: &[u8]) -> Result<(), String> {
        if !self.writable {
            return Err("this call opened the run for reading only; this is a bug in evodb".into());
        }
        if database.is_none() && self.stored.is_none() {
            return Err("a new run's first commit stores its database; this is a bug in evodb".into());
        }
        let lines: Vec<&[u8]> = events.split(|&b| b == b'\n').filter(|line| !line.is_empty()).collect();
        let before = self.stored.as_ref().map_or(0, |stored| stored.seq);
        let after = before + lines.len() as i64;
        let stored = (|| {
            match database {
                Some(database) => self.client.execute(
                    "INSERT INTO evodb.runs (name, database, seq, snapshot_seq) VALUES ($1, $2, $3, $3)
                     ON CONFLICT (name) DO UPDATE
                     SET database = excluded.database, seq = excluded.seq, snapshot_seq = excluded.snapshot_seq,
                         updated = now()",
                    &[&self.run.name, &database, &after],
                )?,
                None => self.client.execute(
                    "UPDATE evodb.runs SET seq = $2, updated = now() WHERE name = $1",
                    &[&self.run.name, &after],
                )?,
            };
            if !lines.is_empty() {
                self.client.execute(
                    "INSERT INTO evodb.events (run, seq, line)
                     SELECT $1, $2 + n, line FROM unnest($3::bytea[]) WITH ORDINALITY AS t(line, n)",
                    &[&self.run.name, &before, &lines],
                )?;
            }
            Ok(())
        })();
        stored.map_err(|e| self.failed("save", &e))?;
        self.client.batch_execute("COMMIT").map_err(|e| uncertain_commit(&self.run, &e))?;
        match (database, self.stored.as_mut()) {
            (Some(database), _) => {
                self.stored = Some(Stored { database: database.to_vec(), seq: after, snapshot_seq: after });
                self.pending_bytes = Some(0);
            }
            (None, Some(stored)) => {
                stored.seq = after;
                self.pending_bytes = self.pending_bytes.map(|bytes| bytes + events.len() as u64);
            }
            (None, None) => unreachable!("refused above"),
        }
        Ok(())
    }

    /// A failed statement's message; a deadlock or serialization failure is remembered as one
    /// that a retry may get past.
    fn failed(&mut self, action: &str, err: &postgres::Error) -> String {
        if is_transient(err) {
            self.transient_failure = Some(describe(err));
        }
        sql_failure(&self.run.url, &format!("{action} {}", self.run.shown()), err).to_string()
    }
}

/// The transaction of one operation, begun: for a writer, the run's lock taken. Then the run's
/// row, `None` when the run does not exist yet.
fn begin_operation(client: &mut Client, run: &str, writable: bool) -> Result<Option<Stored>, postgres::Error> {
    let begin = if writable { "BEGIN" } else { "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" };
    client.batch_execute(begin)?;
    if writable {
        client.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", &[&RUN_LOCK_CLASS, &run])?;
    }
    let row = client.query_opt("SELECT database, seq, snapshot_seq FROM evodb.runs WHERE name = $1", &[&run])?;
    Ok(row.map(|row| Stored { database: row.get(0), seq: row.get(1), snapshot_seq: row.get(2) }))
}

/// Rows of one `line` column as history text: each line and its newline.
fn lines_text(rows: &[postgres::Row]) -> Vec<u8> {
    let mut text = Vec::new();
    for row in rows {
        text.extend_from_slice(row.get::<_, &[u8]>(0));
        text.push(b'\n');
    }
    text
}

/// How many times an operation the server aborted for a deadlock or a serialization failure is
/// run again before the command gives up (exit 5).
pub const RETRIES: u32 = 5;

/// The wait before retry `attempt` (1, 2, …): 25 ms doubling each time, plus up to 15 ms taken
/// from the process id, so that clients that collided do not retry in step.
pub fn backoff(attempt: u32) -> Duration {
    Duration::from_millis((25 << attempt.min(6)) + u64::from(std::process::id() % 16))
}

/// `warning: …; running it again (retry N of RETRIES)`.
pub fn retry_warning(server_message: &str, attempt: u32) -> String {
    format!(
        "warning: PostgreSQL aborted the operation ({server_message}); running it again (retry {attempt} of {RETRIES})"
    )
}

/// A deadlock or a serialization failure: the server aborted the transaction, and the same
/// operation run again from the start may succeed.
fn is_transient(err: &postgres::Error) -> bool {
    err.code()
        .is_some_and(|code| *code == SqlState::T_R_DEADLOCK_DETECTED || *code == SqlState::T_R_SERIALIZATION_FAILURE)
}

fn connect(url: &PgUrl) -> Result<Client, HostError> {
    let connected = if url.wants_tls() { url.config.connect(tls(url)?) } else { url.config.connect(NoTls) };
    connected.map_err(|e| {
        HostError::Io(url.redact(&format!(
            "cannot connect to PostgreSQL at {} ({}); check that the server is running and reachable and the \
             URL's user, database and password (a slow network may need a longer --connectTimeout)",
            url.endpoint(),
            describe(&e)
        )))
    })
}

/// rustls, verifying the server against the web's roots and the URL's `sslrootcert`.
fn tls(url: &PgUrl) -> Result<tokio_postgres_rustls::MakeRustlsConnect, HostError> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(path) = &url.root_cert {
        let bad = |e: String| {
            HostError::Io(format!(
                "cannot read sslrootcert `{}` ({e}); pass a PEM file of CA certificates",
                path.display()
            ))
        };
        for cert in CertificateDer::pem_file_iter(path).map_err(|e| bad(e.to_string()))? {
            roots.add(cert.map_err(|e| bad(e.to_string()))?).map_err(|e| bad(e.to_string()))?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| HostError::Io(format!("cannot set up TLS: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

/// A failed statement: exit 5 (IO), naming what failed; the password never appears.
fn sql_failure(url: &PgUrl, action: &str, err: &postgres::Error) -> HostError {
    HostError::Io(url.redact(&format!(
        "cannot {action} on PostgreSQL at {} ({}); nothing was saved: run the command again",
        url.endpoint(),
        describe(err)
    )))
}

/// A `COMMIT` whose answer never came: the server may have applied it before the connection
/// broke, and only a retry can tell. A retried `add --id` is answered, not added twice.
fn uncertain_commit(run: &PgRun, err: &postgres::Error) -> String {
    run.url.redact(&format!(
        "cannot confirm that {} was saved on PostgreSQL at {} ({}); it may or may not have been: run the same \
         command again (an add that carries --id is then answered, not added twice)",
        run.shown(),
        run.url.endpoint(),
        describe(err)
    ))
}

/// The server's own message when it sent one, else the client's with its cause.
fn describe(err: &postgres::Error) -> String {
    if let Some(db) = err.as_db_error() {
        return format!("{}: {}", db.severity(), db.message());
    }
    let mut text = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}
