//! evodb's tables, in their own schema `evodb`, created on first use and migrated forward.
//! `evodb.meta` holds the schema version; each migration takes the version one step up, under an
//! advisory lock so that clients starting together migrate once.

use postgres::Client;
use postgres::types::Type;

use super::{PgUrl, sql_failure};
use crate::error::HostError;

/// Migration `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: a run's current database.json and its events, one row per history.ndjson line.
    // `snapshot_seq` is the event count `database` reflects.
    "CREATE TABLE evodb.runs (
         name text PRIMARY KEY,
         database bytea NOT NULL,
         seq bigint NOT NULL,
         snapshot_seq bigint NOT NULL,
         created timestamptz NOT NULL DEFAULT now(),
         updated timestamptz NOT NULL DEFAULT now()
     );
     CREATE TABLE evodb.events (
         run text NOT NULL REFERENCES evodb.runs (name) ON DELETE CASCADE,
         seq bigint NOT NULL,
         line bytea NOT NULL,
         PRIMARY KEY (run, seq)
     );",
    // 2: `database` may lag `seq`: a load re-runs the events after `snapshot_seq`. No table
    // changes, but an evodb of version 1 would read a lagging snapshot as the current database,
    // so the version goes up and such a binary refuses the schema ("upgrade evodb"). No DDL
    // either: a role with data rights only (not the tables' owner) can take this step.
    "SELECT 1;",
    // 3: `epoch` goes up when a database is stored that its events do not explain (a commit
    // without events). An engine kept warm between operations (`evodb serve`) catches up from
    // the events alone while the epoch it loaded at stands, and loads the snapshot otherwise.
    "ALTER TABLE evodb.runs ADD COLUMN epoch bigint NOT NULL DEFAULT 0;",
    // 4: a run's events follow it when it is renamed (`evodb runs --rename`, or an UPDATE of
    // its name): the foreign key cascades updates as it cascades deletes.
    "ALTER TABLE evodb.events DROP CONSTRAINT events_run_fkey,
         ADD CONSTRAINT events_run_fkey FOREIGN KEY (run) REFERENCES evodb.runs (name)
             ON DELETE CASCADE ON UPDATE CASCADE;",
    // 5: snapshots move to a table of their own. Rewriting a snapshot leaves the one it replaces
    // as dead TOAST space; in `evodb.runs` (whose row every commit updates too) that space grew by
    // a whole snapshot per rewrite and plain VACUUM never gave it back. Here a writer vacuums the
    // table after storing a snapshot, and autovacuum is asked to come early, so the space is
    // reused. The column is dropped from `evodb.runs`; `VACUUM FULL evodb.runs` once returns its
    // old space.
    "CREATE TABLE evodb.snapshots (
         run text PRIMARY KEY REFERENCES evodb.runs (name) ON DELETE CASCADE ON UPDATE CASCADE,
         database bytea NOT NULL
     ) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 50,
             toast.autovacuum_vacuum_scale_factor = 0, toast.autovacuum_vacuum_threshold = 1000);
     INSERT INTO evodb.snapshots (run, database) SELECT name, database FROM evodb.runs;
     ALTER TABLE evodb.runs DROP COLUMN database;",
];

/// The version this evodb writes.
pub const VERSION: i32 = MIGRATIONS.len() as i32;

const MIGRATION_LOCK: i64 = 0x6576_6f64_6d69_6772; // "evodmigr"

/// Brings the schema to [`VERSION`]; refuses a newer one (written by a newer evodb).
pub fn ensure(client: &mut Client, url: &PgUrl) -> Result<(), HostError> {
    let failed = |e: postgres::Error| sql_failure(url, "set up evodb's tables", &e);
    let current = installed(client).map_err(failed)?;
    if current == VERSION {
        return Ok(());
    }
    check_not_newer(current, url)?;
    let mut tx = client.transaction().map_err(failed)?;
    tx.execute_typed("SELECT pg_advisory_xact_lock($1)", &[(&MIGRATION_LOCK, Type::INT8)]).map_err(failed)?;
    tx.batch_execute(
        "CREATE SCHEMA IF NOT EXISTS evodb;
         CREATE TABLE IF NOT EXISTS evodb.meta (key text PRIMARY KEY, value text NOT NULL);",
    )
    .map_err(failed)?;
    // Read again under the lock: another client may have migrated meanwhile.
    let current = version(&mut tx).map_err(failed)?;
    check_not_newer(current, url)?;
    for migration in &MIGRATIONS[current as usize..] {
        tx.batch_execute(migration).map_err(failed)?;
    }
    tx.execute_typed(
        "INSERT INTO evodb.meta (key, value) VALUES ('schema_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        &[(&VERSION.to_string(), Type::TEXT)],
    )
    .map_err(failed)?;
    tx.commit().map_err(failed)
}

fn check_not_newer(current: i32, url: &PgUrl) -> Result<(), HostError> {
    if current > VERSION {
        return Err(HostError::Io(format!(
            "the evodb tables at {} are schema version {current}, newer than this evodb knows ({VERSION}); \
             upgrade evodb",
            url.shown()
        )));
    }
    Ok(())
}

/// 0 when evodb's tables are not there yet.
fn installed(client: &mut Client) -> Result<i32, postgres::Error> {
    let exists: bool = client.query_typed_one("SELECT to_regclass('evodb.meta') IS NOT NULL", &[])?.get(0);
    if !exists {
        return Ok(0);
    }
    version(client)
}

fn version(client: &mut impl postgres::GenericClient) -> Result<i32, postgres::Error> {
    let row = client.query_typed_opt("SELECT value FROM evodb.meta WHERE key = 'schema_version'", &[])?;
    Ok(row.and_then(|row| row.get::<_, String>(0).parse().ok()).unwrap_or(0))
}
