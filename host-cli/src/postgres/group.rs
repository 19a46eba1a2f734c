//! Group commit, for `evodb serve`: the operations that queued while one ran are answered in one
//! transaction, in the order they arrived, and committed once. Each runs at a savepoint of its
//! own, so one that fails (a refused add, a statement that failed) is undone alone and the
//! others stand; the run's lock is taken once, by the first. A run's writers on other machines
//! wait for the whole group, and then catch up on its events as on any other commit: the events
//! are the same ones, one per operation, so a replay cannot tell a group from single commits.

use postgres::Client;

use super::{PgRun, Stored, describe, uncertain_commit};

/// How an operation's transaction stands to a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grouped {
    /// Its own transaction, committed by its save.
    Alone,
    /// The first of a group: begins the group's transaction and takes the run's lock.
    Opens,
    /// A later one: the group's transaction is open on the connection.
    Joins,
}

/// Where the run stands after a grouped operation, for the next one of its group: the group
/// holds the run's lock, so no one else changed it, and the next one need not read it again.
pub struct Carried(pub(super) Stored);

/// Where each grouped operation begins.
pub(super) const SAVEPOINT: &str = "SAVEPOINT operation";

impl Grouped {
    /// What undoes an operation that did not save: its own transaction, or (in a group) what it
    /// wrote since its savepoint, the group's transaction going on.
    pub(super) fn undo(self) -> &'static str {
        match self {
            Grouped::Alone => "ROLLBACK",
            Grouped::Opens | Grouped::Joins => "ROLLBACK TO SAVEPOINT operation; RELEASE SAVEPOINT operation",
        }
    }
}

/// Commits the group's transaction on `client`. `Err` holds the message for every operation of
/// the group: not saved (the transaction had failed), or perhaps saved (the commit's answer was
/// lost with the connection), when the caller is told to run the command again, which an add
/// carrying `--id` survives.
pub fn commit_group(client: &mut Client, run: &PgRun) -> Result<(), String> {
    // A transaction that failed commits as a rollback, without an error: this says so first.
    if let Err(e) = client.batch_execute("SELECT 1") {
        return Err(run.url.redact(&format!(
            "nothing was saved to {}: the transaction it was answered in failed ({}); run the same command again",
            run.shown(),
            describe(&e)
        )));
    }
    match client.batch_execute("COMMIT") {
        Ok(()) => Ok(()),
        // The server refused the commit (a deferred check, say): it rolled the transaction back.
        Err(e) if e.as_db_error().is_some() => Err(run.url.redact(&format!(
            "nothing was saved to {}: PostgreSQL refused to commit it ({}); run the same command again",
            run.shown(),
            describe(&e)
        ))),
        Err(e) => Err(uncertain_commit(run, &e)),
    }
}
