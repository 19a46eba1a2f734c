//! `stats`: the population's figures — size, best and mean fitness overall and per island, and the
//! improvement over the baseline (the initial program).

use std::collections::BTreeMap;

use crate::api::{CellStats, IslandStats, Stats, TargetStats};
use crate::config::cell_count;
use crate::database::Database;
use crate::json_text::shown;

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
        // Every figure as shown (`json_text::shown`): a fitness that is a mean of metrics, a
        // mean, a difference print without binary artefacts such as 0.7985500000000001.
        let fitness = |slot: u32| shown(self.population.get(slot).fitness);
        let id = |slot: u32| self.population.get(slot).program.id.to_string();
        let islands = self
            .islands
            .iter()
            .enumerate()
            .map(|(i, island)| {
                let best = match self.config.selection.best_is_scalar() {
                    true => island.top(1).next().map(|key| key.slot),
                    false => self.island_best_by_mode(i as u32),
                };
                IslandStats {
                    island: i as u32,
                    name: self.config.island_name(i as u32),
                    size: island.len(),
                    best_program_id: best.map(id),
                    best_fitness: best.map(fitness),
                    mean_fitness: mean(island.members().map(|slot| self.population.get(slot).fitness)),
                }
            })
            .collect();
        let best_fitness = self.best.map(fitness);
        let baseline_fitness = self
            .population
            .slots()
            .find(|&s| self.population.get(s).program.iteration_found == 0)
            .map(fitness)
            .or(self.candidates.baseline_fitness.map(shown));
        Stats {
            program_count: self.len(),
            evaluations: self.candidates.evaluations,
            best_program_id: self.best.map(id),
            best_fitness,
            mean_fitness: mean(self.population.slots().map(|slot| self.population.get(slot).fitness)),
            baseline_fitness,
            improvement: best_fitness.zip(baseline_fitness).map(|(best, base)| shown(best - base)),
            improvement_percent: self.improvement_percent(),
            islands,
            archive: self.archive_best_first().into_iter().map(id).collect(),
            stagnation: self.candidates.stagnation,
            rounds: self.rounds,
            recent_statuses: self.candidates.recent_statuses(),
            cells: (!self.config.features.is_empty()).then(|| self.cell_stats()),
            targets: (0..self.config.targets.len() as u32)
                .filter(|_| self.config.has_targets())
                .map(|t| self.target_stats(t))
                .collect(),
            cost: self.cost_totals(),
            attribution: self.attribution(),
            pareto: self.pareto_stats(),
            instances: self.instance_stats(),
        }
    }

    /// `improvementPercent`: the improvement over the baseline as a percentage of the baseline's
    /// magnitude (what SKILL.md reports), to two decimals; null without a baseline or when it is 0.
    fn improvement_percent(&self) -> Option<f64> {
        let fitness = |slot: u32| self.population.get(slot).fitness;
        let best = self.best.map(fitness)?;
        let baseline = self
            .population
            .slots()
            .find(|&s| self.population.get(s).program.iteration_found == 0)
            .map(fitness)
            .or(self.candidates.baseline_fitness)?;
        (baseline != 0.0).then(|| ((best - baseline) / baseline.abs() * 10_000.0).round() / 100.0 + 0.0)
    }

    fn target_stats(&self, t: u32) -> TargetStats {
        let best = self.population_best_recent(Some(t));
        let progress = self.candidates.targets.get(t as usize).cloned().unwrap_or_default();
        let verdict = self.stop_verdict(Some(t));
        TargetStats {
            id: self.config.targets[t as usize].id.clone(),
            islands: self.config.scope_islands(Some(t)).collect(),
            program_count: self.population.len_in(Some(t)),
            best_program_id: best.map(|slot| self.population.get(slot).program.id.to_string()),
            best_fitness: best.map(|slot| shown(self.population.get(slot).fitness)),
            evaluations: progress.evaluations,
            stagnation: progress.stagnation,
            best_synergy_fitness: progress.best_synergy_fitness,
            stop: verdict.stop,
            reason: verdict.reason,
        }
    }

    /// Cells over the live population, summed in cell order (deterministic on every face).
    fn cell_stats(&self) -> CellStats {
        let mut best: BTreeMap<&[u32], f64> = BTreeMap::new();
        for slot in self.population.slots() {
            let record = self.population.get(slot);
            if let Some(cell) = &record.program.cell {
                let entry = best.entry(cell).or_insert(f64::NEG_INFINITY);
                *entry = entry.max(record.fitness);
            }
        }
        let total = cell_count(&self.config.features, self.config.num_islands);
        let offset = self.config.qd_offset;
        CellStats {
            filled: best.len(),
            total,
            coverage: shown(best.len() as f64 / total as f64),
            qd_score: shown(best.values().fold(0.0, |sum, f| sum + (f - offset))),
            qd_offset: offset,
        }
    }
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0u64), |(sum, n), v| (sum + v, n + 1));
    (n > 0).then(|| shown(sum / n as f64))
}
