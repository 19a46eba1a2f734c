//! `export --format evoidea`: an idea run as evoidea's own files — `state.json` (`run_id`,
//! `iteration`, `ideas[]`, `best_score`, `best_idea_id`, `stagnation_counter`) and `final.json`
//! (the same, plus the stop verdict, the best idea in full, the best-score trajectory and the
//! run's parameters). The run's id is the caller's (a directory's name): left empty here.

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::api::{IDEA_CRITERIA, Idea, Status};
use crate::config::{Profile, RunKind};
use crate::database::{Database, Program};
use crate::rules::round_score;

/// The export: `kind`, then `state` and `final` (both null for a programs run).
#[derive(Serialize)]
struct EvoideaExport {
    kind: RunKind,
    state: Option<Value>,
    #[serde(rename = "final")]
    final_: Option<Value>,
}

impl Database {
    /// `export --format evoidea`: `{"kind", "state", "final"}` as pretty JSON (see the module).
    pub fn evoidea_export(&self) -> String {
        let export = match self.is_idea_run() {
            false => EvoideaExport { kind: self.config.kind, state: None, final_: None },
            true => {
                let state = self.evoidea_state();
                let mut final_ = state.clone();
                let verdict = self.should_stop();
                let best = self.best.map(|slot| &self.population.get(slot).program);
                let fields = final_.as_object_mut().expect("the state is an object");
                fields.insert("stopped".into(), json!(verdict.stop));
                fields.insert("stop_reason".into(), json!(verdict.reason));
                fields.insert("best_idea".into(), best.map_or(Value::Null, |p| self.evoidea_idea(p)));
                fields.insert("best_score_trajectory".into(), json!(self.best_score_trajectory()));
                fields.insert("config".into(), self.evoidea_config());
                EvoideaExport { kind: self.config.kind, state: Some(state), final_: Some(final_) }
            }
        };
        serde_json::to_string_pretty(&export).expect("plain JSON values")
    }

    /// The best overall score after each round (the last one's is the best now).
    pub fn best_score_trajectory(&self) -> Vec<Option<f64>> {
        let now = self.best.map(|slot| self.population.get(slot).fitness);
        let after_rounds = self.idea_round_bests.iter().skip(1).copied().chain((self.rounds > 0).then_some(now));
        after_rounds.map(|best| best.map(round_score)).collect()
    }

    fn evoidea_state(&self) -> Value {
        let ideas: Vec<Value> = self.programs().map(|p| self.evoidea_idea(p)).collect();
        let best = self.best.map(|slot| self.population.get(slot));
        json!({
            "run_id": "",
            "iteration": self.rounds,
            "ideas": ideas,
            "best_score": best.map(|record| round_score(record.fitness)),
            "best_idea_id": best.map(|record| record.program.id.to_string()),
            "stagnation_counter": self.idea_stagnation(),
        })
    }

    /// One idea as evoidea's `state.json` lists it. `active`: a live accepted idea; `pruned`: a
    /// rejected one (ideas evicted by pruning are no longer in the run).
    fn evoidea_idea(&self, program: &Program) -> Value {
        let mut idea = Map::new();
        idea.insert("id".into(), json!(&*program.id));
        match Idea::from_json(&program.target_code) {
            Ok(parsed) => {
                idea.insert("title".into(), json!(parsed.title));
                idea.insert("summary".into(), json!(parsed.summary));
                idea.insert("facets".into(), json!(parsed.facets));
            }
            Err(_) => {
                idea.insert("title".into(), json!(&*program.code_path));
                idea.insert("summary".into(), json!(&*program.target_code));
                idea.insert("facets".into(), json!({}));
            }
        }
        let scores: Map<String, Value> = IDEA_CRITERIA
            .iter()
            .filter_map(|c| program.metrics.get(c).map(|score| (c.to_string(), json!(score))))
            .collect();
        idea.insert("scores".into(), Value::Object(scores));
        let fitness = self.population.slot_of(&program.id).map(|slot| self.population.get(slot).fitness);
        idea.insert("overall_score".into(), json!(fitness.map(round_score)));
        let status = if program.status == Status::Accepted { "active" } else { "pruned" };
        idea.insert("status".into(), json!(status));
        let origin = program.origin.unwrap_or(crate::api::IdeaOrigin::implied_by(program.all_parents().len()));
        idea.insert("origin".into(), json!(origin.name()));
        idea.insert("parents".into(), json!(program.all_parents()));
        if !program.changes.is_empty() {
            idea.insert("changes".into(), json!(program.changes.split("; ").collect::<Vec<_>>()));
        }
        Value::Object(idea)
    }

    fn evoidea_config(&self) -> Value {
        let stopping = &self.config.stopping;
        json!({
            "rounds": stopping.max_rounds,
            "population": self.config.ideas.population,
            "elite": self.config.ideas.elite,
            "threshold": stopping.score_threshold,
            "patience": stopping.patience,
            "profile": Profile::of_config(&self.config).map(|p| p.weights),
        })
    }
}
