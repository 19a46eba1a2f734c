//! The idea-run tools (evoidea's face over MCP): `add_idea` adds a critic-scored idea with its
//! parents and origin, `evoidea_export` answers evoidea's `state.json` and `final.json`. The
//! memetic loop's other steps are the `plan` and `should_stop` tools on an idea run.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::Run;
use super::tools::{Entry, Line, Tool, entry};
use crate::failure::Failure;

/// How an idea came about.
#[derive(Deserialize, serde::Serialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Generated,
    Refined,
    Merged,
}

/// Add a critic-scored idea to an idea run (`evodb add-idea`).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AddIdea {
    /// The idea: {"title", "summary", "facets": {audience, jtbd, differentiator, monetization, distribution, risks}}.
    #[schemars(with = "BTreeMap<String, Value>")]
    pub idea: Map<String, Value>,
    /// The critic's eight scores, 0-10: feasibility, speed_to_value, differentiation, market_size, distribution, moats, risk, clarity.
    #[schemars(with = "BTreeMap<String, f64>")]
    pub scores: Map<String, Value>,
    /// The ideas it was made from (several for a merge).
    #[serde(default)]
    pub parents: Vec<String>,
    /// How it came about (implied by its parents when left out).
    #[serde(default)]
    pub origin: Option<Origin>,
    /// The `plan` item this idea answers.
    #[serde(default)]
    pub plan_item: Option<String>,
}

impl Tool for AddIdea {
    const NAME: &'static str = "add_idea";
    const DESCRIPTION: &'static str =
        "Add a critic-scored idea to an idea run, with its parents and origin (`evodb add-idea`).";
    const READ_ONLY: bool = false;
    fn call(self, run: &Run) -> Result<super::Answer, Failure> {
        let origin = self.origin.and_then(|o| serde_json::to_value(o).ok()).and_then(|v| v.as_str().map(String::from));
        let line = Line::default()
            .flag("idea", Some(Value::Object(self.idea).to_string()))
            .flag("scores", Some(Value::Object(self.scores).to_string()))
            .flag("parents", (!self.parents.is_empty()).then(|| self.parents.join(",")))
            .flag("origin", origin)
            .flag("planItem", self.plan_item);
        run.command("add-idea", &line.0)
    }
}

/// An idea run as evoidea's files (`evodb export --format evoidea`).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvoideaExport {}

impl Tool for EvoideaExport {
    const NAME: &'static str = "evoidea_export";
    const DESCRIPTION: &'static str = "An idea run as evoidea's {state, final}: ideas with scores, best, stagnation, \
                                       stop reason, best-score trajectory (`evodb export --format evoidea`).";
    const READ_ONLY: bool = true;
    fn call(self, run: &Run) -> Result<super::Answer, Failure> {
        run.command("export", &["--format=evoidea".to_string()])
    }
}

/// The idea runs' tools, in the order `tools/list` shows them (after evodb's own).
pub fn table() -> Vec<Entry> {
    vec![entry::<AddIdea>(), entry::<EvoideaExport>()]
}
