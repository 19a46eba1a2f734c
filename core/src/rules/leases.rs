//! `leases`: plan items handed out under a lease (issue 41). `plan` with a lease length gives
//! each item a token and an expiry (`first_lease`); `heartbeat` pushes the expiry on; the answer
//! must name the current token (`check_token`), so an answer from a worker whose item was handed
//! out again is refused and no item is applied twice; the next `plan` or `sample` (`sample_at`)
//! hands an expired, unanswered item out again (`reissue_expired`): same name and content, a new token, the next
//! attempt. The time is the host's `now`, an input recorded in the event: no clock here.
//!
//! Tokens come from the seed, the item's name and the attempt (FNV-1a, like an answer's id from
//! its item), never from the PRNG, so leases change no draw of a run: a leased run samples,
//! plans and places exactly as the same run without leases.

use crate::api::{AddRequest, Lease, LeaseEntry, LeaseState, PlanItem, check_lease_seconds};
use crate::database::{Database, Event, ItemLease, PendingItem};
use crate::error::{Error, Result};
use crate::rng::DetRng;

pub(crate) fn check_now(now: f64) -> Result<()> {
    match now.is_finite() {
        true => Ok(()),
        false => Err(Error::input("now", format!("is {now}; pass the current time in seconds"))),
    }
}

/// The token handing-out `attempt` (1 first) of plan item `name` gets in a database seeded with
/// `seed`: a fencing token, deterministic like every other output (it tells one handing-out from
/// the next; it is no secret).
pub fn lease_token(seed: u64, name: &str, attempt: u32) -> String {
    DetRng::uuid_for_item(seed, &format!("{name}\u{0}lease-{attempt}")).to_string()
}

impl ItemLease {
    /// What the item carries: token, expiry, attempt.
    pub(crate) fn public(&self) -> Lease {
        Lease { token: self.token.clone(), expires: self.expires, attempt: self.attempt }
    }
}

impl PendingItem {
    fn lease_state(&self, now: f64) -> Option<LeaseState> {
        let lease = self.lease.as_ref()?;
        Some(match () {
            () if self.held.is_some() => LeaseState::Held,
            () if now > lease.expires => LeaseState::Expired,
            () => LeaseState::Live,
        })
    }
}

impl Database {
    /// The lease a new plan item is first handed out under.
    pub(crate) fn first_lease(&self, item: &PlanItem, now: f64, seconds: f64) -> Box<ItemLease> {
        Box::new(ItemLease {
            token: lease_token(self.seed, &item.name, 1),
            expires: now + seconds,
            attempt: 1,
            seconds,
            handout: item.clone(),
        })
    }

    /// `plan_lease_checks`: a plan's time and lease length, checked before anything changes.
    /// `seconds`: the lease length that applies (given, else the config's).
    pub(crate) fn check_plan_lease(&self, now: Option<f64>, seconds: Option<f64>) -> Result<()> {
        if let Some(now) = now {
            check_now(now)?;
        }
        let Some(seconds) = seconds else { return Ok(()) };
        check_lease_seconds(seconds).map_err(|why| Error::input("leaseSeconds", why))?;
        if now.is_none() {
            return Err(Error::input(
                "now",
                "is missing: this plan hands items out under leases (leaseSeconds), which need the current time; \
                 plan with the time (`plan_at`)",
            ));
        }
        if self.is_idea_run() {
            return Err(Error::input(
                "leaseSeconds",
                "applies to a programs run's plan; an idea run plans whole rounds — leave it out (and out of the config)",
            ));
        }
        Ok(())
    }

    /// `reissue_expired`: up to `n` expired, unanswered leased items (in plan order, only on
    /// islands `open` lets through) handed out again: same item, a new token, the next attempt,
    /// a lease from `now` of `seconds` (else the item's own length). `plan` reissues first
    /// (`open`: not frozen), and so does `sample` (`sample_at`: one item, of the target asked for).
    pub(crate) fn reissue_expired(
        &mut self,
        n: u32,
        open: impl Fn(u32) -> bool,
        now: f64,
        seconds: Option<f64>,
    ) -> Vec<PlanItem> {
        let seed = self.seed;
        let mut items = Vec::new();
        for item in &mut self.pending {
            if items.len() == n as usize {
                break;
            }
            if item.lease_state(now) != Some(LeaseState::Expired) || !open(item.island) {
                continue;
            }
            let Some(lease) = item.lease.as_mut() else { continue };
            lease.attempt = lease.attempt.saturating_add(1);
            lease.token = lease_token(seed, &item.name, lease.attempt);
            lease.seconds = seconds.unwrap_or(lease.seconds);
            lease.expires = now + lease.seconds;
            items.push(PlanItem { lease: Some(lease.public()), ..lease.handout.clone() });
        }
        items
    }

