//! `evodb best <dbPath> [--target T] [--front]`: the fittest program (`null` in an empty
//! database); with `--front`, a Pareto run's whole first front (the core's `pareto_front`, read
//! natively from the database's JSON).

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
    pub front: bool,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath"), target: optional(m, "target"), front: m.get_flag("front") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args { db, target, front } = self;
        if front {
            if target.is_some() {
                return Err(Failure::Usage("--front prints the whole run's front; leave out --target".into()));
            }
            let text = ctx.engine()?.database_json(&db)?.to_string();
            let database = evodb_core::Database::from_json(&text)?;
            return Ok(Reply::json(&database.pareto_front()?));
        }
        Ok(Reply::json(&ctx.engine()?.open(&db, Access::Read)?.best(target.as_deref())?))
    }
}
