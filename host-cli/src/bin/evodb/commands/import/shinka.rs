//! ShinkaEvolve's run: one SQLite file (`evolution_db.sqlite`) whose `programs` table holds every
//! program with its parent, island, generation, `combined_score`, public and private metrics and
//! `correct` flag, as `shinka.database.ProgramDatabase` writes it. Opened read-only.
//!
//! A run's file may come from anyone, so SQLite reads it under the import's budget: a progress
//! handler interrupts any statement once the time budget is spent (a recursive view would
//! otherwise run for ever), SQLite's heap and string lengths are capped at the memory cap, the
//! rows read count against it too, the schema is not trusted (no functions with side effects or
//! virtual tables from it) and the files SQLite opens beside the database must be regular.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use evodb_core::{Operator, Status};
use rusqlite::limits::Limit;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, ErrorCode, OpenFlags, Row};
use serde_json::{Value, json};

use super::source::{Reading, not_regular};
use super::{SourceProgram, SourceRun, extension, island_within, json as py_json};
use crate::failure::Failure;

const TOOL: &str = "shinka";
/// ShinkaEvolve's default `migration_interval` (the file does not record the config).
const DEFAULT_MIGRATION_INTERVAL: u64 = 10;
/// How many SQLite virtual-machine steps run between two looks at the clock.
const STEPS_PER_CHECK: i32 = 10_000;
/// What one row costs besides its text, counted against the memory cap.
const ROW_OVERHEAD: u64 = 256;

pub(super) fn read(path: &Path, reading: &Reading) -> Result<SourceRun, Failure> {
    read_from(&open(path, reading)?, path, reading)
}

/// The run in `connection` (the file at `path`, named in messages).
pub(super) fn read_from(connection: &Connection, path: &Path, reading: &Reading) -> Result<SourceRun, Failure> {
    let failed = |e: rusqlite::Error| sqlite_failure(path, reading, e);
    let mut statement = connection.prepare("SELECT * FROM programs").map_err(failed)?;
    let columns: BTreeSet<String> = statement.column_names().map(String::from).collect();
    for required in ["id", "code", "parent_id", "generation"] {
        if !columns.contains(required) {
            return Err(failed(rusqlite::Error::InvalidColumnName(required.into())));
        }
    }
    let mut rows = statement.query([]).map_err(failed)?;
    let mut read = Vec::new();
    while let Some(row) = rows.next().map_err(failed)? {
        let (row, bytes) = ShinkaRow::read(row, &columns, read.len() + 1, path)?;
        reading.charge(bytes, path)?;
        read.push(row);
    }
    drop(rows);
    let archive_size = match connection.query_row("SELECT count(*) FROM archive", [], |row| row.get::<_, i64>(0)) {
        Ok(count) => count,
        // Interrupted: the budget is spent, whatever the table is.
        Err(e) if code_of(&e) == Some(ErrorCode::OperationInterrupted) => return Err(reading.out_of_time(path)),
        // No archive table (or an odd one): the run keeps no archive.
        Err(_) => 0,
    };
    reading.check_time(path)?;

    let islands =
        read.iter().filter_map(|r| r.island).max().map_or(1, |max| max.saturating_add(1).clamp(1, 1024)) as u32;
    let programs = read.into_iter().map(|row| row.into_program(islands, path)).collect();
    Ok(SourceRun {
        tool: TOOL,
        islands,
        programs,
        // ShinkaEvolve ranks by combined_score (0 when the evaluation gave none).
        fitness: json!({"kind": "primary", "metric": "combined_score"}),
        migration_interval: DEFAULT_MIGRATION_INTERVAL,
        archive_size: u32::try_from(archive_size).unwrap_or(0),
        warnings: Vec::new(),
    })
}

