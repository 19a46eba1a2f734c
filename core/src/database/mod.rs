//! `Database`: the state of a run — the population on its islands, the PRNG, the counters, the candidate
//! log, the pending plan items, the event recorder — and the few changes that keep its
//! invariants (a program joins an island through `insert_on_island`, leaves through
//! `delete_program`, which keeps `best` pointing at a live program). The rules in `crate::rules`
//! and the orchestration in `crate::operations` change the state only through these.

mod candidates;
mod events;
mod island;
mod pending;
mod population;
mod program;

pub use candidates::code_hash;
pub(crate) use candidates::{AttributionRow, CachedResult, CandidateLog, TargetProgress};
pub use events::Event;
pub(crate) use island::Island;
pub(crate) use pending::{HeldAnswer, InFlight, ItemLease, PendingItem, PrunedProgram, SampledItem};
pub(crate) use population::{Population, Record};
pub use program::Program;

use crate::api::{Note, SynergyResult};
use crate::config::{Config, cell_key};
use crate::error::{Error, Result};
use crate::ranking::is_better;
use crate::rng::DetRng;

/// The largest seed: JavaScript's `Number.MAX_SAFE_INTEGER`.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// A population of programs on islands. Deterministic: the same seed and the same operations
/// give the same results and the same `to_json()` bytes on every platform.
///
/// ```
/// use evodb_core::{AddRequest, Config, Database, Metrics};
/// let mut db = Database::new(Config::default(), 7).unwrap();
/// let seed = db.add(AddRequest::seed("/src/f.py", "def f(): ...", Metrics::new([("score", 0.4)]).unwrap()), 1.0).unwrap();
/// let sample = db.sample();
/// assert_eq!(*sample.parent.unwrap().id, *seed.id); // island 1 is empty: falls back to the initial program
/// ```
#[derive(Clone, Debug)]
pub struct Database {
    pub(crate) config: Config,
    /// The seed the PRNG started from (kept for the record; the live state is `rng`).
    pub(crate) seed: u64,
    pub(crate) rng: DetRng,
    pub(crate) population: Population,
    pub(crate) islands: Vec<Island>,
    pub(crate) current_island: u32,
    pub(crate) island_generations: Vec<u64>,
    pub(crate) last_migration_generation: u64,
    pub(crate) best: Option<u32>,
    pub(crate) last_iteration: u64,
    /// Statuses, budget and fitness cache beyond the live population.
    pub(crate) candidates: CandidateLog,
    /// `plan` batches so far, where the next batch's island rotation starts, and the items
    /// still waiting for their candidates.
    pub(crate) rounds: u64,
    pub(crate) plan_cursor: u64,
    pub(crate) pending: Vec<PendingItem>,
    /// Operator samples not yet answered, oldest first (`rules/sampled_islands.rs`); always
    /// empty with `operators` off.
    pub(crate) sampled: Vec<SampledItem>,
    /// Work handed out and not yet answered, oldest first (`rules/in_flight.rs`); always empty
    /// unless the config's `pending` is `aware`.
    pub(crate) in_flight: Vec<InFlight>,
    /// The newest pruned programs, oldest first (`rules/pruned_retries.rs`): a retried add of
    /// one is answered, not added again.
    pub(crate) pruned: Vec<PrunedProgram>,
    /// Run memory (`note`), oldest first.
    pub(crate) notes: Vec<Note>,
    /// Evaluated synergy candidates (several-target runs), oldest first.
    pub(crate) synergies: Vec<SynergyResult>,
    /// Idea runs: the best fitness when each round was planned (`rules/ideas.rs`).
    pub(crate) idea_round_bests: Vec<Option<f64>>,
    /// Recorded events, while recording is on (`record_events`).
    pub(crate) events: Option<Vec<Event>>,
    /// Made by `new` (not read from a file): a recording started now begins with `created`.
    pub(crate) newly_created: bool,
    /// Read from a file with no `evodb` section (the seed's, or one another tool rewrote).
    pub(crate) without_evodb_section: bool,
    /// What the load noticed for the caller to say (`notice_lost_section`); never stored.
    pub(crate) load_warnings: Vec<String>,
}

