//! `evodb note`: one entry of the run's memory (a lesson, a failure, an idea), kept in the
//! database and carried by every sample and plan item.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::NoteRequest;
use evodb_host::Access;
use serde_json::json;

use crate::context::Context;
use crate::failure::Failure;
use crate::input::read_text;
use crate::matches::{optional, required};
use crate::reply::Reply;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Args {
    pub db: PathBuf,
    pub kind: String,
    pub text: Option<String>,
    pub text_file: Option<PathBuf>,
    pub target: Option<String>,
    pub program_id: Option<String>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            db: required(m, "dbPath"),
            kind: required(m, "kind"),
            text: optional(m, "text"),
            text_file: optional(m, "textFile"),
            target: optional(m, "target"),
            program_id: optional(m, "programId"),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args { db, kind, text, text_file, target, program_id } = self;
        let text = match (text, text_file) {
            (Some(text), _) => text,
            (None, Some(path)) => evodb_core::without_final_newline(&read_text("--textFile", &path)?).to_string(),
            (None, None) => {
                return Err(Failure::Usage("missing --text (or --textFile): what should the note say?".into()));
            }
        };
        let request = json!({ "kind": kind, "text": text, "target": target, "programId": program_id });
        // Checked before the database is opened: a bad note touches nothing.
        let request = NoteRequest::from_json(&request.to_string())?;
        request.validate()?;
        let mut session = ctx.engine()?.open(&db, Access::Write)?;
        let warnings = session.new_database_warning();
        let note = session.note(request)?;
        Ok(Reply::json(&note).warned(warnings))
    }
}
