//! Database configuration. The defaults are the seed skill's (`database.mjs`); every option beyond
//! the seed is off by default, so a default database behaves exactly like the seed's.

mod features;
mod fitness;
mod ideas;
mod modes;
mod selection;
mod targets;

pub use features::FeatureDim;
pub(crate) use features::{cell_count, cell_fits, cell_key, cell_label, cell_of};
pub(crate) use fitness::fitness_of;
pub use ideas::{IdeaRunOptions, IdeaSettings, Profile, RunKind};
pub use modes::{InspirationScope, MigrationMode, OperatorPolicy, PendingMode, Placement};
pub use selection::{Selection, SelectionMode};
pub(crate) use targets::Scope;
pub use targets::TargetSpec;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::api::MAX_TEXT_BYTES;
use crate::error::{Error, Result, parse_json};

/// Upper bounds that catch absurd configs before they allocate anything.
/// Islands are a bit set per program (`u64`), which keeps migration's membership checks cheap.
pub(crate) const MAX_ISLANDS: u32 = 64;
const MAX_ISLAND_SIZE: u32 = 10_000_000;
const MAX_CELLS: u64 = 1_000_000;
const MAX_ISLAND_NAME_BYTES: usize = 100;
const MAX_ISLAND_DESCRIPTION_BYTES: usize = 4_096;
const MAX_NOTES_PER_SAMPLE: u32 = 100;

/// Whether a larger or a smaller metric value is better.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum Direction {
    #[default]
    Max,
    Min,
}

/// How a program's metrics become one fitness value (higher is better after directions apply).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum FitnessSpec {
    /// The seed's rule: mean of all metric values (0 when there are none).
    #[default]
    Mean,
    /// One named metric; programs must report it.
    Primary { metric: String },
    /// A weighted sum of named metrics; programs must report each of them.
    Weighted { weights: BTreeMap<String, f64> },
}

/// Everything that shapes a database's behaviour. Deserializes from camelCase JSON with every
/// field optional (missing fields take the seed defaults) and unknown fields rejected.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Config {
    /// The number of islands; with named `islands`, their count (leave it out then).
    pub num_islands: u32,
    /// Named islands (seed 004's families of approaches): each sample and plan item carries its
    /// island's name and description. Empty: islands are numbered only, as in the seed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub islands: Vec<IslandSpec>,
    pub max_island_size: u32,
    pub migration_interval: u64,
    pub migration_rate: f64,
    pub exploration_ratio: f64,
    /// Exploitation picks uniformly among this many best programs of the island.
    pub exploitation_top: u32,
    /// Inspirations: `inspirations_from_top` drawn from the island's best `inspiration_top_pool`…
    pub inspiration_top_pool: u32,
    pub inspirations_from_top: u32,
    /// …plus `inspirations_from_rest` drawn from the rest of the island.
    pub inspirations_from_rest: u32,
    pub placement: Placement,
    pub migration: MigrationMode,
    pub inspiration_scope: InspirationScope,
    pub fitness: FitnessSpec,
    /// Per-metric direction; metrics not named here are maximised.
    pub directions: BTreeMap<String, Direction>,
    /// MAP-Elites feature dimensions (the AlphaEvolve strategy). Empty: no cells, the seed's worst-first pruning.
    /// With dimensions, an island over capacity loses the worst member of its most crowded cell.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<FeatureDim>,
    /// The elite archive: this many best programs are never evicted (the AlphaEvolve strategy's default 10).
    pub archive_size: u32,
    /// Subtracted from each cell's best fitness in the QD score (pyribs' convention).
    pub qd_offset: f64,
    /// The four operators of the AlphaEvolve strategy; `None` keeps the seed's exploration/exploitation sample.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operators: Option<OperatorWeights>,
    /// `weights` (default): the operators' weighted draw; `ucb`: the adaptive policy
    /// (`adaptive_operator`). Needs `operators`.
    #[serde(skip_serializing_if = "OperatorPolicy::is_weights")]
    pub operator_policy: OperatorPolicy,
    /// Code-hash dedupe (evo-anything's fitness cache): a repeated candidate returns the earlier result.
    pub dedupe: bool,
    /// `admit`: the similarity (0–1, MinHash over token shingles) from which a candidate is a
    /// near-duplicate of a live program. Absent: `DEFAULT_NEAR_DUPLICATE` (0.9).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub near_duplicate: Option<f64>,
    /// `admit` with the caller's embedding: the cosine similarity (0–1) from which a candidate
    /// is a near-duplicate of a live program with a stored embedding. Absent: `nearDuplicate`,
    /// else `DEFAULT_NEAR_DUPLICATE` (0.9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedding_threshold: Option<f64>,
    /// `aware`: sampling and planning account for parents handed out and not yet answered
    /// (`in_flight_penalty`); `ignore` (the default) is the seed's.
    #[serde(skip_serializing_if = "PendingMode::is_ignore")]
    pub pending: PendingMode,
    /// `plan`'s lease length in seconds when it is given none (`plan --leaseSeconds`): each item
    /// is handed out under a lease that a heartbeat extends and whose expiry hands the item out
    /// again. Absent: no leases (the seed's plan).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease_seconds: Option<f64>,
    /// Budget and stopping rules; all off by default.
    pub stopping: StopRules,
    /// How much run memory (`notes`) each sample and plan item carries.
    #[serde(skip_serializing_if = "NoteLimits::is_default")]
    pub notes: NoteLimits,
    /// Several targets (files or functions) evolved in one run, each on its own group of
    /// `numIslands / targets` islands. Empty: one target, as in the seed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<TargetSpec>,
    /// With several targets: every this many plan rounds, a `synergy` item names each target's
    /// best, to be combined and evaluated together.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub synergy_every: Option<u64>,
    /// What the members are: programs (the default) or ideas (evoidea; `config/ideas.rs`).
    #[serde(skip_serializing_if = "RunKind::is_programs")]
    pub kind: RunKind,
    /// An idea run's population and elite.
    #[serde(skip_serializing_if = "IdeaSettings::is_default")]
    pub ideas: IdeaSettings,
    /// How programs are compared: `scalar` (the fitness, the default), `pareto` or
    /// `lexicographic` over named objectives (`config/selection.rs`, `rules/pareto.rs`).
    #[serde(skip_serializing_if = "Selection::is_scalar")]
    pub selection: Selection,
}

