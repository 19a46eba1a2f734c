//! The tool table, and evodb's own tools. Each tool is a Rust type: its fields are the tool's
//! arguments (named as the command's flags), its doc comments their descriptions, and `schemars`
//! makes the input schema from it. A call's arguments are read into that type first — a missing,
//! mistyped or unknown argument is refused with its name and what to pass, before anything runs —
//! then the tool runs its command on the run and answers what the command prints.

use std::collections::BTreeMap;
use std::sync::Arc;

use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{Answer, Run};
use crate::failure::Failure;

/// What the engine's thread sends back: the answer, or the refusal's message.
pub type ToolResult = Result<Answer, String>;

/// What the server tells the agent when it connects.
pub const INSTRUCTIONS: &str = "evodb keeps the population of one evolutionary code-search run. \
evo-anything's loop: evo_init once, evo_report_seed, evo_register_targets, then evo_step(\"begin_generation\") \
and follow each answer's `action`. evodb's own tools (sample, add, best, plan, should_stop, …) answer \
the JSON the `evodb` command of the same name prints.";

/// One tool: its arguments' type is the schema, `call` its effect.
pub trait Tool: DeserializeOwned + JsonSchema + 'static {
    const NAME: &'static str;
    const DESCRIPTION: &'static str;
    /// Reads only (no tool of this kind changes the run).
    const READ_ONLY: bool;
    fn call(self, run: &Run) -> Result<Answer, Failure>;
}

/// A tool of the table, its type erased.
pub struct Entry {
    pub name: &'static str,
    pub description: &'static str,
    pub read_only: bool,
    pub schema: fn() -> Arc<JsonObject>,
    call: fn(&Run, JsonObject) -> ToolResult,
}

pub fn entry<T: Tool>() -> Entry {
    Entry {
        name: T::NAME,
        description: T::DESCRIPTION,
        read_only: T::READ_ONLY,
        schema: rmcp::handler::server::common::schema_for_type::<T>,
        call: call_typed::<T>,
    }
}

/// evodb's own tools, in the order `tools/list` shows them.
pub fn own() -> Vec<Entry> {
    vec![
        entry::<Sample>(),
        entry::<Add>(),
        entry::<Seed>(),
        entry::<Best>(),
        entry::<Info>(),
        entry::<Stats>(),
        entry::<Plan>(),
        entry::<Note>(),
        entry::<Notes>(),
        entry::<Admit>(),
        entry::<Lineage>(),
        entry::<ShouldStop>(),
    ]
}

/// Runs `entry` with `arguments`.
pub fn call_entry(entry: &Entry, run: &Run, arguments: JsonObject) -> ToolResult {
    (entry.call)(run, arguments)
}

fn call_typed<T: Tool>(run: &Run, arguments: JsonObject) -> ToolResult {
    let args: T = read_arguments::<T>(arguments)?;
    args.call(run).map_err(|failure| refusal(T::NAME, &failure.to_string()))
}

/// The arguments as `T`, or a message naming the argument at fault and what `T` takes.
pub fn read_arguments<T: Tool>(arguments: JsonObject) -> Result<T, String> {
    serde_path_to_error::deserialize::<_, T>(Value::Object(arguments)).map_err(|e| {
        let at = e.path().to_string();
        let place = if at == "." { String::new() } else { format!(" (argument `{at}`)") };
        format!("{}: {}{place}; the arguments are {}", T::NAME, e.inner(), arguments_of::<T>())
    })
}

