//! evo-anything's setup tools: `evo_init` (the repository, benchmark, objective and budget, kept
//! in the server until the run exists), `evo_report_seed` (the baseline) and
//! `evo_register_targets` (creates the run and seeds every target with the baseline).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::evo_state::{Objective, SeedReport, Session, TargetInfo, repository};
use super::tools::{Line, Tool};
use super::{Answer, Run, answer, usage};
use crate::failure::Failure;

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
            return answer(json!({"status": "resumed", "state": session.status(run)?}));
        }
        if database_exists(run)? {
            return Err(usage(
                "this run already holds programs that evo_init did not start; serve a new directory to evo_init, or use \
                 evodb's own tools (sample, add, plan) on this one",
            ));
        }
        let repo = repository(&self.repo_path)?;
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
        session.seed = Some(SeedReport { fitness: self.fitness, commit: commit.clone() });
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
