//! `sampled_island`: with `operators` on, a child joins the island its sample named.
//!
//! An operator sample picks an island on purpose — exploration the least-populated one,
//! migration a recipient, exploitation and crossover the current island — but the add that
//! answers it names only the parent (the skill's loop never passes `--island`). Round-robin
//! placement would then put the child wherever `currentIsland` points by the time it arrives
//! (issue 37). So each operator sample is remembered (`remember_sample`), and an add without a
//! plan item finds the sample it answers (`answered_sample`), joins that island unless it names
//! its own, and consumes it (`consume_sample`). The sample's second parent (crossover's diverse
//! parent, migration's donor program) is recorded on the child (`sampled_second_parent`).
//!
//! The entries live in `database.json` (`evodb.sampled`), so a save and load, or a replay of the
//! history (which repeats every sample), places the same way. With `operators` off nothing is
//! remembered and placement is the seed's.

use crate::api::{AddRequest, Operator};
use crate::config::Scope;
use crate::database::{Database, SampledItem};

/// Most operator samples remembered unanswered; the oldest go first. A loop answers each sample
/// with one add; the bound only matters for samples nobody answers (an agent that gave up).
pub(crate) const MAX_SAMPLED: usize = 256;

impl Database {
    /// `remember_sample`: an operator sample handed out `parent` (and `second_parent`) for a
    /// child on `island`.
    pub(crate) fn remember_sample(
        &mut self,
        parent: Option<String>,
        second_parent: Option<String>,
        island: u32,
        operator: Operator,
    ) {
        if self.config.operators.is_none() {
            return;
        }
        let Some(parent_id) = parent else { return };
        self.sampled.push(SampledItem { parent_id, second_parent_id: second_parent, island, operator });
        let excess = self.sampled.len().saturating_sub(MAX_SAMPLED);
        self.sampled.drain(..excess);
    }

    /// `answered_sample`: the unanswered sample an add answers — the newest one that handed out
    /// its parent, made by its operator when it names one (newest: an agent that samples and
    /// adds in turn answers its latest sample, even after abandoning an earlier one; agents in
    /// parallel that name their operator pick their own sample). When the add names an island,
    /// a sample for that island is preferred. `None` with `operators` off or for a planned add.
    pub(crate) fn answered_sample(&self, request: &AddRequest) -> Option<usize> {
        if self.config.operators.is_none() || request.plan_item.is_some() {
            return None;
        }
        let matches = |item: &SampledItem| {
            item.parent_id == request.parent_id && request.operator.is_none_or(|op| op == item.operator)
        };
        let newest = |same_island: bool| {
            self.sampled.iter().rposition(|item| matches(item) && (!same_island || Some(item.island) == request.island))
        };
        request.island.and_then(|_| newest(true)).or_else(|| newest(false))
    }

    /// `sampled_island`: the island the add's sample named, when it is within the add's scope
    /// (its target's islands); `place_candidate` puts the child there unless the add names one.
    pub(crate) fn sampled_island(&self, request: &AddRequest, scope: Scope) -> Option<u32> {
        let island = self.sampled[self.answered_sample(request)?].island;
        self.config.scope_islands(scope).contains(&island).then_some(island)
    }

    /// `sampled_second_parent`: the second parent the add's sample handed out (crossover's diverse
    /// parent, migration's donor program), recorded on the child as `secondParentId` so its
    /// lineage shows both programs it was made from.
    pub(crate) fn sampled_second_parent(&self, request: &AddRequest) -> Option<String> {
        self.sampled[self.answered_sample(request)?].second_parent_id.clone()
    }

    /// `consume_sample`: the add answered its sample (placed, recorded as an error, or answered
    /// from the dedupe cache), which then places nothing more. Called once nothing can fail.
    pub(crate) fn consume_sample(&mut self, request: &AddRequest) {
        if let Some(index) = self.answered_sample(request) {
            self.sampled.remove(index);
        }
    }
}
