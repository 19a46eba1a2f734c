//! `evodb remeasure`: a live program's benchmark run again, folded into its metrics (their
//! running mean), so one lucky or unlucky measurement does not decide the run. A command of its
//! own rather than an `add` flag: a re-measurement has no code, parent or changes, and changes
//! a program instead of adding one.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::RemeasureRequest;
use evodb_host::{Access, DATABASE_FILE};
use serde_json::{Value, json};

use crate::context::Context;
use crate::failure::Failure;
use crate::location::{Location, shown};
use crate::matches::required;
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
    pub id: String,
    pub metrics: String,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath"), id: required(m, "id"), metrics: required(m, "metrics") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let metrics: Value = serde_json::from_str(&self.metrics).map_err(|e| {
            Failure::BadInput(format!(
                "--metrics is not valid JSON ({e}); pass an object of finite numbers, e.g. --metrics '{{\"score\": 0.8}}'"
            ))
        })?;
        // Checked before the database is opened: a bad measurement touches nothing.
        let request = RemeasureRequest::from_json(&json!({"id": self.id, "metrics": metrics}).to_string())?;
        let missing = || {
            Failure::NotFound(format!(
                "no database at `{}` (no {DATABASE_FILE}): nothing to remeasure; check the path",
                shown(&self.db)
            ))
        };
        let engine = ctx.engine()?;
        // Looked for before a writer opens it, which would make the directory.
        if matches!(engine.locate(&self.db)?, Location::Directory(dir) if !dir.join(DATABASE_FILE).exists()) {
            return Err(missing());
        }
        let mut session = engine.open(&self.db, Access::Write)?;
        if !session.holds_database() {
            return Err(missing());
        }
        Ok(Reply::json(&session.remeasure(request)?))
    }
}