    /// Extends plan item `item`'s lease to `now` + `lease_seconds` (else the lease's own
    /// length). `token` must be the item's current one. An expired lease not yet handed out
    /// again is extended too: no other worker holds the item.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let mut db = Database::new(Config::default(), 5).unwrap();
    /// db.add(AddRequest::seed("/f.py", "v0", Metrics::new([("s", 0.5)]).unwrap()), 1.0).unwrap();
    /// let plan = db.plan_at(1, &[], &[], 100.0, Some(60.0)).unwrap();
    /// let (item, lease) = (&plan.items[0].name, plan.items[0].lease.clone().unwrap());
    /// assert_eq!((lease.expires, lease.attempt), (160.0, 1));
    /// assert_eq!(db.heartbeat(item, &lease.token, 150.0, None).unwrap().expires, 210.0);
    /// assert!(db.heartbeat(item, "another-token", 150.0, None).is_err());
    /// ```
    pub fn heartbeat(&mut self, item: &str, token: &str, now: f64, lease_seconds: Option<f64>) -> Result<Lease> {
        check_now(now)?;
        if let Some(seconds) = lease_seconds {
            check_lease_seconds(seconds).map_err(|why| Error::input("leaseSeconds", why))?;
        }
        let (index, pending) = self.pending_item(item)?;
        let Some(lease) = &pending.lease else {
            return Err(Error::input(
                "item",
                format!("`{item}` was not handed out under a lease, so it has none to extend; leave out the heartbeat"),
            ));
        };
        if lease.token != token {
            return Err(stale_token(item, lease.attempt));
        }
        if pending.held.is_some() {
            return Err(Error::input(
                "item",
                format!("`{item}` is already answered (its answer waits for the items before it); stop the heartbeat"),
            ));
        }
        let lease = self.pending[index].lease.as_mut().expect("checked above");
        lease.seconds = lease_seconds.unwrap_or(lease.seconds);
        lease.expires = now + lease.seconds;
        let granted = lease.public();
        self.emit(Event::Heartbeat { item: item.to_string(), token: token.to_string(), now, lease_seconds });
        Ok(granted)
    }

    /// Every leased item not applied yet, in plan order: live, expired (the next `plan` hands
    /// it out again) or held (answered, waiting for the items before it). Reads only.
    pub fn leases(&self, now: f64) -> Result<Vec<LeaseEntry>> {
        check_now(now)?;
        Ok(self
            .pending
            .iter()
            .filter_map(|item| {
                let state = item.lease_state(now)?;
                let lease = item.lease.as_ref()?;
                Some(LeaseEntry {
                    item: item.name.clone(),
                    state,
                    token: lease.token.clone(),
                    expires: lease.expires,
                    attempt: lease.attempt,
                    island: item.island,
                })
            })
            .collect())
    }

    /// `check_token`: the answer to a leased item names its current token; a token names a
    /// leased item.
    pub(crate) fn check_token(&self, item: &PendingItem, request: &AddRequest) -> Result<()> {
        let name = &item.name;
        match (&item.lease, &request.token) {
            (None, None) => Ok(()),
            (None, Some(_)) => Err(Error::input(
                "token",
                format!("is given, but `{name}` was not handed out under a lease; leave out --token"),
            )),
            (Some(_), None) => Err(Error::input(
                "token",
                format!(
                    "is missing: `{name}` is handed out under a lease; pass the token its plan item carries (--token)"
                ),
            )),
            (Some(lease), Some(token)) if *token != lease.token => Err(stale_token(name, lease.attempt)),
            (Some(_), Some(_)) => Ok(()),
        }
    }
}

fn stale_token(item: &str, attempt: u32) -> Error {
    let why = match attempt {
        1 => format!(
            "is not the lease token of `{item}`; pass the `lease.token` its plan item carries (`evodb leases` lists them)"
        ),
        _ => format!(
            "is stale: `{item}` was handed out again (attempt {attempt}) after this lease expired, so another worker \
             answers it; drop this candidate and plan for new work"
        ),
    };
    Error::input("token", why)
}
