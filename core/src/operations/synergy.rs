//! Several targets on the add path: which target a candidate is a version of, and the answer to
//! a synergy item (`record_synergy`).

use crate::api::{AddOutcome, AddRequest, Status, SynergyResult};
use crate::config::Scope;
use crate::database::{Database, Event};
use crate::error::{Error, Result};

use super::Planned;

/// How many synergy results the database keeps (the newest).
const MAX_KEPT_SYNERGIES: usize = 1_000;

impl Database {
    /// `target_of_request`: the target a candidate is a version of — the one it names, else its
    /// plan item's, its island's or its parent's. They must agree; a several-target run refuses
    /// a candidate whose target none of them tells. Also checks the island exists.
    pub(super) fn target_of_request(&self, request: &AddRequest, planned: Planned) -> Result<Scope> {
        let n = self.config.num_islands;
        if let Some(island) = request.island
            && island >= n
        {
            return Err(Error::input("island", format!("is {island}; this database has islands 0..{}", n - 1)));
        }
        let named = request.target.as_deref().map(|id| self.config.target_index("target", id)).transpose()?;
        if !self.config.has_targets() {
            return Ok(None);
        }
        if planned.is_some_and(|(index, _, _)| !self.pending[index].synergy.is_empty()) {
            return Ok(None); // a synergy candidate is a version of every target
        }
        let from_item = planned.and_then(|(_, island, _)| self.config.target_of_island(island));
        let from_island = request.island.and_then(|island| self.config.target_of_island(island));
        let from_parent = self
            .population
            .slot_of(&request.parent_id)
            .and_then(|slot| self.config.target_of_island(self.population.get(slot).program.island));
        let id = |t: u32| self.config.target_id(Some(t)).unwrap_or_default().to_string();
        if let (Some(named), Some(item)) = (named, from_item)
            && named != item
        {
            return Err(Error::input(
                "target",
                format!("is `{}` but its plan item is for target `{}`; leave it out", id(named), id(item)),
            ));
        }
        let target = named.or(from_item);
        if let (Some(target), Some(island)) = (target, from_island)
            && target != island
        {
            let islands = self.config.scope_islands(Some(target));
            return Err(Error::input(
                "island",
                format!(
                    "is {} of target `{}`; target `{}` has islands {}..{}",
                    request.island.unwrap_or_default(),
                    id(island),
                    id(target),
                    islands.start,
                    islands.end - 1
                ),
            ));
        }
        match target.or(from_island).or(from_parent) {
            Some(t) => Ok(Some(t)),
            None => {
                let ids: Vec<String> = (0..self.config.targets.len() as u32).map(id).collect();
                Err(Error::input(
                    "target",
                    format!(
                        "is required: this run evolves {}; name the candidate's target (--targetId)",
                        ids.join(", ")
                    ),
                ))
            }
        }
    }

    /// `record_synergy`: the answer to a synergy item — a candidate combining each target's best —
    /// is kept with the parts it combined and counted as an evaluation of every target; the best
    /// fitness a synergy reached is kept per target. It joins no island (it belongs to no one
    /// target).
    pub(super) fn record_synergy(
        &mut self,
        request: AddRequest,
        now: f64,
        index: usize,
        fitness: f64,
        released: bool,
    ) -> AddOutcome {
        let item = self.pending.remove(index);
        let event_request = self.events.is_some().then(|| request.clone());
        let id = self.answer_id(&request);
        let seq = self.next_seq();
        self.count_evaluation(false);
        for t in 0..self.config.targets.len() as u32 {
            self.count_target_evaluation(Some(t), false);
            let best = &mut self.target_progress_mut(t).best_synergy_fitness;
            *best = Some(best.map_or(fitness, |b| b.max(fitness)));
        }
        self.candidates.remember(request.status, None);
        self.synergies.push(SynergyResult {
            name: item.name,
            id: id.to_string(),
            seq,
            parts: item.synergy,
            metrics: request.metrics.clone(),
            fitness,
        });
        let excess = self.synergies.len().saturating_sub(MAX_KEPT_SYNERGIES);
        self.synergies.drain(..excess);
        if let Some(request) = event_request {
            self.emit(Event::Synergy { seq, id: id.to_string(), fitness, request, now, released });
        }
        self.outcome_without_program(id, request.metrics, Status::Accepted, false)
    }
}
