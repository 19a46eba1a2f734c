//! `evodb history <dbPath> [--tail N]`: the run's events, one JSON line each.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_host::Access;

use crate::context::Context;
use crate::failure::Failure;
use crate::location::Location;
use crate::matches::{optional, required};
use crate::reply::Reply;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Args {
    pub db: PathBuf,
    pub tail: Option<usize>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath"), tail: optional(m, "tail") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args { db, tail } = self;
        let engine = ctx.engine()?;
        let mut session = engine.open(&db, Access::Read)?;
        if matches!(engine.locate(&db)?, Location::Directory(_)) {
            // Read by the host from the end: `--tail 1` on a history of any size reads kilobytes.
            let cap = ctx.sandbox.memory_limit_mb.saturating_mul(1 << 20);
            return Ok(evodb_host::history::lines(session.directory(), tail, cap)?.into());
        }
        let text = session.history()?;
        let lines: Vec<&str> = text.lines().collect();
        let start = tail.map_or(0, |n| lines.len().saturating_sub(n));
        Ok(lines[start..].join("\n").into())
    }
}
