//! `plan`: a batch of work items for parallel workers (evo-anything). Each item's island is fixed
//! when it is planned, so an add naming the item lands there however the workers interleave.

use crate::api::{Inspiration, Plan, PlanItem, SampledParent, SynergyItem, SynergyPart};
use crate::database::Database;
use crate::database::{ItemLease, PendingItem};
use crate::error::{Error, Result};

/// Most items one plan may hold, and most items left pending at once.
const MAX_PLAN_ITEMS: u32 = 1_000;
const MAX_PENDING: usize = 10_000;

impl Database {
    /// `plan` itself, once the answers held from earlier batches are applied and expired items
    /// handed out again (`Database::plan_at`); `grant`: the time and lease length each item is
    /// handed out under, if leased. The caller records the `planned` event.
    pub(crate) fn plan_batch(
        &mut self,
        n: u32,
        frozen: &[u32],
        boosted: &[u32],
        grant: Option<(f64, f64)>,
    ) -> Result<Plan> {
        self.check_plan(n, frozen, boosted)?;
        let rotation = |islands: std::ops::Range<u32>| -> Vec<u32> {
            let mut rotation = Vec::new();
            for island in islands.filter(|i| !frozen.contains(i)) {
                let share = if boosted.contains(&island) { 2 } else { 1 };
                rotation.extend(std::iter::repeat_n(island, share));
            }
            rotation
        };
        let generation = self.rounds;
        let start = self.plan_cursor as usize;
        let islands: Vec<u32> = match self.config.has_targets() {
            false => {
                let targets = rotation(0..self.config.num_islands);
                self.plan_cursor = ((start + n as usize) % targets.len()) as u64;
                (0..n as usize).map(|i| targets[(start + i) % targets.len()]).collect()
            }
            true => {
                let per_target: Vec<Vec<u32>> = (0..self.config.targets.len() as u32)
                    .map(|t| rotation(self.config.scope_islands(Some(t))))
                    .collect();
                self.plan_cursor += u64::from(n);
                self.spread_over_targets(start, n as usize, &per_target)
            }
        };
        let mut items = Vec::with_capacity(n as usize);
        for (i, island) in islands.into_iter().enumerate() {
            let scope = self.config.target_of_island(island);
            let target = self.config.target_id(scope).map(str::to_string);
            let work = self.draw_work(Some(island), scope, island);
            self.hand_out(work.parent, island);
            let id = |slot: u32| self.population.get(slot).program.id.to_string();
            let parent_ids: Vec<String> = [work.parent, work.second_parent].into_iter().flatten().map(id).collect();
            let notes = self.recent_notes(target.as_deref(), parent_ids.first().map(String::as_str));
            let (island_name, island_description) = self.island_names(island);
            let program = |slot: u32| &self.population.get(slot).program;
            let inspirations = self
                .plan_inspirations(island, [work.parent, work.second_parent])
                .into_iter()
                .map(|slot| Inspiration::from(program(slot)))
                .collect();
            items.push(PlanItem {
                name: format!("gen-{generation}/island-{island}/{}-{i}", work.operator.name()),
                operator: work.operator,
                island,
                parent_ids,
                donor_island: work.donor_island,
                forced_by: work.forced_by.map(str::to_string),
                island_name,
                island_description,
                donor_island_name: work.donor_island.and_then(|donor| self.config.island_name(donor)),
                notes,
                target,
                parent: work.parent.map(|slot| SampledParent::from(program(slot))),
                parent_fitness: work.parent.map(|slot| self.population.get(slot).fitness),
                second_parent: work.second_parent.map(|slot| SampledParent::from(program(slot))),
                inspirations,
                idea: None,
                lease: None,
            });
        }
        let synergy = self.synergy_item(generation);
        self.rounds += 1;
        let leases: Vec<Option<Box<ItemLease>>> =
            items.iter().map(|item| grant.map(|(now, seconds)| self.first_lease(item, now, seconds))).collect();
        for (item, lease) in items.iter_mut().zip(&leases) {
            item.lease = lease.as_ref().map(|lease| lease.public());
        }
        self.pending.extend(items.iter().zip(leases).map(|(item, lease)| PendingItem {
            name: item.name.clone(),
            island: item.island,
            operator: item.operator,
            second_parent_id: item.second_parent.as_ref().map(|p| p.id.to_string()),
            synergy: Vec::new(),
            held: None,
            lease,
        }));
        if let Some(item) = &synergy {
            self.pending.push(PendingItem {
                name: item.name.clone(),
                island: 0,
                operator: crate::api::Operator::Exploitation,
                second_parent_id: None,
                synergy: item.parts.clone(),
                held: None,
                lease: None,
            });
        }
        let excess = self.pending.len().saturating_sub(MAX_PENDING);
        self.pending.drain(..excess);
        Ok(Plan { generation, items, synergy })
    }

