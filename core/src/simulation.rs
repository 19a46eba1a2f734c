//! A synthetic evolution with no LLM: the problem behind `evodb demo` and the playground's live
//! simulation. A candidate is a polynomial written as Python (one line per non-zero term, so
//! programs differ in length); the evaluator scores how close it comes to a hidden target, and a
//! seeded mutator stands in for the LLM. The CLI drives these pieces through the component, the
//! playground through wasm-bindgen: same seed and options, same population.

use serde::{Deserialize, Serialize};

use crate::api::Sample;
use crate::api::{AddRequest, ROOT_PARENT_ID};
use crate::config::Config;
use crate::database::Database;
use crate::error::{Error, Result};
use crate::metrics::Metrics;

/// The synthetic clock: the seed program lands at `START_CLOCK`, iteration `i` at
/// `START_CLOCK + CLOCK_STEP * i`, so a run's timestamps never depend on the wall clock.
pub const START_CLOCK: f64 = 1_700_000_000.0;
pub const CLOCK_STEP: f64 = 1.5;
/// Every synthetic candidate starts with this line (how `evodb demo` recognises its own runs).
pub const CODE_PREFIX: &str = "def f(x):";

/// The hidden target's coefficients; a landscape of `terms` terms uses the first `terms`.
const TARGET: [f64; 8] = [3.0, -2.0, 0.5, 1.25, -0.75, 0.4, 2.0, -1.5];

/// The fitness landscape: how many polynomial terms a candidate has, and how rugged the score
/// surface is (0 is a single smooth basin; 1 adds a ring of local optima at every whole unit of
/// distance from the target, where greedy search stalls).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Landscape {
    pub terms: u32,
    pub ruggedness: f64,
}

impl Default for Landscape {
    fn default() -> Self {
        Landscape { terms: 4, ruggedness: 0.0 }
    }
}

impl Landscape {
    pub fn validate(&self) -> Result<()> {
        if !(2..=8).contains(&self.terms) {
            return Err(Error::config("landscape.terms", format!("is {}; use 2 to 8", self.terms)));
        }
        if !(0.0..=1.0).contains(&self.ruggedness) {
            return Err(Error::config("landscape.ruggedness", format!("is {}; use 0 to 1", self.ruggedness)));
        }
        Ok(())
    }

    /// The evaluator: two scores in [0, 1], like the skill's benchmark and judge scores.
    pub fn evaluate(&self, coefficients: &[f64]) -> Metrics {
        let target = &TARGET[..self.terms as usize];
        let poly = |c: &[f64], x: f64| c.iter().rev().fold(0.0, |acc, k| acc * x + k);
        let errors: Vec<f64> = (0..=10)
            .map(|i| {
                let x = f64::from(i) / 5.0 - 1.0;
                (poly(coefficients, x) - poly(target, x)).abs()
            })
            .collect();
        let mean_square = errors.iter().map(|e| e * e).sum::<f64>() / errors.len() as f64;
        let worst = errors.iter().copied().fold(0.0, f64::max);
        let distance: f64 = coefficients.iter().zip(target).map(|(c, t)| (c - t).abs()).sum();
        let ridge = 1.0 - self.ruggedness * 0.5 * (1.0 - (std::f64::consts::TAU * distance).cos());
        let accuracy = round3(ridge / (1.0 + mean_square));
        let worst_case = round3(1.0 / (1.0 + worst));
        Metrics::new([("accuracy", accuracy), ("worst-case", worst_case)]).expect("scores are finite")
    }

    /// The seed program: every coefficient zero.
    pub fn origin(&self) -> Vec<f64> {
        vec![0.0; self.terms as usize]
    }

    /// Python source with one line per non-zero term.
    pub fn render(coefficients: &[f64]) -> String {
        let mut code = format!("{CODE_PREFIX}\n    y = 0.0\n");
        for (power, c) in coefficients.iter().enumerate().filter(|(_, c)| **c != 0.0) {
            code.push_str(&format!("    y += {c} * x**{power}\n"));
        }
        code.push_str("    return y\n");
        code
    }

    /// Reads back what `render` wrote; missing terms are zero.
    pub fn parse(&self, code: &str) -> Vec<f64> {
        let mut coefficients = self.origin();
        for line in code.lines().filter_map(|l| l.trim().strip_prefix("y += ")) {
            let Some((c, power)) = line.split_once(" * x**") else { continue };
            if let (Ok(c), Ok(power)) = (c.parse::<f64>(), power.parse::<usize>())
                && let Some(slot) = coefficients.get_mut(power)
            {
                *slot = c;
            }
        }
        coefficients
    }
}

/// The stand-in for the LLM: a PCG-style LCG, the mutator's own stream, independent of the
/// database's PRNG.
#[derive(Clone, Debug)]
pub struct Mutator(u64);

