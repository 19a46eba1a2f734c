//! The lease tools: a worker at a leased plan item (`plan` with `leaseSeconds`) renews its lease
//! with `heartbeat`; `leases` lists the leased items live, expired or held. The answer is the
//! `add` tool with `planItem` and `token`.

use schemars::JsonSchema;
use serde::Deserialize;

use super::Run;
use super::tools::{Entry, Line, Tool, entry};
use crate::failure::Failure;

/// Extend a leased plan item's lease while its worker is still at it (`evodb heartbeat`).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Heartbeat {
    /// The plan item's name.
    pub item: String,
    /// The item's current lease token (its `lease.token`).
    pub token: String,
    /// The lease runs this many seconds from now (default: the length it was handed out with).
    #[serde(default)]
    pub lease_seconds: Option<f64>,
}

impl Tool for Heartbeat {
    const NAME: &'static str = "heartbeat";
    const DESCRIPTION: &'static str = "Extend a leased plan item's lease while the work goes on; a stale token (the \
                                       item was handed out again) is refused (`evodb heartbeat`).";
    const READ_ONLY: bool = false;
    fn call(self, run: &Run) -> Result<super::Answer, Failure> {
        let line = Line::default()
            .flag("item", Some(self.item))
            .flag("token", Some(self.token))
            .flag("leaseSeconds", self.lease_seconds);
        run.command("heartbeat", &line.0)
    }
}

/// The leased plan items not applied yet: live, expired or held (`evodb leases`).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Leases {}

impl Tool for Leases {
    const NAME: &'static str = "leases";
    const DESCRIPTION: &'static str = "List the leased plan items not applied yet, in plan order: live, expired (the \
                                       next plan hands them out again) or held, with token, expiry and attempt \
                                       (`evodb leases`).";
    const READ_ONLY: bool = true;
    fn call(self, run: &Run) -> Result<super::Answer, Failure> {
        run.command("leases", &[])
    }
}

/// The lease tools, in the order `tools/list` shows them.
pub fn table() -> Vec<Entry> {
    vec![entry::<Heartbeat>(), entry::<Leases>()]
}
