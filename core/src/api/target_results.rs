//! The shapes of several-target runs: a target's figures in `stats`, the `synergy` item a plan
//! round may carry, and the recorded result of one.

use serde::{Deserialize, Serialize};

use crate::metrics::Metrics;

/// One target's figures (`stats.targets`): its programs, its best, and its own stopping verdict
/// (the threshold on its best, the budget, patience on its own evaluations).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct TargetStats {
    pub id: String,
    /// Its islands, lowest first.
    pub islands: Vec<u32>,
    pub program_count: usize,
    pub best_program_id: Option<String>,
    pub best_fitness: Option<f64>,
    /// Evaluations of its candidates; synergy evaluations count for every target.
    pub evaluations: u64,
    /// Of those, in a row without a new best of the target.
    pub stagnation: u64,
    /// The best fitness a synergy candidate holding this target's program reached.
    pub best_synergy_fitness: Option<f64>,
    pub stop: bool,
    pub reason: Option<String>,
}

/// A `plan` round's synergy item: combine each target's current best into one candidate,
/// evaluate it, and add it naming this item; its result is recorded against every target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SynergyItem {
    /// `gen-{N}/synergy`: the `planItem` of the add that answers it.
    pub name: String,
    pub parts: Vec<SynergyPart>,
}

/// One target's program in a synergy item.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SynergyPart {
    pub target: String,
    pub program_id: String,
}

/// An evaluated synergy candidate, as the database keeps it (`evodb.synergies`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SynergyResult {
    pub name: String,
    pub id: String,
    pub seq: u64,
    pub parts: Vec<SynergyPart>,
    pub metrics: Metrics,
    pub fitness: f64,
}
