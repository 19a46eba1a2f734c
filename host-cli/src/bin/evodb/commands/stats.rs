//! `evodb stats <dbPath>`: the run's progress (best and baseline fitness, counts per status).

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::Stats;
use evodb_host::Access;
use evodb_host::bridge::core;

use crate::context::Context;
use crate::failure::Failure;
use crate::matches::required;
use crate::reply::Reply;
use crate::session::ok;

#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let stats = ctx.engine()?.open(&self.db, Access::Read)?.read(|m, st, db| ok(m.call_stats(st, db)))?;
        Ok(Reply::json(&core::<_, Stats>(stats)))
    }
}