impl Database {
    /// An empty database.
    /// `seed` must be at most 2^53 − 1 so that every JSON reader (JavaScript's too) keeps it exact.
    pub fn new(config: Config, seed: u64) -> Result<Database> {
        config.validate()?;
        Database::check_seed(seed)?;
        let n = config.num_islands as usize;
        Ok(Database {
            config,
            seed,
            rng: DetRng::from_seed(seed),
            population: Population::default(),
            islands: vec![Island::default(); n],
            current_island: 0,
            island_generations: vec![0; n],
            last_migration_generation: 0,
            best: None,
            last_iteration: 0,
            candidates: CandidateLog { next_seq: 1, ..CandidateLog::default() },
            rounds: 0,
            plan_cursor: 0,
            pending: Vec::new(),
            sampled: Vec::new(),
            in_flight: Vec::new(),
            pruned: Vec::new(),
            notes: Vec::new(),
            synergies: Vec::new(),
            idea_round_bests: Vec::new(),
            events: None,
            newly_created: true,
            without_evodb_section: false,
            load_warnings: Vec::new(),
        })
    }

    /// The check [`Database::new`] makes on `seed`, for callers that validate before they act.
    pub fn check_seed(seed: u64) -> Result<()> {
        if seed > MAX_SEED {
            return Err(Error::config("seed", format!("is {seed}; pass an integer from 0 to {MAX_SEED}")));
        }
        Ok(())
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn last_iteration(&self) -> u64 {
        self.last_iteration
    }

    pub fn current_island(&self) -> u32 {
        self.current_island
    }

    /// Number of live programs.
    pub fn len(&self) -> usize {
        self.population.len()
    }

    pub fn is_empty(&self) -> bool {
        self.population.len() == 0
    }

    pub fn program(&self, id: &str) -> Option<&Program> {
        self.population.slot_of(id).map(|slot| &self.population.get(slot).program)
    }

    /// Live programs in insertion order.
    pub fn programs(&self) -> impl Iterator<Item = &Program> {
        self.population.slots().map(|slot| &self.population.get(slot).program)
    }

    /// Ids on island `i`, in join order.
    pub fn island_members(&self, island: u32) -> Vec<&str> {
        self.islands[island as usize].members().map(|slot| self.population.get(slot).program.id.as_ref()).collect()
    }

    /// The ranking value of a live program (higher is better).
    pub fn fitness(&self, id: &str) -> Option<f64> {
        self.population.slot_of(id).map(|slot| self.population.get(slot).fitness)
    }

    pub(crate) fn next_seq(&mut self) -> u64 {
        let seq = self.candidates.next_seq;
        self.candidates.next_seq += 1;
        seq
    }

    /// One evaluation spent; stagnation counts those that did not raise the best fitness.
    pub(crate) fn count_evaluation(&mut self, improved: bool) {
        self.candidates.evaluations += 1;
        self.candidates.stagnation = if improved { 0 } else { self.candidates.stagnation + 1 };
    }

    /// One evaluation of a target's candidate (several-target runs); `improved`: it raised the
    /// target's best.
    pub(crate) fn count_target_evaluation(&mut self, scope: crate::config::Scope, improved: bool) {
        let Some(t) = scope else { return };
        let progress = self.target_progress_mut(t);
        progress.evaluations += 1;
        progress.stagnation = if improved { 0 } else { progress.stagnation + 1 };
    }

    pub(crate) fn target_progress_mut(&mut self, t: u32) -> &mut TargetProgress {
        let targets = &mut self.candidates.targets;
        if targets.len() <= t as usize {
            targets.resize_with(t as usize + 1, TargetProgress::default);
        }
        &mut targets[t as usize]
    }

    /// Stores `program` and makes it the newest member of `island`.
    pub(crate) fn insert_on_island(&mut self, program: Program, fitness: f64, island: u32) -> u32 {
        let timestamp = program.timestamp;
        let objectives =
            self.config.selection.has_objectives().then(|| self.config.stored_objectives(&program.metrics));
        let slot = self.population.insert(program, fitness, self.config.target_of_island(island));
        if let Some(objectives) = objectives {
            self.population.set_objectives(slot, &objectives);
        }
        self.join_island(slot, island, fitness, timestamp);
        slot
    }

    pub(crate) fn join_island(&mut self, slot: u32, island: u32, fitness: f64, timestamp: f64) {
        let cell = self.population.get(slot).program.cell.as_deref();
        let key = cell.map(|cell| cell_key(&self.config.features, self.config.num_islands, cell));
        let objectives = self.population.front.objectives(slot);
        self.islands[island as usize].join(slot, fitness, timestamp, key, objectives);
        self.population.enter_island(slot, island);
    }

    /// `update_best`: the seed replaces the best when there is none or the new one is better.
    pub(crate) fn update_best(&mut self, slot: u32) {
        if !self.config.selection.best_is_scalar() {
            self.best = self.best_by_mode(None);
            return;
        }
        let candidate = self.population.get(slot);
        let replace = match self.best {
            None => true,
            Some(best) => {
                let best = self.population.get(best);
                is_better(candidate.fitness, candidate.program.timestamp, best.fitness, best.program.timestamp)
            }
        };
        if replace {
            self.best = Some(slot);
        }
    }

    /// Deletes a program that is on no island. If it was the best, the best becomes the top of
    /// the remaining population (the seed would leave a dangling `bestProgramId` instead).
    pub(crate) fn delete_program(&mut self, slot: u32) -> Record {
        let record = self.population.remove(slot);
        self.remember_pruned(&record.program);
        if record.program.iteration_found == 0 && self.candidates.baseline_fitness.is_none() {
            self.candidates.baseline_fitness = Some(record.fitness);
        }
        if !self.config.selection.best_is_scalar() {
            self.best = self.best_by_mode(None);
        } else if self.best == Some(slot) {
            self.best = self.population.best();
        }
        record
    }

    pub fn best_id(&self) -> Option<&str> {
        self.best.map(|slot| self.population.get(slot).program.id.as_ref())
    }

    /// Rebuilds the indexes when deleted programs' slots and departed members' join positions
    /// outnumber the live ones: neither is ever reused, so without this a long in-process run
    /// grows its memory and its scans (`info`, `stats`, `to_json`) with every add ever made,
    /// not with the population. Amortized O(1) per add.
    pub(crate) fn compact_indexes_when_sparse(&mut self) {
        const SLACK: usize = 1024;
        let sparse = |used: usize, live: usize| used > 2 * live + SLACK;
        if sparse(self.population.slot_count(), self.population.len())
            || self.islands.iter().any(|island| sparse(island.positions_used(), island.len()))
        {
            self.compact_indexes();
        }
    }

    /// `compact_indexes`: renumbers slots and join positions densely. Every relative order (the
    /// file's, the islands' join order, the rankings' tie-breaks) stays as it was, so nothing a
    /// caller sees changes; a database read from its file is built this way in the first place.
    pub(crate) fn compact_indexes(&mut self) {
        let members: Vec<Vec<u32>> = self.islands.iter().map(|island| island.members().collect()).collect();
        let (population, remap) = std::mem::take(&mut self.population).compacted();
        self.population = population;
        for (island, members) in members.into_iter().enumerate() {
            self.islands[island] = Island::default();
            for old in members {
                let slot = remap[old as usize];
                let record = self.population.get(slot);
                let (fitness, timestamp) = (record.fitness, record.program.timestamp);
                self.join_island(slot, island as u32, fitness, timestamp);
            }
        }
        self.best = self.best.map(|slot| remap[slot as usize]);
    }

    pub(crate) fn seed_program(&self) -> Option<&Program> {
        self.programs().find(|p| p.iteration_found == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AddRequest, Metrics};

    fn config() -> Config {
        Config::from_json(
            r#"{"numIslands": 3, "maxIslandSize": 8, "migrationInterval": 5, "archiveSize": 2, "features": [
                 {"kind": "metric", "metric": "speed", "min": 0, "max": 1, "bins": 3}, {"kind": "island"}]}"#,
        )
        .unwrap()
    }

