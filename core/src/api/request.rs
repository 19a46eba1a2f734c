//! The request that adds a candidate, and the limits every face checks it against.

use serde::{Deserialize, Serialize};

use crate::api::{IdeaOrigin, Operator, Status};
use crate::error::{Error, Result, parse_json};
use crate::metrics::Metrics;

/// The parent id the seed gives the initial program.
pub const ROOT_PARENT_ID: &str = "0";

/// The largest `targetCode` or `changes` accepted (1 MiB). Every program is held in memory and
/// rewritten with the whole database on each change, so a stray multi-megabyte file (a build
/// artefact, a dataset) would slow every later operation; real candidates are far smaller.
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// A scored candidate to add.
///
/// ```
/// let req: evodb_core::AddRequest = serde_json::from_str(r#"{
///   "codePath": "/p/candidates/iteration_1.py", "targetCode": "def f(): return 1",
///   "parentId": "0", "metrics": {"score": 0.5}, "changes": "first try"
/// }"#).unwrap();
/// assert_eq!(req.metrics.get("score"), Some(0.5));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddRequest {
    /// Omit to get a deterministic UUID-shaped id: from the plan item's name for a planned add,
    /// else from the database's PRNG. An add that names a
    /// live program's id with that program's fields is a retry: it is answered again and adds
    /// nothing; with other fields the id is a duplicate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub code_path: String,
    pub target_code: String,
    #[serde(default = "root_parent")]
    pub parent_id: String,
    pub metrics: Metrics,
    #[serde(default)]
    pub changes: String,
    /// Target island; required with explicit placement, an override otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island: Option<u32>,
    /// `accepted` (default), `rejected` (kept in the population as memory), or `error` (the
    /// evaluation failed: recorded with fitness null, never placed on an island).
    #[serde(default, skip_serializing_if = "Status::is_accepted")]
    pub status: Status,
    /// Why a candidate was rejected or failed; required for `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operator: Option<Operator>,
    /// The `plan` item this candidate answers: it lands on that item's island and operator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan_item: Option<String>,
    /// The lease token of the plan item it answers (`plan` with `leaseSeconds`): required for
    /// a leased item, refused when the item was handed out again under another token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The git branch holding the candidate (git mode), kept with the program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// The candidate's git commit (git mode), kept with the program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// In a several-target run: the target the candidate is a version of (else taken from its
    /// plan item, island or parent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The playbook's rule, applied by the engine (`decide_status`): the candidate is accepted
    /// when it is fitter than its parent, else rejected with a reason naming both fitnesses.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub decide: bool,
    /// Cost and attribution (each optional): the model that wrote the candidate, the tokens it
    /// read and wrote, the price of the call in US dollars and the evaluation's wall time.
    /// `stats` totals them per operator × model × island; `stopping.maxCostUsd` caps the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_in: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_out: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval_seconds: Option<f64>,
    /// Idea runs: how the idea came about (implied by its parents when left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<IdeaOrigin>,
    /// Idea runs: every parent, first one first (a merged idea has several); the first is the
    /// `parentId`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<String>,
    /// Per-instance scores: test or instance id → score, higher is better (`selection.mode`
    /// `instances` keeps every program that is the best on some instance; `stats.instances`
    /// reports per-instance coverage in any mode).
    #[serde(default, skip_serializing_if = "Metrics::is_empty")]
    pub instance_scores: Metrics,
    /// The caller's own embedding of the candidate (any model, every add of a run the same
    /// length), kept with the program so that `admit` with an embedding compares against it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedding: Option<Vec<f64>>,
}

/// The longest model name an add takes.
pub const MAX_MODEL_BYTES: usize = 200;

fn root_parent() -> String {
    ROOT_PARENT_ID.to_string()
}

/// The `changes` of the seed command's request.
pub const SEED_CHANGES: &str = "initial implementation";

impl AddRequest {
    /// Whether this is what the seed command sends: parent `"0"` and changes [`SEED_CHANGES`].
    pub fn is_seed(&self) -> bool {
        self.parent_id == ROOT_PARENT_ID && self.changes == SEED_CHANGES
    }

