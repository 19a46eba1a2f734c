//! The public operations' orchestration: `add` step by step (checks first, then placement,
//! the best, migration and pruning, the candidate log and the events), `best`, `info` and
//! `export`. The rules it applies live in `crate::rules`, the state they change in `crate::database`.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::api::{AddOutcome, AddRequest, BestProgram, ExportFormat, Info, Operator, ROOT_PARENT_ID, Status};
use crate::config::{Placement, Scope, cell_of, fitness_of};
use crate::counters;
use crate::database::{CachedResult, Database, Event, Program, code_hash};
use crate::error::{Error, Result};

mod batches;
mod remeasure;
mod synergy;

/// A planned add's item: its index in `pending`, island and operator.
type Planned = Option<(usize, u32, Operator)>;

impl Database {
    /// Adds a scored candidate, following the seed's `addProgram` step by step:
    /// `iterationFound` = `lastIteration`; generation = parent's + 1 (0 for an unknown parent,
    /// with a warning); join the placed island; update the best; count the island generation;
    /// advance `lastIteration` and `currentIsland`; migrate when due; prune every island.
    ///
    /// Beyond the seed: a `planItem` fixes the island and operator, and answers to one plan
    /// batch apply in plan order (an early one is held: `batches.rs`); status `error` records the
    /// candidate without placing it (`record_error`); with dedupe, a repeat of recorded code is
    /// answered from the cache (`answer_from_cache`). Every check runs before anything changes.
    pub fn add(&mut self, request: AddRequest, now: f64) -> Result<AddOutcome> {
        let request = self.admit_idea(request)?;
        request.validate()?;
        if !now.is_finite() {
            return Err(Error::input("now", format!("is {now}; pass the current time in seconds")));
        }
        counters::next(|| "lastIteration", self.last_iteration)?;
        counters::next(|| "seq", self.candidates.next_seq)?;
        if let Some(id) = &request.id
            && let Some(slot) = self.population.slot_of(id)
        {
            return match self.population.get(slot).program.is_repeated_by(&request) {
                true => Ok(self.answer_repeated_add(slot)),
                false => Err(Error::DuplicateId(id.clone())),
            };
        }
        if self.answered_pruned_retry(&request) {
            return Ok(self.answer_pruned_retry(&request));
        }
        self.check_parent_order(&request)?;
        if let Some(embedding) = &request.embedding {
            self.check_embedding_length("embedding", embedding)?;
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
                if !item.synergy.is_empty() && (request.island.is_some() || request.target.is_some()) {
                    return Err(Error::input(
                        if request.island.is_some() { "island" } else { "target" },
                        format!("is given, but synergy item `{name}` combines every target on no island; leave it out"),
                    ));
                }
                self.check_token(item, &request)?;
                Some((index, item.island, item.operator))
            }
            None if request.token.is_some() => {
                return Err(Error::input(
                    "token",
                    "is given without --planItem; pass the plan item it leases, or leave it out",
                ));
            }
            None => None,
        };
        self.target_of_request(&request, planned)?;
        if let Some((index, _, _)) = planned
            && let Some(answer) = self.answer_held_again(index, &request)
        {
            return answer;
        }
        if let Some(id) = &request.id
            && self.is_held_id(id)
        {
            return Err(Error::DuplicateId(id.clone()));
        }
        let Some((index, _, _)) = planned else {
            return self.apply_answer(request, now, None, false);
        };
        if self.waits_for_earlier_items(index) {
            return self.hold(request, now, index);
        }
        self.apply_in_turn(request, now, planned)
    }

    /// The answer applied: recorded as an error, answered from the dedupe cache, or placed.
    /// `released`: it was held (the checks that can fail ran when it arrived).
    pub(super) fn apply_answer(
        &mut self,
        request: AddRequest,
        now: f64,
        planned: Planned,
        released: bool,
    ) -> Result<AddOutcome> {
        if request.status == Status::Error {
            return Ok(self.record_error(request, now, planned, released));
        }
        let fitness = fitness_of(&self.config, &request.metrics)?;
        self.config.objectives_of(&request.metrics)?;
        self.config.check_instance_scores(&request.instance_scores)?;
        if let Some((index, _, _)) = planned
            && !self.pending[index].synergy.is_empty()
        {
            return Ok(self.record_synergy(request, now, index, fitness, released));
        }
        let scope = self.target_of_request(&request, planned)?;
        let hash = self.config.dedupe.then(|| code_hash(&request.target_code));
        if let Some(cached) = hash.as_ref().and_then(|h| self.candidates.cache.get(h)).cloned() {
            return Ok(self.answer_from_cache(cached, request, now, planned, released, scope));
        }
        let parent = self.population.slot_of(&request.parent_id);
        let island = match planned {
            Some((_, island, _)) => island,
            None => self.place_candidate(&request, parent, scope)?,
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
        warnings.extend(self.consistency_warnings(&request, parent, scope));
        let operator = request.operator.or(planned.map(|(_, _, operator)| operator));
        let second_parent_id = match (planned, request.parents.get(1)) {
            (_, Some(second)) => Some(second.clone()),
            (Some((index, _, _)), None) => {
                self.pending[index].second_parent_id.clone().filter(|id| *id != request.parent_id)
            }
            (None, None) => self.sampled_second_parent(&request),
        };
        match planned {
            Some((index, _, _)) => drop(self.pending.remove(index)),
            None => self.consume_sample(&request),
        }
        self.settle_in_flight(&request.parent_id);
        let (status, reason) = self.decide_status(&request, parent, fitness);
        let beats_parent = parent.is_some_and(|slot| fitness > self.population.get(slot).fitness);
        self.attribute(&request, operator, Some(island), beats_parent, false);
        let event_request = self.events.is_some().then(|| request.clone());
        let id = self.answer_id(&request);
        let seq = self.next_seq();
        let program = Program {
            id,
            code_path: request.code_path.into(),
            target_code: request.target_code.into(),
            parent_id: request.parent_id,
            generation,
            iteration_found: self.last_iteration,
            timestamp: now + 0.0,
            metrics: request.metrics,
            changes: request.changes.into(),
            island,
            migrated_from: None,
            seq_if_not_implied: Program::implied_seq(self.last_iteration, seq),
            status,
            reason,
            operator,
            second_parent_id,
            cell: cell.clone(),
            branch: request.branch.map(Arc::from),
            commit: request.commit.map(Arc::from),
            target: self.config.target_id(scope).map(Arc::from),
            measurements_if_several: None,
            origin: request.origin,
            parents: request.parents,
            instance_scores: request.instance_scores,
            embedding: request.embedding.map(Arc::from),
        };
        let (id, metrics) = (program.id.clone(), program.metrics.clone());
        let archive_before = self.archive_watch();
        let best_before = self.best.map(|slot| self.population.get(slot).fitness);
        let target_best_before =
            scope.and_then(|t| self.population.best_in(Some(t))).map(|s| self.population.get(s).fitness);
        if let Some(request) = event_request {
            self.emit(Event::Added {
                seq,
                id: id.to_string(),
                island,
                status,
                fitness,
                cell: cell.clone(),
                request,
                now,
                released,
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
        self.compact_indexes_when_sparse();

        let improved = self.beats_by_noise_margin(fitness, best_before);
        self.count_evaluation(improved);
        self.count_target_evaluation(scope, self.beats_by_noise_margin(fitness, target_best_before));
        self.candidates.remember(status, Some(island));
        if let Some(hash) = hash {
            self.candidates.cache.insert(hash, CachedResult { id: id.clone(), metrics: metrics.clone() });
        }
        let best = &self.population.get(self.best.expect("the database holds at least one program")).program;
        Ok(AddOutcome {
            id: id.to_string(),
            metrics,
            best_program_id: Some(best.id.to_string()),
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
    fn record_error(&mut self, request: AddRequest, now: f64, planned: Planned, released: bool) -> AddOutcome {
        let synergy = planned.is_some_and(|(index, _, _)| !self.pending[index].synergy.is_empty());
        let scope = if synergy { None } else { self.target_of_request(&request, planned).unwrap_or(None) };
        match planned {
            Some((index, _, _)) => drop(self.pending.remove(index)),
            None => self.consume_sample(&request),
        }
        self.settle_in_flight(&request.parent_id);
        let event_request = self.events.is_some().then(|| request.clone());
        let id = self.answer_id(&request);
        let seq = self.next_seq();
        self.count_evaluation(false);
        // A synergy item's failure counts for every target; another's for its own, when known.
        match synergy {
            true => (0..self.config.targets.len() as u32).for_each(|t| self.count_target_evaluation(Some(t), false)),
            false => self.count_target_evaluation(scope, false),
        }
        self.candidates.remember(Status::Error, None);
        let operator = request.operator.or(planned.map(|(_, _, operator)| operator));
        self.attribute(&request, operator, None, false, true);
        if let Some(reason) = &request.reason {
            let target = self.config.target_id(scope).map(str::to_string);
            self.note_failure(&id, reason, &request.changes, target);
        }
        if let Some(event_request) = event_request {
            let reason = request.reason.clone().unwrap_or_default();
            self.emit(Event::Status {
                seq,
                id: id.to_string(),
                status: Status::Error,
                reason,
                request: event_request,
                now,
                released,
            });
        }
        self.outcome_without_program(id, request.metrics, Status::Error, false)
    }

    /// `answer_from_cache`: dedupe found the same code (`code_hash`) among recorded candidates;
    /// the earlier id and metrics answer, nothing joins the population, and the evaluation still
    /// counts toward the budget (the caller ran it, as in evo-anything's `evo_check_cache` flow).
    fn answer_from_cache(
        &mut self,
        cached: CachedResult,
        request: AddRequest,
        now: f64,
        planned: Planned,
        released: bool,
        scope: Scope,
    ) -> AddOutcome {
        match planned {
            Some((index, _, _)) => drop(self.pending.remove(index)),
            None => self.consume_sample(&request),
        }
        self.settle_in_flight(&request.parent_id);
        self.count_evaluation(false);
        self.count_target_evaluation(scope, false);
        let operator = request.operator.or(planned.map(|(_, _, operator)| operator));
        self.attribute(&request, operator, None, false, false);
        if self.recording() {
            self.emit(Event::Cached { id: cached.id.to_string(), request, now, released });
        }
        self.outcome_without_program(cached.id, cached.metrics, Status::Accepted, true)
    }

    /// `answer_repeated_add`: the add names a live program and repeats its fields, as a retry
    /// after a lost answer does (e.g. a PostgreSQL commit whose acknowledgement the connection
    /// dropped). It is answered like the first attempt, with a warning, and changes nothing, so a
    /// retried add never adds twice.
    fn answer_repeated_add(&self, slot: u32) -> AddOutcome {
        let program = &self.population.get(slot).program;
        let mut outcome =
            self.outcome_without_program(program.id.clone(), program.metrics.clone(), program.status, false);
        outcome.cell = program.cell.clone();
        outcome.warnings.push(format!(
            "program `{}` is already in the database with these fields (a retried add?); nothing changed",
            program.id
        ));
        outcome
    }

    /// A retry of an add whose program pruning has since removed (`answered_pruned_retry`):
    /// answered with the request's own metrics and a warning, and nothing changes.
    fn answer_pruned_retry(&self, request: &AddRequest) -> AddOutcome {
        let id: Arc<str> = request.id.as_deref().unwrap_or_default().into();
        let mut outcome = self.outcome_without_program(id.clone(), request.metrics.clone(), request.status, false);
        outcome.warnings.push(format!(
            "program `{id}` was added with these fields before and has since been pruned from its island (a retried \
             add?); nothing changed"
        ));
        outcome
    }

    pub(super) fn outcome_without_program(
        &self,
        id: Arc<str>,
        metrics: crate::metrics::Metrics,
        status: Status,
        cached: bool,
    ) -> AddOutcome {
        let best = self.best.map(|slot| &self.population.get(slot).program);
        AddOutcome {
            id: id.to_string(),
            metrics,
            best_program_id: best.map(|p| p.id.to_string()),
            best_metrics: best.map(|p| p.metrics.clone()),
            last_iteration: self.last_iteration,
            warnings: Vec::new(),
            status,
            cached,
            cell: None,
        }
    }

    /// The archive before an operation, when events are recorded (their only reader).
    fn archive_watch(&self) -> Option<BTreeSet<String>> {
        self.events.is_some().then(|| self.archive_ids())
    }

    fn archive_ids(&self) -> BTreeSet<String> {
        self.archive_slots().into_iter().map(|slot| self.population.get(slot).program.id.to_string()).collect()
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

    /// `parent_order`: a parent exists before its children. A program cannot name itself as its
    /// parent, and an id some live program already names as its parent cannot be added after it
    /// (the child's generation would contradict its parent's, a file `validate` refuses). The
    /// write path and `validate` share this rule, checked before anything changes.
    fn check_parent_order(&self, request: &AddRequest) -> Result<()> {
        let Some(id) = request.id.as_deref() else { return Ok(()) };
        if id == request.parent_id.as_str() {
            return Err(Error::input(
                "parentId",
                format!(
                    "is `{id}`, the id of the program being added; a program cannot be its own parent: pass the parent `sample` gave"
                ),
            ));
        }
        let child =
            self.population.slots().map(|slot| &self.population.get(slot).program).find(|p| p.parent_id.as_str() == id);
        match child {
            Some(child) => Err(Error::input(
                "id",
                format!(
                    "is `{id}`, which program `{}` already names as its parent; a parent is added before its children: pass another --id",
                    child.id
                ),
            )),
            None => Ok(()),
        }
    }

    /// `place_candidate`: the requested island; else, with `operators` on, the island the sample
    /// it answers named (`sampled_island`); else round-robin (seed), the parent's home island, or
    /// an error under explicit placement. In a several-target run, within the target's islands.
    fn place_candidate(&self, request: &AddRequest, parent: Option<u32>, scope: Scope) -> Result<u32> {
        if let Some(island) = request.island {
            return Ok(island); // checked by `target_of_request`
        }
        if self.config.placement != Placement::Explicit
            && let Some(island) = self.sampled_island(request, scope)
        {
            return Ok(island);
        }
        let round_robin = self.island_in(scope, self.current_island);
        match self.config.placement {
            Placement::RoundRobin => Ok(round_robin),
            Placement::ParentIsland => Ok(parent
                .map(|slot| self.population.get(slot).program.island)
                .filter(|&island| self.config.scope_islands(scope).contains(&island))
                .unwrap_or(round_robin)),
            Placement::Explicit => Err(Error::input(
                "island",
                "is required: this database uses explicit placement; pass the target island",
            )),
        }
    }

    /// What the seed skill's loop relies on without checking it: one initial program, and the same
    /// metric names on every candidate (the mean of different metrics ranks nothing).
    /// Metric names are compared with the parent's (else the best's): a child is scored like its
    /// parent, and that costs no scan of the population.
    /// In a several-target run, each target has its own initial program.
    fn consistency_warnings(&self, request: &AddRequest, parent: Option<u32>, scope: Scope) -> Vec<String> {
        let mut warnings = Vec::new();
        let held = self.population.len_in(scope);
        if request.is_seed() && held > 0 {
            warnings.push(format!(
                "the {} already holds {held} program{} and this is a second initial program (`seed`); \
                 to continue the run, add candidates with --parentId from `sample`",
                if scope.is_some() { "target" } else { "database" },
                if held == 1 { "" } else { "s" }
            ));
        }
        if let Some(reference) = parent.or(self.best).map(|slot| &self.population.get(slot).program)
            && !reference.metrics.same_names(&request.metrics)
        {
            let list = |m: &crate::metrics::Metrics| {
                m.iter().map(|(name, _)| name).collect::<BTreeSet<_>>().into_iter().collect::<Vec<_>>().join(", ")
            };
            warnings.push(format!(
                "metrics name [{}] but the stored programs use [{}]; score every candidate with the same metrics, or fitness compares unlike things",
                list(&request.metrics),
                list(&reference.metrics)
            ));
        }
        warnings
    }

    /// `best`: the best program, or `None` for an empty database.
    pub fn best(&self) -> Option<BestProgram> {
        self.best.map(|slot| BestProgram::from(&self.population.get(slot).program))
    }

    /// `best` of one target of a several-target run (the most recent among exact ties, as
    /// exploitation picks); `None` is the whole run's.
    pub fn best_for(&self, target: Option<&str>) -> Result<Option<BestProgram>> {
        match self.config.scope_of("target", target)? {
            None => Ok(self.best()),
            scope => {
                Ok(self.population_best_recent(scope).map(|slot| BestProgram::from(&self.population.get(slot).program)))
            }
        }
    }

    /// `info`: the seed CLI's summary. The initial program is the first with `iterationFound == 0`.
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

    /// The database as text: `database.json` (exactly `JSON.stringify(db, null, 2)`), the family
    /// tree as Mermaid or ASCII, or the playbook's population markdown.
    ///
    /// ```
    /// use evodb_core::{Config, Database, ExportFormat};
    /// let db = Database::new(Config::default(), 1).unwrap();
    /// assert_eq!(db.export(ExportFormat::Json), db.to_json());
    /// ```
    pub fn export(&self, format: ExportFormat) -> String {
        match format {
            ExportFormat::Json => self.to_json(),
            ExportFormat::Mermaid => self.lineage_mermaid(),
            ExportFormat::Tree => self.lineage_tree(),
            ExportFormat::Markdown => self.population_markdown(),
            ExportFormat::Evoidea => self.evoidea_export(),
        }
    }
}
