//! The `store` interface over the host's `files`: `load` a `database` resource from
//! `database.json`, `save` it back as one commit (the new `database.json` and the events it
//! recorded, for `history.ndjson`). The component names the two files only; the host holds the
//! lock from load to save and writes atomically.

use evodb_core::Database;
use evodb_core::json_text::to_compact_js;

use crate::Component;
use crate::convert::error;
use crate::evodb::population::files;
use crate::exports::evodb::population::population as wit;
use crate::exports::evodb::population::store::Guest;

impl Guest for Component {
    fn load() -> Result<Option<wit::Database>, wit::Error> {
        let Some(text) = text("database.json", files::read_database())? else { return Ok(None) };
        let mut db = Database::from_json(&text).map_err(error)?;
        db.record_events(true);
        Ok(Some(wit::Database::new(crate::database::Database::new(db))))
    }

    fn save(db: wit::DatabaseBorrow<'_>) -> Result<(), wit::Error> {
        let mut db = db.get::<crate::database::Database>().0.borrow_mut();
        let events: String = db.take_events().iter().map(|event| to_compact_js(event) + "\n").collect();
        files::commit(db.to_json().as_bytes(), events.as_bytes()).map_err(wit::Error::Io)
    }

    fn history() -> Result<String, wit::Error> {
        Ok(text("history.ndjson", files::read_history())?.unwrap_or_default())
    }

    fn validate() -> Result<Vec<String>, wit::Error> {
        Ok(text("database.json", files::read_database())?
            .map(|text| Database::validate_json(&text))
            .unwrap_or_default())
    }
}

/// A stored file's text; `None` when it does not exist.
fn text(name: &str, read: Result<Option<Vec<u8>>, String>) -> Result<Option<String>, wit::Error> {
    let Some(bytes) = read.map_err(wit::Error::Io)? else { return Ok(None) };
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|e| wit::Error::CorruptDatabase(format!("{name} is not UTF-8 text ({e}); restore it from a backup")))
}
