//! The wasm-bindgen face of evodb: a `Database` class with camelCase methods, plain JS objects in
//! and out, and errors thrown as `EvodbError` (an `Error` with a machine-readable `code`).
//! Thin translation only: every rule lives in `evodb-core`. Values cross the boundary as JSON
//! text, so their shapes (key order, `null`s) are exactly the core's on every face.

use evodb_core::json_text::to_compact_js;
use evodb_core::{AddRequest, Config};
use serde::Serialize;
use wasm_bindgen::prelude::*;

mod simulation;
pub use simulation::Simulation;

/// A population database.
///
/// ```js
/// import { Database } from "evodb";
/// const db = new Database({ numIslands: 3 }, 42);
/// const seed = db.add({ codePath: "/src/f.py", targetCode: "def f(): ...", parentId: "0",
///                       metrics: { score: 0.5 }, changes: "initial implementation" }, Date.now() / 1000);
/// const { parent, inspirations } = db.sample();
/// ```
#[wasm_bindgen]
pub struct Database {
    inner: evodb_core::Database,
}

#[wasm_bindgen]
impl Database {
    /// `new Database(config?, seed?)`: `config` is a plain object of options (missing ones take
    /// the seed's defaults); `seed` a non-negative integer (default 0).
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue, seed: Option<f64>) -> Result<Database, JsValue> {
        let inner = evodb_core::Database::new(config_from(&config)?, seed_from(seed)?).map_err(to_js_error)?;
        Ok(Database { inner })
    }

    /// `Database.fromJson(text)`: reads `database.json` text (evodb's or the seed CLI's).
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(text: &str) -> Result<Database, JsValue> {
        evodb_core::Database::from_json(text).map(|inner| Database { inner }).map_err(to_js_error)
    }

    /// `db.toJson()`: the whole database as `database.json` text.
    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// `db.add(request, now)`: `{id, metrics, bestProgramId, bestMetrics, lastIteration, warnings?}`.
    /// `now` is seconds since the epoch (`Date.now() / 1000`).
    pub fn add(&mut self, request: JsValue, now: f64) -> Result<JsValue, JsValue> {
        let request = AddRequest::from_json(&stringify(&request)?).map_err(to_js_error)?;
        to_js(&self.inner.add(request, now).map_err(to_js_error)?)
    }

    /// `db.sample()`: `{parent, inspirations}`; `parent` is `null` for an empty database.
    pub fn sample(&mut self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.sample())
    }

    /// `db.best()`: `{id, codePath, targetCode, metrics, changes, iterationFound}` or `null`.
    pub fn best(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.best())
    }

    /// `db.info()`: the seed CLI's `info` object.
    pub fn info(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.info())
    }

    /// `db.stats()`: `{programCount, evaluations, bestProgramId, bestFitness, meanFitness,
    /// baselineFitness, improvement, islands: [{island, size, bestProgramId, bestFitness, meanFitness}]}`.
    ///
    /// ```js
    /// const { improvement, islands } = db.stats(); // improvement > 0: better than the seed program
    /// ```
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.stats())
    }

    /// `db.lineage(id)`: `{id, ancestors, missingAncestor, descendants}` of a live program, or
    /// `null` when no live program has that id.
    ///
    /// ```js
    /// const { ancestors } = db.lineage(db.best().id); // parent first, back to the seed program
    /// ```
    pub fn lineage(&self, id: &str) -> Result<JsValue, JsValue> {
        to_js(&self.inner.lineage(id))
    }

    /// `db.lineageMermaid()`: the live population's family tree as a Mermaid flowchart.
    ///
    /// ```js
    /// document.querySelector("pre.mermaid").textContent = db.lineageMermaid();
    /// ```
    #[wasm_bindgen(js_name = lineageMermaid)]
    pub fn lineage_mermaid(&self) -> String {
        self.inner.lineage_mermaid()
    }

    /// `db.lineageTree()`: the same family tree as indented ASCII (evoidea's `tree`).
    ///
    /// ```js
    /// console.log(db.lineageTree()); // "#1 3f2a… fitness 0.500 gen 0 island 0\n└── #2 …"
    /// ```
    #[wasm_bindgen(js_name = lineageTree)]
    pub fn lineage_tree(&self) -> String {
        self.inner.lineage_tree()
    }

    /// `db.populationMarkdown()`: seed 004's `## 🧬 Population` section, newest first.
    ///
    /// ```js
    /// fs.writeFileSync("population.md", db.populationMarkdown());
    /// ```
    #[wasm_bindgen(js_name = populationMarkdown)]
    pub fn population_markdown(&self) -> String {
        self.inner.population_markdown()
    }

    /// `db.shouldStop()`: `{stop, reason, evaluations, rounds, stagnation, bestFitness}`.
    ///
    /// ```js
    /// while (!db.shouldStop().stop) { const { parent } = db.sample(); db.add(await evolve(parent), now()); }
    /// ```
    #[wasm_bindgen(js_name = shouldStop)]
    pub fn should_stop(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.should_stop())
    }

    /// `db.plan(n, frozen?, boosted?)`: `n` work items for parallel workers, each with a name,
    /// operator, target island and parent ids; pass an item's name as `planItem` when adding.
    ///
    /// ```js
    /// const { items } = db.plan(8, [], [2]); // island 2 gets twice the share
    /// ```
    pub fn plan(&mut self, n: u32, frozen: Option<Vec<u32>>, boosted: Option<Vec<u32>>) -> Result<JsValue, JsValue> {
        let plan =
            self.inner.plan(n, &frozen.unwrap_or_default(), &boosted.unwrap_or_default()).map_err(to_js_error)?;
        to_js(&plan)
    }

    /// `db.recordEvents(on)`: start (or stop) recording events; `db.takeEvents()` drains them.
    ///
    /// ```js
    /// db.recordEvents(true);
    /// db.add(request, now);
    /// for (const e of db.takeEvents()) history.push(e); // {event: "added", …}, {event: "evicted", …}
    /// ```
    #[wasm_bindgen(js_name = recordEvents)]
    pub fn record_events(&mut self, on: bool) {
        self.inner.record_events(on);
    }

    /// `db.takeEvents()`: the events recorded since the last call, oldest first.
    #[wasm_bindgen(js_name = takeEvents)]
    pub fn take_events(&mut self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.take_events())
    }

    /// `Database.replay(events)`: rebuilds a database from its events (the first is `created`).
    ///
    /// ```js
    /// const again = Database.replay(history); // same toJson() as the original
    /// ```
    pub fn replay(events: JsValue) -> Result<Database, JsValue> {
        let events: Vec<evodb_core::Event> = serde_json::from_str(&stringify(&events)?).map_err(|e| {
            error("invalid-input", &format!("invalid input: `events` {e}; pass the list takeEvents() returned"))
        })?;
        evodb_core::Database::replay(&events).map(|inner| Database { inner }).map_err(to_js_error)
    }

    /// `Database.validate(text)`: every problem found in a `database.json` text (empty: sound).
    ///
    /// ```js
    /// const problems = Database.validate(fs.readFileSync("database.json", "utf8"));
    /// ```
    pub fn validate(text: &str) -> Vec<String> {
        evodb_core::Database::validate_json(text)
    }
}

