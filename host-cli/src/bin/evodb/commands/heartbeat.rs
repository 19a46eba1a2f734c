//! `evodb heartbeat <dbPath> --item NAME --token T`: a worker still at a leased plan item
//! extends its lease, so the next `plan` does not hand the item out again. A stale token (the
//! item was handed out again) or an item not pending is refused, and nothing changes.

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
    pub item: String,
    pub token: String,
    pub lease_seconds: Option<f64>,
    pub now: Option<f64>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            db: required(m, "dbPath"),
            item: required(m, "item"),
            token: required(m, "token"),
            lease_seconds: optional(m, "leaseSeconds"),
            now: optional(m, "now"),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args { db, item, token, lease_seconds, now: given } = self;
        let mut session = ctx.engine()?.open(&db, Access::Write)?;
        let lease = session.heartbeat(&item, &token, given.unwrap_or_else(now), lease_seconds)?;
        Ok(Reply::json(&lease))
    }
}
