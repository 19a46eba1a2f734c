//! What the operations return, shaped exactly like the seed CLI's JSON (camelCase keys, nulls
//! where the seed prints null). Faces serialize these as they are. A program's texts (id, code,
//! path, changes) are `Arc<str>` shared with the stored program: a result clones pointers.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::api::{Note, Operator, Status, SynergyItem};
use crate::metrics::Metrics;

/// `info`: `{isEmpty, lastIteration, programCount, bestProgramId, bestMetrics, seedCodePath, seedTargetCode}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Info {
    pub is_empty: bool,
    pub last_iteration: u64,
    pub program_count: usize,
    pub best_program_id: Option<Arc<str>>,
    pub best_metrics: Option<Metrics>,
    pub seed_code_path: Option<Arc<str>>,
    pub seed_target_code: Option<Arc<str>>,
}

/// `add`: `{id, metrics, bestProgramId, bestMetrics, lastIteration}`, plus `warnings` when there
/// are any (e.g. an unknown parent id, which the seed silently treats as generation 0). Beyond the
/// seed: `status` unless accepted; `cached: true` when dedupe answered with an earlier
/// candidate (then `id` and `metrics` are that candidate's). The best fields are null only when
/// an error candidate arrives before any program.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct AddOutcome {
    pub id: String,
    pub metrics: Metrics,
    pub best_program_id: Option<String>,
    pub best_metrics: Option<Metrics>,
    pub last_iteration: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    #[serde(default, skip_serializing_if = "Status::is_accepted")]
    pub status: Status,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
    /// The MAP-Elites cell, when feature dimensions are configured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<Vec<u32>>,
}

/// `sample`: `{parent: {...} | null, inspirations: [...]}`; with operators configured, also
/// `operator`, `island`, `secondParent`, `donorIsland` and `forcedBy` (when an override decided);
/// with named islands, `island`, `islandName` and `islandDescription`; with notes, `notes`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Sample {
    pub parent: Option<SampledParent>,
    pub inspirations: Vec<Inspiration>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operator: Option<Operator>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_parent: Option<SampledParent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub donor_island: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced_by: Option<String>,
    /// Named islands: the sampled island's name and description, and the donor island's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island_description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub donor_island_name: Option<String>,
    /// Run memory: the notes by relevance (lessons, then those about the parent, then the rest;
    /// newest first within each), within `config.notes` (`recent_notes`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    /// In a several-target run: the target the candidate is a version of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// With operators configured: the parent's fitness, what a child must beat to be accepted
    /// under the playbook's rule (`add --decide`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_fitness: Option<f64>,
    /// A leased plan item whose lease expired, handed out again by this sample (`sample_at`):
    /// answer it with `add --planItem` and this lease's token, like a plan item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan_item: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease: Option<crate::api::Lease>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SampledParent {
    pub id: Arc<str>,
    pub code_path: Arc<str>,
    pub target_code: Arc<str>,
    pub metrics: Metrics,
    pub changes: Arc<str>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Inspiration {
    pub id: Arc<str>,
    pub metrics: Metrics,
    pub changes: Arc<str>,
}

/// `best`: `{id, codePath, targetCode, metrics, changes, iterationFound}` (or `null`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct BestProgram {
    pub id: Arc<str>,
    pub code_path: Arc<str>,
    pub target_code: Arc<str>,
    pub metrics: Metrics,
    pub changes: Arc<str>,
    pub iteration_found: u64,
}

/// What `plan` returns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    /// The batch number (`gen-{N}` in the names), counted from 0.
    pub generation: u64,
    pub items: Vec<PlanItem>,
    /// Every `synergyEvery` rounds of a several-target run: the item combining each target's best.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub synergy: Option<SynergyItem>,
}

/// One worker's task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PlanItem {
    /// `gen-{N}/island-{target}/{operator}-{i}`: a ready-made branch name.
    pub name: String,
    pub operator: Operator,
    /// The target island: the candidate joins it.
    pub island: u32,
    /// The parent first; crossover's diverse parent or migration's donor second.
    pub parent_ids: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub donor_island: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced_by: Option<String>,
    /// Named islands: the target island's name and description, and the donor island's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island_description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub donor_island_name: Option<String>,
    /// Run memory: the notes by relevance (lessons, then those about the parent, then the rest;
    /// newest first within each), within `config.notes` (`recent_notes`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    /// In a several-target run: the target the candidate is a version of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// What a sample carries, so a worker needs nothing else: the parent (with its fitness),
    /// the second parent, and the inspirations, best first (`plan_inspirations`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<SampledParent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_fitness: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_parent: Option<SampledParent>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inspirations: Vec<Inspiration>,
    /// In an idea run: what the item asks for (generate, or refine one idea) and the context it
    /// may use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idea: Option<crate::api::IdeaBrief>,
    /// Handed out under a lease (`plan` with `leaseSeconds`): answer with its token before it
    /// expires, or `heartbeat` to extend it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease: Option<crate::api::Lease>,
}

/// What `should_stop` answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct StopVerdict {
    pub stop: bool,
    /// `threshold reached`, `budget exhausted`, `stagnation` or `max rounds`; null to go on.
    pub reason: Option<String>,
    pub evaluations: u64,
    pub rounds: u64,
    /// Evaluations in a row without a new best fitness.
    pub stagnation: u64,
    pub best_fitness: Option<f64>,
}

/// What `lineage(id)` returns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Lineage {
    pub id: String,
    /// The parent first, then its parent, … up to the seed program or a pruned ancestor.
    pub ancestors: Vec<String>,
    /// The first ancestor no longer in the population; `None` when the chain reaches the root.
    pub missing_ancestor: Option<String>,
    /// Every live program descending from `id`, oldest first (`iterationFound`, then id).
    pub descendants: Vec<String>,
}

/// What `policy_check` answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PolicyVerdict {
    pub pass: bool,
    /// Why it failed, naming the file: e.g. `Protected file modified: 'benchmark.py'`.
    pub reason: Option<String>,
}

/// What `admit` answers before a candidate is evaluated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Admission {
    pub verdict: AdmissionVerdict,
    /// The live program it duplicates, or the closest one (none in an empty population).
    pub of: Option<String>,
    /// How alike the closest program is, 0–1 (1 for a duplicate): a MinHash estimate of the
    /// Jaccard index of their token shingles.
    pub similarity: f64,
}

/// `evaluate`, `duplicate` (equal once comments and whitespace are normalised) or
/// `nearDuplicate` (at least the config's `nearDuplicate` alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "kebab-case")]
pub enum AdmissionVerdict {
    Evaluate,
    Duplicate,
    NearDuplicate,
}

/// A live program whose code is alike an earlier-added live program's beyond the config's
/// `nearDuplicate` (what `near_duplicates` lists; `admit` would call it a near-duplicate, or a
/// duplicate at 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct NearDuplicate {
    pub id: String,
    /// The earlier-added live program it is closest to (the earliest of equally close ones).
    pub of: String,
    /// How alike they are, 0–1, as `admit` measures it (1 for equal normalised code).
    pub similarity: f64,
}