/// `name (type, required), …` from the tool's schema: the fix a refusal points to.
fn arguments_of<T: Tool>() -> String {
    let schema = rmcp::handler::server::common::schema_for_type::<T>();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return "none: pass {}".into();
    };
    if properties.is_empty() {
        return "none: pass {}".into();
    }
    properties
        .iter()
        .map(|(name, property)| {
            let kind = property.get("type").map_or_else(|| "see the schema".into(), compact);
            let need = if required.contains(&name.as_str()) { ", required" } else { "" };
            format!("`{name}` ({kind}{need})")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn compact(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(list) => list.iter().map(compact).collect::<Vec<_>>().join(" or "),
        other => other.to_string(),
    }
}

/// A command's refusal in the tool's words: its flags (`--metrics`) are the tool's arguments.
fn refusal(tool: &str, message: &str) -> String {
    let message = message.replace("Missing required flag: --", "missing required argument: ");
    let mut out = String::with_capacity(message.len());
    let mut rest = message.as_str();
    // `--name` → `name`, where a flag name follows (never inside a URL or a path).
    while let Some(i) = rest.find("--") {
        let after = &rest[i + 2..];
        let word_len = after.chars().take_while(char::is_ascii_alphanumeric).count();
        let boundary = i == 0 || rest[..i].ends_with([' ', '(', '`']);
        out.push_str(&rest[..i]);
        if boundary && word_len > 0 && after.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.push_str(&after[..word_len]);
            rest = &after[word_len..];
        } else {
            out.push_str("--");
            rest = after;
        }
    }
    out.push_str(rest);
    format!("{tool}: {out}")
}

/// A command line's arguments, each flag as `--name=value` so that no value can become a flag.
#[derive(Default)]
pub struct Line(pub Vec<String>);

impl Line {
    pub fn flag(mut self, name: &str, value: Option<impl ToString>) -> Line {
        if let Some(value) = value {
            self.0.push(format!("--{name}={}", value.to_string()));
        }
        self
    }

    pub fn list(mut self, name: &str, values: &[u32]) -> Line {
        for value in values {
            self.0.push(format!("--{name}={value}"));
        }
        self
    }

    /// A switch, present when `on`.
    pub fn switch(mut self, name: &str, on: bool) -> Line {
        if on {
            self.0.push(format!("--{name}"));
        }
        self
    }

    /// Positionals, after `--` so that none is read as a flag.
    pub fn positional(mut self, value: &str) -> Line {
        self.0.push("--".into());
        self.0.push(value.into());
        self
    }
}

/// A metrics object as the `--metrics` flag takes it; the engine checks the numbers.
fn metrics_text(metrics: &Map<String, Value>) -> String {
    Value::Object(metrics.clone()).to_string()
}

/// `--embedding`'s JSON text.
fn embedding_text(embedding: Vec<f64>) -> String {
    Value::from(embedding).to_string()
}

// --- evodb's tools: one per command -----------------------------------------------------------------

macro_rules! for_target_tool {
    ($type:ident, $name:literal, $command:literal, $read_only:literal, $description:literal) => {
        #[derive(Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        #[doc = $description]
        pub struct $type {
            /// Several-target runs: only this target (its islands, its best, its verdict).
            #[serde(default)]
            pub target: Option<String>,
        }

        impl Tool for $type {
            const NAME: &'static str = $name;
            const DESCRIPTION: &'static str = $description;
            const READ_ONLY: bool = $read_only;
            fn call(self, run: &Run) -> Result<Answer, Failure> {
                run.command($command, &Line::default().flag("target", self.target).0)
            }
        }
    };
}

macro_rules! plain_tool {
    ($type:ident, $name:literal, $read_only:literal, $description:literal) => {
        #[derive(Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        #[doc = $description]
        pub struct $type {}

        impl Tool for $type {
            const NAME: &'static str = $name;
            const DESCRIPTION: &'static str = $description;
            const READ_ONLY: bool = $read_only;
            fn call(self, run: &Run) -> Result<Answer, Failure> {
                run.command($name, &[])
            }
        }
    };
}

for_target_tool!(
    Sample,
    "sample",
    "sample",
    false,
    "A parent, its inspirations and the run's notes for the next candidate (`evodb sample`); or a leased plan \
     item whose lease expired, handed out again: then answer its `planItem` with its `lease.token`."
);
for_target_tool!(Best, "best", "best", true, "The fittest program, or null in an empty run (`evodb best`).");
for_target_tool!(
    ShouldStop,
    "should_stop",
    "should-stop",
    true,
    "Whether the budget or a stopping rule says the run is over: {stop, reason, …} (`evodb should-stop`)."
);
plain_tool!(Info, "info", true, "The run's summary (`evodb info`).");
plain_tool!(
    Stats,
    "stats",
    true,
    "Population statistics: each island's size, best and mean, the improvement over the baseline (`evodb stats`)."
);