/// One named island: the family of approaches its programs explore.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IslandSpec {
    pub name: String,
    #[serde(default)]
    pub description: String,
}

/// The most recent notes a sample or plan item carries: at most `perSample` notes whose texts
/// add up to at most `maxBytes` (newest first; a note that does not fit is left out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct NoteLimits {
    pub per_sample: u32,
    pub max_bytes: u32,
}

impl Default for NoteLimits {
    fn default() -> Self {
        NoteLimits { per_sample: 5, max_bytes: 2_000 }
    }
}

impl NoteLimits {
    fn is_default(&self) -> bool {
        *self == NoteLimits::default()
    }
}

/// The operator weights of the AlphaEvolve strategy (normalised by their sum, so they need not add up to 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct OperatorWeights {
    pub exploitation: f64,
    pub exploration: f64,
    pub crossover: f64,
    pub migration: f64,
}

impl Default for OperatorWeights {
    fn default() -> Self {
        OperatorWeights { exploitation: 0.50, exploration: 0.30, crossover: 0.15, migration: 0.05 }
    }
}

/// When a run should stop (evoidea's rules plus evo-anything's evaluation budget).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct StopRules {
    /// Stop after this many evaluations (adds, including errors and cached repeats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_evaluations: Option<u64>,
    /// Stop once the best fitness reaches this value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_threshold: Option<f64>,
    /// Stop after this many evaluations in a row without a new best fitness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patience: Option<u64>,
    /// For `patience`: a new best counts as progress only when it beats the previous best by
    /// more than this (in fitness units), so a lucky measurement within the benchmark's noise
    /// does not reset the count. Absent (0): any new best does, as in the seed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise_margin: Option<f64>,
    /// Stop after this many rounds (`plan` batches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_rounds: Option<u64>,
    /// Stop once the adds' `costUsd` add up to this many US dollars.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_cost_usd: Option<f64>,
    /// Stop once one live program reaches every one of these metric values at once (each in
    /// its metric's direction: at least a `max` value, at most a `min` one), e.g.
    /// `{"accuracy": 0.99, "speed": 2.0}` — a threshold on named objectives.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub objective_thresholds: BTreeMap<String, f64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            num_islands: 3,
            islands: Vec::new(),
            max_island_size: 40,
            migration_interval: 10,
            migration_rate: 0.1,
            exploration_ratio: 0.3,
            exploitation_top: 3,
            inspiration_top_pool: 5,
            inspirations_from_top: 3,
            inspirations_from_rest: 2,
            placement: Placement::RoundRobin,
            migration: MigrationMode::Share,
            inspiration_scope: InspirationScope::Island,
            fitness: FitnessSpec::Mean,
            directions: BTreeMap::new(),
            features: Vec::new(),
            archive_size: 10,
            qd_offset: 0.0,
            operators: None,
            dedupe: false,
            near_duplicate: None,
            embedding_threshold: None,
            pending: PendingMode::Ignore,
            operator_policy: OperatorPolicy::Weights,
            lease_seconds: None,
            stopping: StopRules::default(),
            notes: NoteLimits::default(),
            targets: Vec::new(),
            synergy_every: None,
            kind: RunKind::Programs,
            ideas: IdeaSettings::default(),
            selection: Selection::default(),
        }
    }
}

