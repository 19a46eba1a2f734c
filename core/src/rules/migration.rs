//! Ring migration between neighbouring islands.

use crate::config::MigrationMode;
use crate::config::cell_of;
use crate::database::Database;
use crate::database::Event;
use crate::database::Program;

impl Database {
    /// `should_migrate`: `max(islandGenerations) − lastMigrationGeneration ≥ migrationInterval`.
    pub(crate) fn should_migrate(&self) -> bool {
        let max_generation = self.island_generations.iter().copied().max().unwrap_or(0);
        max_generation.saturating_sub(self.last_migration_generation) >= self.config.migration_interval
    }

    /// `migrate_ring`: from a snapshot of every island, each island's best
    /// `max(1, floor(size × migrationRate))` programs go to both neighbours (i+1, then i−1).
    /// With one island there is no ring: nothing moves and, as in the seed, the migration clock
    /// is not reset. In a several-target run each target's islands form their own ring.
    pub(crate) fn migrate_ring(&mut self) {
        if self.config.num_islands < 2 {
            return;
        }
        let rings = self.config.targets.len().max(1) as u32;
        let n = self.config.num_islands / rings;
        let migrants: Vec<Vec<u32>> = (0..self.config.num_islands as usize).map(|i| self.select_migrants(i)).collect();
        for (source, slots) in migrants.into_iter().enumerate() {
            let source = source as u32;
            let (first, at) = (source - source % n, source % n);
            for slot in slots {
                for target in [first + (at + 1) % n, first + (at + n - 1) % n] {
                    if target == source {
                        continue;
                    }
                    match self.config.migration {
                        MigrationMode::Share => self.share_migrant(slot, source, target),
                        MigrationMode::Copy => self.copy_migrant(slot, source, target),
                    }
                }
            }
        }
        self.last_migration_generation = self.island_generations.iter().copied().max().unwrap_or(0);
    }

    /// The island's best `max(1, floor(size × rate))`; in copy mode earlier migrants are
    /// passed over (a migrant never migrates again).
    fn select_migrants(&self, index: usize) -> Vec<u32> {
        let island = &self.islands[index];
        if island.is_empty() {
            return Vec::new();
        }
        let count = ((island.len() as f64 * self.config.migration_rate).floor() as usize).max(1);
        let eligible = |slot: &u32| match self.config.migration {
            MigrationMode::Share => true,
            MigrationMode::Copy => self.population.get(*slot).program.migrated_from.is_none(),
        };
        if !self.config.selection.is_scalar() {
            let ranked = self.island_ranked(index as u32, island.len());
            return ranked.into_iter().map(|key| key.slot).filter(eligible).take(count).collect();
        }
        island.top(island.len()).map(|key| key.slot).filter(eligible).take(count).collect()
    }

    /// Seed rule: the same id joins the target unless it is already there.
    fn share_migrant(&mut self, slot: u32, from: u32, target: u32) {
        if self.population.is_on(slot, target) {
            return;
        }
        let record = self.population.get(slot);
        let (fitness, timestamp) = (record.fitness, record.program.timestamp);
        let id = record.program.id.to_string();
        self.join_island(slot, target, fitness, timestamp);
        self.emit(Event::Migrated { id, from, to: target, copy_id: None });
    }

    /// Copy rule: a new program with `migratedFrom` joins the target, unless the target already
    /// holds identical code.
    fn copy_migrant(&mut self, slot: u32, from: u32, target: u32) {
        let record = self.population.get(slot);
        let code = &record.program.target_code;
        let duplicate =
            self.islands[target as usize].members().any(|m| self.population.get(m).program.target_code == *code);
        if duplicate {
            return;
        }
        let fitness = record.fitness;
        let original = record.program.clone();
        // A copy lives on its target island, so an `island` feature dimension places it there.
        let cell = original.cell.as_ref().map(|_| {
            cell_of(&self.config.features, &original.metrics, &original.target_code, target)
                .expect("the original's metrics already produced a cell")
        });
        let id = original.id.to_string();
        let copy = Program { id: self.rng.uuid(), island: target, migrated_from: Some(id.clone()), cell, ..original };
        let copy_id = copy.id.to_string();
        self.insert_on_island(copy, fitness, target);
        self.emit(Event::Migrated { id, from, to: target, copy_id: Some(copy_id) });
    }
}
