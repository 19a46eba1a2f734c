//! The shape of `database.json` as read: the seed's keys with the seed's types, and evodb's one
//! added key (`evodb`, [`Extension`]). Reading it (`persistence`) and checking it (`invariants`)
//! both start from here.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::api::{IdeaOrigin, Note, Operator, Status, SynergyResult};
use crate::config::Config;
use crate::database::{CandidateLog, InFlight, PendingItem, PrunedProgram, SampledItem};
use crate::metrics::Metrics;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StoredDatabase {
    pub(crate) num_islands: u32,
    pub(crate) max_island_size: Option<u32>,
    pub(crate) migration_interval: u64,
    pub(crate) migration_rate: f64,
    pub(crate) exploration_ratio: Option<f64>,
    pub(crate) programs: IndexMap<String, StoredProgram>,
    pub(crate) islands: Vec<Vec<String>>,
    pub(crate) current_island: u32,
    pub(crate) island_generations: Vec<u64>,
    pub(crate) last_migration_generation: u64,
    pub(crate) best_program_id: String,
    pub(crate) last_iteration: u64,
    pub(crate) evodb: Option<Extension>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StoredProgram {
    pub(crate) id: String,
    pub(crate) code_path: String,
    pub(crate) target_code: String,
    pub(crate) parent_id: String,
    pub(crate) generation: u64,
    pub(crate) iteration_found: u64,
    pub(crate) timestamp: f64,
    pub(crate) metrics: Metrics,
    pub(crate) changes: String,
    pub(crate) island: Option<u32>,
    pub(crate) migrated_from: Option<String>,
    pub(crate) seq: Option<u64>,
    #[serde(default)]
    pub(crate) status: Status,
    pub(crate) reason: Option<String>,
    pub(crate) operator: Option<Operator>,
    pub(crate) second_parent_id: Option<String>,
    pub(crate) cell: Option<Vec<u32>>,
    pub(crate) branch: Option<String>,
    pub(crate) commit: Option<String>,
    pub(crate) target: Option<String>,
    pub(crate) measurements: Option<u64>,
    pub(crate) origin: Option<IdeaOrigin>,
    #[serde(default)]
    pub(crate) parents: Vec<String>,
    #[serde(default)]
    pub(crate) instance_scores: Metrics,
    pub(crate) embedding: Option<Vec<f64>>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Extension {
    pub(crate) format: u32,
    pub(crate) seed: u64,
    pub(crate) rng: String,
    pub(crate) config: Config,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) candidates: Option<CandidateLog>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) rounds: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) plan_cursor: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) pending: Vec<PendingItem>,
    /// Operator samples not yet answered (`sampled_island`); absent with `operators` off.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) sampled: Vec<SampledItem>,
    /// Work handed out and not yet answered (`in_flight_penalty`); absent unless `pending` is `aware`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) in_flight: Vec<InFlight>,
    /// The newest pruned programs (`answered_pruned_retry`); absent until one is pruned.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) pruned: Vec<PrunedProgram>,
    /// Run memory, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) notes: Vec<Note>,
    /// Synergy results (several-target runs), oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) synergies: Vec<SynergyResult>,
    /// Idea runs: the best fitness when each round was planned (null before any idea).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) idea_round_bests: Vec<Option<f64>>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
