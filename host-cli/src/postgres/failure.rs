//! What a failed statement, a spent time budget or an aborted transaction tells the caller: the
//! messages (never with the password) and whether running the operation again may succeed.

use std::time::Duration;

use postgres::error::SqlState;

use super::{Deadline, PgRun, PgUrl};
use crate::error::HostError;

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
pub(super) fn is_transient(err: &postgres::Error) -> bool {
    err.code()
        .is_some_and(|code| *code == SqlState::T_R_DEADLOCK_DETECTED || *code == SqlState::T_R_SERIALIZATION_FAILURE)
}

/// A statement the server cancelled for `lock_timeout` or `statement_timeout`: the operation's
/// time budget ran out (the transaction is aborted, nothing of it is saved).
pub(super) fn is_timeout(err: &postgres::Error) -> bool {
    err.code().is_some_and(|code| *code == SqlState::LOCK_NOT_AVAILABLE || *code == SqlState::QUERY_CANCELED)
}

/// Exit 4: the operation's budget ran out at `action`; nothing was saved.
pub(super) fn timed_out_failure(
    run: &PgRun,
    deadline: Option<Deadline>,
    action: &str,
    err: &postgres::Error,
) -> String {
    run.url.redact(&format!(
        "cannot {action} on {} within the time budget ({}: {}); nothing was saved: run the command again, or pass a \
         larger --timeBudgetMs",
        run.shown(),
        budget_text(deadline),
        describe(err)
    ))
}

pub(super) fn out_of_time(run: &PgRun, deadline: Option<Deadline>, action: &str) -> String {
    format!(
        "the time budget ({}) ran out before evodb could {action} on {}; nothing was saved: run the command again, \
         or pass a larger --timeBudgetMs",
        budget_text(deadline),
        run.shown()
    )
}

pub(super) fn budget_text(deadline: Option<Deadline>) -> String {
    deadline.map_or_else(|| "no budget".into(), |d| format!("--timeBudgetMs {}", d.budget.as_millis()))
}

/// A failed statement: exit 5 (IO), naming what failed; the password never appears.
pub(super) fn sql_failure(url: &PgUrl, action: &str, err: &postgres::Error) -> HostError {
    HostError::Io(url.redact(&format!(
        "cannot {action} on PostgreSQL at {} ({}); nothing was saved: run the command again",
        url.endpoint(),
        describe(err)
    )))
}

/// A `COMMIT` whose answer never came: the server may have applied it before the connection
/// broke, and only a retry can tell. A retried `add --id` is answered, not added twice.
pub(super) fn uncertain_commit(run: &PgRun, err: &postgres::Error) -> String {
    run.url.redact(&format!(
        "cannot confirm that {} was saved on PostgreSQL at {} ({}); it may or may not have been: run the same \
         command again (an add that carries --id is then answered, not added twice)",
        run.shown(),
        run.url.endpoint(),
        describe(err)
    ))
}

/// The server's own message when it sent one, else the client's with its cause.
pub(super) fn describe(err: &postgres::Error) -> String {
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
