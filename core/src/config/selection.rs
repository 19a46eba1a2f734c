//! How programs are compared: by one fitness value (`scalar`, the seed's rule and the default),
//! by Pareto dominance over several named objectives (`pareto`), or objective by objective with
//! tolerances (`lexicographic`), or by per-instance scores (`instances`: GEPA's instance front).
//! The rules themselves are in `pareto.rs`, `instance_front.rs` and `rules/selection.rs`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::config::{Config, Direction};
use crate::error::{Error, Result};
use crate::metrics::Metrics;

/// Most objectives one run may name.
pub(crate) const MAX_OBJECTIVES: usize = 16;

/// The comparison every rule uses (elite, pruning, cells, archive, migration, best).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum SelectionMode {
    /// The configured `fitness` (the seed's rule).
    #[default]
    Scalar,
    /// Non-dominated sorting over `objectives`, crowding distance within a front, then the
    /// scalar order.
    Pareto,
    /// `objectives` in order: better on the first by more than its tolerance wins, else the next.
    Lexicographic,
    /// Per-instance scores (`add --instanceScores`): a program survives while it is the best on
    /// some instance (GEPA's instance front); the one best is still the scalar fitness.
    Instances,
}

/// `selection` in the config. Each objective is a metric; its direction is the metric's
/// `directions` entry (`max` unless set), as for fitness.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Selection {
    pub mode: SelectionMode,
    /// The metrics compared, in order (the order matters for `lexicographic`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<String>,
    /// `lexicographic`: per objective, the difference within which two programs count as tied on
    /// it (absent: 0, exact ties only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tolerances: Vec<f64>,
    /// The hypervolume's reference point: per objective, a value every program of interest is
    /// better than (in the metric's own units and direction). Absent: no hypervolume in stats.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub reference: BTreeMap<String, f64>,
}

impl Selection {
    pub fn is_scalar(&self) -> bool {
        self.mode == SelectionMode::Scalar
    }

    /// Whether rules compare named objectives (`pareto`, `lexicographic`): their signed values
    /// are indexed per program.
    pub(crate) fn has_objectives(&self) -> bool {
        matches!(self.mode, SelectionMode::Pareto | SelectionMode::Lexicographic)
    }

    /// Whether the one best (`best`, an island's best, `update_best`) is the scalar fitness's:
    /// in `scalar`, and in `instances`, where the front decides survival and parents but the
    /// best is the fittest, as GEPA's best candidate is the best on the aggregate score.
    pub(crate) fn best_is_scalar(&self) -> bool {
        matches!(self.mode, SelectionMode::Scalar | SelectionMode::Instances)
    }

    pub(crate) fn validate(&self) -> Result<()> {
        let n = self.objectives.len();
        match self.mode {
            SelectionMode::Scalar if n > 0 || !self.tolerances.is_empty() || !self.reference.is_empty() => {
                return Err(Error::config(
                    "selection.mode",
                    "is scalar, which compares the fitness only; set \"mode\": \"pareto\" or \"lexicographic\" to \
                     use objectives, tolerances or a reference point",
                ));
            }
            SelectionMode::Scalar => return Ok(()),
            SelectionMode::Instances if n > 0 || !self.tolerances.is_empty() || !self.reference.is_empty() => {
                return Err(Error::config(
                    "selection.mode",
                    "is instances, which compares each program's instanceScores; leave out objectives, tolerances and \
                     reference (or set \"mode\": \"pareto\" to compare metrics)",
                ));
            }
            SelectionMode::Instances => return Ok(()),
            SelectionMode::Pareto if n < 2 => {
                return Err(Error::config(
                    "selection.objectives",
                    format!(
                        "names {n} objective(s); pareto needs at least 2, e.g. [\"speed\", \"accuracy\"] (for one, \
                         use --fitness primary:<metric>)"
                    ),
                ));
            }
            SelectionMode::Lexicographic if n < 1 => {
                return Err(Error::config(
                    "selection.objectives",
                    "is empty; lexicographic needs the objectives in order, e.g. [\"accuracy\", \"speed\"]",
                ));
            }
            _ => {}
        }
        if n > MAX_OBJECTIVES {
            return Err(Error::config("selection.objectives", format!("names {n}; name at most {MAX_OBJECTIVES}")));
        }
        for (i, name) in self.objectives.iter().enumerate() {
            if name.is_empty() {
                return Err(Error::config(format!("selection.objectives[{i}]"), "is empty; name a metric"));
            }
            if let Some(first) = self.objectives[..i].iter().position(|other| other == name) {
                return Err(Error::config(
                    format!("selection.objectives[{i}]"),
                    format!("`{name}` is already objectives[{first}]; name each metric once"),
                ));
            }
        }
        if !self.tolerances.is_empty() {
            if self.mode != SelectionMode::Lexicographic {
                return Err(Error::config(
                    "selection.tolerances",
                    "only lexicographic uses tolerances; leave them out or set \"mode\": \"lexicographic\"",
                ));
            }
            if self.tolerances.len() != n {
                return Err(Error::config(
                    "selection.tolerances",
                    format!("gives {} values for {n} objectives; give one per objective", self.tolerances.len()),
                ));
            }
            for (i, tolerance) in self.tolerances.iter().enumerate() {
                if !(tolerance.is_finite() && *tolerance >= 0.0) {
                    return Err(Error::config(
                        format!("selection.tolerances[{i}]"),
                        format!("is {tolerance}; pass a finite number of at least 0"),
                    ));
                }
            }
        }
        if !self.reference.is_empty() {
            for name in &self.objectives {
                if !self.reference.contains_key(name) {
                    return Err(Error::config(
                        "selection.reference",
                        format!("has no value for objective `{name}`; give one per objective"),
                    ));
                }
            }
            for (name, value) in &self.reference {
                if !self.objectives.contains(name) {
                    return Err(Error::config(
                        format!("selection.reference.{name}"),
                        format!("`{name}` is not an objective; the objectives are {:?}", self.objectives),
                    ));
                }
                if !value.is_finite() {
                    return Err(Error::config(format!("selection.reference.{name}"), "must be a finite number"));
                }
            }
        }
        Ok(())
    }
}

