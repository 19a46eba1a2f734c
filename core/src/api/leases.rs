//! Leases on plan items: `plan` with a lease length hands each item out under a token that
//! expires; `heartbeat` extends it; the answer names the token; an expired item is handed out
//! again (same name, new token, next attempt) by the next `plan`. Times are the host's seconds,
//! passed in and recorded in the events: the core reads no clock.

use serde::{Deserialize, Serialize};

/// The longest lease one `plan` or `heartbeat` grants: 30 days, in seconds.
pub const MAX_LEASE_SECONDS: f64 = 30.0 * 24.0 * 3600.0;

/// Why a lease length is refused, if it is.
pub fn check_lease_seconds(seconds: f64) -> Result<(), String> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_LEASE_SECONDS {
        return Ok(());
    }
    Err(format!("is {seconds}; pass a number of seconds above 0 and at most {MAX_LEASE_SECONDS} (30 days)"))
}

/// The lease an item is handed out under.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Lease {
    /// What the answer (`add --token`) and every `heartbeat` must name. UUID-shaped, derived
    /// from the seed, the item's name and the attempt: a reissued item gets a new one.
    pub token: String,
    /// When the lease runs out (the host's seconds, as `now` is given).
    pub expires: f64,
    /// 1 when first handed out, counted up each time the item is handed out again.
    pub attempt: u32,
}

/// Where a leased item stands (`leases`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum LeaseState {
    /// Handed out and not expired: a worker holds it.
    Live,
    /// Past its expiry and unanswered: the next `plan` hands it out again.
    Expired,
    /// Answered; the answer waits for the items before it in its batch.
    Held,
}

/// One leased item that is not applied yet, as `leases` lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct LeaseEntry {
    pub item: String,
    pub state: LeaseState,
    pub token: String,
    pub expires: f64,
    pub attempt: u32,
    pub island: u32,
}
