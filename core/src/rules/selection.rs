//! How every rule ranks a set of programs under `selection.mode` (`config/selection.rs`): the
//! scalar order of `ranking.rs` in `scalar` mode (the seed's rule, unchanged); the pareto rank
//! the lexicographic order of `pareto.rs`, or the instance rank of `instance_front.rs`
//! otherwise. Elite selection, inspirations,
//! pruning, cells, the archive, migration, operators and the best all read through here.

use crate::config::{Scope, SelectionMode};
use crate::database::Database;
use crate::error::{Error, Result};
use crate::instance_front::instance_front;
use crate::pareto::{FrontIndex, by_crowding, hypervolume, lexicographic_order, non_dominated};
use crate::ranking::RankKey;

impl Database {
    /// A live program's signed objectives (empty in scalar mode).
    pub(crate) fn objectives(&self, slot: u32) -> &[f64] {
        self.population.front.objectives(slot).unwrap_or(&[])
    }

    /// `instance_ranked`: the instance front of a set given in the scalar order, ranked (more
    /// instances led first, then the scalar order), each with the number of instances it leads.
    pub(crate) fn instance_ranked(&self, keys: &[RankKey]) -> Vec<(RankKey, u32)> {
        let scores: Vec<&[(u32, f64)]> = keys.iter().map(|key| &self.population.get(key.slot).instances[..]).collect();
        let instances = self.population.instance_names.len();
        instance_front(&scores, instances).into_iter().map(|(i, led)| (keys[i], led)).collect()
    }

    /// The instance front of an island, ranked.
    fn island_instance_front(&self, island: u32) -> Vec<RankKey> {
        let members = &self.islands[island as usize];
        let keys: Vec<RankKey> = members.top(members.len()).copied().collect();
        self.instance_ranked(&keys).into_iter().map(|(key, _)| key).collect()
    }

