//! `evodb best <dbPath> [--target T]`: the fittest program (`null` in an empty database).

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
        Ok(Reply::json(&ctx.engine()?.open(&db, Access::Read)?.best(target.as_deref())?))
    }
}
