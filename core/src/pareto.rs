//! The rules of several objectives (`selection.mode` `pareto` or `lexicographic`;
//! `config/selection.rs`; the engine applies them in `rules/selection.rs`). Objective values arrive signed, so higher is better on every one.
//!
//! - `dominates`: a is at least as good on every objective and better on one.
//! - `fronts`: non-dominated sorting (peeling: the first front is what nothing dominates, the
//!   second what only the first dominates, …), each front in input order.
//! - `crowding_distances`: NSGA-II's crowding distance within a front (the extremes of every
//!   objective are infinitely far; the rest sum their normalised neighbour gaps).
//! - The pareto rank the engine orders a set by: the first front before every dominated
//!   member; within the first front the larger crowding distance first; then the scalar order
//!   (higher fitness, then newer, then earlier — `ranking.rs`). Deeper fronts are not told
//!   apart by the engine: that would cost a full sort on every add (O(n²) at 10,000 programs),
//!   while the first front is kept incrementally (`FrontIndex`). So elite = the first front,
//!   pruning evicts the worst dominated member (never a first-front member while a dominated
//!   one remains), and the best is the first-front member first in the scalar order.
//! - `lexicographic_order`: objectives in order; on each, members within the tolerance of the
//!   group's leader (the best on it) are tied and go to the next objective, the rest follow as
//!   groups of their own; the scalar order breaks what stays tied. Leaders make it a total
//!   order (tolerance comparisons alone are not transitive).
//! - `hypervolume`: the volume the first front dominates above a reference point (exact:
//!   a sweep in 2-D, slicing recursively above).

use std::collections::{BTreeMap, BTreeSet};

use crate::ranking::RankKey;

/// `dominates`: `a` is at least as good as `b` on every objective and better on one.
pub(crate) fn dominates(a: &[f64], b: &[f64]) -> bool {
    let mut better = false;
    for (x, y) in a.iter().zip(b) {
        if x < y {
            return false;
        }
        better |= x > y;
    }
    better
}

/// The members of `alive` that no other member of it dominates, in `alive`'s order.
pub(crate) fn non_dominated(points: &[&[f64]], alive: &[usize]) -> Vec<usize> {
    let mut front: Vec<usize> = Vec::new();
    for &i in alive {
        if front.iter().any(|&j| dominates(points[j], points[i])) {
            continue;
        }
        front.retain(|&j| !dominates(points[i], points[j]));
        front.push(i);
    }
    front.sort_unstable();
    front
}

/// `fronts`: non-dominated sorting; each front's indices ascending. (The engine keeps only the
/// first front; this full sort is the reference its tests compare with.)
#[cfg(test)]
pub(crate) fn fronts(points: &[&[f64]]) -> Vec<Vec<usize>> {
    let mut alive: Vec<usize> = (0..points.len()).collect();
    let mut fronts = Vec::new();
    while !alive.is_empty() {
        let front = non_dominated(points, &alive);
        alive.retain(|i| front.binary_search(i).is_err());
        fronts.push(front);
    }
    fronts
}

/// `crowding_distances`: per member of `front` (same order), NSGA-II's crowding distance.
// `objective` indexes inside each point, across the points of the front: no iterator fits.
#[allow(clippy::needless_range_loop)]
pub(crate) fn crowding_distances(points: &[&[f64]], front: &[usize]) -> Vec<f64> {
    let n = front.len();
    let mut distance = vec![0.0; n];
    let Some(&first) = front.first() else { return distance };
    let dimensions = points[first].len();
    for objective in 0..dimensions {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| points[front[a]][objective].total_cmp(&points[front[b]][objective]).then(a.cmp(&b)));
        let value = |k: usize| points[front[order[k]]][objective];
        let span = value(n - 1) - value(0);
        distance[order[0]] = f64::INFINITY;
        distance[order[n - 1]] = f64::INFINITY;
        if span > 0.0 {
            for k in 1..n.saturating_sub(1) {
                distance[order[k]] += (value(k + 1) - value(k - 1)) / span;
            }
        }
    }
    distance
}

/// The members of `front` (indices into `points`, in tie-break order) ordered by crowding
/// distance, largest first; ties keep the given order.
pub(crate) fn by_crowding(points: &[&[f64]], front: &[usize]) -> Vec<usize> {
    let distance = crowding_distances(points, front);
    let mut order: Vec<usize> = (0..front.len()).collect();
    order.sort_by(|&a, &b| distance[b].total_cmp(&distance[a]).then(a.cmp(&b)));
    order.into_iter().map(|k| front[k]).collect()
}

/// `lexicographic_order`: indices best first. `points` come in the scalar order (the
/// tie-break); `tolerances` per objective (empty: exact).
pub(crate) fn lexicographic_order(points: &[&[f64]], tolerances: &[f64]) -> Vec<usize> {
    let all: Vec<usize> = (0..points.len()).collect();
    let mut out = Vec::with_capacity(points.len());
    lexicographic_groups(points, tolerances, all, 0, &mut out);
    out
}

