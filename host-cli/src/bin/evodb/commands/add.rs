//! `evodb add <dbPath>`: a candidate with its parent and metrics; in git mode (`--branch`,
//! `--commit`) read from a commit of the current directory's repository.

use std::path::PathBuf;

use clap::ArgMatches;
use serde_json::json;

use crate::candidate::{CandidateArgs, add_request, add_to};
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
    pub reason: Option<String>,
    pub operator: Option<String>,
    pub plan_item: Option<String>,
    pub target_id: Option<String>,
    pub git: GitArgs,
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
            reason: optional(m, "reason"),
            operator: optional(m, "operator"),
            plan_item: optional(m, "planItem"),
            target_id: optional(m, "targetId"),
            git: GitArgs::from_matches(m),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let Args { db, candidate: mut c, parent_id, id, island, status, reason, operator, plan_item, target_id, git } =
            self;
        let git = crate::git_mode::resolve(git)?;
        if let Some(git) = &git {
            git.fill_code(&mut c.code_path, &mut c.target_code, c.target_code_file.is_some());
        }
        // Every flag the seed requires, checked in the seed's order.
        let required = [
            ("codePath", c.code_path.is_some()),
            ("targetCode", c.target_code.is_some() || c.target_code_file.is_some()),
            ("parentId", parent_id.is_some()),
            ("metrics", c.metrics.is_some()),
            ("changes", c.changes.is_some() || c.changes_file.is_some()),
        ];
        if let Some((name, _)) = required.iter().find(|(_, present)| !present) {
            return Err(Failure::missing_flag(name));
        }
        let mut fields = c.into_fields(true)?;
        fields.insert("parentId".into(), json!(parent_id));
        if let Some(id) = id {
            fields.insert("id".into(), json!(id));
        }
        let extras = [
            ("island", island.map(|i| json!(i))),
            ("status", status.map(|s| json!(s))),
            ("reason", reason.map(|r| json!(r))),
            ("operator", operator.map(|o| json!(o))),
            ("planItem", plan_item.map(|p| json!(p))),
            ("target", target_id.map(|t| json!(t))),
        ];
        for (key, value) in extras {
            if let Some(value) = value {
                fields.insert(key.into(), value);
            }
        }
        let engine = ctx.engine()?;
        let policy = match &git {
            Some(git) => git.apply(engine, &db, &mut fields)?,
            None => None,
        };
        let request = add_request(fields)?;
        // The seed prints no warnings in its JSON; the CLI prints them on stderr.
        let (mut warnings, mut outcome) = add_to(engine, &db, request)?;
        warnings.extend(policy);
        warnings.append(&mut outcome.warnings);
        Ok(Reply::json(&outcome).warned(warnings))
    }
}
