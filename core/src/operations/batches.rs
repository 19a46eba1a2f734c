//! Order-independent batches: the answers to one `plan` batch are applied in plan order,
//! whatever order they arrive in.
//!
//! An answer that arrives while an earlier item of its batch is unanswered is held: its checks
//! run, it is kept in its pending item (saved with the database) and answered with a warning.
//! It is applied as soon as the items before it are in. So once every item of a batch is
//! answered, the database is the same, byte for byte, as if the answers had arrived in plan
//! order: ids (an answer without one gets an id made from the seed and the item's name),
//! iteration numbers, placement, pruning, migration and the PRNG all follow the plan. A new
//! `plan` first applies whatever is still held, in plan order, so an item that is never
//! answered holds up the rest of its batch only until then.

use std::sync::Arc;

use crate::api::{AddOutcome, AddRequest, Plan, Status};
use crate::config::{cell_of, fitness_of};
use crate::database::{Database, Event, HeldAnswer};
use crate::error::{Error, Result};
use crate::rng::DetRng;

use super::Planned;

impl Database {
    /// Plans `n` work items. Islands in `frozen` get none; islands in `boosted` get twice the
    /// share of the others. Targets are dealt round-robin over the weighted island list,
    /// continuing where the previous batch stopped; each item's operator and parents are drawn
    /// as `sample` draws them (`draw_work`) with the island fixed. Answers still held from
    /// earlier batches are applied first, in plan order.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let mut db = Database::new(Config::default(), 5).unwrap();
    /// db.add(AddRequest::seed("/f.py", "v0", Metrics::new([("s", 0.5)]).unwrap()), 1.0).unwrap();
    /// let plan = db.plan(4, &[2], &[]).unwrap();
    /// assert_eq!(plan.items.iter().map(|i| i.island).collect::<Vec<_>>(), [0, 1, 0, 1]);
    /// assert!(plan.items[0].name.starts_with("gen-0/island-0/"));
    /// ```
    pub fn plan(&mut self, n: u32, frozen: &[u32], boosted: &[u32]) -> Result<Plan> {
        self.plan_with(n, frozen, boosted, None, None)
    }

    /// [`Database::plan`] at time `now` (the host's seconds), under leases when `lease_seconds`
    /// (else the config's `leaseSeconds`) is given: each item carries a `lease` whose token its
    /// answer and heartbeats name. Expired, unanswered items are handed out again first (same
    /// name, a new token, the next attempt); they count toward `n`, and only the rest is planned
    /// anew (no new batch when none is left).
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let mut db = Database::new(Config::default(), 5).unwrap();
    /// db.add(AddRequest::seed("/f.py", "v0", Metrics::new([("s", 0.5)]).unwrap()), 1.0).unwrap();
    /// let first = db.plan_at(2, &[], &[], 100.0, Some(60.0)).unwrap();
    /// let again = db.plan_at(3, &[], &[], 200.0, Some(60.0)).unwrap(); // both expired at 160
    /// assert_eq!(again.items[0].name, first.items[0].name);
    /// assert_eq!(again.items[0].lease.as_ref().unwrap().attempt, 2);
    /// assert_eq!(again.items.len(), 3);
    /// ```
    pub fn plan_at(
        &mut self,
        n: u32,
        frozen: &[u32],
        boosted: &[u32],
        now: f64,
        lease_seconds: Option<f64>,
    ) -> Result<Plan> {
        self.plan_with(n, frozen, boosted, Some(now), lease_seconds)
    }

    fn plan_with(
        &mut self,
        n: u32,
        frozen: &[u32],
        boosted: &[u32],
        now: Option<f64>,
        lease_seconds: Option<f64>,
    ) -> Result<Plan> {
        self.check_plan(n, frozen, boosted)?;
        let seconds = lease_seconds.or(self.config.lease_seconds);
        self.check_plan_lease(now, seconds)?;
        // The time is recorded (and expired items looked for) only when leases are in play, so a
        // run without them records what it always did.
        let now = now.filter(|_| seconds.is_some() || self.pending.iter().any(|item| item.lease.is_some()));
        while let Some(index) = self.pending.iter().position(|item| item.held.is_some()) {
            self.apply_held(index);
        }
        if self.is_idea_run() {
            return self.plan_idea_round(frozen, boosted);
        }
        let reissued = match now {
            Some(now) => self.reissue_expired(n, |island| !frozen.contains(&island), now, seconds),
            None => Vec::new(),
        };
        let fresh = n - reissued.len() as u32;
        let mut plan = match fresh {
            0 => Plan { generation: self.rounds, items: Vec::new(), synergy: None },
            _ => self.plan_batch(fresh, frozen, boosted, now.zip(seconds))?,
        };
        plan.items.splice(0..0, reissued);
        self.emit(Event::Planned {
            n,
            frozen: frozen.to_vec(),
            boosted: boosted.to_vec(),
            items: plan
                .items
                .iter()
                .map(|item| item.name.clone())
                .chain(plan.synergy.as_ref().map(|s| s.name.clone()))
                .collect(),
            now,
            lease_seconds: lease_seconds.filter(|_| now.is_some()),
        });
        Ok(plan)
    }

    /// The id an answer gets: its own, else its plan item's (`uuid_for_item`), else a draw.
    pub(super) fn answer_id(&mut self, request: &AddRequest) -> Arc<str> {
        self.id_without_draw(request).unwrap_or_else(|| self.rng.uuid())
    }

    /// The id of an answer that names one or a plan item; `None` when it needs a draw.
    fn id_without_draw(&self, request: &AddRequest) -> Option<Arc<str>> {
        match (&request.id, &request.plan_item) {
            (Some(id), _) => Some(Arc::from(id.as_str())),
            (None, Some(item)) => Some(DetRng::uuid_for_item(self.seed, item)),
            (None, None) => None,
        }
    }

