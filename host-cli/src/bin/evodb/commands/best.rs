//! `evodb best <dbPath> [--target T]`: the fittest program (`null` in an empty database).

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::BestProgram;
use evodb_host::Access;
use evodb_host::bridge::core;

use crate::context::Context;
use crate::failure::Failure;
use crate::matches::{optional, required};
use crate::reply::Reply;

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
        let best =
            ctx.engine()?.open(&db, Access::Read)?.read(|m, st, db| m.call_best_for(st, db, target.as_deref()))?;
        Ok(Reply::json(&core::<_, Option<BestProgram>>(best)))
    }
}