impl Config {
    /// Parses a config from JSON; errors name the offending field.
    ///
    /// ```
    /// let config = evodb_core::Config::from_json(r#"{"numIslands": 5, "placement": "parentIsland"}"#).unwrap();
    /// assert_eq!(config.num_islands, 5);
    /// assert_eq!(config.max_island_size, 40); // seed default
    /// ```
    pub fn from_json(text: &str) -> Result<Config> {
        let mut config: Config = parse_json(text)
            .map_err(|(path, e)| Error::config(path.unwrap_or_else(|| "config".into()), e.to_string()))?;
        if !config.islands.is_empty() {
            config.count_named_islands(text)?;
        }
        config.validate()?;
        Ok(config)
    }

    /// With named `islands`, their count is `numIslands`; one given as well must agree.
    fn count_named_islands(&mut self, text: &str) -> Result<()> {
        #[derive(Deserialize)]
        struct Given {
            #[serde(rename = "numIslands")]
            num_islands: Option<serde::de::IgnoredAny>,
        }
        let named = u32::try_from(self.islands.len()).unwrap_or(u32::MAX);
        let given = serde_json::from_str::<Given>(text).is_ok_and(|g| g.num_islands.is_some());
        if given && self.num_islands != named {
            return Err(Error::config(
                "numIslands",
                format!(
                    "is {} but `islands` names {named}; leave numIslands out (the list gives the count)",
                    self.num_islands
                ),
            ));
        }
        self.num_islands = named;
        Ok(())
    }

    /// Island `island`'s name and description, when the islands are named.
    pub(crate) fn island_spec(&self, island: u32) -> Option<&IslandSpec> {
        self.islands.get(island as usize)
    }

    /// Island `island`'s name, when the islands are named.
    pub(crate) fn island_name(&self, island: u32) -> Option<String> {
        self.island_spec(island).map(|spec| spec.name.clone())
    }

    /// `island 2`, or `island 2 (sieves)` when the islands are named: how exports show an island.
    pub(crate) fn island_label(&self, island: u32) -> String {
        match self.island_spec(island) {
            Some(spec) => format!("island {island} ({})", spec.name),
            None => format!("island {island}"),
        }
    }

