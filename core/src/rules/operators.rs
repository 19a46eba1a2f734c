//! The four operators of the AlphaEvolve strategy and how each picks its island and parents. `sample` (with
//! `operators` configured) and `plan` both draw their work here.

use crate::api::Operator;
use crate::config::{OperatorPolicy, OperatorWeights, Scope};
use crate::database::Database;

/// One unit of work: the operator, the island the child belongs to, and the parents.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Work {
    pub operator: Operator,
    pub island: u32,
    pub parent: Option<u32>,
    /// Crossover's diverse parent, or migration's donor program.
    pub second_parent: Option<u32>,
    pub donor_island: Option<u32>,
    /// Why the weighted draw was skipped or its operator replaced.
    pub forced_by: Option<&'static str>,
}

const ONE_MEMBER: &str = "the population has at most one member";
const FIVE_REJECTED: &str = "the last 5 candidates were rejected";
const THREE_REJECTED: &str = "the last 3 candidates were rejected";
const NO_SECOND_ISLAND: &str = "no other island holds a program to combine with";
const ONE_ISLAND: &str = "migration needs at least two islands";
/// UCB1's exploration constant for `adaptive_operator`. Improvement rates are small (0.1–0.3),
/// so the textbook √2 spends most candidates trying operators; 0.5 beat the fixed weights on the
/// demo's landscapes at every ruggedness tried (`cargo run --release -p evodb-core --example
/// operator_policy`, docs/performance.md), √2 did worse on two of three.
const UCB_EXPLORATION: f64 = 0.5;
/// How many members crossover looks through for one in another feature cell.
const CELL_SEARCH: usize = 64;

/// Where a draw may reach: the fixed island (a plan item's), the target's islands, and the
/// island to use where an operator has no rule of its own.
#[derive(Clone, Copy)]
struct Reach {
    target: Option<u32>,
    scope: Scope,
    home: u32,
}

impl Database {
    /// `choose_operator`: the deterministic overrides, applied before sampling, then a weighted
    /// draw (one uniform number; weights are normalised by their sum), or with `operatorPolicy:
    /// "ucb"` the adaptive choice (`adaptive_operator`, no draw).
    fn choose_operator(&mut self, weights: &OperatorWeights, scope: Scope) -> (Operator, Option<&'static str>) {
        if self.population.len_in(scope) <= 1 {
            return (Operator::Exploration, Some(ONE_MEMBER));
        }
        if self.candidates.last_rejected(5) {
            return (Operator::Migration, Some(FIVE_REJECTED));
        }
        if self.candidates.last_rejected(3) {
            return (Operator::Exploration, Some(THREE_REJECTED));
        }
        let options = [
            (Operator::Exploitation, weights.exploitation),
            (Operator::Exploration, weights.exploration),
            (Operator::Crossover, weights.crossover),
            (Operator::Migration, weights.migration),
        ];
        if self.config.operator_policy == OperatorPolicy::Ucb {
            return (self.adaptive_operator(&options, scope), None);
        }
        let total: f64 = options.iter().map(|(_, w)| w).sum();
        let mut x = self.rng.unit_f64() * total;
        for (operator, weight) in options {
            if x < weight {
                return (operator, None);
            }
            x -= weight;
        }
        // Rounding can leave x a hair above the last weight: the last weighted operator wins.
        let last = options.iter().rev().find(|(_, w)| *w > 0.0).map(|(op, _)| *op);
        (last.unwrap_or(Operator::Exploitation), None)
    }

