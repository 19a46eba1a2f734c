//! Idea runs (evoidea's memetic loop): what an idea's add must carry (`admit_idea`), what each
//! round asks for (`plan_idea_round`: generate, then refine the elite under the context-rot
//! rules), and stagnation counted in rounds (`idea_stagnation`), the seed's rule.

use crate::api::{
    AddRequest, CriterionScore, IDEA_CRITERIA, IDEA_PATH, IdeaBrief, IdeaOrigin, IdeaSubmission, Operator, Plan,
    PlanItem, ROOT_PARENT_ID, Status, check_idea_scores,
};
use crate::config::RunKind;
use crate::database::{Database, Event, PendingItem};
use crate::error::{Error, Result};

/// Most parents a merged idea may name.
const MAX_IDEA_PARENTS: usize = 16;

/// How many of an idea's weakest criteria a refine item carries.
const WEAKEST_CRITERIA: usize = 3;

impl Database {
    /// Whether this run's members are ideas.
    pub fn is_idea_run(&self) -> bool {
        self.config.kind == RunKind::Ideas
    }

    /// `admit_idea`: in an idea run, the request's `targetCode` must be an idea (stored as its
    /// canonical compact JSON under [`IDEA_PATH`]; its `id` and `changes` fill the request's
    /// when those are empty), its metrics the eight criteria from 0 to 10 (an `error` may have
    /// none), and its origin must fit its parents (`parents` names them all; the first is the
    /// `parentId`). In a programs run, `origin` and `parents` are refused.
    pub(crate) fn admit_idea(&self, mut request: AddRequest) -> Result<AddRequest> {
        if !self.is_idea_run() {
            if request.origin.is_some() || !request.parents.is_empty() {
                return Err(Error::input(
                    if request.origin.is_some() { "origin" } else { "parents" },
                    "is for idea runs; this run holds programs (leave it out, or create the run with kind `ideas`)",
                ));
            }
            return Ok(request);
        }
        let submission = IdeaSubmission::from_json(&request.target_code)?;
        request.target_code = submission.idea.canonical_json();
        request.code_path = IDEA_PATH.to_string();
        if request.id.is_none() {
            request.id = submission.id;
        }
        if request.changes.is_empty() && !submission.changes.is_empty() {
            request.changes = submission.changes.join("; ");
        }
        if request.status != Status::Error {
            check_idea_scores(&request.metrics)?;
        }
        if request.parents.len() > MAX_IDEA_PARENTS {
            return Err(Error::input(
                "parents",
                format!("names {} ideas; merge at most {MAX_IDEA_PARENTS}", request.parents.len()),
            ));
        }
        for (i, parent) in request.parents.iter().enumerate() {
            if parent.trim().is_empty() || parent == ROOT_PARENT_ID {
                return Err(Error::input(format!("parents[{i}]"), "is empty; name an idea's id"));
            }
            if request.parents[..i].contains(parent) {
                return Err(Error::input(
                    format!("parents[{i}]"),
                    format!("`{parent}` is named twice; name each once"),
                ));
            }
        }
        if let Some(first) = request.parents.first() {
            if request.parent_id != ROOT_PARENT_ID && request.parent_id != *first {
                return Err(Error::input(
                    "parentId",
                    format!("is `{}` but parents starts with `{first}`; give one of them", request.parent_id),
                ));
            }
            request.parent_id = first.clone();
        }
        let parents = match request.parents.len() {
            0 => usize::from(request.parent_id != ROOT_PARENT_ID && !request.parent_id.is_empty()),
            n => n,
        };
        if request.parents.len() < 2 {
            request.parents.clear();
        }
        let origin = request.origin.unwrap_or(IdeaOrigin::implied_by(parents));
        if let Some(problem) = origin.parent_problem(parents) {
            return Err(Error::input("origin", problem));
        }
        request.origin = Some(origin);
        Ok(request)
    }

