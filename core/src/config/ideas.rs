//! Idea runs (evoidea): the run's kind, the memetic loop's sizes, the seed's defaults, and the
//! preference profile that weights the critic's eight criteria into `overall_score`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::api::IDEA_CRITERIA;
use crate::config::{Config, FitnessSpec, StopRules};
use crate::error::{Error, Result, parse_json};

/// Largest population and elite of an idea run: each is one subagent call per round.
const MAX_IDEA_POPULATION: u32 = 100;

/// What a run's members are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum RunKind {
    /// Programs with code, scored by an evaluator (the seed skill's runs).
    #[default]
    Programs,
    /// Ideas (`title`, `summary`, `facets`) scored by a critic on eight criteria (evoidea).
    Ideas,
}

impl RunKind {
    pub fn is_programs(&self) -> bool {
        *self == RunKind::Programs
    }

    pub fn name(self) -> &'static str {
        match self {
            RunKind::Programs => "programs",
            RunKind::Ideas => "ideas",
        }
    }
}

/// The memetic loop's sizes (evoidea's `--population` and `--elite`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct IdeaSettings {
    /// Ideas generated when a round generates (the first, or after all were pruned).
    pub population: u32,
    /// Ideas refined in each later round: the best this many live ideas.
    pub elite: u32,
}

impl Default for IdeaSettings {
    fn default() -> Self {
        IdeaSettings { population: 6, elite: 2 }
    }
}

impl IdeaSettings {
    pub(crate) fn is_default(&self) -> bool {
        *self == IdeaSettings::default()
    }
}

/// evoidea's parameters, with its defaults: 3 rounds, 6 ideas, elite 2, threshold 9.0,
/// patience 3 rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct IdeaRunOptions {
    pub rounds: u64,
    pub population: u32,
    pub elite: u32,
    pub threshold: f64,
    pub patience: u64,
    pub profile: Option<Profile>,
}

impl Default for IdeaRunOptions {
    fn default() -> Self {
        IdeaRunOptions { rounds: 3, population: 6, elite: 2, threshold: 9.0, patience: 3, profile: None }
    }
}

impl Config {
    /// An idea run's config: one island, the seed's stopping rules (threshold, patience in
    /// rounds, max rounds), and `overall_score` the mean of the criteria or the profile's
    /// weighted mean.
    ///
    /// ```
    /// use evodb_core::{Config, IdeaRunOptions};
    /// let config = Config::for_ideas(&IdeaRunOptions::default()).unwrap();
    /// assert_eq!(config.stopping.score_threshold, Some(9.0));
    /// assert_eq!(config.ideas.elite, 2);
    /// ```
    pub fn for_ideas(options: &IdeaRunOptions) -> Result<Config> {
        let config = Config {
            kind: RunKind::Ideas,
            ideas: IdeaSettings { population: options.population, elite: options.elite },
            num_islands: 1,
            fitness: options.profile.as_ref().map_or(FitnessSpec::Mean, Profile::fitness),
            stopping: StopRules {
                score_threshold: Some(options.threshold),
                patience: Some(options.patience),
                max_rounds: Some(options.rounds),
                ..StopRules::default()
            },
            ..Config::default()
        };
        config.validate()?;
        Ok(config)
    }

    /// The idea-run checks of `validate`: sizes in range, fitness over the criteria only.
    pub(crate) fn validate_ideas(&self) -> Result<()> {
        if self.kind.is_programs() {
            if !self.ideas.is_default() {
                return Err(Error::config("ideas", "is set but `kind` is `programs`; add \"kind\": \"ideas\""));
            }
            return Ok(());
        }
        let IdeaSettings { population, elite } = self.ideas;
        if !(1..=MAX_IDEA_POPULATION).contains(&population) {
            return Err(Error::config(
                "ideas.population",
                format!("is {population}; it must be between 1 and {MAX_IDEA_POPULATION}"),
            ));
        }
        if !(1..=population).contains(&elite) {
            return Err(Error::config(
                "ideas.elite",
                format!("is {elite}; it must be between 1 and the population ({population})"),
            ));
        }
        match &self.fitness {
            FitnessSpec::Mean => Ok(()),
            FitnessSpec::Weighted { weights } => {
                match weights.keys().find(|name| !IDEA_CRITERIA.contains(&name.as_str())) {
                    Some(name) => Err(Error::config(
                        format!("fitness.weights.{name}"),
                        format!("is not a criterion; an idea run weights {}", IDEA_CRITERIA.join(", ")),
                    )),
                    None => Ok(()),
                }
            }
            FitnessSpec::Primary { .. } => Err(Error::config(
                "fitness",
                "is `primary`, but an idea's score is the mean (or a profile's weighted mean) of its criteria",
            )),
        }
    }
}

/// A preference profile: how much each criterion counts in `overall_score`. Criteria it leaves
/// out count 1; `overall_score` is the weighted mean, so only the ratios matter.
///
/// ```
/// use evodb_core::Profile;
/// let profile = Profile::from_json(r#"{"weights": {"moats": 3, "risk": 0}}"#).unwrap();
/// assert_eq!(profile.weights["moats"], 3.0);
/// assert_eq!(profile.weights["clarity"], 1.0);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Every criterion's weight, in the seed's order of criteria when written.
    pub weights: BTreeMap<String, f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileFile {
    weights: BTreeMap<String, f64>,
}

