//! `evodb show <run>`: a run summarised for a person (evoidea's `show`): for an idea run the best
//! idea with its eight scores, the best-score trajectory and what stopped it (or why not yet);
//! for a programs run its best, rounds and verdict. A run that does not exist is an error.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::{ExportFormat, IDEA_CRITERIA};
use evodb_host::Access;
use serde_json::Value;

use crate::context::Context;
use crate::failure::Failure;
use crate::idea_runs::{evoidea_files, missing_run, run_id};
use crate::matches::required;
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { db: required(m, "dbPath") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let mut session = ctx.engine()?.open(&self.db, Access::Read)?;
        if !session.holds_database() {
            return Err(missing_run(&self.db));
        }
        let export = session.export(ExportFormat::Evoidea)?;
        let verdict = session.should_stop(None)?;
        let id = run_id(&self.db);
        let text = match evoidea_files(&export, &id) {
            Ok(files) => idea_summary(&files["final"]),
            Err(_) => {
                let stats = session.stats()?;
                let mut text = format!("run {id} (programs)\n");
                let best = stats.best_program_id.as_deref().unwrap_or("none yet");
                let fitness = stats.best_fitness.map_or("-".to_string(), |f| f.to_string());
                let _ = writeln!(text, "best: {best} (fitness {fitness})");
                let _ = writeln!(
                    text,
                    "programs: {}, evaluations: {}, rounds: {}",
                    stats.program_count, stats.evaluations, stats.rounds
                );
                let _ = writeln!(text, "{}", stop_line(verdict.reason.as_deref()));
                text
            }
        };
        Ok(Reply::from(text.trim_end().to_string()))
    }
}

fn stop_line(reason: Option<&str>) -> String {
    match reason {
        Some(reason) => format!("stopped: {reason}"),
        None => "not stopped: no stopping rule holds yet".to_string(),
    }
}

/// An idea run's `final.json` as text.
fn idea_summary(run: &Value) -> String {
    let mut text = String::new();
    let ideas = run["ideas"].as_array().map_or(0, Vec::len);
    let _ = writeln!(text, "run {} (ideas): round {}, {ideas} ideas", str_of(&run["run_id"]), run["iteration"]);
    match run["best_idea"].as_object() {
        None => text.push_str("best: none yet\n"),
        Some(best) => {
            let _ =
                writeln!(text, "best: {} — {} ({})", str_of(&best["title"]), run["best_score"], str_of(&best["id"]));
            let _ = writeln!(text, "  {}", str_of(&best["summary"]));
            if let Some(facets) = best["facets"].as_object() {
                for (facet, value) in facets.iter().filter(|(_, v)| v.as_str().is_some_and(|s| !s.is_empty())) {
                    let _ = writeln!(text, "  {facet}: {}", str_of(value));
                }
            }
            let scores: Vec<String> = IDEA_CRITERIA.iter().map(|c| format!("{c} {}", best["scores"][*c])).collect();
            let _ = writeln!(text, "  scores: {}", scores.join(", "));
            let _ = writeln!(text, "  origin: {}, parents: {}", str_of(&best["origin"]), best["parents"]);
        }
    }
    let trajectory: Vec<String> = run["best_score_trajectory"]
        .as_array()
        .map(|scores| scores.iter().map(Value::to_string).collect())
        .unwrap_or_default();
    let _ = writeln!(
        text,
        "best score by round: {}",
        if trajectory.is_empty() { "-".into() } else { trajectory.join(" → ") }
    );
    let _ = writeln!(text, "stagnation: {} round(s)", run["stagnation_counter"]);
    let _ = writeln!(text, "{}", stop_line(run["stop_reason"].as_str()));
    text
}

fn str_of(value: &Value) -> String {
    value.as_str().map_or_else(|| value.to_string(), str::to_string)
}
