//! Every live program, by slot. Slots are handed out in insertion order and never reused, so a
//! slot number is also the program's position in the file's `programs` object (until
//! `compacted` renumbers them, keeping their order).

use std::collections::HashMap;
use std::sync::Arc;

use rustc_hash::FxBuildHasher;

use crate::config::Scope;
use crate::database::Program;
use crate::live_order::LiveOrder;
use crate::pareto::FrontIndex;
use crate::ranking::{RankKey, Ranking};

#[derive(Clone, Debug)]
pub(crate) struct Record {
    pub program: Program,
    pub fitness: f64,
    /// With several targets: the program's target and its position in that target's index.
    pub group: Option<(u32, u32)>,
    /// `program.instance_scores` with the instance ids interned (`Population::instance_names`).
    pub instances: crate::instance_front::Interned,
}

/// One target's programs (several-target runs): in insertion order and ranked, so a query
/// scoped to the target costs what the same query on the whole population does.
#[derive(Clone, Debug, Default)]
struct Group {
    order: LiveOrder,
    ranking: Ranking,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Population {
    slots: Vec<Option<Box<Record>>>,
    /// Per slot, the islands the program is on (bit i = island i); kept apart from the records
    /// so migration's membership checks stay in cache.
    islands: Vec<u64>,
    order: LiveOrder,
    /// Id → slot. Only looked up, never iterated, so its order reaches no output; FxHash has no
    /// random seed, so nothing here draws on OS entropy.
    ids: HashMap<Arc<str>, u32, FxBuildHasher>,
    ranking: Ranking,
    /// Per target, when the run has several; empty otherwise.
    groups: Vec<Group>,
    /// With several objectives: every program's objectives and the first front
    /// (`rules/pareto.rs`); empty in scalar mode.
    pub(crate) front: FrontIndex,
    /// Every instance id a program's `instanceScores` named (`instance_front.rs`).
    pub(crate) instance_names: crate::instance_front::InstanceNames,
}

impl Population {
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    /// Stores a program; `target` is its target in a several-target run.
    pub(crate) fn insert(&mut self, program: Program, fitness: f64, target: Scope) -> u32 {
        let slot = self.order.push(self.slots.len() as u32);
        debug_assert_eq!(slot as usize, self.slots.len());
        self.ids.insert(program.id.clone(), slot);
        self.ranking.insert(self.key(slot, fitness, program.timestamp));
        let group = target.map(|t| {
            if self.groups.len() <= t as usize {
                self.groups.resize_with(t as usize + 1, Group::default);
            }
            let group = &mut self.groups[t as usize];
            let pos = group.order.push(slot);
            group.ranking.insert(RankKey { fitness, timestamp: program.timestamp, pos, slot });
            (t, pos)
        });
        let instances = self.instance_names.intern(&program.instance_scores);
        self.slots.push(Some(Box::new(Record { program, fitness, group, instances })));
        self.islands.push(0);
        slot
    }

    /// Slots handed out so far, including those of deleted programs.
    pub(crate) fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// The same live programs in the same order, on slots `0..len` and on no island; with the
    /// map from old slot to new (`u32::MAX` for a deleted program's).
    pub(crate) fn compacted(mut self) -> (Population, Vec<u32>) {
        let mut remap = vec![u32::MAX; self.slots.len()];
        let mut fresh = Population::default();
        for old in self.order.iter() {
            let record = self.slots[old as usize].take().expect("an ordered slot is live");
            let slot = fresh.insert(record.program, record.fitness, record.group.map(|(t, _)| t));
            if let Some(objectives) = self.front.objectives(old) {
                fresh.set_objectives(slot, objectives);
            }
            remap[old as usize] = slot;
        }
        (fresh, remap)
    }

