//! `remeasure`: a live program's benchmark run again, its metrics the running mean of every
//! measurement (`rules::fold_measurement`), and everything ranked by fitness brought in line:
//! the islands' rankings, the MAP-Elites cell, the best program, the elite archive and the
//! dedupe cache. It is no evaluation of a new candidate, so the budget and patience counts stay.

use crate::api::{RemeasureRequest, Remeasured};
use crate::config::{cell_of, fitness_of};
use crate::counters;
use crate::database::{Database, Event};
use crate::error::{Error, Result};
use crate::rules::fold_measurement;

impl Database {
    /// Folds a new measurement of live program `request.id` into its metrics; on error nothing
    /// changes. Recorded as a `remeasured` event, so the history replays it.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics, RemeasureRequest};
    /// let mut db = Database::new(Config::default(), 1).unwrap();
    /// let mut seed = AddRequest::seed("/f.py", "v0", Metrics::new([("s", 0.5)]).unwrap());
    /// seed.id = Some("p0".into());
    /// db.add(seed, 1.0).unwrap();
    /// let again = RemeasureRequest { id: "p0".into(), metrics: Metrics::new([("s", 0.3)]).unwrap() };
    /// let outcome = db.remeasure(again).unwrap();
    /// assert_eq!((outcome.measurements, outcome.fitness), (2, 0.4));
    /// ```
    pub fn remeasure(&mut self, request: RemeasureRequest) -> Result<Remeasured> {
        let Some(slot) = self.population.slot_of(&request.id) else {
            return Err(Error::input(
                "id",
                format!(
                    "is `{}`, which is no live program (pruned, never added, or an error); pass the id of a live \
                     program, e.g. from `best`",
                    request.id
                ),
            ));
        };
        let record = self.population.get(slot);
        let program = &record.program;
        let measurements = program.measurements();
        let counted = counters::next(|| "measurements", measurements)?;
        let metrics = fold_measurement(&program.metrics, measurements, &request.metrics)?;
        let fitness = fitness_of(&self.config, &metrics)?;
        self.config.objectives_of(&metrics)?;
        let cell = match (&program.cell, self.config.features.is_empty()) {
            (Some(_), false) => Some(cell_of(&self.config.features, &metrics, &program.target_code, program.island)?),
            _ => None,
        };
        let previous_fitness = record.fitness;

        // Nothing has changed so far; from here on the remeasure cannot fail.
        let archive_before = self.archive_watch();
        if self.recording() {
            let (id, measured) = (request.id.clone(), request.metrics.clone());
            self.emit(Event::Remeasured { id, metrics: measured, fitness, measurements: counted });
        }
        let record = self.population.get_mut(slot);
        record.fitness = fitness;
        record.program.metrics = metrics.clone();
        record.program.measurements_if_several = Some(counted);
        if cell.is_some() {
            record.program.cell = cell;
        }
        if self.config.selection.has_objectives() {
            let objectives = self.config.stored_objectives(&metrics);
            self.population.set_objectives(slot, &objectives);
        }
        // Every index ranks by fitness: rebuilt around the new one (relative orders are kept).
        self.compact_indexes();
        self.best = self.best_overall();
        for cached in self.candidates.cache.values_mut().filter(|cached| *cached.id == *request.id) {
            cached.metrics = metrics.clone();
        }
        self.emit_archive_change(archive_before);
        Ok(Remeasured {
            id: request.id,
            metrics,
            measurements: counted,
            fitness,
            previous_fitness,
            best_program_id: self.best_id().map(str::to_string),
        })
    }
}