impl Profile {
    /// Reads `{"weights": {"criterion": weight, …}}`; a weight is finite and at least 0, not all 0.
    pub fn from_json(text: &str) -> Result<Profile> {
        let file: ProfileFile = parse_json(text).map_err(|(path, e)| {
            Error::input(path.map_or("profile".into(), |p| format!("profile.{p}")), e.to_string())
        })?;
        let mut weights: BTreeMap<String, f64> = IDEA_CRITERIA.iter().map(|c| (c.to_string(), 1.0)).collect();
        for (name, weight) in file.weights {
            let field = format!("profile.weights.{name}");
            if !IDEA_CRITERIA.contains(&name.as_str()) {
                return Err(Error::input(field, format!("is not a criterion; weight {}", IDEA_CRITERIA.join(", "))));
            }
            if !(weight.is_finite() && weight >= 0.0) {
                return Err(Error::input(field, format!("is {weight}; a weight is a finite number of at least 0")));
            }
            weights.insert(name, weight);
        }
        if weights.values().all(|w| *w == 0.0) {
            return Err(Error::input("profile.weights", "are all 0; give at least one criterion a weight"));
        }
        Ok(Profile { weights })
    }

    /// The fitness that makes `overall_score` this profile's weighted mean: the weights divided
    /// by their sum.
    pub fn fitness(&self) -> FitnessSpec {
        let total: f64 = self.weights.values().sum();
        FitnessSpec::Weighted { weights: self.weights.iter().map(|(name, w)| (name.clone(), w / total)).collect() }
    }

    /// The profile a run's config uses (every weight 1 for the plain mean); `None` for a
    /// fitness that is not over the criteria.
    pub fn of_config(config: &Config) -> Option<Profile> {
        match &config.fitness {
            FitnessSpec::Mean => {
                Some(Profile { weights: IDEA_CRITERIA.iter().map(|c| (c.to_string(), 1.0)).collect() })
            }
            FitnessSpec::Weighted { weights } => Some(Profile {
                weights: IDEA_CRITERIA
                    .iter()
                    .map(|c| (c.to_string(), weights.get(*c).copied().unwrap_or(0.0)))
                    .collect(),
            }),
            FitnessSpec::Primary { .. } => None,
        }
    }

    /// `{"weights": {…}}` in the criteria's order, readable by [`Profile::from_json`].
    pub fn to_json(&self) -> String {
        let weights: serde_json::Map<String, serde_json::Value> = IDEA_CRITERIA
            .iter()
            .map(|c| (c.to_string(), serde_json::json!(self.weights.get(*c).copied().unwrap_or(0.0))))
            .collect();
        serde_json::to_string_pretty(&serde_json::json!({ "weights": weights })).expect("numbers and names")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_weights_become_a_weighted_mean() {
        let profile = Profile::from_json(r#"{"weights":{"moats":9}}"#).unwrap();
        let FitnessSpec::Weighted { weights } = profile.fitness() else { panic!() };
        assert!((weights.values().sum::<f64>() - 1.0).abs() < 1e-12);
        assert_eq!(weights["moats"], 9.0 / 16.0);
        let config =
            Config::for_ideas(&IdeaRunOptions { profile: Some(profile), ..IdeaRunOptions::default() }).unwrap();
        let back = Profile::of_config(&config).unwrap();
        assert_eq!(back.weights["moats"] / back.weights["clarity"], 9.0);
        assert_eq!(Profile::from_json(&back.to_json()).unwrap(), back);
    }

    #[test]
    fn bad_profiles_name_the_field() {
        for (json, field) in [
            (r#"{"weights":{"vibes":1}}"#, "profile.weights.vibes"),
            (r#"{"weights":{"risk":-1}}"#, "profile.weights.risk"),
            (r#"{"weights":{"risk":"high"}}"#, "profile.weights.risk"),
        ] {
            let err = Profile::from_json(json).unwrap_err();
            assert!(err.to_string().contains(field), "{json}: {err}");
        }
        let zero = format!(r#"{{"weights":{{{}}}}}"#, IDEA_CRITERIA.map(|c| format!("\"{c}\":0")).join(","));
        assert!(Profile::from_json(&zero).is_err());
    }

    #[test]
    fn idea_settings_are_checked() {
        let bad = |options: IdeaRunOptions| Config::for_ideas(&options).unwrap_err().to_string();
        assert!(bad(IdeaRunOptions { elite: 7, ..IdeaRunOptions::default() }).contains("ideas.elite"));
        assert!(bad(IdeaRunOptions { population: 0, ..IdeaRunOptions::default() }).contains("ideas.population"));
        let err = Config::from_json(r#"{"ideas":{"elite":1}}"#).unwrap_err();
        assert!(err.to_string().contains("kind"), "{err}");
        let err = Config::from_json(r#"{"kind":"ideas","fitness":{"kind":"primary","metric":"moats"}}"#).unwrap_err();
        assert!(err.to_string().contains("fitness"), "{err}");
    }
}
