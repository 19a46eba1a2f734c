//! The runs a PostgreSQL database holds, as an operator handles them (`evodb runs --store URL`):
//! listed, deleted, renamed. A run's name reaches SQL only as a parameter, never in its text.
//! Deleting and renaming take the run's lock, as a writer does: they wait for the operation in
//! progress, and the next writer finds the run gone or under its new name.

use std::time::Duration;

use postgres::types::Type;
use postgres::{Client, Transaction};

use super::{PgRun, PgUrl, connect, describe, is_timeout, lock_run, schema, sql_failure};
use crate::error::HostError;

/// One run, as `evodb runs --store URL` lists it.
#[derive(Clone, Debug)]
pub struct RunSummary {
    pub name: String,
    /// When it was made, `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC).
    pub created: String,
    /// Its last write (an operation that recorded events or stored its database), the same form.
    pub updated: String,
    /// How many events it recorded (its `history.ndjson` lines).
    pub events: i64,
    /// What it holds, in bytes: its stored `database.json` and its events as `history.ndjson`.
    pub bytes: i64,
}

/// Why deleting or renaming a run was refused, or failed.
#[derive(Debug)]
pub enum RunsError {
    /// No run has that name (the message names the closest one there).
    Missing(String),
    /// The new name is taken.
    Taken(String),
    Failed(HostError),
}

impl From<HostError> for RunsError {
    fn from(err: HostError) -> RunsError {
        RunsError::Failed(err)
    }
}

/// Every run at `url`, by name.
pub fn list_runs(url: &PgUrl) -> Result<Vec<RunSummary>, HostError> {
    let mut client = open(url)?;
    let rows = client
        .query_typed(
            &format!(
                "SELECT name, {CREATED}, {UPDATED}, seq,
                        coalesce((SELECT octet_length(database) FROM evodb.snapshots s WHERE s.run = r.name), 0)::bigint
                          + coalesce((SELECT sum(octet_length(line) + 1) FROM evodb.events e WHERE e.run = r.name), 0)::bigint
                 FROM evodb.runs r ORDER BY name"
            ),
            &[],
        )
        .map_err(|e| sql_failure(url, "list the runs", &e))?;
    Ok(rows
        .iter()
        .map(|row| RunSummary {
            name: row.get(0),
            created: row.get(1),
            updated: row.get(2),
            events: row.get(3),
            bytes: row.get(4),
        })
        .collect())
}

/// Deletes `run` with its events, once no operation holds it; what it held, as listed.
pub fn delete_run(run: &PgRun, budget: Duration) -> Result<RunSummary, RunsError> {
    let mut client = open(&run.url)?;
    let mut tx = begin(&mut client, run, budget)?;
    lock_run(&mut tx, &run.name).map_err(|e| failed(run, "take the lock of", &e))?;
    let Some(summary) = summary(&mut tx, run)? else {
        return Err(RunsError::Missing(missing(&mut tx, run)));
    };
    tx.execute_typed("DELETE FROM evodb.runs WHERE name = $1", &[(&run.name, Type::TEXT)])
        .map_err(|e| failed(run, "delete", &e))?;
    tx.commit().map_err(|e| failed(run, "delete", &e))?;
    Ok(summary)
}

/// Renames `run` to `to` (its events follow), once no operation holds either name; the run as
/// listed under its new name. `to` must not name a run.
pub fn rename_run(run: &PgRun, to: &PgRun, budget: Duration) -> Result<RunSummary, RunsError> {
    let mut client = open(&run.url)?;
    let mut tx = begin(&mut client, run, budget)?;
    // Both names' locks, in one order whoever renames: two renames never wait on each other.
    let mut names = [run.name.as_str(), to.name.as_str()];
    names.sort_unstable();
    for name in names {
        lock_run(&mut tx, name).map_err(|e| failed(run, "take the lock of", &e))?;
    }
    if summary(&mut tx, run)?.is_none() {
        return Err(RunsError::Missing(missing(&mut tx, run)));
    }
    if summary(&mut tx, to)?.is_some() {
        return Err(RunsError::Taken(format!(
            "a run named `{}` is already at {}; pick another name, or delete that run first (evodb runs --delete)",
            to.name.escape_debug(),
            run.url.shown()
        )));
    }
    tx.execute_typed(
        "UPDATE evodb.runs SET name = $2 WHERE name = $1",
        &[(&run.name, Type::TEXT), (&to.name, Type::TEXT)],
    )
    .map_err(|e| failed(run, "rename", &e))?;
    let renamed = summary(&mut tx, to)?.expect("renamed in this transaction");
    tx.commit().map_err(|e| failed(run, "rename", &e))?;
    Ok(renamed)
}

