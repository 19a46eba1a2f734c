//! `evodb plan <dbPath> --n N`: a batch of N named work items for parallel workers, each
//! handed out once and answered by an `add --planItem`.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_host::Access;

use crate::context::Context;
use crate::failure::Failure;
use crate::matches::{list, required};
use crate::reply::Reply;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Args {
    pub db: PathBuf,
    pub n: u32,
    pub frozen: Vec<u32>,
    pub boosted: Vec<u32>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath"), n: required(m, "n"), frozen: list(m, "frozen"), boosted: list(m, "boosted") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args { db, n, frozen, boosted } = self;
        let mut session = ctx.engine()?.open(&db, Access::Write)?;
        let warnings = session.new_database_warning();
        let plan = session.plan(n, &frozen, &boosted)?;
        Ok(Reply::json(&plan).warned(warnings))
    }
}
