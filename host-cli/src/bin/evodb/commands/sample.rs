//! `evodb sample <dbPath> [--target T] [--now S]`: a parent, inspirations and notes for the
//! next candidate; with the operators on, the island it belongs to; or a leased plan item whose
//! lease expired, handed out again (`planItem`, `lease`). Saved: the PRNG or a lease moved.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_host::Access;

use crate::context::Context;
use crate::failure::Failure;
use crate::input::now;
use crate::matches::{optional, required};
use crate::reply::Reply;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Args {
    pub db: PathBuf,
    pub target: Option<String>,
    /// `--now`; else the clock where the command runs (the server's, for `evodb serve`).
    pub now: Option<f64>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath"), target: optional(m, "target"), now: optional(m, "now") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args { db, target, now: given } = self;
        let mut session = ctx.engine()?.open(&db, Access::Write)?;
        let warnings = session.new_database_warning();
        let sample = session.sample_at(target.as_deref(), given.unwrap_or_else(now))?;
        Ok(Reply::json(&sample).warned(warnings))
    }
}
