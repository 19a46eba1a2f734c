//! What `stats` returns: the population's figures overall, per island and per MAP-Elites cell.

use serde::{Deserialize, Serialize};

use crate::api::{Operator, Status, TargetStats};

/// What `stats` returns. Fitness values are the ranking value (`fitness_of`): higher is better,
/// metrics configured with direction `min` already count negated, so `improvement` =
/// `bestFitness − baselineFitness` is positive exactly when the run got better. Every figure is
/// shown to 12 significant digits (`json_text::shown`), so none prints as 0.7985500000000001.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub program_count: usize,
    /// Evaluations spent: every add, errors and cached repeats included (a database the seed's
    /// CLI wrote starts from its `lastIteration`).
    pub evaluations: u64,
    pub best_program_id: Option<String>,
    pub best_fitness: Option<f64>,
    pub mean_fitness: Option<f64>,
    /// The fitness of the seed program (`iterationFound` 0), while it is still in the population.
    pub baseline_fitness: Option<f64>,
    pub improvement: Option<f64>,
    /// `improvement` as a percentage of the baseline's magnitude, to two decimals (null without a
    /// baseline, or when the baseline is 0).
    pub improvement_percent: Option<f64>,
    pub islands: Vec<IslandStats>,
    /// The elite archive: the best `archiveSize` ids, best first.
    pub archive: Vec<String>,
    /// Evaluations in a row without a new best fitness.
    pub stagnation: u64,
    /// `plan` batches so far.
    pub rounds: u64,
    /// The last statuses, oldest first (what the operator overrides read).
    pub recent_statuses: Vec<Status>,
    /// MAP-Elites figures, when feature dimensions are configured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cells: Option<CellStats>,
    /// Per target, in a several-target run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<TargetStats>,
    /// What the run cost, once it has attribution rows (operators on, or an add that reported a cost).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<CostTotals>,
    /// Per operator × model × island: candidates, errors, improvements and what they cost.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attribution: Vec<Attribution>,
    /// The first front, in a pareto run (`selection.mode` `pareto`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pareto: Option<ParetoStats>,
    /// Per-instance coverage, once a live program carries `instanceScores`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<InstanceStats>,
}

/// Per-instance coverage of the live population: its instance front (the programs best on some
/// instance, dominated ones left out; ranked by instances led, then the scalar order) and, per
/// instance, the best score reached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct InstanceStats {
    /// Instances scored by some live program.
    pub instance_count: u32,
    pub front_size: u32,
    pub front: Vec<String>,
    /// The mean over instances of the best score reached: what the front scores together, to
    /// set beside the best program's own mean.
    pub mean_best: f64,
    /// Per instance, in instance-id order.
    pub coverage: Vec<InstanceCoverage>,
}

/// One instance: the best live score on it, the fittest program reaching it, how many reach it
/// and how many scored it at all.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct InstanceCoverage {
    pub instance: String,
    pub best: f64,
    pub leader: String,
    pub leaders: u32,
    pub scored: u32,
}

/// A pareto run's first front: its size, its ids by the pareto rank, and its hypervolume
/// against `selection.reference` (absent without one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ParetoStats {
    pub objectives: Vec<String>,
    pub front_size: u32,
    pub front: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hypervolume: Option<f64>,
}

/// A run's spending: the sums of every add's `costUsd`, tokens and `evalSeconds`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CostTotals {
    pub cost_usd: f64,
    pub tokens_in: u64,
    pub tokens_out: u64,
    pub eval_seconds: f64,
}

/// One operator × model × island row: what its candidates bought and cost. An improvement is a
/// candidate fitter than its parent; errors have no island.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Attribution {
    pub operator: Option<Operator>,
    pub model: Option<String>,
    pub island: Option<u32>,
    pub candidates: u64,
    pub errors: u64,
    pub improvements: u64,
    /// `improvements / candidates`.
    pub improvement_rate: f64,
    pub cost_usd: f64,
    /// `costUsd / improvements`; null without an improvement.
    pub cost_per_improvement: Option<f64>,
    pub tokens_in: u64,
    pub tokens_out: u64,
    pub eval_seconds: f64,
}

/// MAP-Elites figures. The QD score follows pyribs: Σ over filled cells of (the cell's best
/// fitness − `qdOffset`); QDax adds the offset instead. Choose `qdOffset` at most the lowest
/// fitness you expect so that every filled cell adds a non-negative amount.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CellStats {
    pub filled: usize,
    pub total: u64,
    /// `filled / total`.
    pub coverage: f64,
    pub qd_score: f64,
    pub qd_offset: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct IslandStats {
    pub island: u32,
    /// The island's name, when the islands are named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub size: usize,
    pub best_program_id: Option<String>,
    pub best_fitness: Option<f64>,
    pub mean_fitness: Option<f64>,
}
