//! evo-anything's `evo_*` tools, by its names and argument names, on evodb's engine: its
//! PlanAgent is `plan` (one batch per generation, frozen and boosted targets as frozen and
//! boosted islands), its policy check git mode's (`add --branch --target --protected`), its
//! fitness cache the engine's `dedupe`, its budget and stopping `should-stop`, its synergy check
//! the plan's synergy item. What the engine does not keep — where the repository is, each
//! target's file and function, the current generation's batch — is the *session*, kept in the run
//! as a note (`session.rs`), so a restarted server resumes mid-generation. No rule is decided
//! here: each phase reads the engine's answer and words it as evo-anything does.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::evo_state::{BatchItem, Objective, Session, TargetInfo};
use super::tools::{Entry, Line, Tool, entry};
use super::{Answer, Run};
use crate::failure::Failure;

pub fn table() -> Vec<Entry> {
    vec![
        entry::<EvoInit>(),
        entry::<EvoReportSeed>(),
        entry::<EvoRegisterTargets>(),
        entry::<EvoStep>(),
        entry::<EvoGetStatus>(),
        entry::<EvoGetLineage>(),
        entry::<EvoFreezeTarget>(),
        entry::<EvoBoostTarget>(),
        entry::<EvoCheckCache>(),
        entry::<EvoRecordSynergy>(),
    ]
}

fn answer(value: Value) -> Result<Answer, Failure> {
    Ok(Answer::of(&value, Vec::new()))
}

fn usage(message: impl Into<String>) -> Failure {
    Failure::Usage(message.into())
}

// --- setup: evo_init, evo_report_seed, evo_register_targets ------------------------------------------

/// Start an evolution: the repository, the benchmark, the objective and the budget. The run itself
/// is created by evo_register_targets, once the targets are known.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvoInit {
    /// The git repository whose code evolves (absolute, or relative to the server's directory).
    pub repo_path: String,
    /// The command that benchmarks a candidate; its last line of output is the fitness.
    pub benchmark_cmd: String,
    /// Whether a lower (`min`) or higher (`max`) fitness is better.
    pub objective: Objective,
    /// The evaluation budget (max function evaluations); a cache hit spends one too.
    #[serde(default = "default_max_fe")]
    pub max_fe: u64,
    /// Candidates per generation (workers in parallel).
    #[serde(default = "default_batch_size")]
    pub batch_size: u32,
    /// Files a candidate must not touch (default: benchmark*.py, eval*.py, *.sh).
    #[serde(default)]
    pub protected_patterns: Option<Vec<String>>,
    /// With several targets: a synergy check every this many generations.
    #[serde(default = "default_synergy_interval")]
    pub synergy_interval: u64,
    /// A quicker command run first to filter failures (kept for the agents; evodb runs no command).
    #[serde(default)]
    pub quick_cmd: Option<String>,
}

fn default_max_fe() -> u64 {
    100
}
fn default_batch_size() -> u32 {
    8
}
fn default_synergy_interval() -> u64 {
    3
}

impl Tool for EvoInit {
    const NAME: &'static str = "evo_init";
    const DESCRIPTION: &'static str = "Initialize an evolution: repo_path, benchmark_cmd, objective (min|max), max_fe \
        budget, batch_size. Called once; called again on a run it started, it answers the run's status.";
    const READ_ONLY: bool = false;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        if let Some(session) = Session::load(run)? {
            return answer(json!({"status": "resumed", "state": status(run, &session)?}));
        }
        if database_exists(run)? {
            return Err(usage(
                "this run already holds programs that evo_init did not start; serve a new directory to evo_init, or use \
                 evodb's own tools (sample, add, plan) on this one",
            ));
        }
        let repo = super::evo_state::repository(&self.repo_path)?;
        if self.batch_size == 0 || self.max_fe == 0 {
            return Err(usage("batch_size and max_fe must be at least 1"));
        }
        let protected = self
            .protected_patterns
            .unwrap_or_else(|| evodb_core::DEFAULT_PROTECTED.iter().map(|p| (*p).to_string()).collect());
        if let Some(bad) = protected.iter().find(|p| p.is_empty() || p.contains(',')) {
            return Err(usage(format!(
                "protected_patterns: `{bad}` is empty or holds a comma; pass globs such as \"*.sh\""
            )));
        }
        let session = Session {
            repo_path: repo,
            benchmark_cmd: self.benchmark_cmd,
            quick_cmd: self.quick_cmd,
            objective: self.objective,
            max_fe: self.max_fe,
            batch_size: self.batch_size,
            protected_patterns: protected,
            synergy_interval: self.synergy_interval.max(1),
            seed: None,
            targets: Vec::new(),
            frozen: Vec::new(),
            boosted: Vec::new(),
            generation: None,
            batch: Vec::new(),
            synergy: None,
        };
        let summary = json!({"status": "initialized", "repo_path": session.repo_path, "objective": session.objective,
            "max_fe": session.max_fe, "batch_size": session.batch_size, "protected_patterns": session.protected_patterns,
            "next": "evo_report_seed with the baseline fitness, then evo_register_targets"});
        run.setup.replace(Some(session));
        answer(summary)
    }
}

