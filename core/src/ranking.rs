//! The seed's `comparePrograms` as an ordered set: higher fitness first, then the newer
//! `timestamp`, then the earlier position (JavaScript's sort is stable, so equal programs keep
//! their island order). Keys never change: fitness is fixed when a program is added.

use std::cmp::Ordering;
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug)]
pub(crate) struct RankKey {
    pub fitness: f64,
    pub timestamp: f64,
    /// Position in the owning order (island join order, or database insertion order).
    pub pos: u32,
    /// The program's slot in the population.
    pub slot: u32,
}

impl Ord for RankKey {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .fitness
            .total_cmp(&self.fitness)
            .then(other.timestamp.total_cmp(&self.timestamp))
            .then(self.pos.cmp(&other.pos))
    }
}

impl PartialOrd for RankKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for RankKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for RankKey {}

/// Members ranked best first.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ranking {
    keys: BTreeSet<RankKey>,
}

impl Ranking {
    pub(crate) fn insert(&mut self, key: RankKey) {
        let fresh = self.keys.insert(key);
        debug_assert!(fresh, "positions are unique");
    }

    pub(crate) fn remove(&mut self, key: &RankKey) {
        let found = self.keys.remove(key);
        debug_assert!(found, "removing a key that is not ranked");
    }

    pub(crate) fn best(&self) -> Option<&RankKey> {
        self.keys.first()
    }

    pub(crate) fn worst(&self) -> Option<&RankKey> {
        self.keys.last()
    }

    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// Every key, worst first.
    pub(crate) fn worst_first(&self) -> impl Iterator<Item = &RankKey> {
        self.keys.iter().rev()
    }

    /// The best `k`, best first.
    pub(crate) fn top(&self, k: usize) -> impl Iterator<Item = &RankKey> {
        self.keys.iter().take(k)
    }
}

/// `is_better`: the seed's rule for replacing the best program — strictly higher fitness, or equal
/// fitness and a strictly newer timestamp.
pub(crate) fn is_better(fitness: f64, timestamp: f64, than_fitness: f64, than_timestamp: f64) -> bool {
    match fitness.total_cmp(&than_fitness) {
        Ordering::Greater => true,
        Ordering::Less => false,
        Ordering::Equal => timestamp > than_timestamp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(fitness: f64, timestamp: f64, pos: u32) -> RankKey {
        RankKey { fitness, timestamp, pos, slot: pos }
    }

    #[test]
    fn higher_fitness_then_newer_then_earlier_position() {
        let mut r = Ranking::default();
        r.insert(key(0.5, 10.0, 0));
        r.insert(key(0.9, 1.0, 1));
        r.insert(key(0.5, 20.0, 2));
        r.insert(key(0.5, 10.0, 3));
        let order: Vec<u32> = r.top(10).map(|k| k.pos).collect();
        assert_eq!(order, [1, 2, 0, 3]);
        assert_eq!(r.worst().unwrap().pos, 3);
    }

    #[test]
    fn newer_wins_ties_for_best() {
        assert!(is_better(0.5, 2.0, 0.5, 1.0));
        assert!(!is_better(0.5, 1.0, 0.5, 1.0));
        assert!(is_better(0.6, 0.0, 0.5, 9.0));
    }
}
