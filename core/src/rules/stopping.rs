//! Budget and stopping (evoidea's stop conditions and evo-anything's evaluation budget).

use crate::api::StopVerdict;
use crate::config::Scope;
use crate::database::Database;
use crate::error::Result;

impl Database {
    /// `should_stop`: the first rule that holds, checked in this order — the best fitness reached
    /// `scoreThreshold`; `maxEvaluations` spent; `patience` evaluations without a new best (one
    /// that beats the previous best by more than `noiseMargin`); `maxRounds` plan batches done;
    /// `maxCostUsd` spent; one program reached every `objectiveThresholds` value.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let config = Config::from_json(r#"{"stopping": {"scoreThreshold": 0.9}}"#).unwrap();
    /// let mut db = Database::new(config, 1).unwrap();
    /// db.add(AddRequest::seed("/f.py", "v0", Metrics::new([("s", 0.95)]).unwrap()), 1.0).unwrap();
    /// assert_eq!(db.should_stop().reason.as_deref(), Some("threshold reached"));
    /// ```
    pub fn should_stop(&self) -> StopVerdict {
        self.stop_verdict(None)
    }

    /// `should_stop` for one target of a several-target run: the threshold on the target's best,
    /// patience on its own evaluations without a new best of its own; the budget and the
    /// rounds are the run's. `None` is the whole run.
    pub fn should_stop_for(&self, target: Option<&str>) -> Result<StopVerdict> {
        Ok(self.stop_verdict(self.config.scope_of("target", target)?))
    }

    /// Whether `fitness` is progress for `patience`: it beats the best before it by more than
    /// `stopping.noiseMargin` (any margin at all when none is set, the seed's rule), or there was
    /// no best. The best itself still moves on any gain; only the stagnation count ignores a
    /// gain within the noise.
    pub(crate) fn beats_by_noise_margin(&self, fitness: f64, best_before: Option<f64>) -> bool {
        let margin = self.config.stopping.noise_margin.unwrap_or(0.0);
        best_before.is_none_or(|before| fitness > before + margin)
    }

    /// `objective_thresholds_met`: one live program (of the target, with a scope) reaches every
    /// `stopping.objectiveThresholds` value at once, each in its metric's direction.
    fn objective_thresholds_met(&self, scope: Scope) -> bool {
        let thresholds = &self.config.stopping.objective_thresholds;
        if thresholds.is_empty() {
            return false;
        }
        self.population.slots_in(scope).any(|slot| {
            let metrics = &self.population.get(slot).program.metrics;
            thresholds.iter().all(|(name, threshold)| {
                metrics
                    .get(name)
                    .is_some_and(|value| self.config.signed(name, value) >= self.config.signed(name, *threshold))
            })
        })
    }

    pub(crate) fn stop_verdict(&self, scope: Scope) -> StopVerdict {
        let rules = &self.config.stopping;
        let best = match scope {
            None => self.best,
            Some(t) => self.best_by_mode(Some(t)),
        };
        let best_fitness = best.map(|slot| self.population.get(slot).fitness);
        let log = &self.candidates;
        let progress = scope.and_then(|t| log.targets.get(t as usize)).cloned().unwrap_or_default();
        let stagnation = match scope {
            Some(_) => progress.stagnation,
            None if self.is_idea_run() => self.idea_stagnation(),
            None => log.stagnation,
        };
        let reason = if rules.score_threshold.zip(best_fitness).is_some_and(|(t, best)| best >= t) {
            Some("threshold reached")
        } else if rules.max_evaluations.is_some_and(|max| log.evaluations >= max) {
            Some("budget exhausted")
        } else if rules.patience.is_some_and(|p| stagnation >= p) {
            Some("stagnation")
        } else if rules.max_rounds.is_some_and(|max| self.rounds >= max) {
            Some("max rounds")
        } else if rules.max_cost_usd.zip(self.cost_totals()).is_some_and(|(max, spent)| spent.cost_usd >= max) {
            Some("cost budget exhausted")
        } else if self.objective_thresholds_met(scope) {
            Some("objective thresholds reached")
        } else {
            None
        };
        StopVerdict {
            stop: reason.is_some(),
            reason: reason.map(str::to_string),
            evaluations: log.evaluations,
            rounds: self.rounds,
            stagnation,
            best_fitness,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{AddRequest, Config, Database, Metrics};

    #[test]
    fn objective_thresholds_need_one_program_to_reach_all_of_them() {
        let config = Config::from_json(
            r#"{"directions": {"time": "min"}, "stopping": {"objectiveThresholds": {"accuracy": 0.99, "time": 2}}}"#,
        )
        .unwrap();
        let mut db = Database::new(config, 1).unwrap();
        let add = |db: &mut Database, i: u32, time: f64, accuracy: f64| {
            let metrics = Metrics::new([("time", time), ("accuracy", accuracy)]).unwrap();
            db.add(AddRequest::seed(format!("/{i}.py"), format!("v{i}"), metrics), i as f64).unwrap();
        };
        add(&mut db, 0, 1.0, 0.9);
        add(&mut db, 1, 3.0, 0.995);
        assert!(!db.should_stop().stop, "each threshold is met, but by different programs");
        add(&mut db, 2, 2.0, 0.99);
        assert_eq!(db.should_stop().reason.as_deref(), Some("objective thresholds reached"));
        assert!(Config::from_json(r#"{"stopping": {"objectiveThresholds": {"a": 1e999}}}"#).is_err());
    }
}
