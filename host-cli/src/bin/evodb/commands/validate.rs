//! `evodb validate <dbPath> [--history]`: every broken invariant of the stored file (the engine's
//! `validate`) and of its history, reported together; with `--history`, also every disagreement
//! between the history replayed and the file (`Database::compare_history`, the playground's
//! "the history and the file disagree").

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::Database;
use evodb_host::{Access, DATABASE_FILE};
use serde_json::json;

use crate::context::Context;
use crate::failure::Failure;
use crate::location::{Location, shown};
use crate::matches::required;
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
    pub history: bool,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath"), history: m.get_flag("history") }
    }

    /// An invalid database exits 1 with its problems on stdout and the first on stderr.
    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let db = &self.db;
        let missing = || {
            Failure::NotFound(format!(
                "no database at `{}` (no {DATABASE_FILE}): nothing to validate; check the path",
                shown(db)
            ))
        };
        let engine = ctx.engine()?;
        if matches!(engine.locate(db)?, Location::Directory(dir) if !dir.join(DATABASE_FILE).exists()) {
            return Err(missing());
        }
        let mut session = engine.open(db, Access::Read)?;
        if !session.holds_database() {
            return Err(missing());
        }
        let mut problems = session.validate()?;
        if let Some(dir) = session.directory() {
            problems.extend(evodb_host::history::problems(dir).map_err(Failure::Io)?);
        }
        if self.history && problems.is_empty() {
            let stored = String::from_utf8(session.database_bytes()?)
                .map_err(|e| Failure::BadInput(format!("{DATABASE_FILE} is not UTF-8 text ({e})")))?;
            problems.extend(Database::compare_history(&stored, &session.history()?));
        }
        if let Some(first) = problems.first() {
            let more = if problems.len() > 1 {
                format!(" (and {} more on stdout)", problems.len() - 1)
            } else {
                String::new()
            };
            let failure = Failure::BadInput(format!("{first}{more}"));
            let report = evodb_host::bridge::json(&json!({"valid": false, "problems": problems}));
            return Ok(Reply::failed(report, failure));
        }
        let info = session.info()?;
        let valid = json!({"valid": true, "programCount": info.program_count, "lastIteration": info.last_iteration});
        Ok(Reply::json(&valid))
    }
}
