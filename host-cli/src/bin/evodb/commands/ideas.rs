//! `evodb ideas <dbPath> [--rounds --population --elite --threshold --patience --profile]`: a new
//! idea run (evoidea) with the seed's defaults; refused where a run exists.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::{Config, Database, IdeaRunOptions, Info, Profile};
use evodb_host::bridge::core;

use crate::context::Context;
use crate::failure::Failure;
use crate::input::read_text;
use crate::matches::{optional, required};
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
    pub rounds: u64,
    pub population: u32,
    pub elite: u32,
    pub threshold: f64,
    pub patience: u64,
    pub profile: Option<PathBuf>,
    pub seed: u64,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            db: required(m, "dbPath"),
            rounds: required(m, "rounds"),
            population: required(m, "population"),
            elite: required(m, "elite"),
            threshold: required(m, "threshold"),
            patience: required(m, "patience"),
            profile: optional(m, "profile"),
            seed: required(m, "rngSeed"),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let profile = match &self.profile {
            Some(path) => Some(Profile::from_json(&read_text("profile", path)?)?),
            None => None,
        };
        let options = IdeaRunOptions {
            rounds: self.rounds,
            population: self.population,
            elite: self.elite,
            threshold: self.threshold,
            patience: self.patience,
            profile,
        };
        // Checked before the directory is created, so a bad option leaves nothing behind.
        let config = Config::for_ideas(&options)?;
        Database::check_seed(self.seed)?;
        let config = serde_json::to_string(&config).map_err(|e| Failure::Internal(e.to_string()))?;
        let info = ctx.engine()?.open_to_create(&self.db)?.init(&config, self.seed)?;
        Ok(Reply::json(&core::<_, Info>(info)))
    }
}
