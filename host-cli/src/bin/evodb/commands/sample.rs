//! `evodb sample <dbPath> [--target T]`: a parent, inspirations and notes for the next
//! candidate; with the operators on, the island it belongs to. Saved: the PRNG moved.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_host::Access;

use crate::context::Context;
use crate::failure::Failure;
use crate::matches::{optional, required};
use crate::reply::Reply;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Args {
    pub db: PathBuf,
    pub target: Option<String>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath"), target: optional(m, "target") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args { db, target } = self;
        let mut session = ctx.engine()?.open(&db, Access::Write)?;
        let warnings = session.new_database_warning();
        let sample = session.sample(target.as_deref())?;
        Ok(Reply::json(&sample).warned(warnings))
    }
}
