//! `evodb info <dbPath>`: the database's size, iteration and islands.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_host::Access;

use crate::context::Context;
use crate::failure::Failure;
use crate::matches::required;
use crate::reply::Reply;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Args {
    pub db: PathBuf,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        Ok(Reply::json(&ctx.engine()?.open(&self.db, Access::Read)?.info()?))
    }
}
