//! `evo_step`: evo-anything's state machine. Each call names the phase the caller finished and
//! answers the next `action`: a generation's batch planned by the engine, a diff for the policy
//! check, the candidate added with its fitness, the survivors, and `done` when should-stop says so.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::evo_state::{BatchItem, Session};
use super::tools::{Line, Tool};
use super::{Answer, Run, answer, usage};
use crate::failure::Failure;

/// The phases of evo_step, evo-anything's names.
#[derive(Deserialize, serde::Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    BeginGeneration,
    CodeReady,
    PolicyPass,
    PolicyFail,
    FitnessReady,
    Select,
    ReflectDone,
}

/// Advance the evolution; each answer names the next `action`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvoStep {
    /// What just happened: the step of the loop the caller finished.
    pub phase: Phase,
    /// The item's branch (code_ready, policy_pass, policy_fail, fitness_ready).
    #[serde(default)]
    pub branch: Option<String>,
    /// code_ready: the commit the branch started from (`git rev-parse <parent_branches[0]>`).
    #[serde(default)]
    pub parent_commit: Option<String>,
    /// fitness_ready: the benchmark's fitness.
    #[serde(default)]
    pub fitness: Option<f64>,
    /// fitness_ready: whether the benchmark ran (false: the candidate crashed).
    #[serde(default)]
    pub success: Option<bool>,
    /// fitness_ready: the item's operation (mutate or crossover).
    #[serde(default)]
    pub operation: Option<String>,
    /// fitness_ready: the item's target.
    #[serde(default)]
    pub target_id: Option<String>,
    /// fitness_ready: the item's parent branches.
    #[serde(default)]
    pub parent_branches: Option<Vec<String>>,
    /// fitness_ready: evodb hashes the committed code itself; accepted for evo-anything's prompts.
    #[serde(default)]
    pub code_hash: Option<String>,
    /// fitness_ready with success false: the benchmark's output, kept as the failure's reason.
    #[serde(default)]
    pub raw_output: Option<String>,
    /// policy_fail: why the PolicyAgent rejected the diff.
    #[serde(default)]
    pub reason: Option<String>,
}

impl Tool for EvoStep {
    const NAME: &'static str = "evo_step";
    const DESCRIPTION: &'static str = "Advance evo-anything's evolution state machine: begin_generation → \
        dispatch_workers; code_ready → check_policy; policy_pass → run_benchmark; policy_fail / fitness_ready → \
        worker_done; select → reflect; reflect_done → dispatch_workers or done.";
    const READ_ONLY: bool = false;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        let mut session = Session::load(run)?.ok_or_else(|| {
            usage("no evolution in this run: call evo_init, evo_report_seed and evo_register_targets first")
        })?;
        let need = |value: Option<String>, name: &str| {
            value
                .filter(|v| !v.is_empty())
                .ok_or_else(|| usage(format!("argument `{name}` is required for phase '{}'", phase_name(self.phase))))
        };
        match self.phase {
            Phase::BeginGeneration => begin_generation(run, &mut session, false),
            Phase::ReflectDone => begin_generation(run, &mut session, true),
            Phase::CodeReady => {
                let branch = need(self.branch.clone(), "branch")?;
                code_ready(&session, &branch, self.parent_commit.as_deref())
            }
            Phase::PolicyPass => {
                let branch = need(self.branch.clone(), "branch")?;
                let item = session.item(&branch)?;
                answer(json!({"action": "run_benchmark", "branch": branch, "target_id": item.target_id,
                    "operation": item.operation, "parent_branches": item.parent_branches}))
            }
            Phase::PolicyFail => {
                let branch = need(self.branch.clone(), "branch")?;
                let reason = need(self.reason.clone(), "reason")?;
                policy_fail(run, &session, &branch, &reason)
            }
            Phase::FitnessReady => {
                let branch = need(self.branch.clone(), "branch")?;
                let fitness =
                    self.fitness.ok_or_else(|| usage("argument `fitness` is required for phase 'fitness_ready'"))?;
                let success =
                    self.success.ok_or_else(|| usage("argument `success` is required for phase 'fitness_ready'"))?;
                self.check_item(session.item(&branch)?)?;
                fitness_ready(run, &session, &branch, fitness, success, self.raw_output.as_deref())
            }
            Phase::Select => select(run, &session),
        }
    }
}

impl EvoStep {
    /// fitness_ready repeats the item's operation, target and parents: they must be the item's.
    fn check_item(&self, item: &BatchItem) -> Result<(), Failure> {
        let given = [
            ("operation", self.operation.as_ref().map(|o| json!(o)), json!(item.operation)),
            ("target_id", self.target_id.as_ref().map(|t| json!(t)), json!(item.target_id)),
            ("parent_branches", self.parent_branches.as_ref().map(|p| json!(p)), json!(item.parent_branches)),
        ];
        for (name, value, expected) in given {
            if let Some(value) = value.filter(|v| *v != expected) {
                return Err(usage(format!(
                    "argument `{name}` is {value} but branch `{}`'s item has {expected}; pass the item's (or leave it out)",
                    item.branch
                )));
            }
        }
        if let Some(hash) = self.code_hash.as_deref()
            && (hash.is_empty() || hash.len() > 128)
        {
            return Err(usage(
                "argument `code_hash` must be 1 to 128 characters (evodb hashes the commit's code itself)",
            ));
        }
        Ok(())
    }
}

