//! The `store` interface: one operation per call on `<dir>/database.json`, read-modify-write
//! with an atomic replace (`database.json.tmp` + rename) and the operation's events appended to
//! `<dir>/history.ndjson`. The host holds the lock around each call.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use evodb_core::json_text::to_compact_js;
use evodb_core::{Config, Database};

use crate::Component;
use crate::convert;
use crate::exports::evodb::population::population as wit;
use crate::exports::evodb::population::store::Guest;

const DATABASE_FILE: &str = "database.json";
const TEMP_FILE: &str = "database.json.tmp";
const HISTORY_FILE: &str = "history.ndjson";

impl Guest for Component {
    fn init(dir: String, config_json: String, seed: u64, _now: f64) -> Result<wit::DatabaseInfo, wit::Error> {
        if load(&dir)?.is_some() {
            return Err(wit::Error::AlreadyExists(format!(
                "`{}` already holds a database; use it as it is, or remove it to start over",
                database_path(&dir).display()
            )));
        }
        let config = Config::from_json(&config_json).map_err(convert::error)?;
        let mut db = Database::new(config, seed).map_err(convert::error)?;
        db.record_events(true);
        save(&dir, &mut db)?;
        Ok(convert::info(db.info()))
    }

    fn open(dir: String, _now: f64) -> Result<wit::DatabaseInfo, wit::Error> {
        match load(&dir)? {
            Some(db) => Ok(convert::info(db.info())),
            None => {
                let mut db = fresh();
                db.record_events(true);
                save(&dir, &mut db)?;
                Ok(convert::info(db.info()))
            }
        }
    }

    fn add(dir: String, request: wit::AddRequest, now: f64) -> Result<wit::AddOutcome, wit::Error> {
        let mut db = load_recording(&dir)?;
        let outcome = db.add(convert::add_request(request)?, now).map_err(convert::error)?;
        save(&dir, &mut db)?;
        Ok(convert::add_outcome(outcome))
    }

    fn sample(dir: String, _now: f64) -> Result<wit::SampleResult, wit::Error> {
        let mut db = load_recording(&dir)?;
        let sample = db.sample();
        save(&dir, &mut db)?;
        Ok(convert::sample(sample))
    }

    fn plan(dir: String, n: u32, frozen: Vec<u32>, boosted: Vec<u32>) -> Result<wit::WorkPlan, wit::Error> {
        let mut db = load_recording(&dir)?;
        let plan = db.plan(n, &frozen, &boosted).map_err(convert::error)?;
        save(&dir, &mut db)?;
        Ok(convert::plan(plan))
    }

    fn should_stop(dir: String) -> Result<wit::StopVerdict, wit::Error> {
        Ok(convert::stop_verdict(load_or_fresh(&dir)?.should_stop()))
    }

    fn export_tree(dir: String) -> Result<String, wit::Error> {
        Ok(load_or_fresh(&dir)?.lineage_tree())
    }

    fn export_markdown(dir: String) -> Result<String, wit::Error> {
        Ok(load_or_fresh(&dir)?.population_markdown())
    }

    fn validate(dir: String) -> Result<Vec<String>, wit::Error> {
        Ok(read_text(&database_path(&dir))?.map(|text| Database::validate_json(&text)).unwrap_or_default())
    }

    fn best(dir: String) -> Result<Option<wit::BestProgram>, wit::Error> {
        Ok(convert::best(load_or_fresh(&dir)?.best()))
    }

    fn info(dir: String) -> Result<wit::DatabaseInfo, wit::Error> {
        Ok(convert::info(load_or_fresh(&dir)?.info()))
    }

    fn stats(dir: String) -> Result<wit::PopulationStats, wit::Error> {
        Ok(convert::stats(load_or_fresh(&dir)?.stats()))
    }

    fn export_json(dir: String) -> Result<String, wit::Error> {
        Ok(load_or_fresh(&dir)?.to_json())
    }

    fn lineage_of(dir: String, id: String) -> Result<Option<wit::Lineage>, wit::Error> {
        Ok(load_or_fresh(&dir)?.lineage(&id).map(convert::lineage))
    }

    fn export_mermaid(dir: String) -> Result<String, wit::Error> {
        Ok(load_or_fresh(&dir)?.lineage_mermaid())
    }

    fn history(dir: String) -> Result<String, wit::Error> {
        Ok(read_text(&Path::new(&dir).join(HISTORY_FILE))?.unwrap_or_default())
    }
}

/// A directory without `database.json` holds a fresh database with the seed's defaults, as the
/// seed's CLI treats it.
fn fresh() -> Database {
    Database::new(Config::default(), 0).expect("the default config is valid")
}

fn load_or_fresh(dir: &str) -> Result<Database, wit::Error> {
    Ok(load(dir)?.unwrap_or_else(fresh))
}

/// For changing operations: events are recorded from the load on (from `created` for a
/// directory that held no database yet), and `save` appends them to the history.
fn load_recording(dir: &str) -> Result<Database, wit::Error> {
    let mut db = load_or_fresh(dir)?;
    db.record_events(true);
    Ok(db)
}

fn database_path(dir: &str) -> PathBuf {
    Path::new(dir).join(DATABASE_FILE)
}

fn load(dir: &str) -> Result<Option<Database>, wit::Error> {
    read_text(&database_path(dir))?.map(|text| Database::from_json(&text).map_err(convert::error)).transpose()
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