fn lexicographic_groups(
    points: &[&[f64]],
    tolerances: &[f64],
    mut group: Vec<usize>,
    level: usize,
    out: &mut Vec<usize>,
) {
    let objectives = points.first().map_or(0, |p| p.len());
    if level >= objectives || group.len() < 2 {
        out.extend(group);
        return;
    }
    let tolerance = tolerances.get(level).copied().unwrap_or(0.0);
    group.sort_by(|&a, &b| points[b][level].total_cmp(&points[a][level]).then(a.cmp(&b)));
    let mut start = 0;
    while start < group.len() {
        let leader = points[group[start]][level];
        let end = start + group[start..].iter().take_while(|&&i| points[i][level] >= leader - tolerance).count();
        let mut tied = group[start..end].to_vec();
        tied.sort_unstable();
        lexicographic_groups(points, tolerances, tied, level + 1, out);
        start = end;
    }
}

/// `hypervolume`: the volume dominated by `front` and dominating `reference` (all signed,
/// higher is better). Points not better than the reference on every objective add nothing.
pub(crate) fn hypervolume(front: &[&[f64]], reference: &[f64]) -> f64 {
    let inside: Vec<&[f64]> = front.iter().copied().filter(|p| p.iter().zip(reference).all(|(x, r)| x > r)).collect();
    volume(&inside, reference)
}

fn volume(points: &[&[f64]], reference: &[f64]) -> f64 {
    let d = reference.len();
    if points.is_empty() || d == 0 {
        return 0.0;
    }
    if d == 1 {
        return points.iter().map(|p| p[0] - reference[0]).fold(0.0, f64::max);
    }
    // Slice along the last objective: between consecutive levels, the (d−1)-volume of the
    // points at least that high.
    let last = d - 1;
    let mut levels: Vec<f64> = points.iter().map(|p| p[last]).collect();
    levels.sort_by(|a, b| b.total_cmp(a));
    levels.dedup();
    let mut total = 0.0;
    for (k, &level) in levels.iter().enumerate() {
        let below = levels.get(k + 1).copied().unwrap_or(reference[last]);
        let slice: Vec<&[f64]> = points.iter().filter(|p| p[last] >= level).map(|p| &p[..last]).collect();
        total += volume(&slice, &reference[..last]) * (level - below);
    }
    total
}

/// A set's first front, kept as members come and go: a newcomer joins it unless a member
/// dominates it (then one on the front does) and removes the members it dominates; a front
/// member's departure lets in those it alone dominated. Slots in ascending order.
#[derive(Clone, Debug, Default)]
pub(crate) struct FrontIndex {
    points: BTreeMap<u32, Box<[f64]>>,
    keys: BTreeMap<u32, RankKey>,
    front: BTreeSet<u32>,
    /// The front by the pareto rank, computed when first read after the front changed: a
    /// sample and an eviction read it several times between changes.
    ranked: std::cell::OnceCell<Vec<RankKey>>,
}

impl FrontIndex {
    pub(crate) fn insert(&mut self, key: RankKey, objectives: &[f64]) {
        let slot = key.slot;
        self.points.insert(slot, objectives.into());
        self.keys.insert(slot, key);
        if self.front.iter().any(|s| dominates(&self.points[s], objectives)) {
            return;
        }
        let points = &self.points;
        self.front.retain(|s| !dominates(objectives, &points[s]));
        self.front.insert(slot);
        self.ranked.take();
    }

    /// The first front by the pareto rank: the larger crowding distance first, then the scalar
    /// order.
    pub(crate) fn ranked_front(&self) -> &[RankKey] {
        self.ranked.get_or_init(|| {
            let keys = self.front_keys();
            let points: Vec<&[f64]> = keys.iter().map(|key| &self.points[&key.slot][..]).collect();
            let all: Vec<usize> = (0..keys.len()).collect();
            by_crowding(&points, &all).into_iter().map(|i| keys[i]).collect()
        })
    }

    /// The first front's member first in the scalar order.
    pub(crate) fn best_key(&self) -> Option<RankKey> {
        self.front.iter().map(|s| self.keys[s]).min()
    }

    /// The first front's keys in the scalar order.
    pub(crate) fn front_keys(&self) -> Vec<RankKey> {
        let mut keys: Vec<RankKey> = self.front.iter().map(|s| self.keys[s]).collect();
        keys.sort_unstable();
        keys
    }

    pub(crate) fn remove(&mut self, slot: u32) {
        let Some(gone) = self.points.remove(&slot) else { return };
        self.keys.remove(&slot);
        if !self.front.remove(&slot) {
            return;
        }
        self.ranked.take();
        let candidates: Vec<u32> = self
            .points
            .iter()
            .filter(|(s, p)| !self.front.contains(s) && dominates(&gone, p))
            .map(|(s, _)| *s)
            .collect();
        let entering: Vec<u32> = candidates
            .iter()
            .copied()
            .filter(|s| {
                let p = &self.points[s];
                !self.front.iter().chain(&candidates).any(|o| dominates(&self.points[o], p))
            })
            .collect();
        self.front.extend(entering);
    }