    /// `plan_inspirations`: a plan item's inspirations, drawn without the PRNG (a plan's draws
    /// are the parents'): its island's best that are not its parents, best first, as many as a
    /// sample draws from the top (`inspirationsFromTop`, at least one).
    pub(crate) fn plan_inspirations(&self, island: u32, parents: [Option<u32>; 2]) -> Vec<u32> {
        let Some(members) = self.islands.get(island as usize) else { return Vec::new() };
        let count = self.config.inspirations_from_top.max(1) as usize;
        let mut slots: Vec<u32> = members.members().filter(|slot| !parents.contains(&Some(*slot))).collect();
        let fitness = |slot: &u32| self.population.get(*slot).fitness;
        slots.sort_by(|a, b| {
            fitness(b).total_cmp(&fitness(a)).then_with(|| program_id(self, *a).cmp(program_id(self, *b)))
        });
        slots.truncate(count);
        slots
    }

    /// `spread_over_targets`: item `j` of the run (counted by `plan_cursor`) goes to a target in
    /// a cycle where each target appears `weight` times (interleaved: one of each, then the
    /// heavier ones again), and within its target to the next island of its rotation. Targets
    /// whose islands are all frozen are left out.
    fn spread_over_targets(&self, start: usize, n: usize, per_target: &[Vec<u32>]) -> Vec<u32> {
        let weights: Vec<usize> = self.config.targets.iter().map(|t| t.weight as usize).collect();
        let rounds = weights.iter().copied().max().unwrap_or(1);
        let cycle: Vec<usize> = (0..rounds)
            .flat_map(|r| (0..weights.len()).filter(|&t| weights[t] > r).collect::<Vec<_>>())
            .filter(|&t| !per_target[t].is_empty())
            .collect();
        (start..start + n)
            .map(|j| {
                let (lap, at) = (j / cycle.len(), j % cycle.len());
                let t = cycle[at];
                let earlier = cycle[..at].iter().filter(|&&u| u == t).count();
                let laps = cycle.iter().filter(|&&u| u == t).count();
                let rotation = &per_target[t];
                rotation[(lap * laps + earlier) % rotation.len()]
            })
            .collect()
    }

    /// `synergy_item`: every `synergyEvery` rounds (after rounds K, 2K, …), an item naming each
    /// target's best; none until every target has one.
    fn synergy_item(&self, generation: u64) -> Option<SynergyItem> {
        let every = self.config.synergy_every?;
        if !(generation + 1).is_multiple_of(every) {
            return None;
        }
        let parts = (0..self.config.targets.len() as u32)
            .map(|t| {
                let best = self.population_best_recent(Some(t))?;
                Some(SynergyPart {
                    target: self.config.targets[t as usize].id.clone(),
                    program_id: self.population.get(best).program.id.to_string(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(SynergyItem { name: format!("gen-{generation}/synergy"), parts })
    }

    /// `plan`'s argument checks, run before anything changes.
    pub(crate) fn check_plan(&self, n: u32, frozen: &[u32], boosted: &[u32]) -> Result<()> {
        if n == 0 || n > MAX_PLAN_ITEMS {
            return Err(Error::input("n", format!("is {n}; plan between 1 and {MAX_PLAN_ITEMS} items")));
        }
        for (field, islands) in [("frozen", frozen), ("boosted", boosted)] {
            if let Some(bad) = islands.iter().find(|&&i| i >= self.config.num_islands) {
                return Err(Error::input(
                    field,
                    format!("names island {bad}; this database has islands 0..{}", self.config.num_islands - 1),
                ));
            }
        }
        if (0..self.config.num_islands).all(|island| frozen.contains(&island)) {
            return Err(Error::input("frozen", "freezes every island; leave at least one island to plan for"));
        }
        Ok(())
    }

    /// The pending item an add names, with its position; an error when it is not pending.
    pub(crate) fn pending_item(&self, name: &str) -> Result<(usize, &PendingItem)> {
        self.pending.iter().enumerate().find(|(_, item)| item.name == name).ok_or_else(|| {
            Error::input(
                "planItem",
                format!("`{name}` is not a pending plan item (already answered, or never planned); plan again or leave it out"),
            )
        })
    }
}

fn program_id(db: &Database, slot: u32) -> &str {
    &db.population.get(slot).program.id
}
