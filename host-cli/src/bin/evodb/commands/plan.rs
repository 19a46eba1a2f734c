//! `evodb plan <dbPath> --n N`: a batch of N named work items for parallel workers, each
//! handed out once and answered by an `add --planItem`; with `--leaseSeconds` (or the config's
//! `leaseSeconds`) under leases that `heartbeat` extends and whose expiry hands the item out again.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_host::Access;

use crate::context::Context;
use crate::failure::Failure;
use crate::input::now;
use crate::matches::{list, optional, required};
use crate::reply::Reply;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Args {
    pub db: PathBuf,
    pub n: u32,
    pub frozen: Vec<u32>,
    pub boosted: Vec<u32>,
    pub lease_seconds: Option<f64>,
    /// `--now`; else the clock where the command runs (the server's, for `evodb serve`).
    pub now: Option<f64>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            db: required(m, "dbPath"),
            n: required(m, "n"),
            frozen: list(m, "frozen"),
            boosted: list(m, "boosted"),
            lease_seconds: optional(m, "leaseSeconds"),
            now: optional(m, "now"),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args { db, n, frozen, boosted, lease_seconds, now: given } = self;
        let mut session = ctx.engine()?.open(&db, Access::Write)?;
        let warnings = session.new_database_warning();
        let plan = session.plan_at(n, &frozen, &boosted, given.unwrap_or_else(now), lease_seconds)?;
        Ok(Reply::json(&plan).warned(warnings))
    }
}
