//! The playground's saved run: `evodb_core::Replay`, so the page shows the engine's own answers
//! (fitness, best program, config) and holds only what it draws.

use wasm_bindgen::prelude::*;

use crate::convert::{to_js, to_js_error};

/// A saved run, event by event, with the engine's best program after each event.
///
/// ```js
/// import { Replay } from "evodb";
/// const replay = Replay.open(databaseJson, historyNdjson); // history: null for a seed-written file
/// const events = JSON.parse(replay.eventsJson(0));           // [{event: "created", …}, …]
/// replay.bestAfter(events.length);                           // the run's best id, as `evodb best`
/// replay.append(newLines);                                   // a followed run's next lines
/// ```
#[wasm_bindgen]
pub struct Replay {
    inner: evodb_core::Replay,
}

#[wasm_bindgen]
impl Replay {
    /// `Replay.open(databaseJson, historyNdjson?)`: the run `database.json` and its
    /// `history.ndjson` record, re-run by the engine; without a history (or one that does not
    /// start at the run's creation), the file's programs re-inserted.
    pub fn open(database_json: &str, history: Option<String>) -> Result<Replay, JsValue> {
        let inner = evodb_core::Replay::open(database_json, history.as_deref()).map_err(to_js_error)?;
        Ok(Replay { inner })
    }

    /// `replay.length`: how many events the run has so far.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.inner.len()
    }

    /// `replay.eventsJson(from)`: the events from index `from` on, as one JSON array's text.
    #[wasm_bindgen(js_name = eventsJson)]
    pub fn events_json(&self, from: usize) -> String {
        self.inner.events_json(from)
    }

    /// `replay.bestAfter(k)`: the best program's id once the first `k` events have happened
    /// (`undefined` before any program).
    #[wasm_bindgen(js_name = bestAfter)]
    pub fn best_after(&self, k: usize) -> Option<String> {
        self.inner.best_after(k).map(String::from)
    }

    /// `replay.stats()`: the run's statistics after its last event, as `Database.stats()`
    /// (`null` when its programs were re-inserted from the file rather than re-run).
    ///
    /// ```js
    /// const stats = replay.stats();
    /// stats?.attribution; // per operator × model × island: candidates, improvements, cost
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Stats | null")]
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        match self.inner.database() {
            Some(database) => to_js(&database.stats()),
            None => Ok(JsValue::NULL),
        }
    }

    /// `replay.note`: why the events are re-inserted rather than recorded (`undefined`: they are recorded).
    #[wasm_bindgen(getter)]
    pub fn note(&self) -> Option<String> {
        self.inner.note().map(String::from)
    }

    /// `replay.append(lines)`: a followed run's new `history.ndjson` lines, re-run and added;
    /// returns how many events were added (an operation not yet whole waits for its next lines).
    pub fn append(&mut self, lines: &str) -> Result<usize, JsValue> {
        self.inner.append(lines).map_err(to_js_error)
    }
}