impl Config {
    /// A value per objective with every direction made "higher is better" (a `min` metric
    /// negated), for the rules to compare.
    pub(crate) fn signed(&self, metric: &str, value: f64) -> f64 {
        match self.direction(metric) {
            Direction::Max => value + 0.0,
            Direction::Min => -value + 0.0,
        }
    }

    /// `objectives_of`: the program's objective values, signed (higher is better). Empty in
    /// scalar mode. A missing objective is an error naming it: every program must report each.
    pub(crate) fn objectives_of(&self, metrics: &Metrics) -> Result<Vec<f64>> {
        self.selection
            .objectives
            .iter()
            .map(|name| {
                let value = metrics.get(name).ok_or_else(|| {
                    Error::input(
                        format!("metrics.{name}"),
                        format!(
                            "is missing; the {} selection compares objective `{name}`, so report it on every program",
                            mode_name(self.selection.mode)
                        ),
                    )
                })?;
                Ok(self.signed(name, value))
            })
            .collect()
    }

    /// An `instances` run compares per-instance scores: every program must report some.
    pub(crate) fn check_instance_scores(&self, scores: &Metrics) -> Result<()> {
        if self.selection.mode == SelectionMode::Instances && scores.is_empty() {
            return Err(Error::input(
                "instanceScores",
                "is missing; the instances selection keeps the programs that are best on some instance, so pass \
                 --instanceScores '{\"test_1\": 1, \"test_2\": 0}' (instance id → score, higher is better)",
            ));
        }
        Ok(())
    }

    /// `objectives_of` for a program already stored: a missing value counts as the worst.
    pub(crate) fn stored_objectives(&self, metrics: &Metrics) -> Vec<f64> {
        self.selection
            .objectives
            .iter()
            .map(|name| metrics.get(name).map_or(f64::NEG_INFINITY, |value| self.signed(name, value)))
            .collect()
    }
}

pub(crate) fn mode_name(mode: SelectionMode) -> &'static str {
    match mode {
        SelectionMode::Scalar => "scalar",
        SelectionMode::Pareto => "pareto",
        SelectionMode::Lexicographic => "lexicographic",
        SelectionMode::Instances => "instances",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_of(json: &str) -> String {
        match Config::from_json(json) {
            Err(Error::InvalidConfig { field, .. }) => field,
            other => panic!("{json}: expected InvalidConfig, got {other:?}"),
        }
    }

    #[test]
    fn scalar_is_the_default_and_stays_out_of_the_file() {
        let config = Config::default();
        assert!(config.selection.is_scalar());
        assert!(!serde_json::to_string(&config).unwrap().contains("selection"));
    }

    #[test]
    fn pareto_and_lexicographic_parse() {
        let c = Config::from_json(
            r#"{"selection":{"mode":"pareto","objectives":["speed","accuracy"],"reference":{"speed":0,"accuracy":0}}}"#,
        )
        .unwrap();
        assert_eq!(c.selection.mode, SelectionMode::Pareto);
        let c = Config::from_json(
            r#"{"selection":{"mode":"lexicographic","objectives":["accuracy","speed"],"tolerances":[0.01,0]}}"#,
        )
        .unwrap();
        assert_eq!(c.selection.tolerances, [0.01, 0.0]);
    }

    #[test]
    fn bad_selections_name_the_field() {
        for (json, field) in [
            (r#"{"selection":{"mode":"pareto","objectives":["speed"]}}"#, "selection.objectives"),
            (r#"{"selection":{"mode":"lexicographic"}}"#, "selection.objectives"),
            (r#"{"selection":{"objectives":["a","b"]}}"#, "selection.mode"),
            (r#"{"selection":{"mode":"pareto","objectives":["a","a"]}}"#, "selection.objectives[1]"),
            (r#"{"selection":{"mode":"pareto","objectives":["a","b"],"tolerances":[0,0]}}"#, "selection.tolerances"),
            (
                r#"{"selection":{"mode":"lexicographic","objectives":["a","b"],"tolerances":[0]}}"#,
                "selection.tolerances",
            ),
            (
                r#"{"selection":{"mode":"lexicographic","objectives":["a"],"tolerances":[-1]}}"#,
                "selection.tolerances[0]",
            ),
            (r#"{"selection":{"mode":"pareto","objectives":["a","b"],"reference":{"a":0}}}"#, "selection.reference"),
            (r#"{"selection":{"mode":"best"}}"#, "selection.mode"),
        ] {
            assert_eq!(field_of(json), field, "{json}");
        }
    }

    #[test]
    fn objectives_are_signed_by_direction_and_required() {
        let mut c = Config::from_json(r#"{"selection":{"mode":"pareto","objectives":["time","accuracy"]}}"#).unwrap();
        c.directions.insert("time".into(), Direction::Min);
        let m = Metrics::new([("time", 2.0), ("accuracy", 0.5)]).unwrap();
        assert_eq!(c.objectives_of(&m).unwrap(), [-2.0, 0.5]);
        let err = c.objectives_of(&Metrics::new([("time", 2.0)]).unwrap()).unwrap_err().to_string();
        assert!(err.contains("accuracy") && err.contains("report it"), "{err}");
    }
}
