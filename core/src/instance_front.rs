//! The rules of per-instance scores (`selection.mode` `instances`; `add --instanceScores`), after
//! GEPA's instance front. Each program may carry a score per instance (a test, a validation
//! example, a benchmark input); higher is better on every one.
//!
//! - `instance_leaders`: per instance, the best score any of the programs reached on it and the
//!   programs that reached it (every one of an exact tie).
//! - `instance_front`: the programs that lead some instance, less the dominated ones: going
//!   from the last in the scalar order to the first, a program goes when every instance it
//!   leads is still led by another program that stays (GEPA's `remove_dominated_programs`;
//!   one pass suffices, since removing a program only makes the others harder to remove).
//!   So an instance nobody solves (everyone ties at 0) keeps one program, the fittest of them.
//! - The instance rank the engine orders a set by: the front first, more instances led first,
//!   then the scalar order (higher fitness, then newer, then earlier — `ranking.rs`); then the
//!   rest in the scalar order. Elite = the front; pruning never evicts a front member while a
//!   member off the front remains.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::metrics::Metrics;

/// A program's instance scores with each instance id interned: `(instance, score)` pairs.
pub(crate) type Interned = Box<[(u32, f64)]>;

/// The run's instance ids, each given a number the first time a program names it (the rules
/// then index arrays instead of comparing strings). The numbers never reach an output: tables
/// are reported in instance-id order.
#[derive(Clone, Debug, Default)]
pub(crate) struct InstanceNames {
    numbers: BTreeMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
}

impl InstanceNames {
    pub(crate) fn intern(&mut self, scores: &Metrics) -> Interned {
        scores
            .iter()
            .map(|(name, score)| {
                let number = match self.numbers.get(name) {
                    Some(&number) => number,
                    None => {
                        let name: Arc<str> = name.into();
                        let number = self.names.len() as u32;
                        self.numbers.insert(name.clone(), number);
                        self.names.push(name);
                        number
                    }
                };
                (number, score)
            })
            .collect()
    }

    pub(crate) fn name(&self, number: u32) -> &str {
        &self.names[number as usize]
    }

    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }
}

/// One instance's best score and the programs (indices into the set) that reached it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct InstanceLeaders {
    pub(crate) instance: u32,
    pub(crate) best: f64,
    pub(crate) leaders: Vec<usize>,
    /// How many programs of the set scored the instance at all.
    pub(crate) scored: u32,
}

/// Per instance: the best score in the set and how many programs scored it (`instances` is the
/// number of interned instances).
fn bests(scores: &[&[(u32, f64)]], instances: usize) -> (Vec<f64>, Vec<u32>) {
    let mut best = vec![f64::NEG_INFINITY; instances];
    let mut scored = vec![0u32; instances];
    for program in scores {
        for &(instance, score) in *program {
            let i = instance as usize;
            scored[i] += 1;
            if score > best[i] {
                best[i] = score;
            }
        }
    }
    (best, scored)
}

/// `instance_leaders`: per instance scored by any program of `scores`, in instance-number order.
pub(crate) fn instance_leaders(scores: &[&[(u32, f64)]], instances: usize) -> Vec<InstanceLeaders> {
    let (best, scored) = bests(scores, instances);
    let mut leaders: Vec<Vec<usize>> = vec![Vec::new(); instances];
    for (index, program) in scores.iter().enumerate() {
        for &(instance, score) in *program {
            if score == best[instance as usize] {
                leaders[instance as usize].push(index);
            }
        }
    }
    (0..instances)
        .filter(|&i| scored[i] > 0)
        .map(|i| InstanceLeaders {
            instance: i as u32,
            best: best[i],
            leaders: std::mem::take(&mut leaders[i]),
            scored: scored[i],
        })
        .collect()
}