    pub(crate) fn remove(&mut self, slot: u32) -> Record {
        let record = self.slots[slot as usize].take().expect("slot is live");
        self.order.remove(slot);
        self.ids.remove(&record.program.id);
        self.ranking.remove(&self.key(slot, record.fitness, record.program.timestamp));
        self.front.remove(slot);
        if let Some((t, pos)) = record.group {
            let group = &mut self.groups[t as usize];
            group.order.remove(pos);
            group.ranking.remove(&RankKey { fitness: record.fitness, timestamp: record.program.timestamp, pos, slot });
        }
        *record
    }

    /// Records a program's objectives (several-objective modes), for the first front.
    pub(crate) fn set_objectives(&mut self, slot: u32, objectives: &[f64]) {
        let record = self.get(slot);
        let key = self.key(slot, record.fitness, record.program.timestamp);
        self.front.remove(slot);
        self.front.insert(key, objectives);
    }

    fn key(&self, slot: u32, fitness: f64, timestamp: f64) -> RankKey {
        RankKey { fitness, timestamp, pos: slot, slot }
    }

    pub(crate) fn is_on(&self, slot: u32, island: u32) -> bool {
        self.islands[slot as usize] & (1 << island) != 0
    }

    /// The lowest-numbered island the program is on.
    pub(crate) fn first_island(&self, slot: u32) -> Option<u32> {
        let bits = self.islands[slot as usize];
        (bits != 0).then(|| bits.trailing_zeros())
    }

    pub(crate) fn enter_island(&mut self, slot: u32, island: u32) {
        self.islands[slot as usize] |= 1 << island;
    }

    /// Records that the program left `island`; true when it is now on no island.
    pub(crate) fn leave_island(&mut self, slot: u32, island: u32) -> bool {
        let bits = &mut self.islands[slot as usize];
        *bits &= !(1 << island);
        *bits == 0
    }

    pub(crate) fn get(&self, slot: u32) -> &Record {
        self.slots[slot as usize].as_deref().expect("slot is live")
    }

    pub(crate) fn get_mut(&mut self, slot: u32) -> &mut Record {
        self.slots[slot as usize].as_deref_mut().expect("slot is live")
    }

    pub(crate) fn slot_of(&self, id: &str) -> Option<u32> {
        self.ids.get(id).copied()
    }

    /// Live slots in insertion order.
    pub(crate) fn slots(&self) -> impl Iterator<Item = u32> + '_ {
        self.order.iter()
    }

    /// Best programs of the whole population, best first.
    pub(crate) fn top(&self, k: usize) -> impl Iterator<Item = &RankKey> {
        self.ranking.top(k)
    }

    pub(crate) fn best(&self) -> Option<u32> {
        self.ranking.best().map(|k| k.slot)
    }

    /// The index a scope reads: one target's, or the whole population's.
    fn index(&self, scope: Scope) -> (&LiveOrder, &Ranking) {
        match scope.and_then(|t| self.groups.get(t as usize)) {
            Some(group) => (&group.order, &group.ranking),
            None if scope.is_some() => (&EMPTY.0, &EMPTY.1),
            None => (&self.order, &self.ranking),
        }
    }

    /// The scoped forms of `len`, `nth`, `top`, `rank_of`, `best` and `slots`.
    pub(crate) fn len_in(&self, scope: Scope) -> usize {
        self.index(scope).0.len()
    }

    pub(crate) fn nth_in(&self, scope: Scope, k: usize) -> u32 {
        self.index(scope).0.select(k).1
    }

    pub(crate) fn top_in(&self, scope: Scope, k: usize) -> impl Iterator<Item = &RankKey> {
        self.index(scope).1.top(k)
    }

    pub(crate) fn rank_in(&self, scope: Scope, key: &RankKey) -> usize {
        self.index(scope).0.rank(key.pos)
    }

    pub(crate) fn best_in(&self, scope: Scope) -> Option<u32> {
        self.index(scope).1.best().map(|k| k.slot)
    }

    pub(crate) fn slots_in(&self, scope: Scope) -> impl Iterator<Item = u32> + '_ {
        self.index(scope).0.iter()
    }
}

/// What a target without programs reads.
static EMPTY: std::sync::LazyLock<(LiveOrder, Ranking)> = std::sync::LazyLock::new(Default::default);