/// The run's SQLite file, opened read-only under the import's budget (see the module's docs).
fn open(path: &Path, reading: &Reading) -> Result<Connection, Failure> {
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => {}
        Ok(meta) => {
            return Err(Failure::BadInput(format!(
                "`{}` is {}, not a regular file; give the SQLite file ShinkaEvolve wrote (e.g. results/evolution_db.sqlite)",
                path.display(),
                evodb_host::describe_file_type(meta.file_type())
            )));
        }
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(Failure::BadInput(format!("cannot read `{}`: {e}", path.display())));
        }
        Err(_) => {
            return Err(Failure::NotFound(format!(
                "no ShinkaEvolve database at `{}`: give its SQLite file (e.g. results/evolution_db.sqlite)",
                path.display()
            )));
        }
    }
    // SQLite opens these beside the database when they exist (a hot journal, the WAL and its
    // index): a FIFO there would block it, a link lead it elsewhere.
    for suffix in ["-journal", "-wal", "-shm"] {
        let mut beside = path.as_os_str().to_owned();
        beside.push(suffix);
        let beside = Path::new(&beside);
        if let Ok(meta) = fs::symlink_metadata(beside)
            && !meta.is_file()
        {
            return Err(not_regular(beside, meta.file_type()));
        }
    }
    reading.check_time(path)?;
    let failed = |e: rusqlite::Error| sqlite_failure(path, reading, e);
    let mut connection =
        Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
            .map_err(failed)?;
    let deadline = reading.deadline();
    connection
        .progress_handler(STEPS_PER_CHECK, Some(move || std::time::Instant::now() >= deadline))
        .map_err(failed)?;
    use rusqlite::config::DbConfig;
    for (setting, on) in [
        (DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true),
        (DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false),
        (DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, false),
    ] {
        connection.set_db_config(setting, on).map_err(failed)?;
    }
    let cap = reading.cap_bytes();
    connection.set_limit(Limit::SQLITE_LIMIT_LENGTH, i32::try_from(cap).unwrap_or(i32::MAX).max(1)).map_err(failed)?;
    // SQLite's own memory (a sort, a recursive query's queue) is held to the cap as well.
    connection.pragma_update(None, "hard_heap_limit", i64::try_from(cap).unwrap_or(i64::MAX).max(1)).map_err(failed)?;
    Ok(connection)
}

fn code_of(err: &rusqlite::Error) -> Option<ErrorCode> {
    err.sqlite_error_code()
}

/// An SQLite error as the import reports it: the time budget or the memory cap when SQLite ran
/// into them, otherwise a file that is not ShinkaEvolve's.
fn sqlite_failure(path: &Path, reading: &Reading, err: rusqlite::Error) -> Failure {
    match code_of(&err) {
        Some(ErrorCode::OperationInterrupted) => reading.out_of_time(path),
        Some(ErrorCode::OutOfMemory | ErrorCode::TooBig) => reading.out_of_memory(path),
        _ => Failure::BadInput(format!(
            "`{}` is not a ShinkaEvolve database ({}); give the evolution_db.sqlite its run wrote",
            path.display(),
            err.to_string().replace('`', "'")
        )),
    }
}

/// One row of `programs`, each column read whatever SQLite type it was stored with.
struct ShinkaRow {
    /// The row's number in `programs`, for messages about a row without a usable id.
    number: usize,
    id: String,
    code: String,
    language: Option<String>,
    parent_id: Option<String>,
    generation: u64,
    timestamp: f64,
    combined_score: Option<f64>,
    public_metrics: Option<Value>,
    private_metrics: Option<Value>,
    text_feedback: Option<String>,
    correct: bool,
    metadata: Option<Value>,
    island: Option<i64>,
}

impl ShinkaRow {
    /// The row and how many bytes it holds. Text may be stored as TEXT or as a BLOB of UTF-8;
    /// an id may be a number. Code that is a BLOB of something else is refused by name (calling
    /// it empty would send the user looking for a missing column).
    fn read(
        row: &Row<'_>,
        columns: &BTreeSet<String>,
        number: usize,
        path: &Path,
    ) -> Result<(ShinkaRow, u64), Failure> {
        let cell = |name: &str| columns.contains(name).then(|| row.get_ref(name).ok()).flatten();
        let mut bytes = ROW_OVERHEAD;
        for name in columns {
            if let Some(ValueRef::Text(b) | ValueRef::Blob(b)) = cell(name) {
                bytes = bytes.saturating_add(b.len() as u64);
            }
        }
        let text = |name: &str| match cell(name) {
            Some(ValueRef::Text(b)) => Some(String::from_utf8_lossy(b).into_owned()),
            Some(ValueRef::Blob(b)) => std::str::from_utf8(b).ok().map(String::from),
            _ => None,
        };
        let name_like = |name: &str| match cell(name) {
            Some(ValueRef::Integer(i)) => Some(i.to_string()),
            _ => text(name),
        };
        let number_of = |name: &str| {
            match cell(name) {
                Some(ValueRef::Integer(i)) => Some(i as f64),
                Some(ValueRef::Real(r)) => Some(r),
                Some(ValueRef::Text(t)) => String::from_utf8_lossy(t).trim().parse().ok(),
                _ => None,
            }
            .filter(|n: &f64| n.is_finite())
        };
        let json_text = |name: &str| text(name).and_then(|t| py_json::parse(&t).ok());
        let Some(id) = name_like("id").filter(|id| !id.trim().is_empty()) else {
            return Err(Failure::BadInput(format!(
                "`{}`: row {number} of `programs` has no `id` (it is {}); every ShinkaEvolve program has one",
                path.display(),
                kind_of(cell("id"))
            )));
        };
        let code = match cell("code") {
            Some(ValueRef::Blob(b)) if std::str::from_utf8(b).is_err() => {
                return Err(Failure::BadInput(format!(
                    "`{}`: program `{}` keeps its code as a BLOB that is not UTF-8 text ({} bytes); evodb keeps code as text",
                    path.display(),
                    super::shown(&id),
                    b.len()
                )));
            }
            _ => text("code").unwrap_or_default(),
        };
        let row = ShinkaRow {
            number,
            id,
            code,
            language: text("language"),
            parent_id: name_like("parent_id").filter(|p| !p.is_empty()),
            generation: number_of("generation").map_or(0, |g| g.max(0.0) as u64),
            timestamp: number_of("timestamp").unwrap_or(0.0),
            combined_score: number_of("combined_score"),
            public_metrics: json_text("public_metrics"),
            private_metrics: json_text("private_metrics"),
            text_feedback: text("text_feedback").filter(|t| !t.trim().is_empty()),
            correct: number_of("correct").is_some_and(|c| c != 0.0),
            metadata: json_text("metadata"),
            island: number_of("island_idx").map(|i| i as i64),
        };
        Ok((row, bytes))
    }