    /// `plan_idea_round`: the next round of an idea run. The first round — and any round that
    /// finds no live accepted idea (all pruned) — asks for `ideas.population` generated ideas;
    /// every other round selects the elite (the best `ideas.elite` live accepted ideas: sort and
    /// pick, no LLM) and gives each one refine item with only its idea, its weakest criteria
    /// and a one-line summary of the current best. The run decides the item count; `plan`'s
    /// `n` is not used. Items are named `round-{R}/generate-{i}` and `round-{R}/refine-{i}`.
    pub(crate) fn plan_idea_round(&mut self, frozen: &[u32], boosted: &[u32]) -> Result<Plan> {
        let round = self.rounds + 1;
        let best_before = self.best.map(|slot| self.population.get(slot).fitness);
        let elite: Vec<u32> = self
            .population
            .top(self.population.len())
            .map(|key| key.slot)
            .filter(|&slot| self.population.get(slot).program.status == Status::Accepted)
            .take(self.config.ideas.elite as usize)
            .collect();
        let mut items = Vec::new();
        if round == 1 || elite.is_empty() {
            let islands: Vec<u32> = (0..self.config.num_islands)
                .filter(|island| !frozen.contains(island))
                .flat_map(|island| std::iter::repeat_n(island, if boosted.contains(&island) { 2 } else { 1 }))
                .collect();
            for i in 0..self.config.ideas.population as usize {
                let island = islands[(self.plan_cursor as usize + i) % islands.len()];
                items.push(self.idea_item(format!("round-{round}/generate-{i}"), Operator::Exploration, island, None));
            }
            self.plan_cursor = (self.plan_cursor + u64::from(self.config.ideas.population)) % islands.len() as u64;
        } else {
            let best = self.best.map(|slot| {
                let record = self.population.get(slot);
                let summary = crate::api::Idea::from_json(&record.program.target_code)
                    .map_or_else(|_| record.program.target_code.to_string(), |idea| idea.one_line());
                format!("{summary} ({})", round_score(record.fitness))
            });
            for (i, slot) in elite.into_iter().enumerate() {
                let program = &self.population.get(slot).program;
                let mut item =
                    self.idea_item(format!("round-{round}/refine-{i}"), Operator::Exploitation, program.island, None);
                item.parent_ids = vec![program.id.to_string()];
                item.idea = Some(IdeaBrief {
                    task: "refine".into(),
                    idea: Some(program.target_code.to_string()),
                    weakest: weakest_criteria(&program.metrics),
                    best_summary: best.clone(),
                });
                items.push(item);
            }
        }
        self.idea_round_bests.push(best_before);
        self.rounds += 1;
        self.pending.extend(items.iter().map(|item| PendingItem {
            name: item.name.clone(),
            island: item.island,
            operator: item.operator,
            second_parent_id: None,
            synergy: Vec::new(),
            held: None,
            lease: None,
        }));
        self.emit(Event::Planned {
            n: items.len() as u32,
            frozen: frozen.to_vec(),
            boosted: boosted.to_vec(),
            items: items.iter().map(|item| item.name.clone()).collect(),
            now: None,
            lease_seconds: None,
        });
        Ok(Plan { generation: round - 1, items, synergy: None })
    }

    fn idea_item(&self, name: String, operator: Operator, island: u32, donor_island: Option<u32>) -> PlanItem {
        let (island_name, island_description) = self.island_names(island);
        PlanItem {
            name,
            operator,
            island,
            parent_ids: Vec::new(),
            donor_island,
            forced_by: None,
            island_name,
            island_description,
            donor_island_name: None,
            notes: Vec::new(),
            target: None,
            // evoidea's context-rot rules: an idea item carries its brief, never parents' history.
            parent: None,
            parent_fitness: None,
            second_parent: None,
            inspirations: Vec::new(),
            idea: Some(IdeaBrief { task: "generate".into(), idea: None, weakest: Vec::new(), best_summary: None }),
            lease: None,
        }
    }

    /// `idea_stagnation`: rounds in a row whose best did not beat the best before them (by more
    /// than `stopping.noiseMargin`), the seed's `stagnation_counter`. The best after each round
    /// is the best when the next round was planned; the last round's is the best now.
    pub(crate) fn idea_stagnation(&self) -> u64 {
        let now = self.best.map(|slot| self.population.get(slot).fitness);
        let bests: Vec<Option<f64>> = self.idea_round_bests.iter().copied().chain([now]).collect();
        bests
            .windows(2)
            .rev()
            .take_while(|pair| pair[1].is_none_or(|after| !self.beats_by_noise_margin(after, pair[0])))
            .count() as u64
    }
}

/// An idea's lowest-scored criteria, lowest first (the seed's order on ties).
fn weakest_criteria(scores: &crate::metrics::Metrics) -> Vec<CriterionScore> {
    let mut scored: Vec<CriterionScore> = IDEA_CRITERIA
        .iter()
        .filter_map(|c| scores.get(c).map(|score| CriterionScore { criterion: c.to_string(), score }))
        .collect();
    scored.sort_by(|a, b| a.score.total_cmp(&b.score));
    scored.truncate(WEAKEST_CRITERIA);
    scored
}

/// A score as evoidea shows it: two decimals at most.
pub(crate) fn round_score(score: f64) -> f64 {
    (score * 100.0).round() / 100.0 + 0.0
}
