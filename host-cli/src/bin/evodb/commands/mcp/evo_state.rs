//! What evo-anything's tools keep beside the engine's own state: the repository, the benchmark,
//! each target's file and function, frozen and boosted targets, and the current generation's
//! batch. It is kept in the run as a note (kind `idea`, read back as the newest note starting
//! with [`PREFIX`]; the run's config shows no notes to samples, so it never reaches a prompt),
//! written when it changes: a restarted server, or another one on the same run, reads it back.
//! Until `evo_register_targets` creates the run, the setup lives in the server (`Run::setup`).

use std::collections::BTreeMap;
use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::Run;
use super::tools::Line;
use crate::failure::Failure;

const PREFIX: &str = "evo-anything session: ";
/// Each target's islands (the engine gives every target the same number).
const ISLANDS_PER_TARGET: u32 = 2;
/// The branch evo-anything tags the baseline with; the seed programs stand for it.
pub const SEED_BRANCH: &str = "seed-baseline";

#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    Min,
    Max,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct SeedReport {
    pub fitness: f64,
    pub commit: String,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct TargetInfo {
    pub id: String,
    pub file: String,
    #[serde(default)]
    pub function: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub weight: u32,
    /// Where it is in the file, as MapAgent said (e.g. "40-72").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Value>,
}

/// One worker's item: evo-anything's fields, and the engine's parent ids behind them.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct BatchItem {
    /// The engine's plan item name, used as the git branch.
    pub branch: String,
    pub operation: String,
    pub target_id: String,
    pub parent_branches: Vec<String>,
    pub parent_ids: Vec<String>,
    pub target_file: String,
    pub target_function: String,
}

impl BatchItem {
    /// The item as evo-anything's `dispatch_workers` lists it.
    pub fn public(&self) -> Value {
        json!({"branch": self.branch, "operation": self.operation, "target_id": self.target_id,
            "parent_branches": self.parent_branches, "target_file": self.target_file,
            "target_function": self.target_function})
    }
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Session {
    pub repo_path: String,
    pub benchmark_cmd: String,
    #[serde(default)]
    pub quick_cmd: Option<String>,
    pub objective: Objective,
    pub max_fe: u64,
    pub batch_size: u32,
    pub protected_patterns: Vec<String>,
    pub synergy_interval: u64,
    #[serde(default)]
    pub seed: Option<SeedReport>,
    #[serde(default)]
    pub targets: Vec<TargetInfo>,
    #[serde(default)]
    pub frozen: Vec<String>,
    #[serde(default)]
    pub boosted: Vec<String>,
    #[serde(default)]
    pub generation: Option<u64>,
    #[serde(default)]
    pub batch: Vec<BatchItem>,
    /// The current generation's synergy item (the engine's), until recorded.
    #[serde(default)]
    pub synergy: Option<Value>,
}

/// `repo_path` made absolute, and a git repository's top level.
pub fn repository(path: &str) -> Result<String, Failure> {
    let absolute =
        std::path::absolute(Path::new(path)).map_err(|e| Failure::Usage(format!("repo_path `{path}`: {e}")))?;
    let top = evodb_trial::git::repository_of(&absolute).ok_or_else(|| {
        Failure::Usage(format!("repo_path `{path}` is not in a git repository; pass the repository to evolve"))
    })?;
    top.to_str().map(str::to_string).ok_or_else(|| Failure::Usage("repo_path is not valid UTF-8".into()))
}

impl Session {
    /// The run's session: the newest session note; `None` in a run evo_register_targets did not make.
    pub fn load(run: &Run) -> Result<Option<Session>, Failure> {
        let (notes, _) = run.json("notes", &Line::default().flag("kind", Some("idea")).0)?;
        let newest = notes["notes"]
            .as_array()
            .into_iter()
            .flatten()
            .find_map(|note| note["text"].as_str()?.strip_prefix(PREFIX));
        newest
            .map(|text| {
                serde_json::from_str(text)
                    .map_err(|e| Failure::BadInput(format!("the run's evo-anything session note is damaged: {e}")))
            })
            .transpose()
    }

    pub fn save(&self, run: &Run) -> Result<(), Failure> {
        let text = format!("{PREFIX}{}", serde_json::to_string(self).map_err(|e| Failure::Internal(e.to_string()))?);
        run.command("note", &Line::default().flag("kind", Some("idea")).flag("text", Some(text)).0)?;
        Ok(())
    }

    pub fn has_targets(&self) -> bool {
        self.targets.len() > 1
    }

