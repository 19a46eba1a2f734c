//! One island: its members in join order (what the file lists and uniform picks index into)
//! and ranked best first (what exploitation, migration and pruning read).

use crate::live_order::LiveOrder;
use crate::ranking::{RankKey, Ranking};

#[derive(Clone, Debug, Default)]
pub(crate) struct Island {
    order: LiveOrder,
    ranking: Ranking,
}

impl Island {
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Appends `slot` as the newest member.
    pub(crate) fn join(&mut self, slot: u32, fitness: f64, timestamp: f64) {
        let pos = self.order.push(slot);
        self.ranking.insert(RankKey { fitness, timestamp, pos, slot });
    }

    /// Removes and returns the lowest-ranked member.
    pub(crate) fn remove_worst(&mut self) -> Option<u32> {
        let worst = self.ranking.pop_worst()?;
        self.order.remove(worst.pos);
        Some(worst.slot)
    }

    /// The best `k` members, best first.
    pub(crate) fn top(&self, k: usize) -> impl Iterator<Item = &RankKey> {
        self.ranking.top(k)
    }

    /// The member of join-order rank `k`.
    pub(crate) fn nth(&self, k: usize) -> u32 {
        self.order.select(k).1
    }

    /// Join-order rank of a ranked member.
    pub(crate) fn rank_of(&self, key: &RankKey) -> usize {
        self.order.rank(key.pos)
    }

    /// Members in join order.
    pub(crate) fn members(&self) -> impl Iterator<Item = u32> + '_ {
        self.order.iter()
    }
}
