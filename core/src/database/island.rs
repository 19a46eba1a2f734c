//! One island: its members in join order (what the file lists and uniform picks index into),
//! ranked best first (what exploitation, migration and pruning read), and — with MAP-Elites
//! feature dimensions — ranked per feature cell with the cells ordered by crowding.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

use crate::live_order::LiveOrder;
use crate::pareto::FrontIndex;
use crate::ranking::{RankKey, Ranking};

/// A feature cell as one number (`features::cell_key`), so the index never allocates a key.
pub(crate) type CellKey = u64;

#[derive(Clone, Debug, Default)]
pub(crate) struct Island {
    order: LiveOrder,
    ranking: Ranking,
    cells: CellIndex,
    /// With several objectives: the members' objectives and first front (`rules/pareto.rs`).
    pub(crate) front: FrontIndex,
}

/// The island's members per feature cell, and the cells from most to least crowded.
#[derive(Clone, Debug, Default)]
struct CellIndex {
    of_slot: BTreeMap<u32, CellKey>,
    members: BTreeMap<CellKey, Ranking>,
    crowding: BTreeSet<(Reverse<usize>, CellKey)>,
}

impl CellIndex {
    fn insert(&mut self, key: RankKey, cell: CellKey) {
        let ranking = self.members.entry(cell).or_default();
        self.crowding.remove(&(Reverse(ranking.len()), cell));
        ranking.insert(key);
        self.crowding.insert((Reverse(ranking.len()), cell));
        self.of_slot.insert(key.slot, cell);
    }

    fn remove(&mut self, key: &RankKey) {
        let Some(cell) = self.of_slot.remove(&key.slot) else { return };
        let ranking = self.members.get_mut(&cell).expect("an indexed slot's cell is indexed");
        self.crowding.remove(&(Reverse(ranking.len()), cell));
        ranking.remove(key);
        if ranking.len() == 0 {
            self.members.remove(&cell);
        } else {
            self.crowding.insert((Reverse(ranking.len()), cell));
        }
    }
}

impl Island {
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Join positions handed out so far, including those of members that left.
    pub(crate) fn positions_used(&self) -> usize {
        self.order.positions()
    }

    /// Appends `slot` as the newest member (in `cell`, when feature dimensions are on).
    pub(crate) fn join(
        &mut self,
        slot: u32,
        fitness: f64,
        timestamp: f64,
        cell: Option<CellKey>,
        objectives: Option<&[f64]>,
    ) {
        let pos = self.order.push(slot);
        let key = RankKey { fitness, timestamp, pos, slot };
        self.ranking.insert(key);
        if let Some(objectives) = objectives {
            self.front.insert(key, objectives);
        }
        if let Some(cell) = cell {
            self.cells.insert(key, cell);
        }
    }

    /// Removes and returns the lowest-ranked member.
    pub(crate) fn remove_worst(&mut self) -> Option<u32> {
        let worst = *self.ranking.worst()?;
        self.remove(&worst);
        Some(worst.slot)
    }

    /// Removes one ranked member.
    pub(crate) fn remove(&mut self, key: &RankKey) {
        self.ranking.remove(key);
        self.order.remove(key.pos);
        self.cells.remove(key);
        self.front.remove(key.slot);
    }

    /// `crowded_cell_victim`: the worst member of the most crowded cell that is neither its
    /// cell's best nor `protected`; the next most crowded cell when that cell has none.
    pub(crate) fn crowded_cell_victim(&self, protected: impl Fn(u32) -> bool) -> Option<RankKey> {
        self.cells.crowding.iter().find_map(|(_, cell)| {
            let ranking = &self.cells.members[cell];
            ranking.worst_first().take(ranking.len() - 1).find(|key| !protected(key.slot)).copied()
        })
    }

    /// The cells' rankings, most crowded first.
    pub(crate) fn cells_by_crowding(&self) -> impl Iterator<Item = &Ranking> {
        self.cells.crowding.iter().map(|(_, cell)| &self.cells.members[cell])
    }

    /// Every member ranked, worst first.
    pub(crate) fn worst_first(&self) -> impl Iterator<Item = &RankKey> {
        self.ranking.worst_first()
    }

    /// The worst member that is not `protected`.
    pub(crate) fn worst_unprotected(&self, protected: impl Fn(u32) -> bool) -> Option<RankKey> {
        self.ranking.worst_first().find(|key| !protected(key.slot)).copied()
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