    /// Checks every value is usable; the error names the first bad field and its valid range.
    pub fn validate(&self) -> Result<()> {
        range_u32("numIslands", self.num_islands, 1, MAX_ISLANDS)?;
        self.validate_island_names()?;
        self.validate_targets()?;
        range_u32("maxIslandSize", self.max_island_size, 1, MAX_ISLAND_SIZE)?;
        if self.migration_interval == 0 {
            return Err(Error::config("migrationInterval", "must be at least 1 (generations between migrations)"));
        }
        unit_interval("migrationRate", self.migration_rate)?;
        unit_interval("explorationRatio", self.exploration_ratio)?;
        if let Some(threshold) = self.near_duplicate {
            unit_interval("nearDuplicate", threshold)?;
        }
        if let Some(threshold) = self.embedding_threshold {
            unit_interval("embeddingThreshold", threshold)?;
        }
        if self.operator_policy == OperatorPolicy::Ucb && self.operators.is_none() {
            return Err(Error::config(
                "operatorPolicy",
                "is ucb, which chooses among the four operators; turn them on too (\"operators\": {} or --operators default)",
            ));
        }
        if let Some(seconds) = self.lease_seconds {
            crate::api::check_lease_seconds(seconds).map_err(|why| Error::config("leaseSeconds", why))?;
        }
        range_u32("exploitationTop", self.exploitation_top, 1, MAX_ISLAND_SIZE)?;
        range_u32("inspirationTopPool", self.inspiration_top_pool, 0, MAX_ISLAND_SIZE)?;
        range_u32("inspirationsFromTop", self.inspirations_from_top, 0, self.inspiration_top_pool)?;
        range_u32("inspirationsFromRest", self.inspirations_from_rest, 0, MAX_ISLAND_SIZE)?;
        match &self.fitness {
            FitnessSpec::Mean => {}
            FitnessSpec::Primary { metric } if metric.is_empty() => {
                return Err(Error::config("fitness.metric", "must name a metric, e.g. \"score\""));
            }
            FitnessSpec::Primary { .. } => {}
            FitnessSpec::Weighted { weights } => {
                if weights.is_empty() {
                    return Err(Error::config("fitness.weights", "must weight at least one metric"));
                }
                for (name, weight) in weights {
                    if !weight.is_finite() {
                        return Err(Error::config(format!("fitness.weights.{name}"), "must be a finite number"));
                    }
                }
            }
        }
        for (i, dim) in self.features.iter().enumerate() {
            dim.validate(i)?;
        }
        if features::cell_count(&self.features, self.num_islands) > MAX_CELLS {
            return Err(Error::config("features", format!("make more than {MAX_CELLS} cells; use fewer bins")));
        }
        range_u32("archiveSize", self.archive_size, 0, MAX_ISLAND_SIZE)?;
        if !self.qd_offset.is_finite() {
            return Err(Error::config("qdOffset", "must be a finite number"));
        }
        if let Some(w) = &self.operators {
            let weights = [
                ("operators.exploitation", w.exploitation),
                ("operators.exploration", w.exploration),
                ("operators.crossover", w.crossover),
                ("operators.migration", w.migration),
            ];
            for (field, weight) in weights {
                if !(weight.is_finite() && weight >= 0.0) {
                    return Err(Error::config(field, format!("is {weight}; weights must be finite and at least 0")));
                }
            }
            if weights.iter().map(|(_, w)| w).sum::<f64>() <= 0.0 {
                return Err(Error::config("operators", "weights are all 0; give at least one operator a weight"));
            }
        }
        let s = &self.stopping;
        for (field, value) in [
            ("stopping.maxEvaluations", s.max_evaluations),
            ("stopping.patience", s.patience),
            ("stopping.maxRounds", s.max_rounds),
        ] {
            if value == Some(0) {
                return Err(Error::config(field, "is 0; pass at least 1, or leave it out for no limit"));
            }
        }
        self.validate_ideas()?;
        self.selection.validate()?;
        range_u32("notes.perSample", self.notes.per_sample, 0, MAX_NOTES_PER_SAMPLE)?;
        range_u32("notes.maxBytes", self.notes.max_bytes, 0, MAX_TEXT_BYTES as u32)?;
        if let Some(t) = s.score_threshold
            && !t.is_finite()
        {
            return Err(Error::config("stopping.scoreThreshold", "must be a finite number"));
        }
        if let Some(margin) = s.noise_margin
            && !(margin.is_finite() && margin >= 0.0)
        {
            return Err(Error::config(
                "stopping.noiseMargin",
                format!("is {margin}; pass a finite number of at least 0 (the benchmark's noise, in fitness units)"),
            ));
        }
        for (name, value) in &s.objective_thresholds {
            if !value.is_finite() {
                return Err(Error::config(format!("stopping.objectiveThresholds.{name}"), "must be a finite number"));
            }
        }
        if let Some(max) = s.max_cost_usd
            && !(max.is_finite() && max > 0.0)
        {
            return Err(Error::config(
                "stopping.maxCostUsd",
                format!("is {max}; pass a positive number of US dollars"),
            ));
        }
        Ok(())
    }

