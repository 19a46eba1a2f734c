//! `plan`: a batch of work items for parallel workers (evo-anything). Each item's island is fixed
//! when it is planned, so an add naming the item lands there however the workers interleave.

use crate::api::{Plan, PlanItem};
use crate::error::{Error, Result};
use crate::state::Database;
use crate::state::Event;
use crate::state::PendingItem;

/// Most items one plan may hold, and most items left pending at once.
const MAX_PLAN_ITEMS: u32 = 1_000;
const MAX_PENDING: usize = 10_000;

impl Database {
    /// `plan` itself, once the answers held from earlier batches are applied (`Database::plan`).
    pub(crate) fn plan_batch(&mut self, n: u32, frozen: &[u32], boosted: &[u32]) -> Result<Plan> {
        self.check_plan(n, frozen, boosted)?;
        let mut targets = Vec::new();
        for island in (0..self.config.num_islands).filter(|i| !frozen.contains(i)) {
            let share = if boosted.contains(&island) { 2 } else { 1 };
            targets.extend(std::iter::repeat_n(island, share));
        }
        let generation = self.rounds;
        let start = self.plan_cursor as usize;
        let mut items = Vec::with_capacity(n as usize);
        let notes = self.recent_notes(None);
        for i in 0..n as usize {
            let island = targets[(start + i) % targets.len()];
            let work = self.draw_work(Some(island));
            let id = |slot: u32| self.population.get(slot).program.id.to_string();
            let parent_ids = [work.parent, work.second_parent].into_iter().flatten().map(id).collect();
            let (island_name, island_description) = self.island_names(island);
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
                notes: notes.clone(),
            });
        }
        self.plan_cursor = ((start + n as usize) % targets.len()) as u64;
        self.rounds += 1;
        self.pending.extend(items.iter().map(|item| PendingItem {
            name: item.name.clone(),
            island: item.island,
            operator: item.operator,
            held: None,
        }));
        let excess = self.pending.len().saturating_sub(MAX_PENDING);
        self.pending.drain(..excess);
        self.emit(Event::Planned {
            n,
            frozen: frozen.to_vec(),
            boosted: boosted.to_vec(),
            items: items.iter().map(|item| item.name.clone()).collect(),
        });
        Ok(Plan { generation, items })
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