/// The outcome of an evaluation.
#[derive(Deserialize, serde::Serialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Accepted,
    Rejected,
    Error,
}

/// The operator that produced a candidate.
#[derive(Deserialize, serde::Serialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum Operator {
    Exploitation,
    Exploration,
    Crossover,
    Migration,
}

fn name_of<T: serde::Serialize>(value: T) -> String {
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// Add a scored candidate (`evodb add`); in git mode (`branch`, `commit`) its code is read from a
/// commit of the server's working directory's repository.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Add {
    /// Where the candidate's code lives (stored as given; evodb never opens it).
    #[serde(default)]
    pub code_path: Option<String>,
    /// The candidate's code.
    #[serde(default)]
    pub target_code: Option<String>,
    /// The parent's id.
    pub parent_id: String,
    /// Metrics as an object of finite numbers, e.g. {"score": 0.8}.
    #[schemars(with = "BTreeMap<String, f64>")]
    pub metrics: Map<String, Value>,
    /// What the mutation changed.
    pub changes: String,
    /// Use this id instead of a generated one; the same add again is then answered, not added twice.
    #[serde(default)]
    pub id: Option<String>,
    /// Put the program on this island.
    #[serde(default)]
    pub island: Option<u32>,
    /// The evaluation's outcome; accepted when left out.
    #[serde(default)]
    pub status: Option<Status>,
    /// Why the candidate was rejected or failed (required with status error).
    #[serde(default)]
    pub reason: Option<String>,
    /// The operator that produced it (the sample's).
    #[serde(default)]
    pub operator: Option<Operator>,
    /// The `plan` item this candidate answers.
    #[serde(default)]
    pub plan_item: Option<String>,
    /// A leased plan item's current token (its `lease.token`); required for a leased item.
    #[serde(default)]
    pub token: Option<String>,
    /// Several-target runs: the target this candidate is a version of.
    #[serde(default)]
    pub target_id: Option<String>,
    /// Git mode: the branch holding the candidate's commit.
    #[serde(default)]
    pub branch: Option<String>,
    /// Git mode: the candidate's commit (default: the branch's).
    #[serde(default)]
    pub commit: Option<String>,
    /// Git mode: the evolved file, read from the commit; the commit's diff is policy-checked.
    #[serde(default)]
    pub target: Option<String>,
    /// Git mode: comma-separated globs a candidate must not touch.
    #[serde(default)]
    pub protected: Option<String>,
    /// The playbook's rule: accepted when fitter than its parent, else rejected (leave status out).
    #[serde(default)]
    pub decide: bool,
    /// Cost: the model that wrote the candidate.
    #[serde(default)]
    pub model: Option<String>,
    /// Cost: the tokens the model read.
    #[serde(default)]
    pub tokens_in: Option<u64>,
    /// Cost: the tokens the model wrote.
    #[serde(default)]
    pub tokens_out: Option<u64>,
    /// Cost: the price of the model's call(s) in US dollars.
    #[serde(default)]
    pub cost_usd: Option<f64>,
    /// Cost: the evaluation's wall time in seconds.
    #[serde(default)]
    pub eval_seconds: Option<f64>,
    /// Per-instance scores, e.g. {"test_1": 1, "test_2": 0} (higher is better); required by an
    /// `instances` selection.
    #[serde(default)]
    #[schemars(with = "Option<BTreeMap<String, f64>>")]
    pub instance_scores: Option<Map<String, Value>>,
    /// Your own embedding of the code (one model, one length per run), kept for admit's `embedding`.
    #[serde(default)]
    pub embedding: Option<Vec<f64>>,
}