    fn validate_island_names(&self) -> Result<()> {
        if self.islands.is_empty() {
            return Ok(());
        }
        if self.islands.len() != self.num_islands as usize {
            return Err(Error::config(
                "islands",
                format!(
                    "names {} islands but numIslands is {}; give one entry per island",
                    self.islands.len(),
                    self.num_islands
                ),
            ));
        }
        for (i, island) in self.islands.iter().enumerate() {
            let name = island.name.trim();
            if name.is_empty() || name.len() > MAX_ISLAND_NAME_BYTES {
                return Err(Error::config(
                    format!("islands[{i}].name"),
                    format!("must be 1 to {MAX_ISLAND_NAME_BYTES} bytes, e.g. \"vectorise\""),
                ));
            }
            if island.description.len() > MAX_ISLAND_DESCRIPTION_BYTES {
                return Err(Error::config(
                    format!("islands[{i}].description"),
                    format!("is {} bytes; keep it under {MAX_ISLAND_DESCRIPTION_BYTES}", island.description.len()),
                ));
            }
            if let Some(first) = self.islands[..i].iter().position(|other| other.name == island.name) {
                return Err(Error::config(
                    format!("islands[{i}].name"),
                    format!("`{}` is already the name of islands[{first}]; names must differ", island.name),
                ));
            }
        }
        Ok(())
    }

    pub(crate) fn direction(&self, metric: &str) -> Direction {
        self.directions.get(metric).copied().unwrap_or_default()
    }
}

fn range_u32(field: &str, value: u32, min: u32, max: u32) -> Result<()> {
    if value < min || value > max {
        return Err(Error::config(field, format!("is {value}; it must be between {min} and {max}")));
    }
    Ok(())
}

fn unit_interval(field: &str, value: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&value) {
        return Err(Error::config(field, format!("is {value}; it must be a number in [0, 1]")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_seeds() {
        let c = Config::default();
        assert_eq!((c.num_islands, c.max_island_size, c.migration_interval), (3, 40, 10));
        assert_eq!((c.migration_rate, c.exploration_ratio), (0.1, 0.3));
        assert_eq!(
            (c.exploitation_top, c.inspiration_top_pool, c.inspirations_from_top, c.inspirations_from_rest),
            (3, 5, 3, 2)
        );
        c.validate().unwrap();
    }

    #[test]
    fn empty_and_absurd_values_name_the_field() {
        for (json, field) in [
            (r#"{"numIslands":0}"#, "numIslands"),
            (r#"{"numIslands":100000}"#, "numIslands"),
            (r#"{"maxIslandSize":0}"#, "maxIslandSize"),
            (r#"{"migrationInterval":0}"#, "migrationInterval"),
            (r#"{"migrationRate":1.5}"#, "migrationRate"),
            (r#"{"explorationRatio":-0.1}"#, "explorationRatio"),
            (r#"{"numIslands":"three"}"#, "numIslands"),
            (r#"{"placement":"nearest"}"#, "placement"),
            (r#"{"fitness":{"kind":"primary","metric":""}}"#, "fitness.metric"),
            (r#"{"fitness":{"kind":"weighted","weights":{}}}"#, "fitness.weights"),
            (r#"{"stopping":{"noiseMargin":-0.1}}"#, "stopping.noiseMargin"),
        ] {
            match Config::from_json(json) {
                Err(Error::InvalidConfig { field: f, .. }) => assert_eq!(f, field, "{json}"),
                other => panic!("{json}: expected InvalidConfig, got {other:?}"),
            }
        }
    }

    #[test]
    fn unknown_fields_are_rejected_with_their_name() {
        let err = Config::from_json(r#"{"numIsland": 3}"#).unwrap_err();
        assert!(err.to_string().contains("numIsland"), "{err}");
    }
}
