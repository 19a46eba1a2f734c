//! Several targets in one run (seed 003, evo-anything): each target — a file or a function the run
//! evolves — owns a contiguous group of islands, so every rule that ranges over "the population"
//! ranges over its target's group instead, and a program's island names its target.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::error::{Error, Result};

const MAX_TARGET_ID_BYTES: usize = 100;
const MAX_TARGET_DESCRIPTION_BYTES: usize = 4_096;
const MAX_TARGET_WEIGHT: u32 = 100;

/// One target of a several-target run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TargetSpec {
    /// What programs and commands call it, e.g. `"parse"` or `"src/solver.py"`.
    pub id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Plan items per round: a target of weight 2 gets two for each one of a weight-1 target.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub weight: u32,
}

fn one() -> u32 {
    1
}

fn is_one(weight: &u32) -> bool {
    *weight == 1
}

/// A query's reach: one target's islands (`Some(t)`), or the whole population (`None`, which is
/// every run with fewer than two targets).
pub(crate) type Scope = Option<u32>;

impl Config {
    /// Whether the run evolves several targets (the scoped rules apply).
    pub fn has_targets(&self) -> bool {
        self.targets.len() > 1
    }

    /// The target an island belongs to; `None` when the run has fewer than two targets.
    pub(crate) fn target_of_island(&self, island: u32) -> Scope {
        self.has_targets().then(|| island / self.islands_per_target())
    }

    pub(crate) fn islands_per_target(&self) -> u32 {
        self.num_islands / self.targets.len().max(1) as u32
    }

    /// The islands a scope ranges over.
    pub(crate) fn scope_islands(&self, scope: Scope) -> Range<u32> {
        match scope {
            Some(t) => t * self.islands_per_target()..(t + 1) * self.islands_per_target(),
            None => 0..self.num_islands,
        }
    }

    /// The number of target `id`, or an error listing the run's targets.
    pub fn target_index(&self, field: &str, id: &str) -> Result<u32> {
        match self.targets.iter().position(|t| t.id == id) {
            Some(t) => Ok(t as u32),
            None if self.targets.is_empty() => Err(Error::input(
                field,
                format!("names target `{id}` but this run has no targets; leave it out, or configure `targets`"),
            )),
            None => {
                let ids: Vec<&str> = self.targets.iter().map(|t| t.id.as_str()).collect();
                Err(Error::input(field, format!("names target `{id}`; this run's targets are {}", ids.join(", "))))
            }
        }
    }

    /// The scope a request's `target` names (`None` for a run without several targets).
    pub(crate) fn scope_of(&self, field: &str, target: Option<&str>) -> Result<Scope> {
        match target {
            Some(id) => self.target_index(field, id).map(|t| self.has_targets().then_some(t)),
            None => Ok(None),
        }
    }

    pub(crate) fn target_id(&self, scope: Scope) -> Option<&str> {
        scope.and_then(|t| self.targets.get(t as usize)).map(|t| t.id.as_str())
    }

    pub(crate) fn validate_targets(&self) -> Result<()> {
        if self.targets.is_empty() {
            if self.synergy_every.is_some() {
                return Err(Error::config("synergyEvery", "needs at least two `targets` to combine; leave it out"));
            }
            return Ok(());
        }
        let count = self.targets.len() as u32;
        if !self.num_islands.is_multiple_of(count) {
            return Err(Error::config(
                "numIslands",
                format!(
                    "is {} but {count} targets each need the same number of islands; give numIslands a multiple of {count}",
                    self.num_islands
                ),
            ));
        }
        for (i, target) in self.targets.iter().enumerate() {
            let id = target.id.trim();
            if id.is_empty() || id.len() > MAX_TARGET_ID_BYTES || id != target.id {
                return Err(Error::config(
                    format!("targets[{i}].id"),
                    format!("must be 1 to {MAX_TARGET_ID_BYTES} bytes without surrounding spaces, e.g. \"parse\""),
                ));
            }
            if target.description.len() > MAX_TARGET_DESCRIPTION_BYTES {
                return Err(Error::config(
                    format!("targets[{i}].description"),
                    format!("is {} bytes; keep it under {MAX_TARGET_DESCRIPTION_BYTES}", target.description.len()),
                ));
            }
            if target.weight == 0 || target.weight > MAX_TARGET_WEIGHT {
                return Err(Error::config(
                    format!("targets[{i}].weight"),
                    format!("is {}; it must be between 1 and {MAX_TARGET_WEIGHT}", target.weight),
                ));
            }
            if let Some(first) = self.targets[..i].iter().position(|other| other.id == target.id) {
                return Err(Error::config(
                    format!("targets[{i}].id"),
                    format!("`{}` is already the id of targets[{first}]; ids must differ", target.id),
                ));
            }
        }
        match self.synergy_every {
            Some(0) => Err(Error::config("synergyEvery", "is 0; pass at least 1 (plan rounds between synergy items)")),
            Some(_) if count < 2 => Err(Error::config("synergyEvery", "needs at least two `targets` to combine")),
            _ => Ok(()),
        }
    }
}