/// `policyCheck(changedFiles, targetFile, protected?)`: `{pass, reason}` — seed 003's rule that a
/// candidate changes only its target file and no protected one (`benchmark*.py`, `eval*.py`,
/// `*.sh` by default).
///
/// ```js
/// policyCheck(["model.py", "benchmark.py"], "model.py"); // {pass: false, reason: "Protected file modified: 'benchmark.py'"}
/// ```
#[wasm_bindgen(js_name = policyCheck)]
pub fn policy_check(
    changed_files: Vec<String>,
    target_file: &str,
    protected: Option<Vec<String>>,
) -> Result<JsValue, JsValue> {
    let changed: Vec<&str> = changed_files.iter().map(String::as_str).collect();
    let protected: Option<Vec<&str>> = protected.as_ref().map(|p| p.iter().map(String::as_str).collect());
    to_js(&evodb_core::policy_check(&changed, target_file, protected.as_deref()))
}

/// A config object, or the defaults when it is `undefined`/`null`.
pub(crate) fn config_from(config: &JsValue) -> Result<Config, JsValue> {
    if config.is_undefined() || config.is_null() {
        return Ok(Config::default());
    }
    Config::from_json(&stringify(config)?).map_err(to_js_error)
}

pub(crate) fn seed_from(seed: Option<f64>) -> Result<u64, JsValue> {
    match seed {
        None => Ok(0),
        Some(s) if s >= 0.0 && s.fract() == 0.0 && s <= evodb_core::MAX_SEED as f64 => Ok(s as u64),
        Some(s) => Err(error("invalid-config", &format!("invalid config: `seed` is {s}; pass a non-negative integer"))),
    }
}

pub(crate) fn stringify(value: &JsValue) -> Result<String, JsValue> {
    js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()).ok_or_else(|| {
        error("invalid-input", "invalid input: the value cannot be written as JSON; pass a plain object")
    })
}

pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(&to_compact_js(value))
}

/// The one error conversion: an `Error` named `EvodbError` with the core's `code`.
pub(crate) fn to_js_error(err: evodb_core::Error) -> JsValue {
    error(err.code(), &err.to_string())
}

pub(crate) fn error(code: &str, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    err.set_name("EvodbError");
    js_sys::Reflect::set(&err, &"code".into(), &code.into()).expect("an Error accepts properties");
    err.into()
}
