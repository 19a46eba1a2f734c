//! `evodb seed <dbPath>`: the initial program (the seed's `add --parentId root`).

use std::path::PathBuf;

use clap::ArgMatches;
use serde_json::json;

use evodb_core::{AddCommand, AddFlags};

use crate::candidate::{CandidateArgs, add_to};
use crate::context::Context;
use crate::failure::Failure;
use crate::matches::{optional, required};
use crate::reply::Reply;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Args {
    pub db: PathBuf,
    pub candidate: CandidateArgs,
    pub target_id: Option<String>,
    /// `--embedding`: JSON text.
    pub embedding: Option<String>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            db: required(m, "dbPath"),
            candidate: CandidateArgs::from_matches(m),
            target_id: optional(m, "targetId"),
            embedding: optional(m, "embedding"),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args { db, candidate, target_id, embedding } = self;
        let flags = AddFlags { target_id, embedding, ..AddFlags::default() };
        let request = candidate.into_request(AddCommand::Seed, flags)?;
        let (warnings, outcome) = add_to(ctx.engine()?, &db, request, true)?;
        let reply = Reply::json(&json!({"id": outcome.id, "metrics": outcome.metrics}));
        Ok(reply.warned(outcome.warnings).warned(warnings))
    }
}