    /// Whether an item before pending item `index` in its batch is still unanswered (or held).
    pub(super) fn waits_for_earlier_items(&self, index: usize) -> bool {
        let Some(batch) = self.pending[index].batch() else { return false };
        self.pending[..index].iter().any(|item| item.batch() == Some(batch))
    }

    /// Whether a held answer carries `id`.
    pub(super) fn is_held_id(&self, id: &str) -> bool {
        self.pending.iter().filter_map(|item| item.held.as_ref()).any(|held| held.request.id.as_deref() == Some(id))
    }

    /// An add naming an item whose answer is already held: the same request is a retry,
    /// answered again without change; another one is refused.
    pub(super) fn answer_held_again(&self, index: usize, request: &AddRequest) -> Option<Result<AddOutcome>> {
        let item = &self.pending[index];
        let held = item.held.as_ref()?;
        if held.request != *request {
            return Some(Err(Error::input(
                "planItem",
                format!(
                    "`{}` is already answered (its answer is held until the items before it are in); answer each \
                     item once",
                    item.name
                ),
            )));
        }
        let id = self.id_without_draw(request).expect("an answer to a plan item names it");
        let mut outcome = self.outcome_without_program(id, request.metrics.clone(), request.status, false);
        outcome.warnings.push(self.held_warning(index));
        Some(Ok(outcome))
    }

    /// Keeps the answer to pending item `index` until the items before it are in. The checks
    /// its application would make run now, so applying it later cannot fail.
    pub(super) fn hold(&mut self, mut request: AddRequest, now: f64, index: usize) -> Result<AddOutcome> {
        let island = self.pending[index].island;
        let mut cell = None;
        let mut fitness = None;
        if request.status != Status::Error {
            fitness = Some(fitness_of(&self.config, &request.metrics)?);
            self.config.objectives_of(&request.metrics)?;
            self.config.check_instance_scores(&request.instance_scores)?;
            if !self.config.features.is_empty() {
                cell = Some(cell_of(&self.config.features, &request.metrics, &request.target_code, island)?);
            }
        }
        let id = self.answer_id(&request);
        if self.recording() {
            let item = self.pending[index].name.clone();
            self.emit(Event::Held { item, id: id.to_string(), request: request.clone(), now });
        }
        // `decide` compares with the parent as the answer arrives, so the caller learns the
        // status now; the held request keeps the decision (replay re-runs this from `held`).
        if let Some(fitness) = fitness.filter(|_| request.decide) {
            let parent = self.population.slot_of(&request.parent_id);
            (request.status, request.reason) = self.decide_status(&request, parent, fitness);
            request.decide = false;
        }
        let (metrics, status) = (request.metrics.clone(), request.status);
        self.pending[index].held = Some(HeldAnswer { request, now });
        let mut outcome = self.outcome_without_program(id, metrics, status, false);
        outcome.cell = cell;
        outcome.warnings.push(self.held_warning(index));
        Ok(outcome)
    }

    fn held_warning(&self, index: usize) -> String {
        let batch = self.pending[index].batch();
        let waiting: Vec<String> = self.pending[..index]
            .iter()
            .filter(|item| item.batch() == batch && item.held.is_none())
            .map(|item| format!("`{}`", item.name))
            .collect();
        format!(
            "held: the answers of a plan batch apply in plan order, so this one applies once {} {} answered",
            waiting.join(", "),
            if waiting.len() == 1 { "is" } else { "are" }
        )
    }

    /// Applies the answer to a planned item whose turn it is, then the answers held after it;
    /// the outcome describes the database after all of them.
    pub(super) fn apply_in_turn(&mut self, request: AddRequest, now: f64, planned: Planned) -> Result<AddOutcome> {
        let batch = planned.and_then(|(index, _, _)| self.pending[index].batch());
        let mut outcome = self.apply_answer(request, now, planned, false)?;
        let released = self.release_held(batch);
        if !released.is_empty() {
            let best = self.best.map(|slot| &self.population.get(slot).program);
            outcome.best_program_id = best.map(|p| p.id.to_string());
            outcome.best_metrics = best.map(|p| p.metrics.clone());
            outcome.last_iteration = self.last_iteration;
            let names: Vec<String> = released.iter().map(|name| format!("`{name}`")).collect();
            outcome.warnings.push(format!("also applied the answers held for {}", names.join(", ")));
        }
        Ok(outcome)
    }

    /// Applies the held answers at the front of `batch`, in plan order; their items' names.
    fn release_held(&mut self, batch: Option<u64>) -> Vec<String> {
        let mut released = Vec::new();
        let Some(batch) = batch else { return released };
        while let Some(index) = self.pending.iter().position(|item| item.batch() == Some(batch))
            && self.pending[index].held.is_some()
        {
            released.push(self.pending[index].name.clone());
            self.apply_held(index);
        }
        released
    }

    /// Applies the held answer of pending item `index` (which it removes).
    fn apply_held(&mut self, index: usize) {
        let item = &self.pending[index];
        let planned = Some((index, item.island, item.operator));
        let Some(HeldAnswer { request, now }) = self.pending[index].held.take() else { return };
        if let Err(e) = self.apply_answer(request.clone(), now, planned, true) {
            // Its checks ran when it arrived, so this does not happen; if it did, the answer
            // is still kept: as an evaluation error with the reason.
            let reason = format!("its held answer could not be applied: {e}");
            let request = AddRequest { status: Status::Error, reason: Some(reason), ..request };
            let _ = self.apply_answer(request, now, planned, true);
        }
    }
}