    /// `adaptive_operator`: UCB1 over the operators with a weight above 0, each rewarded by the
    /// share of its candidates (in `scope`'s islands, every model) that beat their parent — the
    /// counts `stats.attribution` reports. An operator not yet tried goes first (in the order
    /// exploitation, exploration, crossover, migration); otherwise the highest
    /// `rate + UCB_EXPLORATION · sqrt(ln N / n)` wins, the earlier in that order on ties. Counts only, no clock
    /// and no draw, so a replay chooses the same.
    fn adaptive_operator(&self, options: &[(Operator, f64); 4], scope: Scope) -> Operator {
        let in_scope = |island: Option<u32>| match (scope, island) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(_), Some(island)) => self.config.scope_islands(scope).contains(&island),
        };
        let counts = |operator: Operator| {
            self.candidates
                .attribution
                .iter()
                .filter(|row| row.operator == Some(operator) && in_scope(row.island))
                .fold((0u64, 0u64), |(n, wins), row| (n + row.candidates, wins + row.improvements))
        };
        let arms: Vec<(Operator, u64, u64)> = options
            .iter()
            .filter(|(_, weight)| *weight > 0.0)
            .map(|&(operator, _)| {
                let (n, wins) = counts(operator);
                (operator, n, wins)
            })
            .collect();
        if let Some(&(untried, _, _)) = arms.iter().find(|(_, n, _)| *n == 0) {
            return untried;
        }
        let total: u64 = arms.iter().map(|(_, n, _)| n).sum();
        let ln_total = (total.max(1) as f64).ln();
        let score = |n: u64, wins: u64| wins as f64 / n as f64 + UCB_EXPLORATION * (ln_total / n as f64).sqrt();
        let mut best: Option<(Operator, f64)> = None;
        for &(operator, n, wins) in &arms {
            let s = score(n, wins);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((operator, s));
            }
        }
        best.map_or(Operator::Exploitation, |(operator, _)| operator)
    }

    /// `draw_work`: an operator, then its island and parents. `target` fixes the island (a plan
    /// item's); without one, each operator picks its own, `home` (the current island) where
    /// it has no rule. Every pick stays within `scope` (one target's islands).
    pub(crate) fn draw_work(&mut self, target: Option<u32>, scope: Scope, home: u32) -> Work {
        let weights = self.config.operators.clone().unwrap_or_default();
        let (operator, forced_by) = self.choose_operator(&weights, scope);
        let at = Reach { target, scope, home };
        let work = match operator {
            Operator::Exploitation => Some(self.exploit(at)),
            Operator::Exploration => Some(self.explore(at, forced_by == Some(THREE_REJECTED))),
            Operator::Crossover => self.cross(at),
            Operator::Migration => self.migrate_technique(at),
        };
        let fallback_reason = match operator {
            Operator::Crossover => NO_SECOND_ISLAND,
            _ => ONE_ISLAND,
        };
        match work {
            Some(work) => Work { forced_by, ..work },
            None => Work { forced_by: Some(fallback_reason), ..self.exploit(at) },
        }
    }

    /// Exploitation: the island's best, the most recent on ties; an empty island falls back to
    /// the population's best. With `pending: "aware"`, the best of the island's
    /// `exploitationTop` with the least work in flight (`least_busy_top`).
    fn exploit(&mut self, at: Reach) -> Work {
        let island = at.target.unwrap_or(at.home);
        let parent = self.exploitation_parent(island).or_else(|| self.population_best_recent(at.scope));
        Work {
            operator: Operator::Exploitation,
            island,
            parent,
            second_parent: None,
            donor_island: None,
            forced_by: None,
        }
    }

    /// Exploration: the island with the fewest members (the lowest number on ties), avoiding the
    /// islands of the last 3 candidates when they were all rejected; its best member is the
    /// starting point, or — for an empty island — the initial program ("from scratch"). With
    /// `pending: "aware"`, the children in flight to an island count as its members.
    fn explore(&mut self, at: Reach, avoid_recent: bool) -> Work {
        let island = at.target.unwrap_or_else(|| {
            let recent: Vec<u32> = if avoid_recent { self.candidates.recent_islands(3).collect() } else { Vec::new() };
            let unused: Vec<u32> = self.config.scope_islands(at.scope).filter(|i| !recent.contains(i)).collect();
            let pool = if unused.is_empty() { self.config.scope_islands(at.scope).collect() } else { unused };
            *pool
                .iter()
                .min_by_key(|&&i| (self.islands[i as usize].len() + self.in_flight_to(i), i))
                .expect("at least one island")
        });
        let parent = match self.island_best(island) {
            Some(slot) => Some(slot),
            None => self.empty_island_fallback(at.scope),
        };
        Work {
            operator: Operator::Exploration,
            island,
            parent,
            second_parent: None,
            donor_island: None,
            forced_by: None,
        }
    }

    /// Crossover: an elite (a uniform pick from the elite archive, the best `archiveSize`) and a
    /// diverse parent (a uniform pick from another island, preferring a different feature cell).
    fn cross(&mut self, at: Reach) -> Option<Work> {
        let archive = self.config.archive_size.max(1) as usize;
        let elites: Vec<u32> = match self.config.selection.is_scalar() {
            true => self.population.top_in(at.scope, archive).map(|k| k.slot).collect(),
            false => self.population_ranked(at.scope, archive).into_iter().map(|k| k.slot).collect(),
        };
        let elite = elites[self.rng.below(elites.len())];
        let home = self.population.get(elite).program.island;
        let others: Vec<u32> = self
            .config
            .scope_islands(at.scope)
            .filter(|&i| i != home && self.islands[i as usize].members().any(|m| m != elite))
            .collect();
        if others.is_empty() {
            return None;
        }
        let island = others[self.rng.below(others.len())];
        let members = &self.islands[island as usize];
        let start = self.rng.below(members.len());
        let elite_cell = self.population.get(elite).program.cell.as_ref();
        // Walk on from the pick (at most `CELL_SEARCH` steps, so a sample stays O(log n)) to the
        // first member in another cell; the first member that is not the elite otherwise.
        let walk = (0..members.len().min(CELL_SEARCH)).map(|step| members.nth((start + step) % members.len()));
        let candidates: Vec<u32> = walk.filter(|&m| m != elite).collect();
        let diverse = candidates
            .iter()
            .copied()
            .find(|&m| elite_cell.is_none() || self.population.get(m).program.cell.as_ref() != elite_cell)
            .or(candidates.first().copied())?;
        Some(Work {
            operator: Operator::Crossover,
            island: at.target.unwrap_or(at.home),
            parent: Some(elite),
            second_parent: Some(diverse),
            donor_island: None,
            forced_by: None,
        })
    }

    /// Migration: the donor is the island holding the best program; the recipient another island
    /// (uniform, or the target); the parent is the recipient's best, the donor's best rides along.
    fn migrate_technique(&mut self, at: Reach) -> Option<Work> {
        let islands = self.config.scope_islands(at.scope);
        let n = islands.len() as u32;
        if n < 2 {
            return None;
        }
        let best = self.population_best_recent(at.scope)?;
        let mut donor = self.population.get(best).program.island;
        let recipient = match at.target {
            Some(t) => {
                if t == donor {
                    // The target holds the best: the donor is the other island with the best best.
                    donor = islands
                        .filter(|&i| i != t)
                        .filter_map(|i| self.islands[i as usize].top(1).next().map(|k| (k.fitness, i)))
                        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
                        .map(|(_, i)| i)?;
                }
                t
            }
            None => {
                let r = islands.start + self.rng.below(n as usize - 1) as u32;
                if r >= donor { r + 1 } else { r }
            }
        };
        let parent = match self.island_best(recipient) {
            Some(slot) => Some(slot),
            None => self.empty_island_fallback(at.scope),
        };
        let second_parent = self.island_best(donor).or(Some(best));
        Some(Work {
            operator: Operator::Migration,
            island: recipient,
            parent,
            second_parent,
            donor_island: Some(donor),
            forced_by: None,
        })
    }

    /// Exploitation's parent on `island`: its best, or with work in flight (`pending: "aware"`)
    /// the best of its `exploitationTop` that the least work is open on.
    fn exploitation_parent(&self, island: u32) -> Option<u32> {
        if !self.pending_aware() || self.in_flight.is_empty() {
            return self.island_best(island);
        }
        let best = self.island_best(island)?;
        let members = &self.islands[island as usize];
        let top = members.len().min(self.config.exploitation_top.max(1) as usize);
        // The island's best first (the most recent of an exact tie), then the rest of its top.
        let mut ranked = vec![best];
        ranked.extend(members.top(top).map(|key| key.slot).filter(|&slot| slot != best).take(top - 1));
        self.least_busy_top(ranked).first().copied()
    }

    /// The island's best member, the most recently added among exact ties.
    pub(crate) fn island_best(&self, island: u32) -> Option<u32> {
        if !self.config.selection.best_is_scalar() {
            return self.island_best_by_mode(island);
        }
        let island = &self.islands[island as usize];
        let first = *island.top(1).next()?;
        island
            .top(island.len())
            .take_while(|k| k.fitness == first.fitness && k.timestamp == first.timestamp)
            .last()
            .map(|k| k.slot)
    }

    /// The population's (or the target's) best, the most recently added among exact ties.
    pub(crate) fn population_best_recent(&self, scope: Scope) -> Option<u32> {
        if !self.config.selection.best_is_scalar() {
            return self.best_by_mode(scope);
        }
        let first = *self.population.top_in(scope, 1).next()?;
        self.population
            .top_in(scope, self.population.len_in(scope))
            .take_while(|k| k.fitness == first.fitness && k.timestamp == first.timestamp)
            .last()
            .map(|k| k.slot)
    }
}