    pub(crate) fn objectives(&self, slot: u32) -> Option<&[f64]> {
        self.points.get(&slot).map(|p| &p[..])
    }

    #[cfg(test)]
    pub(crate) fn front(&self) -> &BTreeSet<u32> {
        &self.front
    }

    pub(crate) fn on_front(&self, slot: u32) -> bool {
        self.front.contains(&slot)
    }
}

/// `Ordering` of two objective vectors on the first objective where they differ (for tests).
#[cfg(test)]
pub(crate) fn compare(a: &[f64], b: &[f64]) -> std::cmp::Ordering {
    a.iter().zip(b).map(|(x, y)| x.total_cmp(y)).find(|o| o.is_ne()).unwrap_or(std::cmp::Ordering::Equal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(points: &[Vec<f64>]) -> Vec<&[f64]> {
        points.iter().map(|p| &p[..]).collect()
    }

    #[test]
    fn dominance_needs_one_strict_gain_and_no_loss() {
        assert!(dominates(&[1.0, 2.0], &[1.0, 1.0]));
        assert!(!dominates(&[1.0, 1.0], &[1.0, 1.0]));
        assert!(!dominates(&[2.0, 0.0], &[1.0, 1.0]));
        assert_eq!(compare(&[1.0, 2.0], &[1.0, 1.0]), std::cmp::Ordering::Greater);
    }

    #[test]
    fn fronts_peel_in_layers() {
        let p = vec![vec![1.0, 1.0], vec![3.0, 1.0], vec![2.0, 2.0], vec![1.0, 3.0], vec![0.0, 0.0], vec![2.0, 2.0]];
        assert_eq!(fronts(&refs(&p)), vec![vec![1, 2, 3, 5], vec![0], vec![4]]);
    }

    #[test]
    fn crowding_prefers_extremes_then_isolation() {
        let p = vec![vec![0.0, 4.0], vec![1.0, 3.0], vec![3.0, 1.0], vec![4.0, 0.0], vec![1.5, 2.5]];
        let front = [0, 1, 2, 3, 4];
        assert_eq!(by_crowding(&refs(&p), &front), vec![0, 3, 2, 4, 1]);
    }

    #[test]
    fn lexicographic_ties_within_tolerance_of_the_leader() {
        // accuracy first (tolerance 0.05), speed second.
        let p = vec![vec![0.90, 1.0], vec![0.93, 0.2], vec![0.80, 9.0], vec![0.89, 5.0]];
        assert_eq!(lexicographic_order(&refs(&p), &[0.05, 0.0]), vec![3, 0, 1, 2]);
        assert_eq!(lexicographic_order(&refs(&p), &[]), vec![1, 0, 3, 2]);
    }

    #[test]
    fn hypervolume_is_exact_in_two_and_three_dimensions() {
        let p = vec![vec![1.0, 3.0], vec![2.0, 2.0], vec![3.0, 1.0]];
        assert_eq!(hypervolume(&refs(&p), &[0.0, 0.0]), 6.0);
        let q = vec![vec![1.0, 1.0, 1.0]];
        assert_eq!(hypervolume(&refs(&q), &[0.0, 0.0, 0.0]), 1.0);
        let r = vec![vec![2.0, 1.0, 1.0], vec![1.0, 2.0, 1.0]];
        assert_eq!(hypervolume(&refs(&r), &[0.0, 0.0, 0.0]), 3.0);
        assert_eq!(hypervolume(&refs(&p), &[5.0, 0.0]), 0.0);
    }

    #[test]
    fn the_front_index_matches_a_fresh_sort_through_removals() {
        let p: Vec<Vec<f64>> = (0..40u64).map(|i| vec![(i * 7919 % 13) as f64, (i * 104_729 % 11) as f64]).collect();
        let mut index = FrontIndex::default();
        for (i, point) in p.iter().enumerate() {
            let key = RankKey { fitness: 0.0, timestamp: 0.0, pos: i as u32, slot: i as u32 };
            index.insert(key, point);
        }
        let mut alive: Vec<usize> = (0..p.len()).collect();
        for gone in [3usize, 0, 17, 5, 22, 9] {
            let front: Vec<u32> = non_dominated(&refs(&p), &alive).into_iter().map(|i| i as u32).collect();
            assert_eq!(index.front().iter().copied().collect::<Vec<_>>(), front);
            let first = *index.front().iter().next().unwrap();
            let gone = if gone % 2 == 0 { first as usize } else { gone };
            index.remove(gone as u32);
            alive.retain(|&i| i != gone);
        }
    }
}
