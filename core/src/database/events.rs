//! Events: what every operation did, for a host to append to `history.ndjson` and for the
//! playground to replay. Input events (`created`, `added`, `status`, `cached`, `sampled`,
//! `planned`, `heartbeat`, `noted`) carry what the operation was given; the rest (`migrated`, `evicted`, `archive`)
//! are its consequences. `Database::replay` re-runs the inputs and checks every consequence, so
//! a run's events rebuild its final state exactly.

use serde::{Deserialize, Serialize};

use crate::api::AddRequest;
use crate::api::NoteRequest;
use crate::api::Operator;
use crate::api::Status;
use crate::config::Config;
use crate::database::Database;
use crate::metrics::Metrics;

/// One event. Serialized with an `event` tag: `{"event": "added", …}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify))]
#[serde(tag = "event", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Event {
    /// A database was created.
    Created { seed: u64, config: Config },
    /// A candidate joined the population (accepted or rejected).
    Added {
        seq: u64,
        id: String,
        island: u32,
        status: Status,
        fitness: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cell: Option<Vec<u32>>,
        request: AddRequest,
        now: f64,
        /// Applied because the answers before it in its plan batch were in (it was `held`).
        #[serde(default, skip_serializing_if = "is_false")]
        released: bool,
    },
    /// A candidate whose evaluation failed: recorded with its reason, fitness null, on no island.
    Status {
        seq: u64,
        id: String,
        status: Status,
        reason: String,
        request: AddRequest,
        now: f64,
        #[serde(default, skip_serializing_if = "is_false")]
        released: bool,
    },
    /// Dedupe answered a repeated candidate with the earlier one (`id`).
    Cached {
        id: String,
        request: AddRequest,
        now: f64,
        #[serde(default, skip_serializing_if = "is_false")]
        released: bool,
    },
    /// The answer to plan item `item` arrived before an earlier item of its batch was answered:
    /// it is kept and applied in plan order (as `added`/`status`/`cached` with `released`).
    Held { item: String, id: String, request: AddRequest, now: f64 },
    /// A sample was drawn (it moves the PRNG, so replay repeats it).
    Sampled {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        operator: Option<Operator>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        island: Option<u32>,
        parent_id: Option<String>,
        /// The target the sample was asked for (`sample --target`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
        /// The expired plan item the sample handed out again (`sample_at`), and the time it
        /// was asked at; both absent for a fresh draw.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plan_item: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        now: Option<f64>,
    },
    /// A synergy candidate's result, recorded against every target it combines.
    Synergy {
        seq: u64,
        id: String,
        fitness: f64,
        request: AddRequest,
        now: f64,
        #[serde(default, skip_serializing_if = "is_false")]
        released: bool,
    },
    /// A note was taken (run memory).
    Noted { request: NoteRequest },
    /// Live program `id` was measured again (`remeasure`): `metrics` is the new measurement,
    /// folded into its running mean; `fitness` is the program's fitness after it, the mean of
    /// `measurements` measurements.
    Remeasured { id: String, metrics: Metrics, fitness: f64, measurements: u64 },
    /// A batch was planned: `items` names the items handed out again (their leases expired)
    /// first, then the new ones. `now` and `leaseSeconds` (as given, else the config's applies)
    /// are recorded when leases are in play.
    Planned {
        n: u32,
        frozen: Vec<u32>,
        boosted: Vec<u32>,
        items: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        now: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lease_seconds: Option<f64>,
    },
    /// A worker extended plan item `item`'s lease (`heartbeat`).
    Heartbeat {
        item: String,
        token: String,
        now: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lease_seconds: Option<f64>,
    },
    /// Ring migration put `id` on island `to` (`copyId` in copy mode).
    Migrated {
        id: String,
        from: u32,
        to: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        copy_id: Option<String>,
    },
    /// A program left an island over capacity; `deleted` when it was on no other island.
    Evicted { id: String, island: u32, deleted: bool },
    /// The elite archive changed.
    Archive { entered: Vec<String>, left: Vec<String> },
}

impl Event {
    pub(crate) fn is_input(&self) -> bool {
        matches!(
            self,
            Event::Created { .. }
                | Event::Added { released: false, .. }
                | Event::Status { released: false, .. }
                | Event::Cached { released: false, .. }
                | Event::Held { .. }
                | Event::Sampled { .. }
                | Event::Synergy { released: false, .. }
                | Event::Planned { .. }
                | Event::Heartbeat { .. }
                | Event::Noted { .. }
                | Event::Remeasured { .. }
        )
    }
}

impl Database {
    /// Starts (or stops) recording events. On a database made by [`Database::new`] that has not
    /// changed yet, the recording starts with a `created` event carrying the seed and config, so
    /// the events alone rebuild it; a database read from a file records from where it stands.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Event, Metrics};
    /// let mut db = Database::new(Config::default(), 3).unwrap();
    /// db.record_events(true);
    /// db.add(AddRequest::seed("/f.py", "v0", Metrics::new([("s", 0.5)]).unwrap()), 1.0).unwrap();
    /// db.sample();
    /// let events = db.take_events();
    /// assert_eq!(Database::replay(&events).unwrap().to_json(), db.to_json());
    /// ```
    pub fn record_events(&mut self, on: bool) {
        self.events = match on {
            false => None,
            true if self.events.is_some() => return,
            true if self.newly_created
                && self.candidates.evaluations == 0
                && self.rounds == 0
                && self.last_iteration == 0 =>
            {
                Some(vec![Event::Created { seed: self.seed, config: self.config.clone() }])
            }
            true => Some(Vec::new()),
        };
    }

    /// The events recorded since the last call, oldest first.
    pub fn take_events(&mut self) -> Vec<Event> {
        self.events.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Whether events are being recorded: hot paths build an event only then.
    pub(crate) fn recording(&self) -> bool {
        self.events.is_some()
    }

    pub(crate) fn emit(&mut self, event: Event) {
        if let Some(events) = &mut self.events {
            events.push(event);
        }
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_false(b: &bool) -> bool {
    !*b
}
