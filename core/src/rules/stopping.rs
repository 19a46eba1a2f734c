//! Budget and stopping (evoidea's stop conditions and evo-anything's evaluation budget).

use crate::api::StopVerdict;
use crate::state::Database;

impl Database {
    /// `should_stop`: the first rule that holds, checked in this order — the best fitness reached
    /// `scoreThreshold`; `maxEvaluations` spent; `patience` evaluations without a new best;
    /// `maxRounds` plan batches done.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let config = Config::from_json(r#"{"stopping": {"scoreThreshold": 0.9}}"#).unwrap();
    /// let mut db = Database::new(config, 1).unwrap();
    /// db.add(AddRequest::seed("/f.py", "v0", Metrics::new([("s", 0.95)]).unwrap()), 1.0).unwrap();
    /// assert_eq!(db.should_stop().reason.as_deref(), Some("threshold reached"));
    /// ```
    pub fn should_stop(&self) -> StopVerdict {
        let rules = &self.config.stopping;
        let best_fitness = self.best.map(|slot| self.population.get(slot).fitness);
        let log = &self.candidates;
        let reason = if rules.score_threshold.zip(best_fitness).is_some_and(|(t, best)| best >= t) {
            Some("threshold reached")
        } else if rules.max_evaluations.is_some_and(|max| log.evaluations >= max) {
            Some("budget exhausted")
        } else if rules.patience.is_some_and(|p| log.stagnation >= p) {
            Some("stagnation")
        } else if rules.max_rounds.is_some_and(|max| self.rounds >= max) {
            Some("max rounds")
        } else {
            None
        };
        StopVerdict {
            stop: reason.is_some(),
            reason: reason.map(str::to_string),
            evaluations: log.evaluations,
            rounds: self.rounds,
            stagnation: log.stagnation,
            best_fitness,
        }
    }
}
