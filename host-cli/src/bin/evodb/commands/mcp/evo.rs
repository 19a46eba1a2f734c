//! evo-anything's `evo_*` tools, by its names and argument names, on evodb's engine: its
//! PlanAgent is `plan` (one batch per generation, frozen and boosted targets as frozen and
//! boosted islands), its policy check git mode's (`add --branch --target --protected`), its
//! fitness cache the engine's `dedupe`, its budget and stopping `should-stop`, its synergy check
//! the plan's synergy item. What the engine does not keep — where the repository is, each
//! target's file and function, the current generation's batch — is the *session*, kept in the run
//! as a note (`evo_state.rs`), so a restarted server resumes mid-generation. No rule is decided
//! here: each phase reads the engine's answer and words it as evo-anything does.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::evo_setup::{EvoInit, EvoRegisterTargets, EvoReportSeed};
use super::evo_state::Session;
use super::evo_step::EvoStep;
use super::tools::{Entry, Line, Tool, entry};
use super::{Answer, Run, answer, usage};
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

// --- the other tools: status, lineage, freezing and boosting targets, the cache, synergy ------------

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
            Some(session) => answer(session.status(run)?),
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
