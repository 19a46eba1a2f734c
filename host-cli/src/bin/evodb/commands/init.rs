//! `evodb init <dbPath> --rngSeed N [config flags]`: a new database with its config and PRNG
//! seed; refused where one exists.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::Info;
use evodb_host::bridge::core;

use crate::config_flags::InitConfig;
use crate::context::Context;
use crate::failure::Failure;
use crate::matches::required;
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
    /// `--rngSeed`: the seed of the database's PRNG.
    pub seed: u64,
    pub config: InitConfig,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath"), seed: required(m, "rngSeed"), config: InitConfig::from_matches(m) }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let config = self.config.to_json()?;
        // Checked before the directory is created, so a bad config leaves nothing behind.
        evodb_core::Config::from_json(&config)?;
        evodb_core::Database::check_seed(self.seed)?;
        let info = ctx.engine()?.open_to_create(&self.db)?.init(&config, self.seed)?;
        Ok(Reply::json(&core::<_, Info>(info)))
    }
}
