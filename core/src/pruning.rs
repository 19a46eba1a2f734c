//! Keeping islands within capacity.

use crate::database::Database;

impl Database {
    /// `prune_to_capacity`: every island keeps its best `maxIslandSize` members (the seed sorts
    /// and cuts; removing the worst one at a time is the same set). A program left on no island
    /// is deleted from the database.
    pub(crate) fn prune_to_capacity(&mut self) {
        let capacity = self.config.max_island_size as usize;
        for island in 0..self.islands.len() {
            while self.islands[island].len() > capacity {
                let slot = self.islands[island].remove_worst().expect("island is over capacity");
                if self.population.leave_island(slot, island as u32) {
                    self.delete_program(slot);
                }
            }
        }
    }
}
