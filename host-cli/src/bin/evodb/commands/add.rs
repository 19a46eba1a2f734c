//! `evodb add <dbPath>`: a candidate with its parent and metrics; in git mode (`--branch`,
//! `--commit`) read from a commit of the current directory's repository.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::{AddCommand, AddFlags};

use crate::candidate::{CandidateArgs, add_to};
use crate::context::Context;
use crate::failure::Failure;
use crate::git_mode::GitArgs;
use crate::matches::{optional, required};
use crate::reply::Reply;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Args {
    pub db: PathBuf,
    pub candidate: CandidateArgs,
    pub parent_id: Option<String>,
    pub id: Option<String>,
    pub island: Option<u32>,
    pub status: Option<String>,
    pub decide: bool,
    pub cost: CostArgs,
    pub reason: Option<String>,
    pub operator: Option<String>,
    pub plan_item: Option<String>,
    pub token: Option<String>,
    pub target_id: Option<String>,
    /// `--embedding`: JSON text.
    pub embedding: Option<String>,
    pub git: GitArgs,
}

/// `--model`, `--tokensIn`, `--tokensOut`, `--costUsd`, `--evalSeconds`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CostArgs {
    pub model: Option<String>,
    pub tokens_in: Option<u64>,
    pub tokens_out: Option<u64>,
    pub cost_usd: Option<f64>,
    pub eval_seconds: Option<f64>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            db: required(m, "dbPath"),
            candidate: CandidateArgs::from_matches(m),
            parent_id: optional(m, "parentId"),
            id: optional(m, "id"),
            island: optional(m, "island"),
            status: optional(m, "status"),
            decide: m.get_flag("decide"),
            cost: CostArgs {
                model: optional(m, "model"),
                tokens_in: optional(m, "tokensIn"),
                tokens_out: optional(m, "tokensOut"),
                cost_usd: optional(m, "costUsd"),
                eval_seconds: optional(m, "evalSeconds"),
            },
            reason: optional(m, "reason"),
            operator: optional(m, "operator"),
            plan_item: optional(m, "planItem"),
            token: optional(m, "token"),
            target_id: optional(m, "targetId"),
            embedding: optional(m, "embedding"),
            git: GitArgs::from_matches(m),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args {
            db,
            candidate: mut c,
            parent_id,
            id,
            island,
            status,
            decide,
            cost,
            reason,
            operator,
            plan_item,
            token,
            target_id,
            embedding,
            git,
        } = self;
        let git = crate::git_mode::resolve(git)?;
        if let Some(git) = &git {
            git.fill_code(&mut c.code_path, &mut c.target_code, c.target_code_file.is_some());
        }
        let flags = AddFlags {
            parent_id,
            id,
            island,
            status,
            decide,
            reason,
            operator,
            plan_item,
            token,
            target_id,
            model: cost.model,
            tokens_in: cost.tokens_in,
            tokens_out: cost.tokens_out,
            cost_usd: cost.cost_usd,
            eval_seconds: cost.eval_seconds,
            embedding,
            ..AddFlags::default()
        };
        let mut request = c.into_request(AddCommand::Add, flags)?;
        let engine = ctx.engine()?;
        let policy = match &git {
            Some(git) => git.apply(engine, &db, &mut request)?,
            None => None,
        };
        // The seed prints no warnings in its JSON; the CLI prints them on stderr.
        let (mut warnings, mut outcome) = add_to(engine, &db, request, false)?;
        warnings.extend(policy);
        warnings.append(&mut outcome.warnings);
        Ok(Reply::json(&outcome).warned(warnings))
    }
}