impl Tool for Add {
    const NAME: &'static str = "add";
    const DESCRIPTION: &'static str = "Add a scored candidate with its parent, metrics and changes (`evodb add`).";
    const READ_ONLY: bool = false;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        let line = Line::default()
            .flag("codePath", self.code_path)
            .flag("targetCode", self.target_code)
            .flag("parentId", Some(self.parent_id))
            .flag("metrics", Some(metrics_text(&self.metrics)))
            .flag("changes", Some(self.changes))
            .flag("id", self.id)
            .flag("island", self.island)
            .flag("status", self.status.map(name_of))
            .flag("reason", self.reason)
            .flag("operator", self.operator.map(name_of))
            .flag("planItem", self.plan_item)
            .flag("token", self.token)
            .flag("targetId", self.target_id)
            .flag("branch", self.branch)
            .flag("commit", self.commit)
            .flag("target", self.target)
            .flag("protected", self.protected)
            .switch("decide", self.decide)
            .flag("model", self.model)
            .flag("tokensIn", self.tokens_in)
            .flag("tokensOut", self.tokens_out)
            .flag("costUsd", self.cost_usd)
            .flag("evalSeconds", self.eval_seconds)
            .flag("instanceScores", self.instance_scores.as_ref().map(metrics_text))
            .flag("embedding", self.embedding.map(embedding_text));
        run.command("add", &line.0)
    }
}

/// Add the initial program (`evodb seed`): parent "0", changes "initial implementation".
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Seed {
    /// Where the program's code lives (stored as given).
    pub code_path: String,
    /// The program's code.
    pub target_code: String,
    /// Metrics as an object of finite numbers, e.g. {"score": 0.41}.
    #[schemars(with = "BTreeMap<String, f64>")]
    pub metrics: Map<String, Value>,
    /// What the program is (default: "initial implementation").
    #[serde(default)]
    pub changes: Option<String>,
    /// Several-target runs: the target this program is a version of.
    #[serde(default)]
    pub target_id: Option<String>,
    /// Per-instance scores, e.g. {"test_1": 1, "test_2": 0}; required by an `instances` selection.
    #[serde(default)]
    #[schemars(with = "Option<BTreeMap<String, f64>>")]
    pub instance_scores: Option<Map<String, Value>>,
    /// Your own embedding of the code, kept for admit's `embedding`.
    #[serde(default)]
    pub embedding: Option<Vec<f64>>,
}

impl Tool for Seed {
    const NAME: &'static str = "seed";
    const DESCRIPTION: &'static str = "Add the initial program of the run (`evodb seed`).";
    const READ_ONLY: bool = false;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        let line = Line::default()
            .flag("codePath", Some(self.code_path))
            .flag("targetCode", Some(self.target_code))
            .flag("metrics", Some(metrics_text(&self.metrics)))
            .flag("changes", self.changes)
            .flag("targetId", self.target_id)
            .flag("instanceScores", self.instance_scores.as_ref().map(metrics_text))
            .flag("embedding", self.embedding.map(embedding_text));
        run.command("seed", &line.0)
    }
}

/// Plan a batch of named work items for parallel workers (`evodb plan`).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// How many items (workers) to plan, at least 1.
    pub n: u32,
    /// Islands that get no items.
    #[serde(default)]
    pub frozen: Vec<u32>,
    /// Islands that get twice the share.
    #[serde(default)]
    pub boosted: Vec<u32>,
    /// Hand items out under a lease of this many seconds (default: the config's leaseSeconds).
    #[serde(default, rename = "leaseSeconds")]
    pub lease_seconds: Option<f64>,
}

impl Tool for Plan {
    const NAME: &'static str = "plan";
    const DESCRIPTION: &'static str =
        "Plan a batch of work items for parallel workers: operator, parents, island, name (`evodb plan`).";
    const READ_ONLY: bool = false;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        let mut line = Line::default()
            .list("frozen", &self.frozen)
            .list("boosted", &self.boosted)
            .flag("leaseSeconds", self.lease_seconds);
        line.0.insert(0, self.n.to_string());
        run.command("plan", &line.0)
    }
}