    /// The engine's config for this evolution.
    pub fn engine_config(&self) -> Value {
        let files: std::collections::BTreeSet<&str> = self.targets.iter().map(|t| t.file.as_str()).collect();
        let targets: Vec<Value> = self
            .targets
            .iter()
            .map(|t| {
                let place = if t.function.is_empty() { t.file.clone() } else { format!("{}:{}", t.file, t.function) };
                let description =
                    if t.description.is_empty() { place } else { format!("{place} — {}", t.description) };
                let description: String = description.chars().take(1000).collect();
                json!({"id": t.id, "description": description, "weight": t.weight.max(1)})
            })
            .collect();
        let mut config = json!({
            "numIslands": ISLANDS_PER_TARGET * self.targets.len().max(1) as u32,
            "targets": targets,
            // The engine's code cache is keyed by the code alone: two targets in one file would
            // share their seed's entry, so it is on only when every target has its own file.
            "dedupe": files.len() == self.targets.len(),
            "stopping": {"maxEvaluations": self.max_fe},
            "notes": {"perSample": 0, "maxBytes": 2000},
        });
        if self.objective == Objective::Min {
            config["directions"] = json!({"fitness": "min"});
        }
        if self.has_targets() {
            config["synergyEvery"] = json!(self.synergy_interval);
        }
        config
    }

    /// `git -C <repo> <args>`.
    pub fn git(&self, args: &[&str]) -> Result<String, Failure> {
        evodb_trial::git::git(Path::new(&self.repo_path), args).map_err(Failure::BadInput)
    }

    /// A commit hash, a branch or a tag, resolved to its commit; refused when it could be read as an option.
    pub fn resolve(&self, rev: &str) -> Result<String, Failure> {
        if evodb_core::commit_problem(rev).is_some()
            && let Some(why) = evodb_core::branch_problem(rev)
        {
            return Err(Failure::Usage(format!("`{rev}` is neither a commit hash nor a branch: it {why}")));
        }
        let out = self.git(&["rev-parse", "--verify", "--quiet", "--end-of-options", &format!("{rev}^{{commit}}")]);
        match out {
            Ok(commit) if !commit.trim().is_empty() => Ok(commit.trim().to_string()),
            _ => Err(Failure::NotFound(format!(
                "no commit `{rev}` in {}; commit the candidate on its branch first",
                self.repo_path
            ))),
        }
    }

    /// A target's file: relative, inside the repository, present in the baseline commit.
    pub fn check_file(&self, field: &str, file: &str, commit: &str) -> Result<(), Failure> {
        let path = Path::new(file);
        if file.is_empty()
            || path.is_absolute()
            || path.components().any(|c| matches!(c, std::path::Component::ParentDir))
        {
            return Err(Failure::Usage(format!("{field} `{file}` must be a path relative to the repository")));
        }
        self.git(&["cat-file", "-e", "--end-of-options", &format!("{commit}:{file}")])
            .map(|_| ())
            .map_err(|_| Failure::NotFound(format!("{field}: `{file}` is not in the baseline commit {commit}")))
    }

    /// Runs `f` in the repository (git mode reads the candidate from the current directory's
    /// repository); the run's location is absolute, so the change does not move it.
    pub fn in_repository<T>(&self, f: impl FnOnce() -> Result<T, Failure>) -> Result<T, Failure> {
        let before = std::env::current_dir().map_err(|e| Failure::Io(e.to_string()))?;
        std::env::set_current_dir(&self.repo_path)
            .map_err(|e| Failure::Io(format!("cannot enter the repository {}: {e}", self.repo_path)))?;
        let result = f();
        let _ = std::env::set_current_dir(before);
        result
    }

    pub fn target(&self, id: &str) -> Result<&TargetInfo, Failure> {
        self.targets.iter().find(|t| t.id == id).ok_or_else(|| {
            let ids: Vec<&str> = self.targets.iter().map(|t| t.id.as_str()).collect();
            Failure::Usage(format!("no target `{id}`; the targets are {}", ids.join(", ")))
        })
    }

    /// The islands of these targets (the engine's `--frozen`/`--boosted`).
    pub fn islands_of(&self, ids: &[String]) -> Vec<u32> {
        let per =
            if self.has_targets() { ISLANDS_PER_TARGET } else { ISLANDS_PER_TARGET * self.targets.len().max(1) as u32 };
        let mut islands = Vec::new();
        for (t, target) in self.targets.iter().enumerate() {
            if ids.contains(&target.id) {
                let first = if self.has_targets() { t as u32 * per } else { 0 };
                islands.extend(first..first + per);
            }
        }
        islands
    }

