//! `evodb leases <dbPath>`: the leased plan items not applied yet, in plan order, each live,
//! expired (the next `plan` hands it out again) or held (answered, waiting for the items before
//! it in its batch), with its token, expiry and attempt. Reads only.

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
    pub now: Option<f64>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath"), now: optional(m, "now") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let leases = ctx.engine()?.open(&self.db, Access::Read)?.leases(self.now.unwrap_or_else(now))?;
        Ok(Reply::json(&leases))
    }
}
