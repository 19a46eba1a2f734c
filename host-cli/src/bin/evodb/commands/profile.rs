//! `evodb profile export <run>`: the weights an idea run's `overall_score` uses, as a profile
//! `evodb ideas --profile` reads (every weight 1 for the plain mean).

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::{Config, Profile};

use crate::context::Context;
use crate::failure::Failure;
use crate::matches::{required, subcommand};
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        let ("export", m) = subcommand(m) else { unreachable!("the table's `profile` has only `export`") };
        Args { db: required(m, "dbPath") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let engine = ctx.engine()?;
        if !engine.open(&self.db, evodb_host::Access::Read)?.holds_database() {
            return Err(crate::idea_runs::missing_run(&self.db));
        }
        let file = engine.database_json(&self.db)?;
        let config = Config::from_json(&file["evodb"]["config"].to_string())?;
        if config.kind.is_programs() {
            return Err(Failure::BadInput(format!(
                "`{}` holds programs; a profile weights an idea run's criteria",
                self.db.display()
            )));
        }
        let profile = Profile::of_config(&config).ok_or_else(|| Failure::Internal("no profile".into()))?;
        Ok(Reply::from(profile.to_json()))
    }
}
