//! `evodb create <dbPath>`: an empty database, written only where there is none yet.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_host::{Access, DATABASE_FILE};

use crate::context::Context;
use crate::failure::Failure;
use crate::location::Location;
use crate::matches::required;
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let engine = ctx.engine()?;
        // Writes only where there is no database yet: an existing file keeps its bytes (and an
        // existing directory is not even locked).
        let exists = matches!(engine.locate(&self.db)?, Location::Directory(dir) if dir.join(DATABASE_FILE).exists());
        let mut session = match exists {
            true => engine.open(&self.db, Access::Read)?,
            false => engine.open_to_create(&self.db)?,
        };
        let info = if session.holds_database() { session.info()? } else { session.create()? };
        Ok(Reply::json(&info))
    }
}