fn database_exists(run: &Run) -> Result<bool, Failure> {
    let (info, _) = run.json("info", &[])?;
    Ok(info["isEmpty"] == Value::Bool(false))
}

/// The setup of evo_init, before the run exists.
fn setup(run: &Run) -> Result<Session, Failure> {
    run.setup.borrow().clone().ok_or_else(|| usage("no evolution here yet: call evo_init first"))
}

/// Report the baseline's fitness (the unmodified code, tagged `seed-baseline`).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvoReportSeed {
    /// The benchmark's fitness of the unmodified code.
    pub fitness: f64,
    /// The baseline commit (default: the repository's HEAD).
    #[serde(default)]
    pub commit: Option<String>,
}

impl Tool for EvoReportSeed {
    const NAME: &'static str = "evo_report_seed";
    const DESCRIPTION: &'static str = "Report the baseline fitness of the unmodified code (after evo_init).";
    const READ_ONLY: bool = false;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        if Session::load(run)?.is_some() {
            return Err(usage("the seed was reported when the targets were registered; the run is under way"));
        }
        let mut session = setup(run)?;
        if !self.fitness.is_finite() {
            return Err(usage("fitness must be a finite number"));
        }
        let commit = session.resolve(self.commit.as_deref().unwrap_or("HEAD"))?;
        session.seed = Some(super::evo_state::SeedReport { fitness: self.fitness, commit: commit.clone() });
        run.setup.replace(Some(session));
        answer(json!({"status": "seed_recorded", "fitness": self.fitness, "commit": commit,
            "next": "tag it seed-baseline, then evo_register_targets"}))
    }
}

/// One optimization target, as MapAgent finds it.
#[derive(Deserialize, JsonSchema, Clone)]
#[serde(deny_unknown_fields)]
pub struct TargetArg {
    /// A short id, e.g. "loss-fn".
    pub id: String,
    /// The file holding it, relative to the repository.
    pub file: String,
    /// The function to evolve.
    #[serde(default)]
    pub function: Option<String>,
    /// Where it is, e.g. "40-72".
    #[serde(default)]
    pub lines: Option<Value>,
    /// How much it matters: high, medium, low, or a weight 1–100 (plan items are shared by it).
    #[serde(default)]
    pub impact: Option<Value>,
    /// What it does.
    #[serde(default)]
    pub description: Option<String>,
}

/// Register the optimization targets MapAgent found; creates the run.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvoRegisterTargets {
    /// 1–5 targets is best.
    pub targets: Vec<TargetArg>,
}

impl Tool for EvoRegisterTargets {
    const NAME: &'static str = "evo_register_targets";
    const DESCRIPTION: &'static str = "Register the optimization targets (id, file, function, lines, impact, description); creates the run and \
         seeds every target with the baseline.";
    const READ_ONLY: bool = false;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        if Session::load(run)?.is_some() {
            return Err(usage("the targets are registered already; the run is under way (evo_get_status)"));
        }
        let mut session = setup(run)?;
        let seed = session.seed.clone().ok_or_else(|| usage("call evo_report_seed with the baseline fitness first"))?;
        if self.targets.is_empty() {
            return Err(usage("targets is empty; pass at least one {id, file, function}"));
        }
        let mut targets = Vec::new();
        for (i, t) in self.targets.iter().enumerate() {
            if let Some(why) = evodb_core::branch_problem(&t.id) {
                return Err(usage(format!("targets[{i}].id {why}")));
            }
            session.check_file(&format!("targets[{i}].file"), &t.file, &seed.commit)?;
            targets.push(TargetInfo {
                id: t.id.clone(),
                file: t.file.clone(),
                function: t.function.clone().unwrap_or_default(),
                description: t.description.clone().unwrap_or_default(),
                weight: weight_of(t.impact.as_ref()),
                lines: t.lines.clone(),
            });
        }
        session.targets = targets;
        let config = session.engine_config();
        // Checked before anything is created.
        evodb_core::Config::from_json(&config.to_string())?;
        run.init_with_config(&config)?;
        let mut seeds = Vec::new();
        for target in &session.targets {
            let line = Line::default()
                .flag("commit", Some(&seed.commit))
                .flag("target", Some(&target.file))
                .flag("parentId", Some(evodb_core::ROOT_PARENT_ID))
                .flag("metrics", Some(json!({"fitness": seed.fitness})))
                .flag("changes", Some("seed-baseline"))
                .flag("targetId", session.has_targets().then_some(&target.id));
            let (outcome, _) = session.in_repository(|| run.json("add", &line.0))?;
            seeds.push(json!({"target_id": target.id, "program_id": outcome["id"]}));
        }
        session.save(run)?;
        run.setup.replace(None);
        answer(json!({"status": "registered", "targets": session.targets, "seeds": seeds,
            "next": "evo_step(\"begin_generation\")"}))
    }
}

