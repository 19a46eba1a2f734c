//! The closed sets of names that cross every face: a candidate's status, the operators, the
//! export formats. Serialized camelCase, as the WIT's enum cases read in JavaScript.

use serde::{Deserialize, Serialize};

/// What became of an evaluated candidate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum Status {
    #[default]
    Accepted,
    Rejected,
    /// The evaluation failed: fitness null, kept in the history with its reason, on no island.
    Error,
}

impl Status {
    pub(crate) fn is_accepted(&self) -> bool {
        *self == Status::Accepted
    }
}

/// How a new candidate is made from the population.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum Operator {
    /// Refine an elite: the best of the island, the most recent on ties.
    Exploitation,
    /// Seed diversity: the least populated island (or one the last candidates did not use).
    Exploration,
    /// Combine two parents from different islands: one elite, one diverse.
    Crossover,
    /// Port a technique from a donor island into the recipient island's best.
    Migration,
}

impl Operator {
    /// Every operator, in the schedule's order.
    pub const ALL: [Operator; 4] =
        [Operator::Exploitation, Operator::Exploration, Operator::Crossover, Operator::Migration];

    pub fn name(self) -> &'static str {
        match self {
            Operator::Exploitation => "exploitation",
            Operator::Exploration => "exploration",
            Operator::Crossover => "crossover",
            Operator::Migration => "migration",
        }
    }
}

/// What `export` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ExportFormat {
    /// `database.json` text, exactly `JSON.stringify(db, null, 2)`.
    #[default]
    Json,
    /// The live population's family tree as a Mermaid flowchart.
    Mermaid,
    /// The same tree as indented ASCII.
    Tree,
    /// The `## 🧬 Population` section of the AlphaEvolve strategy's runtime playbook, newest first.
    Markdown,
    /// An idea run as evoidea's `state.json` and `final.json`: `{"kind", "state", "final"}`
    /// (both null for a programs run; `run_id` left for the caller to fill).
    Evoidea,
}
