//! The island database: state, `add`, `best`, `info`. Sampling, migration, pruning and
//! persistence live in their own modules as further `impl Database` blocks.

use std::collections::BTreeSet;

use crate::candidates::{CachedResult, CandidateLog, Status, code_hash};
use crate::config::{Config, Placement};
use crate::counters;
use crate::error::{Error, Result};
use crate::events::Event;
use crate::features::{cell_key, cell_of};
use crate::island::Island;
use crate::metrics::fitness_of;
use crate::operators::Operator;
use crate::plan::PendingItem;
use crate::population::{Population, Record};
use crate::program::{AddRequest, Program, ROOT_PARENT_ID};
use crate::ranking::is_better;
use crate::rng::DetRng;
use crate::views::{AddOutcome, BestProgram, Info};

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
/// assert_eq!(sample.parent.unwrap().id, seed.id); // island 1 is empty: falls back to the seed program
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
    /// Recorded events, while recording is on (`record_events`).
    pub(crate) events: Option<Vec<Event>>,
    /// Made by `new` (not read from a file): a recording started now begins with `created`.
    pub(crate) newly_created: bool,
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
            events: None,
            newly_created: true,
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
        self.islands[island as usize].members().map(|slot| self.population.get(slot).program.id.as_str()).collect()
    }

    /// The ranking value of a live program (higher is better).
    pub fn fitness(&self, id: &str) -> Option<f64> {
        self.population.slot_of(id).map(|slot| self.population.get(slot).fitness)
    }

    /// Adds a scored candidate, following the seed's `addProgram` step by step:
    /// `iterationFound` = `lastIteration`; generation = parent's + 1 (0 for an unknown parent,
    /// with a warning); join the placed island; update the best; count the island generation;
    /// advance `lastIteration` and `currentIsland`; migrate when due; prune every island.
    ///
    /// Beyond the seed: a `planItem` fixes the island and operator; status `error` records the
    /// candidate without placing it (`record_error`); with dedupe, a repeat of recorded code is
    /// answered from the cache (`answer_from_cache`). Every check runs before anything changes.
    pub fn add(&mut self, request: AddRequest, now: f64) -> Result<AddOutcome> {
        request.validate()?;
        if !now.is_finite() {
            return Err(Error::input("now", format!("is {now}; pass the current time in seconds")));
        }
        counters::next(|| "lastIteration", self.last_iteration)?;
        counters::next(|| "seq", self.candidates.next_seq)?;
        if let Some(id) = &request.id
            && self.population.slot_of(id).is_some()
        {
            return Err(Error::DuplicateId(id.clone()));
        }
        let planned = match &request.plan_item {
            Some(name) => {
                let (index, item) = self.pending_item(name)?;
                if request.island.is_some_and(|island| island != item.island) {
                    return Err(Error::input(
                        "island",
                        format!("conflicts with plan item `{name}`, planned for island {}; leave it out", item.island),
                    ));
                }
                Some((index, item.island, item.operator))
            }
            None => None,
        };
        if request.status == Status::Error {
            return Ok(self.record_error(request, now, planned));
        }
        let fitness = fitness_of(&self.config, &request.metrics)?;
        let hash = self.config.dedupe.then(|| code_hash(&request.target_code));
        if let Some(cached) = hash.as_ref().and_then(|h| self.candidates.cache.get(h)).cloned() {
            return Ok(self.answer_from_cache(cached, request, now, planned));
        }
        let parent = self.population.slot_of(&request.parent_id);
        let island = match planned {
            Some((_, island, _)) => island,
            None => self.place_candidate(&request, parent)?,
        };
        let cell = match self.config.features.is_empty() {
            true => None,
            false => Some(cell_of(&self.config.features, &request.metrics, &request.target_code, island)?),
        };
        counters::next(|| format!("islandGenerations[{island}]"), self.island_generations[island as usize])?;
        if let Some(slot) = parent {
            counters::next(|| "generation", self.population.get(slot).program.generation)?;
        }

        // Nothing has changed so far; from here on the add cannot fail.
        let mut warnings = Vec::new();
        let generation = match parent {
            Some(slot) => self.population.get(slot).program.generation + 1,
            None => {
                if request.parent_id != ROOT_PARENT_ID && !request.parent_id.is_empty() {
                    warnings.push(format!(
                        "parent id `{}` is not in the database (pruned or mistyped); the program was added with generation 0",
                        request.parent_id
                    ));
                }
                0
            }
        };
        warnings.extend(self.consistency_warnings(&request, parent));
        let operator = request.operator.or(planned.map(|(_, _, operator)| operator));
        if let Some((index, _, _)) = planned {
            self.pending.remove(index);
        }
        let event_request = self.events.is_some().then(|| request.clone());
        let id = match request.id {
            Some(id) => id,
            None => self.rng.uuid(),
        };
        let seq = self.next_seq();
        let status = request.status;
        let program = Program {
            id,
            code_path: request.code_path,
            target_code: request.target_code,
            parent_id: request.parent_id,
            generation,
            iteration_found: self.last_iteration,
            timestamp: now + 0.0,
            metrics: request.metrics,
            changes: request.changes,
            island,
            migrated_from: None,
            seq_if_not_implied: Program::implied_seq(self.last_iteration, seq),
            status: request.status,
            reason: request.reason,
            operator,
            cell: cell.clone(),
        };
        let (id, metrics) = (program.id.clone(), program.metrics.clone());
        let archive_before = self.archive_watch();
        let best_before = self.best.map(|slot| self.population.get(slot).fitness);
        if let Some(request) = event_request {
            self.emit(Event::Added {
                seq,
                id: id.clone(),
                island,
                status: request.status,
                fitness,
                cell: cell.clone(),
                request,
                now,
            });
        }
        let slot = self.insert_on_island(program, fitness, island);
        self.update_best(slot);
        self.island_generations[island as usize] += 1;
        self.last_iteration += 1;
        self.current_island = (self.current_island + 1) % self.config.num_islands;
        if self.should_migrate() {
            self.migrate_ring();
        }
        // The new program itself may be pruned here when its island is full of better ones.
        self.prune_to_capacity();
        self.emit_archive_change(archive_before);

        let improved = best_before.is_none_or(|before| fitness > before);
        self.count_evaluation(improved);
        self.candidates.remember(status, Some(island));
        if let Some(hash) = hash {
            self.candidates.cache.insert(hash, CachedResult { id: id.clone(), metrics: metrics.clone() });
        }
        let best = &self.population.get(self.best.expect("the database holds at least one program")).program;
        Ok(AddOutcome {
            id,
            metrics,
            best_program_id: Some(best.id.clone()),
            best_metrics: Some(best.metrics.clone()),
            last_iteration: self.last_iteration,
            warnings,
            status,
            cached: false,
            cell,
        })
    }

    /// `record_error`: a candidate whose evaluation failed is counted and remembered with its
    /// reason (the `status` event carries it to the history) but joins no island.
    fn record_error(&mut self, request: AddRequest, now: f64, planned: Option<(usize, u32, Operator)>) -> AddOutcome {
        if let Some((index, _, _)) = planned {
            self.pending.remove(index);
        }
        let event_request = self.events.is_some().then(|| request.clone());
        let id = request.id.unwrap_or_else(|| self.rng.uuid());
        let seq = self.next_seq();
        self.count_evaluation(false);
        self.candidates.remember(Status::Error, None);
        if let Some(event_request) = event_request {
            let reason = request.reason.clone().unwrap_or_default();
            self.emit(Event::Status {
                seq,
                id: id.clone(),
                status: Status::Error,
                reason,
                request: event_request,
                now,
            });
        }
        self.outcome_without_program(id, request.metrics, Status::Error, false)
    }

    /// `answer_from_cache`: dedupe found the same code (`code_hash`) among recorded candidates;
    /// the earlier id and metrics answer, nothing joins the population, and the evaluation still
    /// counts toward the budget (the caller ran it, as in seed 003's `evo_check_cache` flow).
    fn answer_from_cache(
        &mut self,
        cached: CachedResult,
        request: AddRequest,
        now: f64,
        planned: Option<(usize, u32, Operator)>,
    ) -> AddOutcome {
        if let Some((index, _, _)) = planned {
            self.pending.remove(index);
        }
        self.count_evaluation(false);
        self.emit(Event::Cached { id: cached.id.clone(), request, now });
        self.outcome_without_program(cached.id, cached.metrics, Status::Accepted, true)
    }

    fn outcome_without_program(&self, id: String, metrics: crate::Metrics, status: Status, cached: bool) -> AddOutcome {
        let best = self.best.map(|slot| &self.population.get(slot).program);
        AddOutcome {
            id,
            metrics,
            best_program_id: best.map(|p| p.id.clone()),
            best_metrics: best.map(|p| p.metrics.clone()),
            last_iteration: self.last_iteration,
            warnings: Vec::new(),
            status,
            cached,
            cell: None,
        }
    }

    fn next_seq(&mut self) -> u64 {
        let seq = self.candidates.next_seq;
        self.candidates.next_seq += 1;
        seq
    }

    /// One evaluation spent; stagnation counts those that did not raise the best fitness.
    fn count_evaluation(&mut self, improved: bool) {
        self.candidates.evaluations += 1;
        self.candidates.stagnation = if improved { 0 } else { self.candidates.stagnation + 1 };
    }

    /// The archive before an operation, when events are recorded (their only reader).
    fn archive_watch(&self) -> Option<BTreeSet<String>> {
        self.events.is_some().then(|| self.archive_ids())
    }

    fn archive_ids(&self) -> BTreeSet<String> {
        self.archive_slots().into_iter().map(|slot| self.population.get(slot).program.id.clone()).collect()
    }

    fn emit_archive_change(&mut self, before: Option<BTreeSet<String>>) {
        let Some(before) = before else { return };
        let after = self.archive_ids();
        if before != after {
            let entered = after.difference(&before).cloned().collect();
            let left = before.difference(&after).cloned().collect();
            self.emit(Event::Archive { entered, left });
        }
    }

    /// `place_candidate`: round-robin (seed), the parent's home island, or the requested island.
    fn place_candidate(&self, request: &AddRequest, parent: Option<u32>) -> Result<u32> {
        if let Some(island) = request.island {
            if island >= self.config.num_islands {
                return Err(Error::input(
                    "island",
                    format!("is {island}; this database has islands 0..{}", self.config.num_islands - 1),
                ));
            }
            return Ok(island);
        }
        match self.config.placement {
            Placement::RoundRobin => Ok(self.current_island),
            Placement::ParentIsland => {
                Ok(parent.map(|slot| self.population.get(slot).program.island).unwrap_or(self.current_island))
            }
            Placement::Explicit => Err(Error::input(
                "island",
                "is required: this database uses explicit placement; pass the target island",
            )),
        }
    }

    /// Stores `program` and makes it the newest member of `island`.
    pub(crate) fn insert_on_island(&mut self, program: Program, fitness: f64, island: u32) -> u32 {
        let timestamp = program.timestamp;
        let slot = self.population.insert(program, fitness);
        self.join_island(slot, island, fitness, timestamp);
        slot
    }

    pub(crate) fn join_island(&mut self, slot: u32, island: u32, fitness: f64, timestamp: f64) {
        let cell = self.population.get(slot).program.cell.as_deref();
        let key = cell.map(|cell| cell_key(&self.config.features, self.config.num_islands, cell));
        self.islands[island as usize].join(slot, fitness, timestamp, key);
        self.population.enter_island(slot, island);
    }

    /// `update_best`: the seed replaces the best when there is none or the new one is better.
    fn update_best(&mut self, slot: u32) {
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

    /// What the seed skill's loop relies on without checking it: one initial program, and the same
    /// metric names on every candidate (the mean of different metrics ranks nothing).
    /// Metric names are compared with the parent's (else the best's): a child is scored like its
    /// parent, and that costs no scan of the population.
    fn consistency_warnings(&self, request: &AddRequest, parent: Option<u32>) -> Vec<String> {
        let mut warnings = Vec::new();
        if request.is_seed() && !self.is_empty() {
            warnings.push(format!(
                "the database already holds {} program{} and this is a second initial program (`seed`); \
                 to continue the run, add candidates with --parentId from `sample`",
                self.len(),
                if self.len() == 1 { "" } else { "s" }
            ));
        }
        if let Some(reference) = parent.or(self.best).map(|slot| &self.population.get(slot).program) {
            let names = |m: &crate::Metrics| m.iter().map(|(name, _)| name.to_owned()).collect::<BTreeSet<_>>();
            let (stored, given) = (names(&reference.metrics), names(&request.metrics));
            if stored != given {
                let list = |set: &BTreeSet<String>| set.iter().cloned().collect::<Vec<_>>().join(", ");
                warnings.push(format!(
                    "metrics name [{}] but the stored programs use [{}]; score every candidate with the same metrics, or fitness compares unlike things",
                    list(&given),
                    list(&stored)
                ));
            }
        }
        warnings
    }

    /// Deletes a program that is on no island. If it was the best, the best becomes the top of
    /// the remaining population (the seed would leave a dangling `bestProgramId` instead).
    pub(crate) fn delete_program(&mut self, slot: u32) -> Record {
        let record = self.population.remove(slot);
        if record.program.iteration_found == 0 && self.candidates.baseline_fitness.is_none() {
            self.candidates.baseline_fitness = Some(record.fitness);
        }
        if self.best == Some(slot) {
            self.best = self.population.best();
        }
        record
    }

    /// `best`: the best program, or `None` for an empty database.
    pub fn best(&self) -> Option<BestProgram> {
        self.best.map(|slot| BestProgram::from(&self.population.get(slot).program))
    }

    pub fn best_id(&self) -> Option<&str> {
        self.best.map(|slot| self.population.get(slot).program.id.as_str())
    }

    /// `info`: the seed CLI's summary. The seed program is the first with `iterationFound == 0`.
    pub fn info(&self) -> Info {
        let best = self.best.map(|slot| &self.population.get(slot).program);
        let seed = self.seed_program();
        Info {
            is_empty: self.is_empty(),
            last_iteration: self.last_iteration,
            program_count: self.len(),
            best_program_id: best.map(|p| p.id.clone()),
            best_metrics: best.map(|p| p.metrics.clone()),
            seed_code_path: seed.map(|p| p.code_path.clone()),
            seed_target_code: seed.map(|p| p.target_code.clone()),
        }
    }

    pub(crate) fn seed_program(&self) -> Option<&Program> {
        self.programs().find(|p| p.iteration_found == 0)
    }
}
