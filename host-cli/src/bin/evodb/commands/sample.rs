//! `evodb sample <dbPath> [--target T]`: a parent, inspirations and notes for the next
//! candidate; with the operators on, the island it belongs to. Saved: the PRNG moved.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::Sample;
use evodb_host::Access;
use evodb_host::bridge::core;

use crate::context::Context;
use crate::failure::Failure;
use crate::matches::{optional, required};
use crate::reply::Reply;
use crate::session::ok;

#[derive(Debug)]
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
        let sample = match &target {
            None => session.write(|m, st, db| ok(m.call_sample(st, db)))?,
            Some(_) => session.write(|m, st, db| m.call_sample_for(st, db, target.as_deref()))?,
        };
        Ok(Reply::json(&core::<_, Sample>(sample)).warned(warnings))
    }
}
