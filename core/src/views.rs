//! What the operations return, shaped exactly like the seed CLI's JSON (camelCase keys, nulls
//! where the seed prints null). Faces serialize these as they are.

use serde::{Deserialize, Serialize};

use crate::candidates::Status;
use crate::metrics::Metrics;
use crate::operators::Operator;
use crate::program::Program;

/// `info`: `{isEmpty, lastIteration, programCount, bestProgramId, bestMetrics, seedCodePath, seedTargetCode}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Info {
    pub is_empty: bool,
    pub last_iteration: u64,
    pub program_count: usize,
    pub best_program_id: Option<String>,
    pub best_metrics: Option<Metrics>,
    pub seed_code_path: Option<String>,
    pub seed_target_code: Option<String>,
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
/// `operator`, `island`, `secondParent`, `donorIsland` and `forcedBy` (when an override decided).
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
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SampledParent {
    pub id: String,
    pub code_path: String,
    pub target_code: String,
    pub metrics: Metrics,
    pub changes: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Inspiration {
    pub id: String,
    pub metrics: Metrics,
    pub changes: String,
}

/// `best`: `{id, codePath, targetCode, metrics, changes, iterationFound}` (or `null`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct BestProgram {
    pub id: String,
    pub code_path: String,
    pub target_code: String,
    pub metrics: Metrics,
    pub changes: String,
    pub iteration_found: u64,
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
