//! `Database::replay`: a database rebuilt from its recorded events, and [`Replay`]: a saved run as
//! the playground shows it. Both drive the engine through its public operations only, so they
//! live beside the simulation, apart from the engine.

mod timeline;

use std::sync::Arc;

pub use timeline::Replay;

mod catch_up;
mod compare;

use crate::api::RemeasureRequest;
use crate::database::{Database, Event};
use crate::error::{Error, Result};

impl Database {
    /// Rebuilds a database from its events (the first must be `created`), re-running every input
    /// and checking that each consequence happens again, in order.
    pub fn replay(events: &[Event]) -> Result<Database> {
        let (mut db, _) = rerun_from_creation(events)?;
        db.record_events(false);
        Ok(db)
    }

    /// `history` (`history.ndjson`'s text) replayed and compared with `database_json`: every
    /// disagreement, named (none when they agree): programs on one side only, metrics, the best, the
    /// config, the notes, a lost `evodb` section.
    pub fn compare_history(database_json: &str, history: &str) -> Vec<String> {
        compare::compare_history(database_json, history)
    }
}

/// The database `events` (from `created` on) rebuild, still recording, and the best program's id
/// after each event.
fn rerun_from_creation(events: &[Event]) -> Result<(Database, Vec<Option<Arc<str>>>)> {
    let mut db = created(events)?;
    let mut best_after = vec![None];
    best_after.extend(rerun(&mut db, &events[1..], 1)?);
    Ok((db, best_after))
}

/// The new database `events[0]` (a `created` event) describes, recording from it.
fn created(events: &[Event]) -> Result<Database> {
    let Some(Event::Created { seed, config }) = events.first() else {
        return Err(Error::input("events[0]", "is not a `created` event; replay starts from the database's creation"));
    };
    let mut db = Database::new(config.clone(), *seed)?;
    db.record_events(true);
    if db.take_events().first() != events.first() {
        return Err(Error::input("events[0]", "differs on replay"));
    }
    Ok(db)
}

/// Runs the inputs among `events` (the database's next events; `offset` is the first one's
/// index, for messages) on `db`, which records; checks that the events it produces are exactly
/// `events`; returns the best program's id after each of them. A consequence (a migration, an
/// eviction) is produced with its input, so it shares the input's best.
fn rerun(db: &mut Database, events: &[Event], offset: usize) -> Result<Vec<Option<Arc<str>>>> {
    let mismatch = |i: usize, what: String| Error::input(format!("events[{}]", offset + i), what);
    let mut produced = Vec::with_capacity(events.len());
    let mut best_after = Vec::with_capacity(events.len());
    let mut best: Option<Arc<str>> = db.best_id().map(Arc::from);
    for (i, event) in events.iter().enumerate() {
        if event.is_input() {
            let applied = match event {
                Event::Added { request, now, .. }
                | Event::Status { request, now, .. }
                | Event::Cached { request, now, .. }
                | Event::Held { request, now, .. }
                | Event::Synergy { request, now, .. } => db.add(request.clone(), *now).map(drop),
                Event::Sampled { target, now: None, .. } => db.sample_for(target.as_deref()).map(drop),
                Event::Sampled { target, now: Some(now), .. } => db.sample_at(target.as_deref(), *now).map(drop),
                Event::Planned { n, frozen, boosted, now: None, .. } => db.plan(*n, frozen, boosted).map(drop),
                Event::Planned { n, frozen, boosted, now: Some(now), lease_seconds, .. } => {
                    db.plan_at(*n, frozen, boosted, *now, *lease_seconds).map(drop)
                }
                Event::Heartbeat { item, token, now, lease_seconds } => {
                    db.heartbeat(item, token, *now, *lease_seconds).map(drop)
                }
                Event::Noted { request } => db.note(request.clone()).map(drop),
                Event::Remeasured { id, metrics, .. } => {
                    db.remeasure(RemeasureRequest { id: id.clone(), metrics: metrics.clone() }).map(drop)
                }
                Event::Created { .. } => return Err(mismatch(i, "is a second `created` event".into())),
                _ => unreachable!("is_input lists the inputs"),
            };
            applied.map_err(|e| mismatch(i, format!("no longer applies: {e}")))?;
            produced.extend(db.take_events());
            if best.as_deref() != db.best_id() {
                best = db.best_id().map(Arc::from);
            }
        }
        best_after.push(best.clone());
    }
    if let Some(i) = (0..events.len().max(produced.len())).find(|&i| events.get(i) != produced.get(i)) {
        return Err(mismatch(
            i,
            format!("differs on replay: recorded {:?}, replayed {:?}", events.get(i), produced.get(i)),
        ));
    }
    Ok(best_after)
}