fn phase_name(phase: Phase) -> String {
    serde_json::to_value(phase).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// `begin_generation` (and `reflect_done`, which starts the next one): the batch still waiting,
/// or `done` when should-stop says so, or a new plan of `batch_size` items (fewer when the budget
/// has fewer evaluations left).
fn begin_generation(run: &Run, session: &mut Session, after_reflection: bool) -> Result<Answer, Failure> {
    let state = run.export()?;
    let waiting = session.waiting(&state);
    if !waiting.is_empty() {
        if after_reflection {
            return Err(usage(format!(
                "generation {} still waits for {} (report each with fitness_ready or policy_fail, then select)",
                session.generation.unwrap_or(0),
                waiting.join(", ")
            )));
        }
        return answer(dispatch(
            session,
            &session.batch.iter().filter(|i| waiting.contains(&i.branch)).cloned().collect::<Vec<_>>(),
        ));
    }
    let (verdict, _) = run.json("should-stop", &[])?;
    let evaluations = verdict["evaluations"].as_u64().unwrap_or(0);
    if verdict["stop"] == Value::Bool(true) {
        return answer(done(session, &state, verdict["reason"].as_str().unwrap_or("stopped"), evaluations));
    }
    let remaining = session.max_fe.saturating_sub(evaluations);
    let n = u32::try_from(remaining).unwrap_or(u32::MAX).min(session.batch_size);
    if n == 0 {
        return answer(done(session, &state, "budget exhausted", evaluations));
    }
    let frozen = session.islands_of(&session.frozen);
    let boosted = session.islands_of(&session.boosted);
    let mut line = Line::default().list("frozen", &frozen).list("boosted", &boosted);
    line.0.insert(0, n.to_string());
    let (plan, _) = run.json("plan", &line.0)?;
    let generation = plan["generation"].as_u64().unwrap_or(0);
    let mut batch = Vec::new();
    for item in plan["items"].as_array().into_iter().flatten() {
        batch.push(session.batch_item(item, &state)?);
    }
    session.generation = Some(generation);
    session.batch = batch;
    session.synergy = plan.get("synergy").cloned().filter(|s| !s.is_null());
    session.save(run)?;
    let mut answer_value = dispatch(session, &session.batch);
    if let Some(synergy) = &session.synergy {
        answer_value["synergy"] = synergy_item(session, synergy, &state);
    }
    answer(answer_value)
}

fn dispatch(session: &Session, items: &[BatchItem]) -> Value {
    json!({
        "action": "dispatch_workers",
        "generation": session.generation.unwrap_or(0),
        "batch_size": items.len(),
        "items": items.iter().map(BatchItem::public).collect::<Vec<_>>(),
    })
}

/// A synergy item as the ReflectAgent needs it: each target's best branch, to cherry-pick.
fn synergy_item(session: &Session, synergy: &Value, state: &Value) -> Value {
    let parts: Vec<Value> = synergy["parts"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let id = p["programId"].as_str().unwrap_or_default();
            json!({"target_id": p["target"], "branch": session.branch_of(state, id)})
        })
        .collect();
    json!({"name": synergy["name"], "parts": parts})
}

fn done(session: &Session, state: &Value, reason: &str, evaluations: u64) -> Value {
    let (best_branch, best_obj) = session.best(state);
    json!({"action": "done", "reason": reason, "total_evals": evaluations, "best_branch": best_branch, "best_obj": best_obj})
}

/// `code_ready`: the branch's changes against its parent commit, for the PolicyAgent.
fn code_ready(session: &Session, branch: &str, parent_commit: Option<&str>) -> Result<Answer, Failure> {
    let item = session.item(branch)?;
    let parent =
        match parent_commit.filter(|p| !p.is_empty()) {
            Some(commit) => commit.to_string(),
            None => item.parent_branches.first().cloned().ok_or_else(|| {
                usage("Cannot determine parent commit for policy check. Pass parent_commit= explicitly.")
            })?,
        };
    let base = session.resolve(&parent)?;
    let head = session.resolve(branch)?;
    let names = session.git(&["diff", "--name-only", "--no-renames", "--end-of-options", &base, &head, "--"])?;
    let changed: Vec<&str> = names.lines().filter(|l| !l.is_empty()).collect();
    let diff = session.git(&["diff", "--no-renames", "--end-of-options", &base, &head, "--"])?;
    let cut: String = diff.chars().take(8000).collect();
    answer(json!({
        "action": "check_policy",
        "branch": branch,
        "parent_commit": parent,
        "target_id": item.target_id,
        "target_file": item.target_file,
        "operation": item.operation,
        "parent_branches": item.parent_branches,
        "changed_files": changed,
        "diff": cut,
        "protected_patterns": session.protected_patterns,
    }))
}