    /// `rank_by_mode`: the best `k` of a set, best first. `scalar` lists the set in the scalar
    /// order; `front` is the set's first front when it is indexed (else it is computed).
    fn rank_by_mode<'a>(
        &self,
        scalar: impl Iterator<Item = &'a RankKey>,
        front: Option<&FrontIndex>,
        k: usize,
    ) -> Vec<RankKey> {
        match self.config.selection.mode {
            SelectionMode::Scalar => scalar.take(k).copied().collect(),
            SelectionMode::Instances => {
                let keys: Vec<RankKey> = scalar.copied().collect();
                let front: Vec<RankKey> = self.instance_ranked(&keys).into_iter().map(|(key, _)| key).collect();
                let rest = keys.iter().filter(|key| !front.iter().any(|on| on.slot == key.slot)).copied();
                front.iter().copied().chain(rest).take(k).collect()
            }
            SelectionMode::Lexicographic => {
                let keys: Vec<RankKey> = scalar.copied().collect();
                let points: Vec<&[f64]> = keys.iter().map(|key| self.objectives(key.slot)).collect();
                let order = lexicographic_order(&points, &self.config.selection.tolerances);
                order.into_iter().take(k).map(|i| keys[i]).collect()
            }
            SelectionMode::Pareto => match front {
                Some(front) => {
                    let mut ranked: Vec<RankKey> = front.ranked_front().iter().take(k).copied().collect();
                    let missing = k.saturating_sub(ranked.len());
                    ranked.extend(scalar.copied().filter(|key| !front.on_front(key.slot)).take(missing));
                    ranked
                }
                None => {
                    let keys: Vec<RankKey> = scalar.copied().collect();
                    let points: Vec<&[f64]> = keys.iter().map(|key| self.objectives(key.slot)).collect();
                    let all: Vec<usize> = (0..keys.len()).collect();
                    let first = non_dominated(&points, &all);
                    let front_points: Vec<&[f64]> = first.iter().map(|&i| points[i]).collect();
                    let positions: Vec<usize> = (0..first.len()).collect();
                    let mut ranked: Vec<RankKey> =
                        by_crowding(&front_points, &positions).into_iter().take(k).map(|p| keys[first[p]]).collect();
                    let missing = k.saturating_sub(ranked.len());
                    let rest = (0..keys.len()).filter(|i| first.binary_search(i).is_err()).map(|i| keys[i]);
                    ranked.extend(rest.take(missing));
                    ranked
                }
            },
        }
    }

    /// The island's best `k` by the mode, best first.
    pub(crate) fn island_ranked(&self, island: u32, k: usize) -> Vec<RankKey> {
        let island = &self.islands[island as usize];
        self.rank_by_mode(island.top(island.len()), Some(&island.front), k)
    }

    /// A feature cell's members ranked by the mode, best first (its best is its first).
    pub(crate) fn rank_by_cell(&self, cell: &crate::ranking::Ranking) -> Vec<RankKey> {
        self.rank_by_mode(cell.top(cell.len()), None, cell.len())
    }

    /// The population's (or a target's) best `k` by the mode, best first.
    pub(crate) fn population_ranked(&self, scope: Scope, k: usize) -> Vec<RankKey> {
        let len = self.population.len_in(scope);
        match scope {
            None => self.rank_by_mode(self.population.top(len), Some(&self.population.front), k),
            Some(_) => self.rank_by_mode(self.population.top_in(scope, len), None, k),
        }
    }

    /// `elite_of`: the members exploitation picks from — the island's best `exploitationTop`
    /// (scalar, lexicographic); its first front, by the pareto rank (pareto); its instance front,
    /// by the instance rank (instances).
    pub(crate) fn elite_of(&self, island: u32) -> Vec<RankKey> {
        match self.config.selection.mode {
            SelectionMode::Pareto => self.islands[island as usize].front.ranked_front().to_vec(),
            SelectionMode::Instances => self.island_instance_front(island),
            _ => self.island_ranked(island, self.config.exploitation_top as usize),
        }
    }

    /// `victim_by_mode`: the island's lowest-ranked member that is not `protected`. Pareto: the
    /// worst dominated member in the scalar order, so no first-front member goes while a
    /// dominated one remains; on an island that is all front, the least crowded. Instances: the
    /// worst member off the instance front, else the front member ranked last.
    pub(crate) fn victim_by_mode(&self, island: u32, protected: impl Fn(u32) -> bool) -> Option<RankKey> {
        let members = &self.islands[island as usize];
        match self.config.selection.mode {
            SelectionMode::Instances => {
                let front = self.island_instance_front(island);
                let on_front = |slot: u32| front.iter().any(|key| key.slot == slot);
                let off_front = members.worst_first().find(|key| !on_front(key.slot) && !protected(key.slot));
                off_front.copied().or_else(|| front.iter().rev().find(|key| !protected(key.slot)).copied())
            }
            SelectionMode::Pareto => {
                let front = &members.front;
                let dominated = members.worst_first().find(|key| !front.on_front(key.slot) && !protected(key.slot));
                dominated
                    .copied()
                    .or_else(|| front.ranked_front().iter().rev().find(|key| !protected(key.slot)).copied())
            }
            _ => self.island_ranked(island, members.len()).into_iter().rev().find(|key| !protected(key.slot)),
        }
    }

    /// The first front of the population (or a target), in the scalar order.
    pub(crate) fn front_keys_in(&self, scope: Scope) -> Vec<RankKey> {
        match scope {
            None => self.population.front.front_keys(),
            Some(_) => {
                let keys: Vec<RankKey> =
                    self.population.top_in(scope, self.population.len_in(scope)).copied().collect();
                let points: Vec<&[f64]> = keys.iter().map(|key| self.objectives(key.slot)).collect();
                let all: Vec<usize> = (0..keys.len()).collect();
                non_dominated(&points, &all).into_iter().map(|i| keys[i]).collect()
            }
        }
    }

    /// `best_by_mode`: one program — pareto: the first-front member first in the scalar order
    /// (higher fitness, then newer, then earlier); lexicographic: the first in its order.
    pub(crate) fn best_by_mode(&self, scope: Scope) -> Option<u32> {
        match self.config.selection.mode {
            SelectionMode::Scalar | SelectionMode::Instances => self.population.best_in(scope),
            SelectionMode::Pareto if scope.is_none() => self.population.front.best_key().map(|key| key.slot),
            SelectionMode::Pareto => self.front_keys_in(scope).first().map(|key| key.slot),
            SelectionMode::Lexicographic => self.population_ranked(scope, 1).first().map(|key| key.slot),
        }
    }

    /// The island's one best by the mode (the rule of `best_by_mode`, within the island).
    pub(crate) fn island_best_by_mode(&self, island: u32) -> Option<u32> {
        match self.config.selection.mode {
            SelectionMode::Scalar | SelectionMode::Instances => {
                self.islands[island as usize].top(1).next().map(|key| key.slot)
            }
            SelectionMode::Pareto => self.islands[island as usize].front.best_key().map(|key| key.slot),
            SelectionMode::Lexicographic => self.island_ranked(island, 1).first().map(|key| key.slot),
        }
    }

    /// The best of the whole population by the mode.
    pub(crate) fn best_overall(&self) -> Option<u32> {
        match self.config.selection.best_is_scalar() {
            true => self.population.best(),
            false => self.best_by_mode(None),
        }
    }

    /// `pareto_front`: the first front of the population by the pareto rank (largest crowding
    /// distance first, then the scalar order); in an `instances` run, the instance front by the
    /// instance rank. Other modes have no front: an error says so.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let config = Config::from_json(r#"{"selection":{"mode":"pareto","objectives":["speed","accuracy"]}}"#).unwrap();
    /// let mut db = Database::new(config, 1).unwrap();
    /// for (i, (speed, accuracy)) in [(1.0, 0.9), (2.0, 0.5), (0.5, 0.4)].into_iter().enumerate() {
    ///     let metrics = Metrics::new([("speed", speed), ("accuracy", accuracy)]).unwrap();
    ///     db.add(AddRequest::seed(format!("/f{i}.py"), format!("v{i}"), metrics), i as f64).unwrap();
    /// }
    /// assert_eq!(db.pareto_front().unwrap().len(), 2); // (0.5, 0.4) is dominated
    /// ```
    pub fn pareto_front(&self) -> Result<Vec<crate::api::BestProgram>> {
        let program = |key: RankKey| crate::api::BestProgram::from(&self.population.get(key.slot).program);
        match self.config.selection.mode {
            SelectionMode::Pareto => {}
            SelectionMode::Instances => {
                let keys: Vec<RankKey> = self.population.top(self.population.len()).copied().collect();
                return Ok(self.instance_ranked(&keys).into_iter().map(|(key, _)| program(key)).collect());
            }
            _ => {
                return Err(Error::input(
                    "front",
                    "needs a pareto or instances selection; create the run with `init --selection pareto --objectives \
                     a,b` (or `--selection instances`)",
                ));
            }
        }
        let front = self.front_keys_in(None);
        Ok(self.rank_by_mode(front.iter(), None, front.len()).into_iter().map(program).collect())
    }

    /// `stats`' per-instance coverage, once a live program carries instance scores (any mode).
    pub(crate) fn instance_stats(&self) -> Option<crate::api::InstanceStats> {
        let keys: Vec<RankKey> = self.population.top(self.population.len()).copied().collect();
        let scores: Vec<&[(u32, f64)]> = keys.iter().map(|key| &self.population.get(key.slot).instances[..]).collect();
        if scores.iter().all(|s| s.is_empty()) {
            return None;
        }
        let id = |index: usize| self.population.get(keys[index].slot).program.id.to_string();
        let names = &self.population.instance_names;
        let mut table = crate::instance_front::instance_leaders(&scores, names.len());
        table.sort_by(|a, b| names.name(a.instance).cmp(names.name(b.instance)));
        let front = instance_front(&scores, names.len());
        let mean_best = table.iter().map(|row| row.best).sum::<f64>() / table.len() as f64;
        Some(crate::api::InstanceStats {
            instance_count: table.len() as u32,
            front_size: front.len() as u32,
            front: front.into_iter().map(|(index, _)| id(index)).collect(),
            mean_best: crate::json_text::shown(mean_best),
            coverage: table
                .into_iter()
                .map(|row| crate::api::InstanceCoverage {
                    instance: names.name(row.instance).to_string(),
                    best: row.best,
                    leader: id(row.leaders[0]),
                    leaders: row.leaders.len() as u32,
                    scored: row.scored,
                })
                .collect(),
        })
    }

    /// `stats`' pareto figures (pareto mode).
    pub(crate) fn pareto_stats(&self) -> Option<crate::api::ParetoStats> {
        if self.config.selection.mode != SelectionMode::Pareto {
            return None;
        }
        let front = self.pareto_front().ok()?;
        Some(crate::api::ParetoStats {
            objectives: self.config.selection.objectives.clone(),
            front_size: front.len() as u32,
            front: front.into_iter().map(|p| p.id.to_string()).collect(),
            hypervolume: self.front_hypervolume().map(crate::json_text::shown),
        })
    }

    /// The first front's hypervolume against `selection.reference`, when one is configured
    /// (pareto mode).
    pub fn front_hypervolume(&self) -> Option<f64> {
        let selection = &self.config.selection;
        if selection.mode != SelectionMode::Pareto || selection.reference.is_empty() {
            return None;
        }
        let reference: Vec<f64> =
            selection.objectives.iter().map(|name| self.config.signed(name, selection.reference[name])).collect();
        let front = self.front_keys_in(None);
        let points: Vec<&[f64]> = front.iter().map(|key| self.objectives(key.slot)).collect();
        Some(hypervolume(&points, &reference))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::pareto::{dominates, non_dominated};
    use crate::{AddRequest, Config, Database, Metrics};

    fn pareto_db(capacity: u32, seed: u64) -> Database {
        let config = Config::from_json(&format!(
            r#"{{"numIslands": 2, "maxIslandSize": {capacity}, "migrationInterval": 1000000,
                "selection": {{"mode": "pareto", "objectives": ["speed", "accuracy"]}}}}"#
        ))
        .unwrap();
        Database::new(config, seed).unwrap()
    }

    fn request(i: usize, speed: f64, accuracy: f64) -> AddRequest {
        let metrics = Metrics::new([("speed", speed), ("accuracy", accuracy)]).unwrap();
        AddRequest { parent_id: "p".into(), ..AddRequest::seed(format!("/c/{i}.py"), format!("v{i}"), metrics) }
    }

    /// Each island's members and their objectives.
    fn islands(db: &Database) -> Vec<Vec<(u32, Vec<f64>)>> {
        db.islands.iter().map(|island| island.members().map(|s| (s, db.objectives(s).to_vec())).collect()).collect()
    }

    proptest! {
        /// No first-front member is evicted while a dominated member remains on its island.
        #[test]
        fn no_dominated_program_evicts_a_front_member(
            points in proptest::collection::vec((0u8..6, 0u8..6), 1..60),
            capacity in 1u32..6,
            seed in 0u64..1000,
        ) {
            let mut db = pareto_db(capacity, seed);
            for (i, (speed, accuracy)) in points.into_iter().enumerate() {
                let before = islands(&db);
                let outcome = db.add(request(i, speed as f64, accuracy as f64), i as f64).unwrap();
                let new_slot = db.population.slot_of(&outcome.id);
                let after = islands(&db);
                for (island, (old, now)) in before.iter().zip(&after).enumerate() {
                    let mut joined: Vec<(u32, Vec<f64>)> = old.clone();
                    if let Some(slot) = new_slot.filter(|&s| db.population.get(s).program.island == island as u32) {
                        joined.push((slot, db.objectives(slot).to_vec()));
                    }
                    let points: Vec<&[f64]> = joined.iter().map(|(_, p)| &p[..]).collect();
                    let all: Vec<usize> = (0..points.len()).collect();
                    let front = non_dominated(&points, &all);
                    let kept: Vec<u32> = now.iter().map(|(s, _)| *s).collect();
                    let evicted_front = front.iter().any(|&i| !kept.contains(&joined[i].0));
                    let dominated_kept =
                        now.iter().any(|(_, p)| joined.iter().any(|(_, q)| dominates(q, p)));
                    prop_assert!(!(evicted_front && dominated_kept), "island {island}: {joined:?} -> {now:?}");
                }
            }
        }

        /// The same adds give the same file, byte for byte, and a reloaded database continues
        /// exactly as the original does.
        #[test]
        fn pareto_runs_are_deterministic_and_survive_a_reload(
            points in proptest::collection::vec((0u8..8, 0u8..8), 1..40),
        ) {
            let run = |db: &mut Database, from: usize| {
                for (i, (s, a)) in points.iter().enumerate().skip(from) {
                    db.add(request(i, *s as f64, *a as f64), i as f64).unwrap();
                    db.sample();
                }
            };
            let (mut a, mut b) = (pareto_db(4, 7), pareto_db(4, 7));
            run(&mut a, 0);
            let half = points.len() / 2;
            let mut partial = pareto_db(4, 7);
            for (i, (s, acc)) in points.iter().enumerate().take(half) {
                partial.add(request(i, *s as f64, *acc as f64), i as f64).unwrap();
                partial.sample();
            }
            let mut reloaded = Database::from_json(&partial.to_json()).unwrap();
            run(&mut reloaded, half);
            run(&mut b, 0);
            prop_assert_eq!(a.to_json(), b.to_json());
            prop_assert_eq!(a.to_json(), reloaded.to_json());
            let front: Vec<String> = a.pareto_front().unwrap().into_iter().map(|p| p.id.to_string()).collect();
            prop_assert!(front.iter().any(|id| Some(id.as_str()) == a.best_id()));
        }
    }

    fn instances_db(capacity: u32, seed: u64) -> Database {
        let config = Config::from_json(&format!(
            r#"{{"numIslands": 2, "maxIslandSize": {capacity}, "migrationInterval": 1000000,
                "selection": {{"mode": "instances"}}}}"#
        ))
        .unwrap();
        Database::new(config, seed).unwrap()
    }

    fn tested(i: usize, tests: &[u8]) -> AddRequest {
        let scores = Metrics::new(tests.iter().enumerate().map(|(t, s)| (format!("t{t}"), *s as f64))).unwrap();
        let mean = tests.iter().map(|&s| s as f64).sum::<f64>() / tests.len() as f64;
        AddRequest {
            parent_id: "p".into(),
            instance_scores: scores,
            ..AddRequest::seed(format!("/c/{i}.py"), format!("v{i}"), Metrics::new([("score", mean)]).unwrap())
        }
    }

    proptest! {
        /// No member of an island's instance front is evicted while a member off it remains,
        /// and the best is always the fittest program.
        #[test]
        fn no_program_off_the_instance_front_evicts_a_front_member(
            rows in proptest::collection::vec(proptest::collection::vec(0u8..3, 3), 1..40),
            capacity in 1u32..5,
            seed in 0u64..1000,
        ) {
            let mut db = instances_db(capacity, seed);
            // A member as the rules see it: slot, fitness, time, join position, instance scores.
            type Seen = (u32, f64, f64, u32, Metrics);
            let seen = |db: &Database, slot: u32, pos: u32| -> Seen {
                let record = db.population.get(slot);
                (slot, record.fitness, record.program.timestamp, pos, record.program.instance_scores.clone())
            };
            for (i, tests) in rows.into_iter().enumerate() {
                let before: Vec<Vec<Seen>> = db
                    .islands
                    .iter()
                    .map(|island| island.members().enumerate().map(|(pos, s)| seen(&db, s, pos as u32)).collect())
                    .collect();
                let outcome = db.add(tested(i, &tests), i as f64).unwrap();
                let new_slot = db.population.slot_of(&outcome.id);
                for (island, old) in before.iter().enumerate() {
                    let mut joined = old.clone();
                    if let Some(slot) = new_slot.filter(|&s| db.population.get(s).program.island == island as u32) {
                        joined.push(seen(&db, slot, joined.len() as u32));
                    }
                    // The scalar order: higher fitness, then newer, then earlier joined.
                    joined.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.total_cmp(&a.2)).then(a.3.cmp(&b.3)));
                    let mut names = crate::instance_front::InstanceNames::default();
                    let interned: Vec<_> = joined.iter().map(|member| names.intern(&member.4)).collect();
                    let scores: Vec<&[(u32, f64)]> = interned.iter().map(|row| &row[..]).collect();
                    let front: Vec<u32> = crate::instance_front::instance_front(&scores, names.len())
                        .into_iter()
                        .map(|(i, _)| joined[i].0)
                        .collect();
                    let kept: Vec<u32> = db.islands[island].members().collect();
                    let evicted_front = front.iter().any(|slot| !kept.contains(slot));
                    let off_front_kept = kept.iter().any(|slot| !front.contains(slot));
                    prop_assert!(!(evicted_front && off_front_kept), "island {island}: {front:?} -> {kept:?}");
                }
                prop_assert_eq!(db.best, db.population.best());
            }
        }
    }

    #[test]
    fn best_is_on_the_front_and_the_front_ignores_dominated_programs() {
        let mut db = pareto_db(10, 1);
        for (i, (s, a)) in [(1.0, 0.9), (2.0, 0.5), (0.5, 0.4), (2.0, 0.5)].into_iter().enumerate() {
            db.add(request(i, s, a), i as f64).unwrap();
        }
        let front: Vec<String> = db.pareto_front().unwrap().into_iter().map(|p| p.id.to_string()).collect();
        assert_eq!(front.len(), 3, "{front:?}");
        let best = db.best_id().unwrap().to_string();
        assert!(front.contains(&best));
    }

    #[test]
    fn lexicographic_prefers_the_first_objective_beyond_its_tolerance() {
        let config = Config::from_json(
            r#"{"numIslands": 1, "selection": {"mode": "lexicographic", "objectives": ["accuracy", "speed"],
                "tolerances": [0.05, 0]}}"#,
        )
        .unwrap();
        let mut db = Database::new(config, 1).unwrap();
        for (i, (s, a)) in [(1.0, 0.90), (0.2, 0.93), (5.0, 0.89), (9.0, 0.80)].into_iter().enumerate() {
            db.add(request(i, s, a), i as f64).unwrap();
        }
        assert_eq!(db.best().unwrap().metrics.get("speed"), Some(5.0));
    }

    #[test]
    fn hypervolume_against_the_reference() {
        let config = Config::from_json(
            r#"{"selection": {"mode": "pareto", "objectives": ["speed", "accuracy"], "reference": {"speed": 0, "accuracy": 0}}}"#,
        )
        .unwrap();
        let mut db = Database::new(config, 1).unwrap();
        for (i, (s, a)) in [(1.0, 3.0), (2.0, 2.0), (3.0, 1.0), (1.0, 1.0)].into_iter().enumerate() {
            db.add(request(i, s, a), i as f64).unwrap();
        }
        assert_eq!(db.front_hypervolume(), Some(6.0));
    }
}
