//! `evodb add-idea <dbPath> --idea JSON|--ideaFile F --scores JSON [--parents a,b] [--origin]`: a
//! critic-scored idea joins an idea run. The engine checks the idea, the scores and the origin
//! (`admit_idea`), so a bad one changes nothing.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::{AddRequest, IDEA_PATH, IdeaOrigin, Metrics, ROOT_PARENT_ID, Status};

use crate::candidate::add_to;
use crate::context::Context;
use crate::failure::Failure;
use crate::idea_runs::missing_run;
use crate::input::read_text;
use crate::matches::optional;
use crate::reply::Reply;

#[derive(Clone, Debug)]
pub struct Args {
    pub db: PathBuf,
    pub idea: Option<String>,
    pub idea_file: Option<PathBuf>,
    pub scores: Option<String>,
    pub parents: Option<String>,
    pub origin: Option<String>,
    pub plan_item: Option<String>,
    pub id: Option<String>,
    pub status: Option<String>,
    pub reason: Option<String>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            db: crate::matches::required(m, "dbPath"),
            idea: optional(m, "idea"),
            idea_file: optional(m, "ideaFile"),
            scores: optional(m, "scores"),
            parents: optional(m, "parents"),
            origin: optional(m, "origin"),
            plan_item: optional(m, "planItem"),
            id: optional(m, "id"),
            status: optional(m, "status"),
            reason: optional(m, "reason"),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let idea = match (self.idea, &self.idea_file) {
            (Some(idea), _) => idea,
            (None, Some(path)) => read_text("ideaFile", path)?,
            (None, None) => return Err(Failure::Usage("Missing required flag: --idea (or --ideaFile)".into())),
        };
        let status: Status = match &self.status {
            Some(name) => word(name, "status")?,
            None => Status::Accepted,
        };
        let metrics: Metrics = match (&self.scores, status) {
            (Some(json), _) => serde_json::from_str(json).map_err(|e| {
                Failure::BadInput(format!(
                    "invalid --scores: {e}; pass the eight criteria as a JSON object of numbers 0-10"
                ))
            })?,
            (None, Status::Error) => Metrics::default(),
            (None, _) => return Err(Failure::Usage("Missing required flag: --scores".into())),
        };
        let parents: Vec<String> = self
            .parents
            .as_deref()
            .map(|list| list.split(',').map(str::trim).filter(|id| !id.is_empty()).map(String::from).collect())
            .unwrap_or_default();
        // Always named, so that a programs run refuses the idea rather than storing it as code.
        let origin: IdeaOrigin = match self.origin.as_deref() {
            Some(name) => word(name, "origin")?,
            None => IdeaOrigin::implied_by(parents.len()),
        };
        let request = AddRequest {
            id: self.id,
            code_path: IDEA_PATH.to_string(),
            target_code: idea,
            parent_id: ROOT_PARENT_ID.to_string(),
            metrics,
            changes: String::new(),
            island: None,
            status,
            reason: self.reason,
            operator: None,
            plan_item: self.plan_item,
            branch: None,
            commit: None,
            target: None,
            origin: Some(origin),
            parents,
            ..AddRequest::seed("", "", Default::default())
        };
        let engine = ctx.engine()?;
        if !engine.open(&self.db, evodb_host::Access::Read)?.holds_database() {
            return Err(missing_run(&self.db));
        }
        let (mut warnings, mut outcome) = add_to(engine, &self.db, request, false)?;
        warnings.append(&mut outcome.warnings);
        Ok(Reply::json(&outcome).warned(warnings))
    }
}

/// A flag's word (the table lists the possible ones) as the engine's enum.
fn word<T: serde::de::DeserializeOwned>(name: &str, flag: &str) -> Result<T, Failure> {
    serde_json::from_value(serde_json::Value::String(name.to_string()))
        .map_err(|e| Failure::Usage(format!("invalid --{flag} `{name}`: {e}")))
}