/// Of `names`, the one `name` is most likely a misspelling of: the fewest single-character
/// edits (insert, delete, replace, swap two neighbours), ignoring case, at most a third of its
/// length (and at least 1). Ties go to the first.
pub fn closest_name<'a>(name: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted: Vec<char> = name.to_lowercase().chars().collect();
    let limit = (wanted.len() / 3).max(1);
    names
        .into_iter()
        .filter(|candidate| *candidate != name)
        .map(|candidate| (edits(&wanted, &candidate.to_lowercase().chars().collect::<Vec<_>>()), candidate))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// The optimal string alignment distance of `a` and `b`.
fn edits(a: &[char], b: &[char]) -> usize {
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1).min(rows[i][j - 1] + 1).min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

const CREATED: &str = r#"to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"#;
const UPDATED: &str = r#"to_char(updated AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"#;

fn open(url: &PgUrl) -> Result<Client, HostError> {
    let mut client = connect(url)?;
    schema::ensure(&mut client, url)?;
    Ok(client)
}

/// A transaction whose statements (waits for locks included) end within `budget`.
fn begin<'a>(client: &'a mut Client, run: &PgRun, budget: Duration) -> Result<Transaction<'a>, RunsError> {
    let mut tx = client.transaction().map_err(|e| failed(run, "begin", &e))?;
    let ms = budget.as_millis().max(1);
    tx.batch_execute(&format!("SET LOCAL lock_timeout = '{ms}ms'; SET LOCAL statement_timeout = '{ms}ms'"))
        .map_err(|e| failed(run, "begin", &e))?;
    Ok(tx)
}

/// `run` as listed, `None` when there is no such run.
fn summary(tx: &mut Transaction<'_>, run: &PgRun) -> Result<Option<RunSummary>, RunsError> {
    let row = tx
        .query_typed_opt(
            &format!(
                "SELECT {CREATED}, {UPDATED}, seq,
                        coalesce((SELECT octet_length(database) FROM evodb.snapshots WHERE run = $1), 0)::bigint
                          + coalesce((SELECT sum(octet_length(line) + 1) FROM evodb.events WHERE run = $1), 0)::bigint
                 FROM evodb.runs WHERE name = $1"
            ),
            &[(&run.name, Type::TEXT)],
        )
        .map_err(|e| failed(run, "read", &e))?;
    Ok(row.map(|row| RunSummary {
        name: run.name.clone(),
        created: row.get(0),
        updated: row.get(1),
        events: row.get(2),
        bytes: row.get(3),
    }))
}

/// "no run named …", with the closest name there.
fn missing(tx: &mut Transaction<'_>, run: &PgRun) -> String {
    let names: Vec<String> = tx
        .query_typed("SELECT name FROM evodb.runs ORDER BY name LIMIT 10000", &[])
        .map(|rows| rows.iter().map(|row| row.get(0)).collect())
        .unwrap_or_default();
    let hint = match closest_name(&run.name, names.iter().map(String::as_str)) {
        Some(close) => format!(" (did you mean `{}`?)", close.escape_debug()),
        None => String::new(),
    };
    format!(
        "no run named `{}` at {}{hint}; `evodb runs --store URL` lists the runs there",
        run.name.escape_debug(),
        run.url.shown()
    )
}

fn failed(run: &PgRun, action: &str, err: &postgres::Error) -> RunsError {
    if is_timeout(err) {
        return RunsError::Failed(HostError::Deadline(run.url.redact(&format!(
            "cannot {action} {} within the time budget ({}): an operation holds it; nothing was changed: run the \
             command again, or pass a larger --timeBudgetMs",
            run.shown(),
            describe(err)
        ))));
    }
    RunsError::Failed(sql_failure(&run.url, &format!("{action} {}", run.shown()), err))
}

#[cfg(test)]
mod tests {
    use super::closest_name;

    #[test]
    fn the_closest_name_is_a_likely_misspelling() {
        let names = ["exp-1", "exp-2", "baseline", "Ablation-A"];
        assert_eq!(closest_name("exp-l", names), Some("exp-1"));
        assert_eq!(closest_name("basleine", names), Some("baseline"), "two neighbours swapped");
        assert_eq!(closest_name("ablation-a", names), Some("Ablation-A"), "case is ignored");
        assert_eq!(closest_name("something-else", names), None, "nothing close");
        assert_eq!(closest_name("x", ["y"]), Some("y"), "one edit is always close enough");
        assert_eq!(closest_name("exp-1", ["exp-1"]), None, "the name itself is not a suggestion");
    }
}
