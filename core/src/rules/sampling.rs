//! `sample`: a parent and inspirations from the current island (which sampling never moves).

use smallvec::SmallVec;

use crate::api::{Inspiration, PlanItem, Sample, SampledParent};
use crate::config::{InspirationScope, Scope};
use crate::database::Database;
use crate::database::Event;
use crate::error::Result;
use crate::rng::Ranks;
use crate::rules::leases::check_now;

impl Database {
    /// Draws a parent and inspirations. Draw order (it is part of the format): the exploration
    /// coin, then the parent index, then the inspirations from the top pool, then the others.
    ///
    /// With `operators` configured, the four operators of the AlphaEvolve strategy decide instead (see
    /// `draw_work`), and the sample also names the operator, the island, the second parent
    /// (crossover's diverse parent, migration's donor program) and the donor island; the add
    /// that answers it joins that island (`sampled_island`).
    ///
    /// With named islands the sample names its island (and the donor island); with notes it
    /// carries the most recent ones (`recent_notes`). In a several-target run it samples the
    /// current island's target (see [`Database::sample_for`]).
    pub fn sample(&mut self) -> Sample {
        self.sample_for(None).expect("a sample that names no target refuses nothing")
    }

    /// `sample` for one target of a several-target run: every draw stays within the target's
    /// islands, and the sample names the target. `None` samples the current island's target;
    /// an unknown target is an error, before anything changes.
    pub fn sample_for(&mut self, target: Option<&str>) -> Result<Sample> {
        let named = self.config.scope_of("target", target)?;
        let scope = named.or(self.config.target_of_island(self.current_island));
        let home = self.island_in(scope, self.current_island);
        let home = self.least_busy_island(scope, home);
        let mut sample = match self.config.operators.is_some() {
            true => self.sample_with_operator(scope, home),
            false => self.sample_seed(scope, home),
        };
        if !self.config.islands.is_empty() || scope.is_some() {
            let island = *sample.island.get_or_insert(home);
            (sample.island_name, sample.island_description) = self.island_names(island);
            sample.donor_island_name = sample.donor_island.and_then(|donor| self.config.island_name(donor));
        }
        if let (Some(operator), Some(island)) = (sample.operator, sample.island) {
            // The add that answers this sample joins `island` (`sampled_island`).
            let parent = sample.parent.as_ref().map(|p| p.id.to_string());
            let second_parent = sample.second_parent.as_ref().map(|p| p.id.to_string());
            self.remember_sample(parent, second_parent, island, operator);
        }
        let target = self.config.target_id(scope).map(str::to_string);
        sample.notes = self.recent_notes(target.as_deref(), sample.parent.as_ref().map(|p| p.id.as_ref()));
        if self.recording() {
            self.emit(Event::Sampled {
                operator: sample.operator,
                island: sample.island,
                parent_id: sample.parent.as_ref().map(|p| p.id.to_string()),
                target: target.clone().filter(|_| named.is_some()),
                plan_item: None,
                now: None,
            });
        }
        sample.target = target;
        Ok(sample)
    }

