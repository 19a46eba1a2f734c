//! `stats`: the population's figures — size, best and mean fitness overall and per island, and the
//! improvement over the baseline (the seed program).

use serde::{Deserialize, Serialize};

use crate::database::Database;

/// What `stats` returns. Fitness values are the ranking value (`fitness_of`): higher is better,
/// metrics configured with direction `min` already count negated, so `improvement` =
/// `bestFitness − baselineFitness` is positive exactly when the run got better.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub program_count: usize,
    /// Candidates added so far (the seed program is iteration 0, so this equals `lastIteration`).
    pub evaluations: u64,
    pub best_program_id: Option<String>,
    pub best_fitness: Option<f64>,
    pub mean_fitness: Option<f64>,
    /// The fitness of the seed program (`iterationFound` 0), while it is still in the population.
    pub baseline_fitness: Option<f64>,
    pub improvement: Option<f64>,
    pub islands: Vec<IslandStats>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IslandStats {
    pub island: u32,
    pub size: usize,
    pub best_program_id: Option<String>,
    pub best_fitness: Option<f64>,
    pub mean_fitness: Option<f64>,
}

impl Database {
    /// `stats`. Means are summed in join/insertion order, so they are bit-identical on every face.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let mut db = Database::new(Config::default(), 1).unwrap();
    /// db.add(AddRequest::seed("/f.py", "v1", Metrics::new([("score", 0.25)]).unwrap()), 1.0).unwrap();
    /// let stats = db.stats();
    /// assert_eq!((stats.program_count, stats.best_fitness, stats.improvement), (1, Some(0.25), Some(0.0)));
    /// ```
    pub fn stats(&self) -> Stats {
        let fitness = |slot: u32| self.population.get(slot).fitness;
        let id = |slot: u32| self.population.get(slot).program.id.clone();
        let islands = self
            .islands
            .iter()
            .enumerate()
            .map(|(i, island)| {
                let best = island.top(1).next().map(|key| key.slot);
                IslandStats {
                    island: i as u32,
                    size: island.len(),
                    best_program_id: best.map(id),
                    best_fitness: best.map(fitness),
                    mean_fitness: mean(island.members().map(fitness)),
                }
            })
            .collect();
        let best_fitness = self.best.map(fitness);
        let baseline_fitness =
            self.population.slots().find(|&s| self.population.get(s).program.iteration_found == 0).map(fitness);
        Stats {
            program_count: self.len(),
            evaluations: self.last_iteration,
            best_program_id: self.best.map(id),
            best_fitness,
            mean_fitness: mean(self.population.slots().map(fitness)),
            baseline_fitness,
            improvement: best_fitness.zip(baseline_fitness).map(|(best, base)| best - base + 0.0),
            islands,
        }
    }
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0u64), |(sum, n), v| (sum + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}
