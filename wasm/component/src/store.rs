//! The `store` interface: `load` a `database` resource from `<dir>/database.json`, and `save` it
//! back with an atomic replace (`database.json.tmp` + rename) and its recorded events appended to
//! `<dir>/history.ndjson`. The host holds the lock from load to save.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use evodb_core::Database;
use evodb_core::json_text::to_compact_js;

use crate::Component;
use crate::convert::error;
use crate::exports::evodb::population::population as wit;
use crate::exports::evodb::population::store::Guest;

const DATABASE_FILE: &str = "database.json";
const TEMP_FILE: &str = "database.json.tmp";
const HISTORY_FILE: &str = "history.ndjson";

impl Guest for Component {
    fn load(dir: String) -> Result<Option<wit::Database>, wit::Error> {
        let Some(text) = read_text(&database_path(&dir))? else { return Ok(None) };
        let mut db = Database::from_json(&text).map_err(error)?;
        db.record_events(true);
        Ok(Some(wit::Database::new(crate::database::Database::new(db))))
    }

    fn save(dir: String, db: wit::DatabaseBorrow<'_>) -> Result<(), wit::Error> {
        save(&dir, &mut db.get::<crate::database::Database>().0.borrow_mut())
    }

    fn history(dir: String) -> Result<String, wit::Error> {
        Ok(read_text(&Path::new(&dir).join(HISTORY_FILE))?.unwrap_or_default())
    }

    fn validate(dir: String) -> Result<Vec<String>, wit::Error> {
        Ok(read_text(&database_path(&dir))?.map(|text| Database::validate_json(&text)).unwrap_or_default())
    }
}

fn database_path(dir: &str) -> PathBuf {
    Path::new(dir).join(DATABASE_FILE)
}

/// A stored file's text; `None` when it does not exist.
fn read_text(path: &Path) -> Result<Option<String>, wit::Error> {
    match fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|e| {
            wit::Error::CorruptDatabase(format!(
                "`{}` is not UTF-8 text ({e}); restore it from a backup",
                path.display()
            ))
        }),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_error("read", path, e)),
    }
}

/// Writes the whole file to a temp file, syncs, renames it over `database.json` (readers see
/// the old or the new file, never a torn one), then appends the operation's events to the
/// history. The history is opened first, so an unwritable history fails the call before anything
/// changed.
fn save(dir: &str, db: &mut Database) -> Result<(), wit::Error> {
    let history_path = Path::new(dir).join(HISTORY_FILE);
    let mut history = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&history_path)
        .map_err(|e| io_error("open", &history_path, e))?;
    let temp = Path::new(dir).join(TEMP_FILE);
    let write = || -> std::io::Result<()> {
        let mut file = File::create(&temp)?;
        file.write_all(db.to_json().as_bytes())?;
        file.sync_all()
    };
    write().map_err(|e| io_error("write", &temp, e))?;
    let path = database_path(dir);
    fs::rename(&temp, &path).map_err(|e| io_error("replace", &path, e))?;
    let lines: String = db.take_events().iter().map(|event| to_compact_js(event) + "\n").collect();
    // One write call for the operation's lines, so a killed process leaves whole lines only.
    history.write_all(lines.as_bytes()).map_err(|e| io_error("append to", &history_path, e))
}

fn io_error(action: &str, path: &Path, err: std::io::Error) -> wit::Error {
    wit::Error::Io(format!(
        "cannot {action} `{}`: {err}; check that the directory exists and is writable",
        path.display()
    ))
}