impl Mutator {
    pub fn new(seed: u64) -> Mutator {
        Mutator(seed ^ 0x5EED)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    /// One candidate from a sample: crossover takes each coefficient from either parent, then
    /// one coefficient is nudged by ±0.25/0.5/1, or (one time in eight) dropped to zero.
    /// Returns the code and its `changes` text.
    fn propose(&mut self, landscape: &Landscape, sample: &Sample) -> Option<(String, String)> {
        let parent = sample.parent.as_ref()?;
        let mut coefficients = landscape.parse(&parent.target_code);
        let mut changes = Vec::new();
        if let Some(other) = &sample.second_parent {
            let other = landscape.parse(&other.target_code);
            for (mine, theirs) in coefficients.iter_mut().zip(other) {
                if self.next().is_multiple_of(2) {
                    *mine = theirs;
                }
            }
            changes.push(format!("crossed with {}", short(&other_id(sample))));
        }
        let index = (self.next() % u64::from(landscape.terms)) as usize;
        if self.next().is_multiple_of(8) && coefficients[index] != 0.0 {
            coefficients[index] = 0.0;
            changes.push(format!("dropped the x**{index} term"));
        } else {
            let step = [0.25, 0.5, 1.0][(self.next() % 3) as usize];
            let delta = if self.next().is_multiple_of(2) { step } else { -step };
            coefficients[index] += delta;
            changes.push(format!("adjusted coefficient c{index} by {delta:+}"));
        }
        let inspirations = sample.inspirations.len();
        let changes = format!("{} (with {inspirations} inspirations in view)", changes.join(", "));
        Some((Landscape::render(&coefficients), changes))
    }

    /// Iteration `iteration`'s candidate, evaluated, as the add request answering `sample`
    /// (`None` when the sample has no parent).
    pub fn candidate(&mut self, landscape: &Landscape, sample: &Sample, iteration: u64) -> Option<AddRequest> {
        let (code, changes) = self.propose(landscape, sample)?;
        let parent_id = sample.parent.as_ref().map_or(ROOT_PARENT_ID, |p| &*p.id);
        let metrics = landscape.evaluate(&landscape.parse(&code));
        let mut request = candidate_request(iteration, code, parent_id, metrics, changes);
        request.operator = sample.operator;
        Some(request)
    }
}

fn other_id(sample: &Sample) -> String {
    sample.second_parent.as_ref().map(|p| p.id.to_string()).unwrap_or_default()
}

fn short(id: &str) -> &str {
    &id[..id.len().min(8)]
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The seed program (iteration 0): every coefficient zero.
pub fn seed_request(landscape: &Landscape) -> AddRequest {
    let origin = landscape.origin();
    let metrics = landscape.evaluate(&origin);
    candidate_request(0, Landscape::render(&origin), ROOT_PARENT_ID, metrics, "initial implementation".into())
}

fn candidate_request(iteration: u64, code: String, parent_id: &str, metrics: Metrics, changes: String) -> AddRequest {
    AddRequest {
        id: None,
        code_path: format!("candidates/iteration_{iteration}.py"),
        target_code: code,
        parent_id: parent_id.to_string(),
        metrics,
        changes,
        island: None,
        status: Default::default(),
        reason: None,
        operator: None,
        ..AddRequest::seed("", "", Metrics::default())
    }
}

/// A whole synthetic run on an in-memory database, recording its events.
#[derive(Debug)]
pub struct Simulation {
    database: Database,
    landscape: Landscape,
    mutator: Mutator,
    iteration: u64,
}

impl Simulation {
    /// Creates the database and adds the seed program (iteration 0).
    pub fn new(config: Config, seed: u64, landscape: Landscape) -> Result<Simulation> {
        landscape.validate()?;
        let mut database = Database::new(config, seed)?;
        database.record_events(true);
        database.add(seed_request(&landscape), START_CLOCK)?;
        Ok(Simulation { database, landscape, mutator: Mutator::new(seed), iteration: 0 })
    }

    /// One iteration: sample, propose, evaluate, add.
    pub fn step(&mut self) -> Result<()> {
        let iteration = self.iteration + 1;
        let sample = self.database.sample();
        let Some(request) = self.mutator.candidate(&self.landscape, &sample, iteration) else {
            return Err(Error::input("simulation", "the database has no program to sample"));
        };
        self.database.add(request, START_CLOCK + CLOCK_STEP * iteration as f64)?;
        self.iteration = iteration;
        Ok(())
    }

    pub fn iteration(&self) -> u64 {
        self.iteration
    }

    pub fn database(&self) -> &Database {
        &self.database
    }

    /// The events of the steps since the last call (the first call starts with `created`).
    pub fn take_events(&mut self) -> Vec<crate::Event> {
        self.database.take_events()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_and_parse_round_trip_and_skip_zero_terms() {
        let landscape = Landscape::default();
        let code = Landscape::render(&[1.5, 0.0, -2.0, 0.25]);
        assert_eq!(code.lines().count(), 6, "{code}");
        assert_eq!(landscape.parse(&code), vec![1.5, 0.0, -2.0, 0.25]);
    }

    #[test]
    fn the_target_scores_one_and_ruggedness_only_lowers_scores() {
        let smooth = Landscape::default();
        let rugged = Landscape { ruggedness: 1.0, ..smooth };
        let best = smooth.evaluate(&TARGET[..4]);
        assert_eq!(best.get("accuracy"), Some(1.0));
        assert_eq!(rugged.evaluate(&TARGET[..4]).get("accuracy"), Some(1.0));
        let off = [2.5, -2.0, 0.5, 1.25];
        assert!(rugged.evaluate(&off).get("accuracy") < smooth.evaluate(&off).get("accuracy"));
    }

    #[test]
    fn same_seed_same_run_and_fitness_improves() {
        let run = |seed| {
            let mut sim = Simulation::new(Config::default(), seed, Landscape::default()).unwrap();
            for _ in 0..200 {
                sim.step().unwrap();
            }
            sim.database().to_json()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
        let mut sim = Simulation::new(Config::default(), 7, Landscape::default()).unwrap();
        let baseline = sim.database().stats().best_fitness.unwrap();
        for _ in 0..200 {
            sim.step().unwrap();
        }
        assert!(sim.database().stats().best_fitness.unwrap() > baseline);
    }

    #[test]
    fn bad_landscapes_are_named() {
        let err = Landscape { terms: 12, ruggedness: 0.0 }.validate().unwrap_err().to_string();
        assert!(err.contains("landscape.terms"), "{err}");
        let err = Landscape { terms: 4, ruggedness: 2.0 }.validate().unwrap_err().to_string();
        assert!(err.contains("landscape.ruggedness"), "{err}");
    }
}
