//! A candidate's flags (`seed`, `add`) as the engine's add request, and the add itself.

use std::path::{Path, PathBuf};

use clap::ArgMatches;
use evodb_core::{AddOutcome, AddRequest};
use evodb_host::Access;
use serde_json::{Map, Value, json};

use crate::failure::Failure;
use crate::input::{now, read_text, without_final_newline};
use crate::matches::optional;
use crate::session::Engine;

/// The flags that describe a candidate's code, metrics and changes.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CandidateArgs {
    pub code_path: Option<String>,
    pub target_code: Option<String>,
    pub target_code_file: Option<PathBuf>,
    pub metrics: Option<String>,
    pub changes: Option<String>,
    pub changes_file: Option<PathBuf>,
}

impl CandidateArgs {
    pub fn from_matches(m: &ArgMatches) -> CandidateArgs {
        CandidateArgs {
            code_path: optional(m, "codePath"),
            target_code: optional(m, "targetCode"),
            target_code_file: optional(m, "targetCodeFile"),
            metrics: optional(m, "metrics"),
            changes: optional(m, "changes"),
            changes_file: optional(m, "changesFile"),
        }
    }

    /// The file flags (`-` is standard input): the server that answers for a client reads them
    /// against the client's directory.
    pub fn files_mut(&mut self) -> [&mut Option<PathBuf>; 2] {
        [&mut self.target_code_file, &mut self.changes_file]
    }

    /// The candidate's flags as request fields, in the seed's order of required-flag checks.
    pub fn into_fields(self, changes_required: bool) -> Result<Map<String, Value>, Failure> {
        let code_path = self.code_path.ok_or_else(|| Failure::missing_flag("codePath"))?;
        let target_code = match (self.target_code, self.target_code_file) {
            (Some(code), _) => code,
            (None, Some(path)) => read_text("--targetCodeFile", &path)?,
            (None, None) => return Err(Failure::missing_flag("targetCode")),
        };
        let metrics = self.metrics.ok_or_else(|| Failure::missing_flag("metrics"))?;
        let metrics: Value = serde_json::from_str(&metrics).map_err(|e| {
            Failure::BadInput(format!(
                "--metrics is not valid JSON ({e}); pass an object of finite numbers, e.g. --metrics '{{\"score\": 0.8}}'"
            ))
        })?;
        let changes = match (self.changes, self.changes_file) {
            (Some(changes), _) => Some(changes),
            (None, Some(path)) => Some(without_final_newline(read_text("--changesFile", &path)?)),
            (None, None) if changes_required => return Err(Failure::missing_flag("changes")),
            (None, None) => None,
        };
        let mut fields = Map::new();
        fields.insert("codePath".into(), json!(code_path));
        fields.insert("targetCode".into(), json!(target_code));
        fields.insert("metrics".into(), metrics);
        if let Some(changes) = changes {
            fields.insert("changes".into(), json!(changes));
        }
        Ok(fields)
    }
}

/// Checks the request with the engine's own rules (errors name the field, e.g. `metrics.score`).
pub fn add_request(fields: Map<String, Value>) -> Result<AddRequest, Failure> {
    Ok(AddRequest::from_json(&Value::Object(fields).to_string())?)
}

/// Adds `request` to the database at `db` and saves it; with the warning when it made a new one.
pub fn add_to(engine: &Engine, db: &Path, request: AddRequest) -> Result<(Vec<String>, AddOutcome), Failure> {
    let mut session = engine.open(db, Access::Write)?;
    let warnings = session.new_database_warning();
    let outcome = session.add(request, now())?;
    Ok((warnings, outcome))
}
