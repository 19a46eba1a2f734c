//! The `store` interface over the host's `files`: `load` a `database` resource from
//! `database.json` (re-running the events a snapshot store holds after it), `save` it back as one
//! commit (the events it recorded, for `history.ndjson`, and the new `database.json` when the
//! store says it is due). The component names the two files only; the host holds the lock from
//! load to save and writes atomically.

use evodb_core::Database;
use evodb_core::json_text::to_compact_js;

use crate::Component;
use crate::convert::error;
use crate::evodb::population::files;
use crate::exports::evodb::population::population as wit;
use crate::exports::evodb::population::store::Guest;

impl Guest for Component {
    fn load() -> Result<Option<wit::Database>, wit::Error> {
        let Some(mut db) = current()? else { return Ok(None) };
        db.record_events(true);
        Ok(Some(wit::Database::new(crate::database::Database::new(db))))
    }

    fn save(db: wit::DatabaseBorrow<'_>) -> Result<(), wit::Error> {
        let mut db = db.get::<crate::database::Database>().0.borrow_mut();
        let events: String = db.take_events().iter().map(|event| to_compact_js(event) + "\n").collect();
        // Written only when due: a snapshot store appends the events alone in between. A change
        // that recorded no event could not be re-run from the events, so it is always written.
        let due = events.is_empty() || files::database_due(events.len() as u64);
        let database = due.then(|| db.to_json());
        files::commit(database.as_ref().map(String::as_bytes), events.as_bytes()).map_err(wit::Error::Io)
    }

    fn catch_up(db: wit::DatabaseBorrow<'_>) -> Result<(), wit::Error> {
        let pending = pending()?;
        if pending.is_empty() {
            return Ok(());
        }
        let mut db = db.get::<crate::database::Database>().0.borrow_mut();
        db.catch_up(&pending).map_err(|e| wit::Error::CorruptDatabase(behind(&e)))
    }

    fn history() -> Result<String, wit::Error> {
        text_of_history()
    }

    fn validate() -> Result<Vec<String>, wit::Error> {
        let Some(stored) = text("database.json", files::read_database())? else { return Ok(Vec::new()) };
        let problems = Database::validate_json(&stored);
        let pending = pending()?;
        if pending.is_empty() || !problems.is_empty() {
            return Ok(problems);
        }
        // The database as it is now: the stored one with the events after it re-run.
        match Database::from_json(&stored).and_then(|mut db| db.catch_up(&pending).map(|()| db)) {
            Ok(db) => Ok(Database::validate_json(&db.to_json())),
            Err(e) => Ok(vec![behind(&e)]),
        }
    }
}

/// The stored database brought up to date with the events after it; `None` when there is none.
fn current() -> Result<Option<Database>, wit::Error> {
    let Some(text) = text("database.json", files::read_database())? else { return Ok(None) };
    let mut db = Database::from_json(&text).map_err(error)?;
    if db.lacks_evodb_section() {
        // Only then is the history read: a file evodb wrote always has the section.
        db.notice_lost_section(&text_of_history()?);
    }
    let pending = pending()?;
    if !pending.is_empty() {
        db.catch_up(&pending).map_err(|e| wit::Error::CorruptDatabase(behind(&e)))?;
    }
    Ok(Some(db))
}

fn text_of_history() -> Result<String, wit::Error> {
    Ok(text("history.ndjson", files::read_history())?.unwrap_or_default())
}

fn pending() -> Result<String, wit::Error> {
    Ok(text("the pending events", files::read_pending().map(Some))?.unwrap_or_default())
}

/// A snapshot whose later events do not re-run onto it.
fn behind(err: &evodb_core::Error) -> String {
    format!(
        "the events stored after the database's snapshot do not re-run onto it ({err}); copy the run's history \
         out with `evodb history` and report it"
    )
}

/// A stored file's text; `None` when it does not exist.
fn text(name: &str, read: Result<Option<Vec<u8>>, String>) -> Result<Option<String>, wit::Error> {
    let Some(bytes) = read.map_err(wit::Error::Io)? else { return Ok(None) };
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|e| wit::Error::CorruptDatabase(format!("{name} is not UTF-8 text ({e}); restore it from a backup")))
}