/// `instance_front`: the indices of `scores` (given in the scalar order, best first) on the
/// instance front, ranked: more instances led first, then the scalar order. Each comes with
/// the number of instances it leads.
pub(crate) fn instance_front(scores: &[&[(u32, f64)]], instances: usize) -> Vec<(usize, u32)> {
    let (best, _) = bests(scores, instances);
    let mut still_led = vec![0u32; instances];
    let mut led_count = vec![0u32; scores.len()];
    for (program, row) in scores.iter().enumerate() {
        for &(instance, score) in *row {
            if score == best[instance as usize] {
                still_led[instance as usize] += 1;
                led_count[program] += 1;
            }
        }
    }
    let leads = |program: usize| {
        scores[program].iter().filter(|&&(instance, score)| score == best[instance as usize]).map(|&(i, _)| i)
    };
    let mut on_front: Vec<bool> = led_count.iter().map(|&n| n > 0).collect();
    for program in (0..scores.len()).rev() {
        if on_front[program] && leads(program).all(|instance| still_led[instance as usize] > 1) {
            on_front[program] = false;
            for instance in leads(program) {
                still_led[instance as usize] -= 1;
            }
        }
    }
    let mut front: Vec<(usize, u32)> = (0..scores.len()).filter(|&p| on_front[p]).map(|p| (p, led_count[p])).collect();
    front.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    front
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn scores(rows: &[&[(&str, f64)]]) -> Vec<Metrics> {
        rows.iter().map(|row| Metrics::new(row.iter().copied()).unwrap()).collect()
    }

    fn interned(owned: &[Metrics]) -> (InstanceNames, Vec<Interned>) {
        let mut names = InstanceNames::default();
        let rows = owned.iter().map(|m| names.intern(m)).collect();
        (names, rows)
    }

    fn front_of(rows: &[&[(&str, f64)]]) -> Vec<(usize, u32)> {
        let (names, rows) = interned(&scores(rows));
        let refs: Vec<&[(u32, f64)]> = rows.iter().map(|r| &r[..]).collect();
        instance_front(&refs, names.len())
    }

    #[test]
    fn a_program_best_on_one_instance_survives_beside_the_fittest() {
        // 0 is fitter overall, 1 alone solves "c": both stay; 2 leads nothing.
        let front = front_of(&[
            &[("a", 1.0), ("b", 1.0), ("c", 0.0)],
            &[("a", 0.0), ("b", 0.0), ("c", 1.0)],
            &[("a", 0.5), ("b", 0.5), ("c", 0.5)],
        ]);
        assert_eq!(front, [(0, 2), (1, 1)]);
    }

    #[test]
    fn ties_keep_the_fittest_and_drop_the_dominated() {
        // Everyone ties on "a"; only 0 leads "b": 1 and 2 lead nothing of their own.
        let front = front_of(&[&[("a", 0.0), ("b", 1.0)], &[("a", 0.0), ("b", 0.0)], &[("a", 0.0)]]);
        assert_eq!(front, [(0, 2)]);
        // Nobody solves anything: one program stays, the first in the scalar order.
        let front = front_of(&[&[("a", 0.0)], &[("a", 0.0)]]);
        assert_eq!(front, [(0, 1)]);
    }

    #[test]
    fn leaders_table_counts_scorers_and_ties() {
        let (names, rows) = interned(&scores(&[&[("x", 2.0), ("y", 1.0)], &[("x", 2.0)], &[("y", 3.0)]]));
        let refs: Vec<&[(u32, f64)]> = rows.iter().map(|r| &r[..]).collect();
        let table = instance_leaders(&refs, names.len());
        assert_eq!((names.name(0), names.name(1)), ("x", "y"));
        assert_eq!(table[0], InstanceLeaders { instance: 0, best: 2.0, leaders: vec![0, 1], scored: 2 });
        assert_eq!(table[1], InstanceLeaders { instance: 1, best: 3.0, leaders: vec![2], scored: 2 });
    }

    proptest! {
        /// Every instance's best score is reached by some front member, and no front member
        /// could go without leaving one of its instances unled.
        #[test]
        fn the_front_covers_every_instance_and_is_minimal(
            rows in proptest::collection::vec(proptest::collection::vec(0u8..4, 1..6), 1..30),
        ) {
            let owned: Vec<Metrics> = rows
                .iter()
                .map(|row| Metrics::new(row.iter().enumerate().map(|(i, s)| (format!("t{i}"), *s as f64))).unwrap())
                .collect();
            let (names, interned) = interned(&owned);
            let refs: Vec<&[(u32, f64)]> = interned.iter().map(|r| &r[..]).collect();
            let front: Vec<usize> = instance_front(&refs, names.len()).into_iter().map(|(p, _)| p).collect();
            let table = instance_leaders(&refs, names.len());
            for row in &table {
                prop_assert!(row.leaders.iter().any(|p| front.contains(p)), "{} unled by {front:?}", row.instance);
            }
            for &member in &front {
                let needed = table
                    .iter()
                    .any(|row| row.leaders.contains(&member) && row.leaders.iter().filter(|p| front.contains(p)).count() == 1);
                prop_assert!(needed, "{member} is dominated on {front:?}");
            }
        }
    }
}
