//! Keeping islands within capacity: the seed's worst-first cut, or MAP-Elites eviction.

use std::collections::BTreeSet;

use crate::database::Database;
use crate::database::Event;

impl Database {
    /// `prune_to_capacity`: every island keeps `maxIslandSize` members. Without feature
    /// dimensions it keeps its best (the seed sorts and cuts; removing the worst one at a time is
    /// the same set). With them, `evict_from_crowded_cell` picks each victim. A program left on
    /// no island is deleted from the database.
    pub(crate) fn prune_to_capacity(&mut self) {
        let capacity = self.config.max_island_size as usize;
        let map_elites = !self.config.features.is_empty();
        // Computed at the first eviction: most adds evict nothing.
        let mut archive: Option<BTreeSet<u32>> = None;
        for island in 0..self.islands.len() {
            while self.islands[island].len() > capacity {
                let slot = if map_elites {
                    let archive = archive.get_or_insert_with(|| self.archive_slots());
                    self.evict_from_crowded_cell(island, archive)
                } else if self.config.selection.is_scalar() {
                    self.islands[island].remove_worst().expect("island is over capacity")
                } else {
                    let victim = self.victim_by_mode(island as u32, |_| false).expect("island is over capacity");
                    self.islands[island].remove(&victim);
                    victim.slot
                };
                let deleted = self.population.leave_island(slot, island as u32);
                if self.recording() {
                    let id = self.population.get(slot).program.id.to_string();
                    self.emit(Event::Evicted { id, island: island as u32, deleted });
                }
                if deleted {
                    self.delete_program(slot);
                }
            }
        }
    }

    /// `evict_from_crowded_cell` (the AlphaEvolve strategy): the worst member of the most crowded cell goes —
    /// never the best of a cell, never a member of the elite archive. When every cell holds
    /// only its best (more cells than capacity), the worst non-archive member goes; when the
    /// whole island is archive, its worst.
    ///
    /// With several objectives a cell's best is its best by the mode, and pareto also protects
    /// the island's first front (while a dominated member remains).
    fn evict_from_crowded_cell(&mut self, island: usize, archive: &BTreeSet<u32>) -> u32 {
        if !self.config.selection.is_scalar() {
            let victim = self.cell_victim_by_mode(island, archive);
            self.islands[island].remove(&victim);
            return victim.slot;
        }
        let protected = |slot: u32| archive.contains(&slot);
        let island = &mut self.islands[island];
        let victim = island
            .crowded_cell_victim(protected)
            .or_else(|| island.worst_unprotected(protected))
            .or_else(|| island.worst_unprotected(|_| false))
            .expect("island is over capacity");
        island.remove(&victim);
        victim.slot
    }

    fn cell_victim_by_mode(&self, index: usize, archive: &BTreeSet<u32>) -> crate::ranking::RankKey {
        let island = &self.islands[index];
        let pareto = self.config.selection.mode == crate::config::SelectionMode::Pareto;
        let protected = |slot: u32| archive.contains(&slot) || (pareto && island.front.on_front(slot));
        let from_cells = island.cells_by_crowding().find_map(|cell| {
            let ranked = self.rank_by_cell(cell);
            ranked.into_iter().skip(1).rev().find(|key| !protected(key.slot))
        });
        from_cells
            .or_else(|| self.victim_by_mode(index as u32, protected))
            .or_else(|| self.victim_by_mode(index as u32, |slot| archive.contains(&slot)))
            .or_else(|| self.victim_by_mode(index as u32, |_| false))
            .expect("island is over capacity")
    }

    /// The elite archive: the best `archiveSize` programs of the population — of each target,
    /// in a several-target run.
    pub(crate) fn archive_slots(&self) -> BTreeSet<u32> {
        self.archive_best_first().into_iter().collect()
    }

    /// The archive best first (each target's in turn, in a several-target run).
    pub(crate) fn archive_best_first(&self) -> Vec<u32> {
        let size = self.config.archive_size as usize;
        if !self.config.selection.is_scalar() {
            return match self.config.has_targets() {
                false => self.population_ranked(None, size).into_iter().map(|key| key.slot).collect(),
                true => (0..self.config.targets.len() as u32)
                    .flat_map(|t| self.population_ranked(Some(t), size).into_iter().map(|key| key.slot))
                    .collect(),
            };
        }
        match self.config.has_targets() {
            false => self.population.top(size).map(|key| key.slot).collect(),
            true => (0..self.config.targets.len() as u32)
                .flat_map(|t| self.population.top_in(Some(t), size).map(|key| key.slot))
                .collect(),
        }
    }
}
