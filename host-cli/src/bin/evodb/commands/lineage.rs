//! `evodb lineage <dbPath> <id>`: a program's ancestors, oldest first.

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
    pub id: String,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath"), id: required(m, "id") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args { db, id } = self;
        let lineage = ctx.engine()?.open(&db, Access::Read)?.lineage(&id)?;
        let lineage = lineage.ok_or_else(|| {
            Failure::NotFound(format!("no live program has id `{id}`; `evodb best` or `evodb export` list the ids"))
        })?;
        Ok(Reply::json(&lineage))
    }
}