    /// The batch item on `branch`.
    pub fn item(&self, branch: &str) -> Result<&BatchItem, Failure> {
        self.batch.iter().find(|i| i.branch == branch).ok_or_else(|| {
            let names: Vec<&str> = self.batch.iter().map(|i| i.branch.as_str()).collect();
            Failure::Usage(format!(
                "`{branch}` is no branch of generation {}'s batch; the batch is {}",
                self.generation.map_or_else(|| "none".into(), |g| g.to_string()),
                if names.is_empty() { "empty".into() } else { names.join(", ") }
            ))
        })
    }

    /// The batch's branches the engine still waits for (its pending plan items).
    pub fn waiting(&self, state: &Value) -> Vec<String> {
        let pending: Vec<&str> =
            state["evodb"]["pending"].as_array().into_iter().flatten().filter_map(|p| p["name"].as_str()).collect();
        self.batch.iter().filter(|i| pending.contains(&i.branch.as_str())).map(|i| i.branch.clone()).collect()
    }

    /// A plan item as a worker's item.
    pub fn batch_item(&self, item: &Value, state: &Value) -> Result<BatchItem, Failure> {
        let branch = item["name"].as_str().unwrap_or_default().to_string();
        let target_id = item["target"].as_str().map_or_else(|| self.targets[0].id.clone(), str::to_string);
        let target = self.target(&target_id)?.clone();
        let operation = if item["operator"] == "crossover" { "crossover" } else { "mutate" };
        let mut parent_ids: Vec<String> =
            item["parentIds"].as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect();
        if parent_ids.is_empty()
            && let Some(seed) = self.seed_program(state, &target_id)
        {
            parent_ids.push(seed);
        }
        let parent_branches = parent_ids.iter().map(|id| self.branch_of(state, id)).collect();
        Ok(BatchItem {
            branch,
            operation: operation.into(),
            target_id,
            parent_branches,
            parent_ids,
            target_file: target.file,
            target_function: target.function,
        })
    }

    /// The seed program of a target (the baseline).
    fn seed_program(&self, state: &Value, target_id: &str) -> Option<String> {
        let programs = state["programs"].as_object()?;
        programs
            .values()
            .find(|p| p["parentId"] == evodb_core::ROOT_PARENT_ID && (!self.has_targets() || p["target"] == target_id))
            .and_then(|p| p["id"].as_str().map(str::to_string))
    }

    /// A program's branch: its own, or `seed-baseline` for a baseline (or its id, if unknown).
    pub fn branch_of(&self, state: &Value, id: &str) -> String {
        let program = &state["programs"][id];
        match program["branch"].as_str() {
            Some(branch) => branch.to_string(),
            None if program["parentId"] == evodb_core::ROOT_PARENT_ID => SEED_BRANCH.into(),
            None => id.to_string(),
        }
    }

    /// The live programs by branch.
    pub fn live_branches(&self, state: &Value) -> BTreeMap<String, String> {
        state["programs"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(id, p)| Some((p["branch"].as_str()?.to_string(), id.clone())))
            .collect()
    }

    /// The live program on `branch` (`seed-baseline`: the first target's baseline).
    pub fn program_of_branch(&self, state: &Value, branch: &str) -> Option<String> {
        if branch == SEED_BRANCH {
            return self.seed_program(state, &self.targets.first()?.id);
        }
        self.live_branches(state).remove(branch)
    }

    /// The best program's branch and fitness (`null`s in an empty run).
    pub fn best(&self, state: &Value) -> (Value, Value) {
        let id = state["bestProgramId"].as_str().unwrap_or_default();
        if id.is_empty() {
            return (Value::Null, Value::Null);
        }
        (Value::from(self.branch_of(state, id)), state["programs"][id]["metrics"]["fitness"].clone())
    }

    /// The evolution's progress, as evo_get_status (and a resumed evo_init) answers it.
    pub fn status(&self, run: &Run) -> Result<Value, Failure> {
        let state = run.export()?;
        let (verdict, _) = run.json("should-stop", &[])?;
        let (best_branch, best_obj) = self.best(&state);
        Ok(json!({
            "generation": self.generation,
            "total_evals": verdict["evaluations"],
            "max_fe": self.max_fe,
            "objective": self.objective,
            "best_branch": best_branch,
            "best_obj": best_obj,
            "targets": self.targets,
            "frozen": self.frozen,
            "boosted": self.boosted,
            "waiting": self.waiting(&state),
            "stop": verdict["stop"],
            "reason": verdict["reason"],
        }))
    }
}