    /// `sample_at`: [`Database::sample_for`] at time `now` (the host's seconds). When a leased
    /// plan item's lease has expired unanswered (its worker died), the sample hands that item
    /// out again instead of drawing: the first such item in plan order (of `target`'s islands
    /// when one is named), with its name (`planItem`), parents, island and operator as planned,
    /// a new token and the next attempt (`lease`), for a lease of the item's own length. No
    /// draw is made then; otherwise this is `sample_for`, and `now` is not recorded.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let mut db = Database::new(Config::default(), 5).unwrap();
    /// db.add(AddRequest::seed("/f.py", "v0", Metrics::new([("s", 0.5)]).unwrap()), 1.0).unwrap();
    /// let item = db.plan_at(1, &[], &[], 100.0, Some(60.0)).unwrap().items.remove(0);
    /// assert!(db.sample_at(None, 150.0).unwrap().plan_item.is_none()); // still leased: a fresh draw
    /// let again = db.sample_at(None, 200.0).unwrap(); // expired at 160: handed out again
    /// assert_eq!(again.plan_item.as_deref(), Some(item.name.as_str()));
    /// assert_eq!(again.lease.as_ref().map(|l| (l.attempt, l.expires)), Some((2, 260.0)));
    /// ```
    pub fn sample_at(&mut self, target: Option<&str>, now: f64) -> Result<Sample> {
        check_now(now)?;
        let named = self.config.scope_of("target", target)?;
        let islands = self.config.scope_islands(named);
        let Some(item) = self.reissue_expired(1, |island| islands.contains(&island), now, None).pop() else {
            return self.sample_for(target);
        };
        let target_named = self.config.target_id(named).map(str::to_string);
        if self.recording() {
            self.emit(Event::Sampled {
                operator: Some(item.operator),
                island: Some(item.island),
                parent_id: item.parent_ids.first().cloned(),
                target: target_named,
                plan_item: Some(item.name.clone()),
                now: Some(now),
            });
        }
        Ok(Sample::from(item))
    }

    /// `island` when it is in the scope, else the scope's island in the same position of the
    /// rotation (several targets share the one `currentIsland`).
    pub(crate) fn island_in(&self, scope: Scope, island: u32) -> u32 {
        let range = self.config.scope_islands(scope);
        match range.contains(&island) {
            true => island,
            false => range.start + island % range.len() as u32,
        }
    }

    fn sample_seed(&mut self, scope: Scope, island: u32) -> Sample {
        let parent = self.sample_parent(scope, island);
        self.hand_out(parent, island);
        let inspirations = self.sample_inspirations(island, scope, &[parent]);
        let program = |slot: u32| &self.population.get(slot).program;
        Sample {
            parent: parent.map(|slot| SampledParent::from(program(slot))),
            inspirations: inspirations.into_iter().map(|slot| Inspiration::from(program(slot))).collect(),
            ..Sample::default()
        }
    }

    fn sample_with_operator(&mut self, scope: Scope, home: u32) -> Sample {
        let work = self.draw_work(None, scope, home);
        self.hand_out(work.parent, work.island);
        let inspirations = self.sample_inspirations(work.island, scope, &[work.parent, work.second_parent]);
        let program = |slot: u32| &self.population.get(slot).program;
        Sample {
            parent: work.parent.map(|slot| SampledParent::from(program(slot))),
            inspirations: inspirations.into_iter().map(|slot| Inspiration::from(program(slot))).collect(),
            operator: Some(work.operator),
            island: Some(work.island),
            second_parent: work.second_parent.map(|slot| SampledParent::from(program(slot))),
            donor_island: work.donor_island,
            forced_by: work.forced_by.map(str::to_string),
            parent_fitness: work.parent.map(|slot| self.population.get(slot).fitness),
            ..Sample::default()
        }
    }

    /// Island `island`'s name and description, when the islands are named.
    pub(crate) fn island_names(&self, island: u32) -> (Option<String>, Option<String>) {
        match self.config.island_spec(island) {
            Some(spec) => (Some(spec.name.clone()), Some(spec.description.clone()).filter(|d| !d.is_empty())),
            None => (None, None),
        }
    }

    /// `sample_parent`: with probability `explorationRatio` a uniform pick from the island,
    /// otherwise a uniform pick among its `exploitationTop` best (with `pending: "aware"`,
    /// among those of them with the least work in flight: `least_busy_top`). An empty island
    /// falls back to the initial program (`iterationFound == 0`), else a uniform pick from all
    /// programs. With several objectives the top is the elite by the mode (`elite_of`: pareto's
    /// first front).
    fn sample_parent(&mut self, scope: Scope, index: u32) -> Option<u32> {
        let island = &self.islands[index as usize];
        if island.is_empty() {
            return self.empty_island_fallback(scope);
        }
        if self.rng.unit_f64() < self.config.exploration_ratio {
            let k = self.rng.below(island.len());
            return Some(island.nth(k));
        }
        if !self.config.selection.is_scalar() {
            let elite: Vec<u32> = self.elite_of(index).iter().map(|key| key.slot).collect();
            let free = self.least_busy_top(elite);
            let k = self.rng.below(free.len());
            return free.get(k).copied();
        }
        let top = island.len().min(self.config.exploitation_top as usize);
        if self.pending_aware() {
            let best: Vec<u32> = island.top(top).map(|key| key.slot).collect();
            let free = self.least_busy_top(best);
            let k = self.rng.below(free.len());
            return free.get(k).copied();
        }
        let k = self.rng.below(top);
        island.top(top).nth(k).map(|key| key.slot)
    }