/// The `add` of a batch item's candidate in git mode: its code read from the branch's commit,
/// its diff policy-checked against the parent's commit by the engine's rule.
fn item_add(session: &Session, item: &BatchItem, metrics: Value, changes: &str) -> Line {
    Line::default()
        .flag("branch", Some(&item.branch))
        .flag("target", Some(&item.target_file))
        .flag("protected", Some(session.protected_patterns.join(",")))
        .flag("planItem", Some(&item.branch))
        .flag("parentId", Some(item.parent_ids.first().map_or(evodb_core::ROOT_PARENT_ID, String::as_str)))
        .flag("metrics", Some(metrics))
        .flag("changes", Some(changes))
}

/// `policy_fail`: recorded as an error with the reason; never benchmarked, never a parent.
fn policy_fail(run: &Run, session: &Session, branch: &str, reason: &str) -> Result<Answer, Failure> {
    let item = session.item(branch)?;
    let line = item_add(session, item, json!({}), &format!("{} of {}", item.operation, item.target_id))
        .flag("status", Some("error"))
        .flag("reason", Some(format!("policy_violation: {reason}")));
    session.in_repository(|| run.json("add", &line.0))?;
    answer(json!({"action": "worker_done", "branch": branch, "rejected": true, "reason": reason}))
}

/// `fitness_ready`: the candidate added with its fitness (an error when it crashed); a cache hit
/// answers the cached fitness and still spends an evaluation, as the engine's `dedupe` does.
fn fitness_ready(
    run: &Run,
    session: &Session,
    branch: &str,
    fitness: f64,
    success: bool,
    raw_output: Option<&str>,
) -> Result<Answer, Failure> {
    let item = session.item(branch)?;
    if !fitness.is_finite() && success {
        return Err(usage("fitness must be a finite number (pass success=false for a crashed candidate)"));
    }
    let metrics = if fitness.is_finite() { json!({"fitness": fitness}) } else { json!({}) };
    let mut line = item_add(session, item, metrics, &format!("{} of {}", item.operation, item.target_id));
    if !success {
        let why: String = raw_output.unwrap_or("the benchmark failed").chars().take(2000).collect();
        line = line.flag("status", Some("error")).flag("reason", Some(why));
    }
    let (outcome, warnings) = session.in_repository(|| run.json("add", &line.0))?;
    let (verdict, _) = run.json("should-stop", &[])?;
    let total = verdict["evaluations"].as_u64().unwrap_or(0);
    if outcome["cached"] == Value::Bool(true) {
        let cached = outcome["metrics"]["fitness"].clone();
        return answer(json!({"action": "worker_done", "branch": branch, "cached": true, "fitness": cached,
            "total_evals": total}));
    }
    let is_new_best = success && outcome["id"].is_string() && outcome["id"] == outcome["bestProgramId"];
    let mut value = json!({"action": "worker_done", "branch": branch, "fitness": fitness, "success": success,
        "is_new_best": is_new_best, "total_evals": total});
    // The engine's own policy check (git mode) refused the commit: say so, as policy_fail would.
    if let Some(policy) = warnings.iter().find_map(|w| w.strip_prefix("policy: ")) {
        let reason = policy.split(" in commit ").next().unwrap_or(policy);
        value["success"] = Value::Bool(false);
        value["is_new_best"] = Value::Bool(false);
        value["rejected"] = Value::Bool(true);
        value["reason"] = Value::from(reason);
    }
    answer(value)
}

/// `select`: after every item reported — the generation's survivors (live in the population) and
/// the rest, with the best so far.
fn select(run: &Run, session: &Session) -> Result<Answer, Failure> {
    let state = run.export()?;
    let waiting = session.waiting(&state);
    if !waiting.is_empty() {
        return Err(usage(format!("select needs every worker's report; still waiting for {}", waiting.join(", "))));
    }
    if session.batch.is_empty() {
        return Err(usage("no generation to select from: call evo_step(\"begin_generation\") first"));
    }
    let live = session.live_branches(&state);
    let (keep, eliminate): (Vec<&BatchItem>, Vec<&BatchItem>) =
        session.batch.iter().partition(|item| live.contains_key(item.branch.as_str()));
    let (best_branch, best_obj) = session.best(&state);
    answer(json!({
        "action": "reflect",
        "generation": session.generation.unwrap_or(0),
        "keep": keep.iter().map(|i| &i.branch).collect::<Vec<_>>(),
        "eliminate": eliminate.iter().map(|i| &i.branch).collect::<Vec<_>>(),
        "best_branch": best_branch,
        "best_obj": best_obj,
    }))
}
