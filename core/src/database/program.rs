//! A stored program: one candidate as `database.json` keeps it.

use std::sync::Arc;

use serde::Serialize;

use crate::api::{AddRequest, BestProgram, IdeaOrigin, Inspiration, Operator, SampledParent, Status};
use crate::metrics::Metrics;

/// One program as it is stored: the seed's fields in the seed's order, then evodb's. Its texts are
/// shared (`Arc<str>`) with every result that shows them, so a sample copies no code.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Program {
    pub id: Arc<str>,
    pub code_path: Arc<str>,
    pub target_code: Arc<str>,
    pub parent_id: String,
    pub generation: u64,
    pub iteration_found: u64,
    /// Seconds since the epoch, as the caller passed it (`now`).
    pub timestamp: f64,
    pub metrics: Metrics,
    pub changes: Arc<str>,
    /// Home island: where the program was placed when added.
    pub island: u32,
    /// For a copy made by copy-mode migration: the id it was copied from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub migrated_from: Option<String>,
    /// The candidate's number in the run (1, 2, 3, … across every island, errors included; a
    /// migration copy keeps its original's) when it differs from `iterationFound + 1`, the number
    /// the seed's own files imply. Read it with [`Program::seq`].
    #[serde(rename = "seq", skip_serializing_if = "Option::is_none")]
    pub seq_if_not_implied: Option<u64>,
    /// `rejected` when the caller said so; accepted programs leave it out.
    #[serde(skip_serializing_if = "Status::is_accepted")]
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The operator that produced it, when the caller or its plan item said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operator: Option<Operator>,
    /// The second program it was made from, when the operator sample it answered handed one
    /// out: crossover's diverse parent, migration's donor program (`sampled_second_parent`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_parent_id: Option<String>,
    /// The MAP-Elites cell (a bucket per feature dimension), when dimensions are configured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell: Option<Vec<u32>>,
    /// Git mode: the branch and the commit holding the candidate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<Arc<str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<Arc<str>>,
    /// In a several-target run: the target it is a version of (its home island's target).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Arc<str>>,
    /// How many measurements `metrics` is the mean of, once `remeasure` folded in a second one
    /// (absent: the add's one). Read it with [`Program::measurements`].
    #[serde(rename = "measurements", skip_serializing_if = "Option::is_none")]
    pub measurements_if_several: Option<u64>,
    /// An idea's origin (idea runs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<IdeaOrigin>,
    /// A merged idea's parents, all of them in order (`parentId` is the first, `secondParentId`
    /// the second); absent for one parent or none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<String>,
    /// Per-instance scores (`add --instanceScores`): instance id → score, higher is better.
    #[serde(skip_serializing_if = "Metrics::is_empty")]
    pub instance_scores: Metrics,
    /// The caller's embedding of the code (`add --embedding`), for `admit --embedding`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedding: Option<Arc<[f64]>>,
}

impl Program {
    /// The candidate's number in the run: 1, 2, 3, … across every island, errors included.
    pub fn seq(&self) -> u64 {
        self.seq_if_not_implied.unwrap_or(self.iteration_found + 1)
    }

    /// Every parent, first one first: the merged list, else `parentId` unless it is the root.
    pub fn all_parents(&self) -> Vec<String> {
        if !self.parents.is_empty() {
            return self.parents.clone();
        }
        [Some(&self.parent_id), self.second_parent_id.as_ref()]
            .into_iter()
            .flatten()
            .filter(|id| id.as_str() != crate::api::ROOT_PARENT_ID && !id.is_empty())
            .cloned()
            .collect()
    }

    /// How many measurements its metrics are the mean of: 1 until `remeasure` adds more.
    pub fn measurements(&self) -> u64 {
        self.measurements_if_several.unwrap_or(1)
    }

    pub(crate) fn implied_seq(iteration_found: u64, seq: u64) -> Option<u64> {
        (seq != iteration_found + 1).then_some(seq)
    }

    /// Whether `request` asks to add this very program again, as a retry does when the first
    /// attempt's answer was lost: the same code, path, parent, metrics, changes, status and
    /// reason, instance scores, git branch and commit, and the same operator when the request names one. Time,
    /// island and plan item are
    /// left out: a retry comes later, and the first attempt already decided where it went.
    pub(crate) fn is_repeated_by(&self, request: &AddRequest) -> bool {
        *self.target_code == *request.target_code
            && *self.code_path == *request.code_path
            && self.parent_id == request.parent_id
            && self.metrics == request.metrics
            && self.instance_scores == request.instance_scores
            && *self.changes == *request.changes
            && self.status == request.status
            && self.reason == request.reason
            && self.branch.as_deref() == request.branch.as_deref()
            && self.commit.as_deref() == request.commit.as_deref()
            && request.operator.is_none_or(|operator| self.operator == Some(operator))
            && request.origin.is_none_or(|origin| self.origin == Some(origin))
            && (request.parents.len() < 2 || self.parents == request.parents)
    }
}

impl From<&Program> for SampledParent {
    fn from(p: &Program) -> Self {
        SampledParent {
            id: p.id.clone(),
            code_path: p.code_path.clone(),
            target_code: p.target_code.clone(),
            metrics: p.metrics.clone(),
            changes: p.changes.clone(),
        }
    }
}

impl From<&Program> for Inspiration {
    fn from(p: &Program) -> Self {
        Inspiration { id: p.id.clone(), metrics: p.metrics.clone(), changes: p.changes.clone() }
    }
}

impl From<&Program> for BestProgram {
    fn from(p: &Program) -> Self {
        BestProgram {
            id: p.id.clone(),
            code_path: p.code_path.clone(),
            target_code: p.target_code.clone(),
            metrics: p.metrics.clone(),
            changes: p.changes.clone(),
            iteration_found: p.iteration_found,
        }
    }
}
