//! The `Database` class: the core's database with camelCase methods and typed objects in and out.

use evodb_core::{AddRequest, NoteKind, NoteRequest, RemeasureRequest};
use wasm_bindgen::prelude::*;

use crate::convert::{config_from, error, seed_from, stringify, to_js, to_js_error};

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
    ///
    /// ```js
    /// const db = new Database({ numIslands: 4, fitness: { kind: "primary", metric: "score" } }, 7);
    /// ```
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Config | null")] config: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] seed: Option<f64>,
    ) -> Result<Database, JsValue> {
        let inner = evodb_core::Database::new(config_from(&config)?, seed_from(seed)?).map_err(to_js_error)?;
        Ok(Database { inner })
    }

    /// `Database.fromJson(text)`: reads `database.json` text (evodb's or the seed CLI's).
    ///
    /// ```js
    /// const db = Database.fromJson(fs.readFileSync("database.json", "utf8"));
    /// ```
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(text: &str) -> Result<Database, JsValue> {
        evodb_core::Database::from_json(text).map(|inner| Database { inner }).map_err(to_js_error)
    }

    /// `db.toJson()`: the whole database as `database.json` text.
    ///
    /// ```js
    /// fs.writeFileSync("database.json", db.toJson()); // the same bytes the native core writes
    /// ```
    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// `db.add(request, now)`: `{id, metrics, bestProgramId, bestMetrics, lastIteration, warnings?}`.
    /// `now` is seconds since the epoch (`Date.now() / 1000`).
    ///
    /// ```js
    /// const { id } = db.add({ codePath: "/c/1.py", targetCode, parentId, metrics: { score } }, Date.now() / 1000);
    /// ```
    #[wasm_bindgen(unchecked_return_type = "AddOutcome")]
    pub fn add(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "AddRequest")] request: JsValue,
        now: f64,
    ) -> Result<JsValue, JsValue> {
        let request = AddRequest::from_json(&stringify(&request)?).map_err(to_js_error)?;
        to_js(&self.inner.add(request, now).map_err(to_js_error)?)
    }

    /// `db.sample(target?)`: `{parent, inspirations}`; `parent` is `null` for an empty database.
    /// In a several-target run, `target` keeps every draw within that target's islands.
    ///
    /// ```js
    /// const { parent, inspirations } = db.sample(); // the prompt's program and its examples
    /// const forParser = db.sample("parse");
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Sample")]
    pub fn sample(&mut self, target: Option<String>) -> Result<JsValue, JsValue> {
        to_js(&self.inner.sample_for(target.as_deref()).map_err(to_js_error)?)
    }

    /// `db.sampleAt(target, now)`: `sample` at time `now` (seconds). A leased plan item whose
    /// lease expired unanswered (its worker died) is handed out again in place of a draw: the
    /// sample then carries its `planItem` and a new `lease` to answer it with.
    ///
    /// ```js
    /// const s = db.sampleAt(undefined, Date.now() / 1000);
    /// if (s.planItem) db.add({ ...candidate, planItem: s.planItem, token: s.lease.token }, now);
    /// ```
    #[wasm_bindgen(js_name = sampleAt, unchecked_return_type = "Sample")]
    pub fn sample_at(&mut self, target: Option<String>, now: f64) -> Result<JsValue, JsValue> {
        to_js(&self.inner.sample_at(target.as_deref(), now).map_err(to_js_error)?)
    }

    /// `db.best(target?)`: `{id, codePath, targetCode, metrics, changes, iterationFound}` or
    /// `null`; with `target`, that target's best.
    ///
    /// ```js
    /// const score = db.best()?.metrics.score;
    /// ```
    #[wasm_bindgen(unchecked_return_type = "BestProgram | null")]
    pub fn best(&self, target: Option<String>) -> Result<JsValue, JsValue> {
        to_js(&self.inner.best_for(target.as_deref()).map_err(to_js_error)?)
    }

    /// `db.paretoFront()`: a pareto run's first front, best-ranked first (largest crowding
    /// distance, then fitness); throws in the other selection modes.
    ///
    /// ```js
    /// const front = db.paretoFront(); // [{id, metrics, …}, …]
    /// ```
    #[wasm_bindgen(js_name = paretoFront, unchecked_return_type = "BestProgram[]")]
    pub fn pareto_front(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.pareto_front().map_err(to_js_error)?)
    }

    /// `db.info()`: the seed CLI's `info` object.
    ///
    /// ```js
    /// const { isEmpty, lastIteration, bestProgramId } = db.info();
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Info")]
    pub fn info(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.info())
    }

    /// `db.stats()`: `{programCount, evaluations, bestProgramId, bestFitness, meanFitness,
    /// baselineFitness, improvement, islands: [{island, size, bestProgramId, bestFitness, meanFitness}]}`.
    ///
    /// ```js
    /// const { improvement, islands } = db.stats(); // improvement > 0: better than the seed program
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Stats")]
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.stats())
    }

    /// `db.lineage(id)`: `{id, ancestors, missingAncestor, descendants}` of a live program, or
    /// `null` when no live program has that id.
    ///
    /// ```js
    /// const { ancestors } = db.lineage(db.best().id); // parent first, back to the seed program
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Lineage | null")]
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

    /// `db.evoideaExport()`: an idea run as evoidea's files, `{kind, state, final}` (JSON text;
    /// `state` and `final` are null for a programs run, `run_id` is the caller's to fill).
    #[wasm_bindgen(js_name = evoideaExport)]
    pub fn evoidea_export(&self) -> String {
        self.inner.evoidea_export()
    }

    /// `db.populationMarkdown()`: the AlphaEvolve strategy's `## 🧬 Population` section, newest first.
    ///
    /// ```js
    /// fs.writeFileSync("population.md", db.populationMarkdown());
    /// ```
    #[wasm_bindgen(js_name = populationMarkdown)]
    pub fn population_markdown(&self) -> String {
        self.inner.population_markdown()
    }

    /// `db.shouldStop(target?)`: `{stop, reason, evaluations, rounds, stagnation, bestFitness}`;
    /// with `target`, that target's verdict.
    ///
    /// ```js
    /// while (!db.shouldStop().stop) { const { parent } = db.sample(); db.add(await evolve(parent), now()); }
    /// ```
    #[wasm_bindgen(js_name = shouldStop, unchecked_return_type = "StopVerdict")]
    pub fn should_stop(&self, target: Option<String>) -> Result<JsValue, JsValue> {
        to_js(&self.inner.should_stop_for(target.as_deref()).map_err(to_js_error)?)
    }

    /// `db.plan(n, frozen?, boosted?)`: `n` work items for parallel workers, each with a name,
    /// operator, target island and parent ids; pass an item's name as `planItem` when adding.
    ///
    /// ```js
    /// const { items } = db.plan(8, [], [2]); // island 2 gets twice the share
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Plan")]
    pub fn plan(&mut self, n: u32, frozen: Option<Vec<u32>>, boosted: Option<Vec<u32>>) -> Result<JsValue, JsValue> {
        let plan =
            self.inner.plan(n, &frozen.unwrap_or_default(), &boosted.unwrap_or_default()).map_err(to_js_error)?;
        to_js(&plan)
    }

    /// `db.planAt(n, frozen, boosted, now, leaseSeconds?)`: `plan` at time `now` (seconds), each
    /// item under a lease of `leaseSeconds` (else the config's `leaseSeconds`, else none). An
    /// item's `lease.token` goes with its answer (`token`) and its heartbeats; expired, unanswered
    /// items are handed out again first, with a new token.
    ///
    /// ```js
    /// const { items } = db.planAt(4, [], [], Date.now() / 1000, 600);
    /// db.add({ ...candidate, planItem: items[0].name, token: items[0].lease.token }, Date.now() / 1000);
    /// ```
    #[wasm_bindgen(js_name = planAt, unchecked_return_type = "Plan")]
    pub fn plan_at(
        &mut self,
        n: u32,
        frozen: Option<Vec<u32>>,
        boosted: Option<Vec<u32>>,
        now: f64,
        #[wasm_bindgen(js_name = leaseSeconds)] lease_seconds: Option<f64>,
    ) -> Result<JsValue, JsValue> {
        let (frozen, boosted) = (frozen.unwrap_or_default(), boosted.unwrap_or_default());
        to_js(&self.inner.plan_at(n, &frozen, &boosted, now, lease_seconds).map_err(to_js_error)?)
    }

    /// `db.heartbeat(item, token, now, leaseSeconds?)`: extends a leased item's lease to `now` +
    /// `leaseSeconds` (else its own length); a stale token is refused.
    ///
    /// ```js
    /// const { expires } = db.heartbeat(item.name, item.lease.token, Date.now() / 1000);
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Lease")]
    pub fn heartbeat(
        &mut self,
        item: &str,
        token: &str,
        now: f64,
        #[wasm_bindgen(js_name = leaseSeconds)] lease_seconds: Option<f64>,
    ) -> Result<JsValue, JsValue> {
        to_js(&self.inner.heartbeat(item, token, now, lease_seconds).map_err(to_js_error)?)
    }

    /// `db.leases(now)`: every leased item not applied yet, in plan order: live, expired or held.
    ///
    /// ```js
    /// const expired = db.leases(Date.now() / 1000).filter((l) => l.state === "expired");
    /// ```
    #[wasm_bindgen(unchecked_return_type = "LeaseEntry[]")]
    pub fn leases(&self, now: f64) -> Result<JsValue, JsValue> {
        to_js(&self.inner.leases(now).map_err(to_js_error)?)
    }

    /// `db.note(request)`: keeps a note (run memory) that later samples and plan items carry.
    ///
    /// ```js
    /// db.note({ kind: "lesson", text: "numpy's sieve beats the pure-Python loop", target: "sieve" });
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Note")]
    pub fn note(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "NoteRequest")] request: JsValue,
    ) -> Result<JsValue, JsValue> {
        let request = NoteRequest::from_json(&stringify(&request)?).map_err(to_js_error)?;
        to_js(&self.inner.note(request).map_err(to_js_error)?)
    }

    /// `db.remeasure({id, metrics})`: folds a new measurement of live program `id` into its
    /// metrics (their running mean, with the count in `measurements`) and re-ranks it.
    ///
    /// ```js
    /// const { fitness, measurements } = db.remeasure({ id: best.id, metrics: { score: 0.41 } });
    /// ```
    pub fn remeasure(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "RemeasureRequest")] request: JsValue,
    ) -> Result<JsValue, JsValue> {
        let request = RemeasureRequest::from_json(&stringify(&request)?).map_err(to_js_error)?;
        to_js(&self.inner.remeasure(request).map_err(to_js_error)?)
    }

    /// `db.notes(target?, kind?, limit?)`: the notes, newest first (a target's and the run-wide ones).
    ///
    /// ```js
    /// const failures = db.notes(null, "failure", 10);
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Note[]")]
    pub fn notes(
        &self,
        target: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "NoteKind | null")] kind: Option<String>,
        limit: Option<u32>,
    ) -> Result<JsValue, JsValue> {
        let kind = kind
            .map(|kind| serde_json::from_value::<NoteKind>(serde_json::Value::String(kind)))
            .transpose()
            .map_err(|_| error("invalid-input", "invalid input: `kind` must be \"lesson\", \"failure\" or \"idea\""))?;
        to_js(&self.inner.notes(target.as_deref(), kind, limit))
    }

    /// `db.admit(code, codePath)`: before evaluating a candidate, whether it duplicates (or nearly
    /// duplicates) a live program; reads only. `codePath`'s extension names the comment syntax.
    ///
    /// ```js
    /// const { verdict, of, similarity } = db.admit(code, "candidates/iter_7.py");
    /// if (verdict !== "evaluate") console.log(`skip: ${verdict} of ${of} (${similarity})`);
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Admission")]
    pub fn admit(&self, code: &str, #[wasm_bindgen(js_name = codePath)] code_path: &str) -> Result<JsValue, JsValue> {
        to_js(&self.inner.admit(code, code_path))
    }

    /// `db.nearDuplicates()`: each live program whose code is at least the config's
    /// `nearDuplicate` (default 0.9) alike an earlier-added live program, as `admit` measures it,
    /// with the closest such program (the earliest on a tie), in the order they were added.
    ///
    /// ```js
    /// for (const { id, of, similarity } of db.nearDuplicates()) {
    ///   console.log(`${id} ≈ ${of} (${similarity})`); // e.g. a retry with only comments changed: 1
    /// }
    /// ```
    #[wasm_bindgen(js_name = nearDuplicates, unchecked_return_type = "NearDuplicate[]")]
    pub fn near_duplicates(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.near_duplicates())
    }

    /// `db.admitEmbedding(code, codePath, embedding)`: `admit` by your own embedding of the code
    /// (numbers; the same model and length as the adds' `embedding`): near-duplicates by cosine
    /// similarity. Throws for an embedding that is empty, not finite, all zeros or of another length.
    ///
    /// ```js
    /// db.add({ ...seed, embedding: await embed(seed.targetCode) }, now);
    /// const { verdict } = db.admitEmbedding(code, "c.py", await embed(code));
    /// ```
    #[wasm_bindgen(js_name = admitEmbedding, unchecked_return_type = "Admission")]
    pub fn admit_embedding(
        &self,
        code: &str,
        #[wasm_bindgen(js_name = codePath)] code_path: &str,
        embedding: Vec<f64>,
    ) -> Result<JsValue, JsValue> {
        to_js(&self.inner.admit_embedding(code, code_path, &embedding).map_err(to_js_error)?)
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
    ///
    /// ```js
    /// const added = db.takeEvents().filter((e) => e.event === "added"); // typed by `event`
    /// ```
    #[wasm_bindgen(js_name = takeEvents, unchecked_return_type = "Event[]")]
    pub fn take_events(&mut self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.take_events())
    }

    /// `Database.replay(events)`: rebuilds a database from its events (the first is `created`).
    ///
    /// ```js
    /// const again = Database.replay(history); // same toJson() as the original
    /// ```
    pub fn replay(#[wasm_bindgen(unchecked_param_type = "Event[]")] events: JsValue) -> Result<Database, JsValue> {
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

    /// `Database.compareHistory(text, history)`: `history.ndjson` replayed and compared with a
    /// `database.json` text; every disagreement, named (empty: they agree).
    ///
    /// ```js
    /// const disagreements = Database.compareHistory(databaseText, historyText);
    /// ```
    #[wasm_bindgen(js_name = compareHistory)]
    pub fn compare_history(text: &str, history: &str) -> Vec<String> {
        evodb_core::Database::compare_history(text, history)
    }

    /// `db.noticeLostSection(history)`: after `fromJson`, when the file had no `evodb` section but
    /// `history` (history.ndjson's text) holds evodb's events, a warning naming what was lost
    /// joins `db.loadWarnings()`.
    #[wasm_bindgen(js_name = noticeLostSection)]
    pub fn notice_lost_section(&mut self, history: &str) {
        self.inner.notice_lost_section(history);
    }

    /// `db.lacksEvodbSection()`: the file it was read from had no `evodb` section.
    #[wasm_bindgen(js_name = lacksEvodbSection)]
    pub fn lacks_evodb_section(&self) -> bool {
        self.inner.lacks_evodb_section()
    }

    /// `db.loadWarnings()`: what loading noticed that the user should be told.
    #[wasm_bindgen(js_name = loadWarnings)]
    pub fn load_warnings(&self) -> Vec<String> {
        self.inner.load_warnings().to_vec()
    }
}
