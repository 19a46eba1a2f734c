//! Plan items handed out by `plan` and not yet answered by an `add`.

use serde::{Deserialize, Serialize};

use crate::api::Operator;

/// A planned item still waiting for its candidate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PendingItem {
    pub name: String,
    pub island: u32,
    pub operator: Operator,
}