/// evo-anything's impact as a plan weight: `high` 3, `medium` 2, `low` 1, or the number given.
fn weight_of(impact: Option<&Value>) -> u32 {
    match impact {
        Some(Value::Number(n)) => n.as_f64().map_or(1, |w| w.round().clamp(1.0, 100.0) as u32),
        Some(Value::String(s)) => match s.to_ascii_lowercase().as_str() {
            "high" => 3,
            "medium" => 2,
            _ => 1,
        },
        _ => 1,
    }
}

// --- evo_step: the state machine -------------------------------------------------------------------

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

// --- the other tools --------------------------------------------------------------------------------

fn status(run: &Run, session: &Session) -> Result<Value, Failure> {
    let state = run.export()?;
    let (verdict, _) = run.json("should-stop", &[])?;
    let (best_branch, best_obj) = session.best(&state);
    Ok(json!({
        "generation": session.generation,
        "total_evals": verdict["evaluations"],
        "max_fe": session.max_fe,
        "objective": session.objective,
        "best_branch": best_branch,
        "best_obj": best_obj,
        "targets": session.targets,
        "frozen": session.frozen,
        "boosted": session.boosted,
        "waiting": session.waiting(&state),
        "stop": verdict["stop"],
        "reason": verdict["reason"],
    }))
}

/// The evolution's progress: generation, evaluations, best, targets.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvoGetStatus {}

impl Tool for EvoGetStatus {
    const NAME: &'static str = "evo_get_status";
    const DESCRIPTION: &'static str = "The evolution's progress: generation, total_evals, best branch and fitness, \
        targets, the items still waiting, and whether it should stop.";
    const READ_ONLY: bool = true;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        match Session::load(run)? {
            Some(session) => answer(status(run, &session)?),
            None => match run.setup.borrow().as_ref() {
                Some(s) => answer(json!({"status": "setting up", "seed_reported": s.seed.is_some(),
                    "next": if s.seed.is_some() { "evo_register_targets" } else { "evo_report_seed" }})),
                None => Err(usage("no evolution here yet: call evo_init first")),
            },
        }
    }
}

/// How a branch evolved.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvoGetLineage {
    /// A branch of the run (or seed-baseline).
    pub branch: String,
}

impl Tool for EvoGetLineage {
    const NAME: &'static str = "evo_get_lineage";
    const DESCRIPTION: &'static str =
        "How a branch evolved: its ancestors (parent first) and descendants, as branches.";
    const READ_ONLY: bool = true;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        let session = Session::load(run)?.ok_or_else(|| usage("no evolution in this run yet"))?;
        let state = run.export()?;
        let id = session.program_of_branch(&state, &self.branch).ok_or_else(|| {
            usage(format!(
                "no live program on branch `{}`; pass a branch of evo_get_status or a keep list",
                self.branch
            ))
        })?;
        let (lineage, _) = run.json("lineage", &Line::default().positional(&id).0)?;
        let branches = |key: &str| -> Vec<String> {
            lineage[key]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|p| session.branch_of(&state, p))
                .collect()
        };
        let fitness = state["programs"][&id]["metrics"]["fitness"].clone();
        answer(json!({"branch": self.branch, "program_id": id, "fitness": fitness,
            "ancestors": branches("ancestors"), "descendants": branches("descendants")}))
    }
}

fn change_targets(run: &Run, target_id: &str, freeze: bool) -> Result<Answer, Failure> {
    let mut session = Session::load(run)?.ok_or_else(|| usage("no evolution in this run yet"))?;
    session.target(target_id)?;
    let (list, other) =
        if freeze { (&mut session.frozen, &mut session.boosted) } else { (&mut session.boosted, &mut session.frozen) };
    other.retain(|t| t != target_id);
    if !list.iter().any(|t| t == target_id) {
        list.push(target_id.to_string());
    }
    if session.targets.iter().all(|t| session.frozen.contains(&t.id)) {
        return Err(usage("that would freeze every target; boost another one or leave one unfrozen"));
    }
    session.save(run)?;
    answer(json!({"target_id": target_id, "frozen": session.frozen.contains(&target_id.to_string()),
        "boosted": session.boosted.contains(&target_id.to_string())}))
}