    /// The seed command's request: parent `"0"`, changes `"initial implementation"`.
    pub fn seed(code_path: impl Into<String>, target_code: impl Into<String>, metrics: Metrics) -> AddRequest {
        AddRequest {
            id: None,
            code_path: code_path.into(),
            target_code: target_code.into(),
            parent_id: root_parent(),
            metrics,
            changes: SEED_CHANGES.to_string(),
            island: None,
            status: Status::Accepted,
            reason: None,
            operator: None,
            plan_item: None,
            token: None,
            branch: None,
            commit: None,
            target: None,
            decide: false,
            model: None,
            tokens_in: None,
            tokens_out: None,
            cost_usd: None,
            eval_seconds: None,
            origin: None,
            parents: Vec::new(),
            instance_scores: Metrics::default(),
            embedding: None,
        }
    }

    /// Parses a request from JSON (camelCase, as the seed CLI's flags name the fields); errors
    /// name the offending field.
    ///
    /// ```
    /// let err = evodb_core::AddRequest::from_json(r#"{"codePath":"a","targetCode":"b","metrics":{"s":"high"}}"#).unwrap_err();
    /// assert!(err.to_string().contains("metrics.s"), "{err}");
    /// ```
    pub fn from_json(text: &str) -> Result<AddRequest> {
        parse_json(text).map_err(|(path, e)| Error::input(path.unwrap_or_else(|| "request".into()), e.to_string()))
    }

    pub(crate) fn validate(&self) -> Result<()> {
        if let Some(id) = &self.id
            && id.trim().is_empty()
        {
            return Err(Error::input("id", "is empty; omit it to get a generated id"));
        }
        if self.code_path.trim().is_empty() {
            return Err(Error::input("codePath", "is empty; pass the path of the candidate's file"));
        }
        if self.target_code.trim().is_empty() {
            return Err(Error::input("targetCode", "is empty; pass the candidate's source code"));
        }
        if let Some(why) = self.branch.as_deref().and_then(super::branch_problem) {
            return Err(Error::input("branch", why));
        }
        if let Some(why) = self.commit.as_deref().and_then(super::commit_problem) {
            return Err(Error::input("commit", why));
        }
        if let Some(model) = &self.model
            && (model.trim().is_empty() || model.len() > MAX_MODEL_BYTES || model.chars().any(char::is_control))
        {
            return Err(Error::input(
                "model",
                format!("must be a name of 1 to {MAX_MODEL_BYTES} bytes without control characters, e.g. gpt-5-mini"),
            ));
        }
        for (field, value) in [("costUsd", self.cost_usd), ("evalSeconds", self.eval_seconds)] {
            if let Some(value) = value
                && !(value.is_finite() && value >= 0.0)
            {
                return Err(Error::input(field, format!("is {value}; pass a finite number of at least 0")));
            }
        }
        if let Some(embedding) = &self.embedding {
            super::embedding_problem(embedding).map_err(|why| Error::input("embedding", why))?;
        }
        if self.decide && self.status != Status::Accepted {
            return Err(Error::input(
                "decide",
                "decides the status itself; leave out --status (or leave out --decide to set it yourself)",
            ));
        }
        if self.status == Status::Error && self.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
            return Err(Error::input("reason", "is required for status `error`; say why the evaluation failed"));
        }
        let reason = self.reason.as_deref().unwrap_or("");
        for (field, text) in
            [("targetCode", &self.target_code), ("changes", &self.changes), ("reason", &reason.to_string())]
        {
            if text.len() > MAX_TEXT_BYTES {
                return Err(Error::input(
                    field,
                    format!(
                        "is {} bytes, over the {MAX_TEXT_BYTES}-byte limit; pass only the code under evolution",
                        text.len()
                    ),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_fields_are_rejected_by_name() {
        let ok = AddRequest::seed("/a.py", "x = 1", Metrics::default());
        ok.validate().unwrap();
        for (field, req) in [
            ("codePath", AddRequest { code_path: " ".into(), ..ok.clone() }),
            ("targetCode", AddRequest { target_code: "".into(), ..ok.clone() }),
            ("id", AddRequest { id: Some("".into()), ..ok.clone() }),
            ("targetCode", AddRequest { target_code: "x".repeat(MAX_TEXT_BYTES + 1), ..ok.clone() }),
            ("changes", AddRequest { changes: "x".repeat(MAX_TEXT_BYTES + 1), ..ok.clone() }),
        ] {
            match req.validate() {
                Err(Error::InvalidInput { field: f, .. }) => assert_eq!(f, field),
                other => panic!("{field}: {other:?}"),
            }
        }
    }

    #[test]
    fn unknown_request_fields_are_named() {
        let err = serde_json::from_str::<AddRequest>(r#"{"codePath":"a","targetCode":"b","metrics":{},"parent":"x"}"#)
            .unwrap_err();
        assert!(err.to_string().contains("parent"), "{err}");
    }
}