    fn request(i: u64, parent: &str) -> AddRequest {
        let score = (i * 2_654_435_761 % 1000) as f64 / 1000.0;
        let mut request = AddRequest::seed(
            format!("/c/{i}.py"),
            format!("return {i}"),
            Metrics::new([("score", score), ("speed", 1.0 - score)]).unwrap(),
        );
        request.parent_id = parent.into();
        request
    }

    /// A run that compacts on its own (at the threshold) and one compacted after every add give
    /// the same outcomes, samples and bytes; and the automatic one keeps its indexes bounded.
    #[test]
    fn compacting_indexes_changes_nothing_a_caller_sees() {
        let mut auto = Database::new(config(), 3).unwrap();
        let mut every = auto.clone();
        let mut parent = String::from("0");
        let adds = 6000;
        for i in 0..adds {
            let a = auto.add(request(i, &parent), i as f64).unwrap();
            let b = every.add(request(i, &parent), i as f64).unwrap();
            every.compact_indexes();
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "add {i}");
            let (sa, sb) = (auto.sample(), every.sample());
            assert_eq!(format!("{sa:?}"), format!("{sb:?}"), "sample after add {i}");
            parent = sa.parent.map(|p| p.id.to_string()).unwrap_or_default();
            let bound = 2 * auto.len() + 1024 + 1;
            assert!(auto.population.slot_count() <= bound, "slots {} after add {i}", auto.population.slot_count());
            if i % 500 == 0 {
                assert_eq!(auto.to_json(), every.to_json(), "bytes after add {i}");
                assert_eq!(auto.stats(), every.stats());
            }
        }
        assert_eq!(auto.to_json(), every.to_json());
        assert!(auto.population.slot_count() < adds as usize / 2, "never compacted");
    }
}
