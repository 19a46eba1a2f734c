//! ShinkaEvolve's run: one SQLite file (`evolution_db.sqlite`) whose `programs` table holds every
//! program with its parent, island, generation, `combined_score`, public and private metrics and
//! `correct` flag, as `shinka.database.ProgramDatabase` writes it. Opened read-only.

use std::collections::BTreeSet;
use std::path::Path;

use evodb_core::{Operator, Status};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, Row};
use serde_json::{Value, json};

use super::{SourceProgram, SourceRun, extension, island_within, json as py_json};
use crate::failure::Failure;

const TOOL: &str = "shinka";
/// ShinkaEvolve's default `migration_interval` (the file does not record the config).
const DEFAULT_MIGRATION_INTERVAL: u64 = 10;

pub(super) fn read(path: &Path) -> Result<SourceRun, Failure> {
    if !path.is_file() {
        return Err(Failure::NotFound(format!(
            "no ShinkaEvolve database at `{}`: give its SQLite file (e.g. results/evolution_db.sqlite)",
            path.display()
        )));
    }
    let not_shinka = |e: rusqlite::Error| {
        Failure::BadInput(format!(
            "`{}` is not a ShinkaEvolve database ({e}); give the evolution_db.sqlite its run wrote",
            path.display()
        ))
    };
    let connection =
        Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
            .map_err(not_shinka)?;
    let mut statement = connection.prepare("SELECT * FROM programs").map_err(not_shinka)?;
    let columns: BTreeSet<String> = statement.column_names().map(String::from).collect();
    for required in ["id", "code", "parent_id", "generation"] {
        if !columns.contains(required) {
            return Err(not_shinka(rusqlite::Error::InvalidColumnName(required.into())));
        }
    }
    let rows = statement.query_map([], |row| Ok(ShinkaRow::read(row, &columns))).map_err(not_shinka)?;
    let rows: Vec<ShinkaRow> = rows.collect::<Result<_, _>>().map_err(not_shinka)?;
    let archive_size: i64 = connection.query_row("SELECT count(*) FROM archive", [], |row| row.get(0)).unwrap_or(0);

    let islands = rows.iter().filter_map(|r| r.island).max().map_or(1, |max| (max + 1).clamp(1, 1024)) as u32;
    let programs = rows.into_iter().map(|row| row.into_program(islands)).collect();
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

/// One row of `programs`, each column read whatever SQLite type it was stored with.
struct ShinkaRow {
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
    fn read(row: &Row<'_>, columns: &BTreeSet<String>) -> ShinkaRow {
        let cell = |name: &str| columns.contains(name).then(|| row.get_ref(name).ok()).flatten();
        let text = |name: &str| match cell(name) {
            Some(ValueRef::Text(bytes)) => Some(String::from_utf8_lossy(bytes).into_owned()),
            _ => None,
        };
        let number = |name: &str| match cell(name) {
            Some(ValueRef::Integer(i)) => Some(i as f64),
            Some(ValueRef::Real(r)) => Some(r),
            Some(ValueRef::Text(t)) => String::from_utf8_lossy(t).trim().parse().ok(),
            _ => None,
        };
        let json_text = |name: &str| text(name).and_then(|t| py_json::parse(&t).ok());
        ShinkaRow {
            id: text("id").unwrap_or_default(),
            code: text("code").unwrap_or_default(),
            language: text("language"),
            parent_id: text("parent_id").filter(|p| !p.is_empty()),
            generation: number("generation").map_or(0, |g| g.max(0.0) as u64),
            timestamp: number("timestamp").unwrap_or(0.0),
            combined_score: number("combined_score").filter(|s| s.is_finite()),
            public_metrics: json_text("public_metrics"),
            private_metrics: json_text("private_metrics"),
            text_feedback: text("text_feedback").filter(|t| !t.trim().is_empty()),
            correct: number("correct").is_some_and(|c| c != 0.0),
            metadata: json_text("metadata"),
            island: number("island_idx").map(|i| i as i64),
        }
    }

    fn into_program(self, islands: u32) -> SourceProgram {
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