macro_rules! target_tool {
    ($type:ident, $name:literal, $freeze:literal, $description:literal) => {
        #[derive(Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        #[doc = $description]
        pub struct $type {
            /// The target's id.
            pub target_id: String,
        }

        impl Tool for $type {
            const NAME: &'static str = $name;
            const DESCRIPTION: &'static str = $description;
            const READ_ONLY: bool = false;
            fn call(self, run: &Run) -> Result<Answer, Failure> {
                change_targets(run, &self.target_id, $freeze)
            }
        }
    };
}

target_tool!(
    EvoFreezeTarget,
    "evo_freeze_target",
    true,
    "Stop planning variants of a target (its islands get no items)."
);
target_tool!(EvoBoostTarget, "evo_boost_target", false, "Give a target twice its share of each generation's items.");

/// Whether this code was evaluated already.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvoCheckCache {
    /// evodb's hash of the code (`code_hash` of the file's text), or a branch whose target file to hash.
    pub code_hash: String,
}

impl Tool for EvoCheckCache {
    const NAME: &'static str = "evo_check_cache";
    const DESCRIPTION: &'static str = "Whether this code was evaluated already: {cached, fitness}. code_hash is \
        evodb's hash of the code, or a batch item's branch (its target file is hashed).";
    const READ_ONLY: bool = true;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        let session = Session::load(run)?.ok_or_else(|| usage("no evolution in this run yet"))?;
        let hash = match session.item(&self.code_hash) {
            Ok(item) => {
                let commit = session.resolve(&item.branch)?;
                let code = session.git(&["show", "--end-of-options", &format!("{commit}:{}", item.target_file)])?;
                evodb_core::code_hash(&code)
            }
            Err(_) => self.code_hash.clone(),
        };
        let state = run.export()?;
        let cached = &state["evodb"]["candidates"]["cache"][&hash];
        if cached.is_object() {
            return answer(json!({"cached": true, "code_hash": hash, "fitness": cached["metrics"]["fitness"],
                "branch": session.branch_of(&state, cached["id"].as_str().unwrap_or_default())}));
        }
        answer(json!({"cached": false, "code_hash": hash}))
    }
}

/// A synergy experiment's result: the best of each target combined on one branch.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvoRecordSynergy {
    /// The branch combining each target's best.
    pub branch: String,
    /// Its benchmark fitness.
    pub fitness: f64,
    /// Whether the benchmark ran.
    #[serde(default = "yes")]
    pub success: bool,
    /// The targets combined (default: the synergy item's).
    #[serde(default)]
    pub target_ids: Option<Vec<String>>,
}

fn yes() -> bool {
    true
}

impl Tool for EvoRecordSynergy {
    const NAME: &'static str = "evo_record_synergy";
    const DESCRIPTION: &'static str = "Record a synergy check (each target's best cherry-picked onto one branch) \
        against the generation's synergy item: the fitness counts for every target combined.";
    const READ_ONLY: bool = false;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        let session = Session::load(run)?.ok_or_else(|| usage("no evolution in this run yet"))?;
        let synergy = session.synergy.as_ref().ok_or_else(|| {
            usage(format!(
                "no synergy item is waiting; the engine plans one every {} generations with several targets",
                session.synergy_interval
            ))
        })?;
        let name = synergy["name"].as_str().unwrap_or_default().to_string();
        let parts: Vec<String> = synergy["parts"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["target"].as_str().map(str::to_string))
            .collect();
        let targets = self.target_ids.clone().unwrap_or(parts);
        for id in &targets {
            session.target(id)?;
        }
        let commit = session.resolve(&self.branch)?;
        let mut line = Line::default()
            .flag("codePath", Some(format!("{commit}:synergy")))
            .flag("targetCode", Some(format!("synergy branch {} at {commit}", self.branch)))
            .flag("planItem", Some(&name))
            .flag("parentId", Some(evodb_core::ROOT_PARENT_ID))
            .flag("metrics", Some(json!({"fitness": self.fitness})))
            .flag("changes", Some(format!("synergy of {}", targets.join(", "))));
        if !self.success {
            line = line.flag("status", Some("error")).flag("reason", Some("the synergy candidate failed"));
        }
        let (outcome, _) = run.json("add", &line.0)?;
        let mut session = session;
        session.synergy = None;
        session.save(run)?;
        answer(json!({"status": "recorded", "item": name, "branch": self.branch, "fitness": self.fitness,
            "success": self.success, "program_id": outcome["id"], "target_ids": targets}))
    }
}
