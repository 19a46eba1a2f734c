//! Plan items handed out by `plan` and not yet applied, with the answers held until the items
//! before them in their batch are answered (`database/batches.rs`); and the islands operator
//! samples sent their parents to, until an add answers them (`rules/sampled_islands.rs`).

use serde::{Deserialize, Serialize};

use crate::api::{AddRequest, Operator, PlanItem, SynergyPart};

/// A planned item still waiting for its candidate, or holding its answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PendingItem {
    pub name: String,
    pub island: u32,
    pub operator: Operator,
    /// Crossover's diverse parent or migration's donor program: the add that answers the item
    /// records it on the child, as an answered sample's does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_parent_id: Option<String>,
    /// A synergy item's parts (it has no island or operator of its own: those fields are 0 and
    /// `exploitation`); empty for every other item.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub synergy: Vec<SynergyPart>,
    /// The answer, when it arrived before an earlier item of its batch was answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held: Option<HeldAnswer>,
    /// The lease it is handed out under (`plan` with `leaseSeconds`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lease: Option<Box<ItemLease>>,
}

/// A pending item's lease (`rules/leases.rs`): the token its answer and heartbeats must name,
/// when it runs out, which handing-out this is, the lease length a heartbeat renews by default,
/// and the item as handed out, so that an expired item is handed out again unchanged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ItemLease {
    pub token: String,
    pub expires: f64,
    pub attempt: u32,
    pub seconds: f64,
    pub handout: PlanItem,
}

/// An `add` waiting for its turn: the request and the time it was given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HeldAnswer {
    pub request: AddRequest,
    pub now: f64,
}

impl PendingItem {
    /// The plan batch (`gen-{N}` of the name) the item belongs to; `None` for a name `plan`
    /// did not make, which then waits for nothing.
    pub fn batch(&self) -> Option<u64> {
        self.name.strip_prefix("gen-")?.split('/').next()?.parse().ok()
    }
}

/// An operator sample not yet answered: `sample` (with `operators`) handed out `parent_id` (and
/// `second_parent_id`: crossover's diverse parent, migration's donor program) for a child on
/// `island`, made by `operator`. The add that answers it places the child there and records
/// the second parent on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SampledItem {
    pub parent_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_parent_id: Option<String>,
    pub island: u32,
    pub operator: Operator,
}

/// Work on `parent_id` handed out for a child on `island` and not yet answered
/// (`rules/in_flight.rs`); kept only with `pending: "aware"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InFlight {
    pub parent_id: String,
    pub island: u32,
}

/// A pruned program, as `answered_pruned_retry` recognises a retry of its add: its id, a digest
/// of the fields a retry repeats (`Program::is_repeated_by`'s, but the operator), and its
/// operator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PrunedProgram {
    pub id: String,
    pub digest: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operator: Option<Operator>,
}
