//! A candidate's flags (`seed`, `add`) as the engine's add request, and the add itself.

use std::path::{Path, PathBuf};

use clap::ArgMatches;
use evodb_core::{AddCommand, AddFlags, AddOutcome, AddRequest, add_request_from_flags};
use evodb_host::Access;

use crate::failure::Failure;
use crate::input::{now, read_text};
use crate::matches::optional;
use crate::session::Engine;

/// The flags that describe a candidate's code, metrics and changes.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CandidateArgs {
    pub code_path: Option<String>,
    pub target_code: Option<String>,
    pub target_code_file: Option<PathBuf>,
    pub metrics: Option<String>,
    pub instance_scores: Option<String>,
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
            instance_scores: optional(m, "instanceScores"),
            changes: optional(m, "changes"),
            changes_file: optional(m, "changesFile"),
        }
    }

    /// The file flags (`-` is standard input): the server that answers for a client reads them
    /// against the client's directory.
    pub fn files_mut(&mut self) -> [&mut Option<PathBuf>; 2] {
        [&mut self.target_code_file, &mut self.changes_file]
    }

    /// The request these flags and `flags` (the command's other flags) give `command`, by the
    /// core's rule: a missing flag is refused before any file is read (a `-` would wait on the
    /// terminal), in the seed's order; then the files are read and the request built and checked.
    pub fn into_request(self, command: AddCommand, mut flags: AddFlags) -> Result<AddRequest, Failure> {
        let given = [
            ("codePath", self.code_path.is_some()),
            ("targetCode", self.target_code.is_some()),
            ("targetCodeFile", self.target_code_file.is_some()),
            ("parentId", flags.parent_id.is_some()),
            ("metrics", self.metrics.is_some()),
            ("changes", self.changes.is_some()),
            ("changesFile", self.changes_file.is_some()),
        ];
        let given: Vec<&str> = given.into_iter().filter_map(|(name, given)| given.then_some(name)).collect();
        command.check_required(&given)?;
        flags.code_path = self.code_path;
        flags.target_code = match (self.target_code, self.target_code_file) {
            (Some(code), _) => Some(code),
            (None, Some(path)) => Some(read_text("--targetCodeFile", &path)?),
            (None, None) => None,
        };
        flags.metrics = self.metrics;
        flags.instance_scores = self.instance_scores;
        (flags.changes, flags.changes_from_file) = match (self.changes, self.changes_file) {
            (Some(changes), _) => (Some(changes), false),
            (None, Some(path)) => (Some(read_text("--changesFile", &path)?), true),
            (None, None) => (None, false),
        };
        Ok(add_request_from_flags(command, &flags)?)
    }
}

/// Adds `request` to the database at `db` and saves it; with the warning when it made a new one
/// (a directory; a PostgreSQL run is made only by a writer that `creates` one, `seed`).
pub fn add_to(
    engine: &Engine,
    db: &Path,
    request: AddRequest,
    creates: bool,
) -> Result<(Vec<String>, AddOutcome), Failure> {
    let mut session = match creates {
        true => engine.open_to_create(db)?,
        false => engine.open(db, Access::Write)?,
    };
    let warnings = session.new_database_warning();
    let outcome = session.add(request, now())?;
    Ok((warnings, outcome))
}
