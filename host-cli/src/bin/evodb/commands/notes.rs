//! `evodb notes`: the run's memory, newest first, by target and kind.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::NoteKind;
use evodb_host::Access;
use serde_json::json;

use crate::context::Context;
use crate::failure::Failure;
use crate::matches::{optional, required};
use crate::reply::Reply;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Args {
    pub db: PathBuf,
    pub target: Option<String>,
    pub kind: Option<String>,
    pub limit: Option<u32>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            db: required(m, "dbPath"),
            target: optional(m, "target"),
            kind: optional(m, "kind"),
            limit: optional(m, "limit"),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args { db, target, kind, limit } = self;
        // The parser allowed only the kinds' names.
        let kind: Option<NoteKind> = kind.and_then(|kind| serde_json::from_value(json!(kind)).ok());
        let notes = ctx.engine()?.open(&db, Access::Read)?.notes(target.as_deref(), kind, limit)?;
        Ok(Reply::json(&json!({ "notes": notes })))
    }
}
