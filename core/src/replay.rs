//! `Database::replay`: a database rebuilt from its recorded events. It drives the engine through
//! its public operations only, so it lives beside the simulation, apart from the engine.

use crate::error::{Error, Result};
use crate::state::{Database, Event};

impl Database {
    /// Rebuilds a database from its events (the first must be `created`), re-running every input
    /// and checking that each consequence happens again, in order.
    pub fn replay(events: &[Event]) -> Result<Database> {
        let mismatch = |i: usize, what: String| Error::input(format!("events[{i}]"), what);
        let Some(Event::Created { seed, config }) = events.first() else {
            return Err(mismatch(0, "is not a `created` event; replay starts from the database's creation".into()));
        };
        let mut db = Database::new(config.clone(), *seed)?;
        db.record_events(true);
        let mut produced = db.take_events();
        for (i, event) in events.iter().enumerate().skip(1).filter(|(_, e)| e.is_input()) {
            match event {
                Event::Added { request, now, .. }
                | Event::Status { request, now, .. }
                | Event::Cached { request, now, .. }
                | Event::Held { request, now, .. }
                | Event::Synergy { request, now, .. } => {
                    db.add(request.clone(), *now).map_err(|e| mismatch(i, format!("no longer applies: {e}")))?;
                }
                Event::Sampled { target, .. } => {
                    db.sample_for(target.as_deref()).map_err(|e| mismatch(i, format!("no longer applies: {e}")))?;
                }
                Event::Planned { n, frozen, boosted, .. } => {
                    db.plan(*n, frozen, boosted).map_err(|e| mismatch(i, format!("no longer applies: {e}")))?;
                }
                Event::Noted { request } => {
                    db.note(request.clone()).map_err(|e| mismatch(i, format!("no longer applies: {e}")))?;
                }
                Event::Created { .. } => return Err(mismatch(i, "is a second `created` event".into())),
                _ => unreachable!("filtered to inputs"),
            }
            produced.extend(db.take_events());
        }
        if let Some(i) = (0..events.len().max(produced.len())).find(|&i| events.get(i) != produced.get(i)) {
            return Err(mismatch(
                i,
                format!("differs on replay: recorded {:?}, replayed {:?}", events.get(i), produced.get(i)),
            ));
        }
        db.record_events(false);
        Ok(db)
    }
}