    fn into_program(self, islands: u32, path: &Path) -> SourceProgram {
        let meta = |key: &str| self.metadata.as_ref().and_then(|m| m.get(key));
        let meta_text = |key: &str| meta(key).and_then(Value::as_str).filter(|s| !s.is_empty());
        let (public, public_other) = py_json::metrics(self.public_metrics.as_ref(), "");
        let (private, private_other) = py_json::metrics(self.private_metrics.as_ref(), "private.");
        let mut metrics = vec![("combined_score".to_string(), self.combined_score.unwrap_or(0.0))];
        metrics.extend(public.into_iter().chain(private).filter(|(name, _)| name != "combined_score"));

        // An island copy (Shinka seeds each island with a copy of the initial program) descends
        // from its original, which is what the family tree should show.
        let copy_of = (meta("_is_island_copy").and_then(Value::as_bool) == Some(true))
            .then(|| meta_text("_original_program_id"))
            .flatten();
        let mut changes: Vec<String> = Vec::new();
        match (meta_text("patch_description").or(meta_text("patch_name")), meta_text("patch_type")) {
            (Some(name), Some(kind)) => changes.push(format!("{name} ({kind})")),
            (Some(name), None) => changes.push(name.to_string()),
            (None, Some(kind)) => changes.push(format!("({kind})")),
            (None, None) => {}
        }
        if let Some(original) = copy_of {
            changes.push(format!("island copy of {original}"));
        }
        changes.extend(public_other.into_iter().chain(private_other));
        // The source's own numbering, beside evodb's: shown with the change and found by search.
        changes.push(format!("ShinkaEvolve generation {}", self.generation));
        let (status, reason) = match self.correct {
            true => (Status::Accepted, None),
            false => (
                Status::Rejected,
                Some(
                    self.text_feedback.clone().unwrap_or_else(|| "incorrect: ShinkaEvolve's `correct` is false".into()),
                ),
            ),
        };
        SourceProgram {
            origin: format!("row {} of `programs` in `{}`", self.number, path.display()),
            parent_id: self.parent_id.clone().or_else(|| copy_of.map(String::from)),
            code: self.code,
            extension: extension(self.language.as_deref().unwrap_or("python")),
            metrics,
            island: island_within(self.island, islands),
            iteration: self.generation,
            timestamp: self.timestamp,
            changes: changes.join("\n"),
            status,
            reason,
            operator: (meta_text("patch_type") == Some("cross")).then_some(Operator::Crossover),
            id: self.id,
        }
    }
}

/// What a cell holds, for a message.
fn kind_of(cell: Option<ValueRef<'_>>) -> &'static str {
    match cell {
        None | Some(ValueRef::Null) => "NULL",
        Some(ValueRef::Integer(_)) => "a number",
        Some(ValueRef::Real(_)) => "a real number",
        Some(ValueRef::Text(_)) => "empty text",
        Some(ValueRef::Blob(_)) => "a BLOB that is not UTF-8 text",
    }
}