/// What a note records.
#[derive(Deserialize, JsonSchema, Clone, Copy, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NoteKind {
    Lesson,
    Failure,
    Idea,
}

/// Keep a note (run memory) that later samples and plan items carry (`evodb note`).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Note {
    /// What the note records.
    pub kind: NoteKind,
    /// The note (at most 16 KiB).
    pub text: String,
    /// The target the note is about; run-wide when left out.
    #[serde(default)]
    pub target: Option<String>,
    /// The program the note is about.
    #[serde(default)]
    pub program_id: Option<String>,
}

impl Tool for Note {
    const NAME: &'static str = "note";
    const DESCRIPTION: &'static str = "Keep a note of the run's memory: a lesson, failure or idea (`evodb note`).";
    const READ_ONLY: bool = false;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        let line = Line::default()
            .flag("kind", Some(name_of(self.kind)))
            .flag("text", Some(self.text))
            .flag("target", self.target)
            .flag("programId", self.program_id);
        run.command("note", &line.0)
    }
}

/// Before evaluating a candidate: a duplicate or near-duplicate of a live program? (`evodb admit`)
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Admit {
    /// The candidate's code.
    pub code: String,
    /// The candidate's file name: its extension names the comment syntax set aside.
    #[serde(default)]
    pub code_path: Option<String>,
    /// Compare by your own embedding of the code (the model of add's `embedding`): cosine
    /// similarity to the live programs' stored embeddings instead of MinHash.
    #[serde(default)]
    pub embedding: Option<Vec<f64>>,
}

impl Tool for Admit {
    const NAME: &'static str = "admit";
    const DESCRIPTION: &'static str = "Before paying for an evaluation: is this code a duplicate or near-duplicate of a \
                                       live program? Reads only (`evodb admit`).";
    const READ_ONLY: bool = true;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        let line = Line::default()
            .flag("code", Some(self.code))
            .flag("codePath", self.code_path)
            .flag("embedding", self.embedding.map(embedding_text));
        run.command("admit", &line.0)
    }
}

/// The run's notes, newest first (`evodb notes`).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Notes {
    /// Only this target's notes.
    #[serde(default)]
    pub target: Option<String>,
    /// Only notes of this kind.
    #[serde(default)]
    pub kind: Option<NoteKind>,
    /// At most this many notes.
    #[serde(default)]
    pub limit: Option<u32>,
}

impl Tool for Notes {
    const NAME: &'static str = "notes";
    const DESCRIPTION: &'static str = "The run's notes, newest first, by target and kind (`evodb notes`).";
    const READ_ONLY: bool = true;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        let line =
            Line::default().flag("target", self.target).flag("kind", self.kind.map(name_of)).flag("limit", self.limit);
        run.command("notes", &line.0)
    }
}

/// Ancestors and descendants of a live program (`evodb lineage`).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Lineage {
    /// The program's id.
    pub program_id: String,
}

impl Tool for Lineage {
    const NAME: &'static str = "lineage";
    const DESCRIPTION: &'static str = "Ancestors and descendants of a live program (`evodb lineage`).";
    const READ_ONLY: bool = true;
    fn call(self, run: &Run) -> Result<Answer, Failure> {
        run.command("lineage", &Line::default().positional(&self.program_id).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_arguments_not_flags() {
        assert_eq!(refusal("add", "Missing required flag: --metrics"), "add: missing required argument: metrics");
        assert_eq!(refusal("note", "pass --text (or x--y)"), "note: pass text (or x--y)");
    }

    #[test]
    fn bad_arguments_are_named() {
        let err = read_arguments::<Plan>(serde_json::from_str(r#"{"n": "four"}"#).unwrap()).err().unwrap();
        assert!(err.contains("argument `n`") && err.contains("`n` (integer, required)"), "{err}");
        let err = read_arguments::<Plan>(serde_json::from_str(r#"{"m": 4}"#).unwrap()).err().unwrap();
        assert!(err.contains("unknown field `m`"), "{err}");
    }
}