    /// `empty_island_fallback`: the initial program, else any program, else none. Within a
    /// target, its initial program is its oldest of generation 0.
    pub(crate) fn empty_island_fallback(&mut self, scope: Scope) -> Option<u32> {
        let initial = |p: &crate::database::Program| match scope {
            None => p.iteration_found == 0,
            Some(_) => p.generation == 0,
        };
        if let Some(slot) = self.population.slots_in(scope).find(|&s| initial(&self.population.get(s).program)) {
            return Some(slot);
        }
        let len = self.population.len_in(scope);
        if len == 0 {
            return None;
        }
        let k = self.rng.below(len);
        Some(self.population.nth_in(scope, k))
    }

    /// `sample_inspirations`: `inspirationsFromTop` drawn from the best `inspirationTopPool`
    /// (a shuffle of the pool, truncated), plus `inspirationsFromRest` drawn from the rest;
    /// then the parents are removed from the list. From the island (seed) or from all islands
    /// (of the target, in a several-target run).
    /// The lists are a handful of slots and ranks, kept on the stack.
    pub(crate) fn sample_inspirations(
        &mut self,
        island: u32,
        scope: Scope,
        parents: &[Option<u32>],
    ) -> SmallVec<[u32; 8]> {
        let pool = self.config.inspiration_top_pool as usize;
        let from_top = self.config.inspirations_from_top as usize;
        let from_rest = self.config.inspirations_from_rest as usize;
        let mut top: SmallVec<[u32; 8]> = SmallVec::new();
        let mut rest_ranks = Ranks::new();
        let len = match self.config.inspiration_scope {
            InspirationScope::Island => {
                let ranked = self.island_ranked(island, pool);
                let island = &self.islands[island as usize];
                for key in &ranked {
                    top.push(key.slot);
                    rest_ranks.push(island.rank_of(key));
                }
                island.len()
            }
            InspirationScope::AllIslands => {
                for key in &self.population_ranked(scope, pool) {
                    top.push(key.slot);
                    rest_ranks.push(self.population.rank_in(scope, key));
                }
                self.population.len_in(scope)
            }
        };
        rest_ranks.sort_unstable();
        let mut chosen: SmallVec<[u32; 8]> =
            self.rng.distinct_ranks(top.len(), from_top, &[]).into_iter().map(|i| top[i]).collect();
        for rank in self.rng.distinct_ranks(len, from_rest, &rest_ranks) {
            chosen.push(match self.config.inspiration_scope {
                InspirationScope::Island => self.islands[island as usize].nth(rank),
                InspirationScope::AllIslands => self.population.nth_in(scope, rank),
            });
        }
        chosen.retain(|slot| !parents.contains(&Some(*slot)));
        chosen
    }
}

impl From<PlanItem> for Sample {
    /// A plan item handed out again by `sample_at`: what the item carried, as a sample.
    fn from(item: PlanItem) -> Sample {
        Sample {
            parent: item.parent,
            inspirations: item.inspirations,
            operator: Some(item.operator),
            island: Some(item.island),
            second_parent: item.second_parent,
            donor_island: item.donor_island,
            forced_by: item.forced_by,
            island_name: item.island_name,
            island_description: item.island_description,
            donor_island_name: item.donor_island_name,
            notes: item.notes,
            target: item.target,
            parent_fitness: item.parent_fitness,
            plan_item: Some(item.name),
            lease: item.lease,
        }
    }
}
