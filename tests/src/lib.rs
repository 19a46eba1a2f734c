//! The conformance vectors (`tests/vectors/*.json`) and their native replay.
//!
//! A vector is face-neutral JSON:
//!
//! ```json
//! { "name": "…", "description": "…", "seed": 7,
//!   "config": {…} | "initial": {database.json value} | "initialText": "raw text",
//!   "ops": [ {"op": "add", "now": 1700000000.5, "request": {…AddRequest…}},
//!            {"op": "sample"}, {"op": "best"}, {"op": "info"},
//!            {"op": "reload"}, {"op": "snapshot"}, {"op": "stats"}, {"op": "shouldStop"},
//!            {"op": "plan", "n": 4, "frozen": [], "boosted": []}, {"op": "lineage", "id": "…"},
//!            {"op": "export", "format": "tree" | "mermaid" | "markdown"}, {"op": "events"},
//!            {"op": "validate", "text": "…"},
//!            {"op": "policy", "changed": […], "target": "…", "protected": […] | null},
//!            {"op": "note", "request": {…NoteRequest…}},
//!            {"op": "remeasure", "request": {…RemeasureRequest…}},
//!            {"op": "admit", "code": "…", "codePath": "c.py"},
//!            {"op": "notes", "target": "…" | null, "kind": "…" | null, "limit": n | null} ],
//!   "expected": { "results": [ {"ok": …} | {"error": "code"} ], "database": {…} }
//!            | { "createError": "code" } }
//! ```
//!
//! `reload` round-trips the database through its JSON text; `snapshot` records the database
//! value. Every face replays the same ops through its own API and must produce the same results
//! and, for `database`, exactly the bytes of `JSON.stringify(expected.database, null, 2)`.

mod engine_specs;
mod idea_specs;
mod memory_specs;
mod objective_specs;
pub mod specs;
mod target_specs;
pub mod wit_calls;
mod worker_specs;

use std::path::{Path, PathBuf};

use evodb_core::json_text::{to_compact_js, to_pretty_js};
use evodb_core::{AddRequest, Config, Database, ExportFormat, NoteKind, NoteRequest, RemeasureRequest};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// How many vectors the suite holds; every runner asserts it ran exactly this many.
pub const VECTOR_COUNT: usize = 92;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Vector {
    pub name: String,
    pub description: String,
    pub seed: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_text: Option<String>,
    pub ops: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Expected {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub create_error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub results: Option<Vec<Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub database: Option<Value>,
}

/// One way of reaching the engine: the native core, the wasm-bindgen package, the component.
/// Values cross in the seed CLI's JSON shapes; a failure is the core's error code
/// (`invalid-input`, …). A face replays a vector through its own API, so one driver
/// ([`replay_on`]) and one comparison ([`mismatches`]) serve every Rust-hosted runner.
pub trait Face {
    type Db;
    /// `config` is the options object as JSON text (`{}` for the seed's defaults).
    fn create(&mut self, config: &str, seed: u64) -> Result<Self::Db, String>;
    fn load(&mut self, text: &str) -> Result<Self::Db, String>;
    fn to_json(&mut self, db: &Self::Db) -> String;
    fn add(&mut self, db: &mut Self::Db, request: &Value, now: f64) -> Result<Value, String>;
    /// `target`: a several-target run's target (`sample-for`); `None` is the plain `sample`.
    fn sample(&mut self, db: &mut Self::Db, target: Option<&str>) -> Result<Value, String>;
    /// `sample` at `now`: an expired leased item is handed out again in place of a draw.
    fn sample_at(&mut self, db: &mut Self::Db, target: Option<&str>, now: f64) -> Result<Value, String>;
    fn best(&mut self, db: &Self::Db, target: Option<&str>) -> Result<Value, String>;
    fn info(&mut self, db: &Self::Db) -> Value;
    fn stats(&mut self, db: &Self::Db) -> Value;
    fn should_stop(&mut self, db: &Self::Db, target: Option<&str>) -> Result<Value, String>;
    fn plan(&mut self, db: &mut Self::Db, n: u32, frozen: &[u32], boosted: &[u32]) -> Result<Value, String>;
    /// `plan` at `now`, leased for `lease_seconds` (else the config's).
    fn plan_at(&mut self, db: &mut Self::Db, plan: &PlanAt) -> Result<Value, String>;
    fn heartbeat(
        &mut self,
        db: &mut Self::Db,
        item: &str,
        token: &str,
        now: f64,
        lease_seconds: Option<f64>,
    ) -> Result<Value, String>;
    fn leases(&mut self, db: &Self::Db, now: f64) -> Result<Value, String>;
    /// `Lineage` or null for an unknown id.
    fn lineage(&mut self, db: &Self::Db, id: &str) -> Value;
    /// The text of an export (the vectors use `tree`, `mermaid` and `markdown`).
    fn export(&mut self, db: &Self::Db, format: ExportFormat) -> String;
    /// The events recorded since the last call (recording starts when the database is created).
    fn events(&mut self, db: &mut Self::Db) -> Value;
    /// Every problem `validate` finds in a database text.
    fn validate(&mut self, text: &str) -> Vec<String>;
    fn policy(&mut self, changed: &[String], target: &str, protected: Option<&[String]>) -> Value;
    /// `request` is a `NoteRequest`'s JSON.
    fn note(&mut self, db: &mut Self::Db, request: &Value) -> Result<Value, String>;
    /// `kind` is a `NoteKind`'s name.
    fn notes(&mut self, db: &Self::Db, target: Option<&str>, kind: Option<&str>, limit: Option<u32>) -> Value;
    /// `request` is a `RemeasureRequest`'s JSON.
    fn remeasure(&mut self, db: &mut Self::Db, request: &Value) -> Result<Value, String>;
    /// `admit`'s verdict (an `Admission`'s JSON).
    fn admit(&mut self, db: &Self::Db, code: &str, code_path: &str) -> Value;
    /// `admit` by the caller's embedding (an `Admission`'s JSON, or the error's code).
    fn admit_embedding(
        &mut self,
        db: &Self::Db,
        code: &str,
        code_path: &str,
        embedding: &[f64],
    ) -> Result<Value, String>;
}

/// A `planAt` op's arguments.
pub struct PlanAt {
    pub n: u32,
    pub frozen: Vec<u32>,
    pub boosted: Vec<u32>,
    pub now: f64,
    pub lease_seconds: Option<f64>,
}

/// A vector's note kind name as the core's enum.
pub fn note_kind(name: &str) -> NoteKind {
    serde_json::from_value(json!(name)).expect("vectors name lesson, failure or idea")
}

/// The events face runners start recording on: every database a face creates or loads.
pub fn start_recording(db: &mut Database) {
    db.record_events(true);
}

/// The native core as a [`Face`] — the reference every other face is compared with.
pub struct Native;

impl Face for Native {
    type Db = Database;
    fn create(&mut self, config: &str, seed: u64) -> Result<Database, String> {
        let mut db = Config::from_json(config).and_then(|config| Database::new(config, seed)).map_err(|e| e.code())?;
        start_recording(&mut db);
        Ok(db)
    }
    fn load(&mut self, text: &str) -> Result<Database, String> {
        let mut db = Database::from_json(text).map_err(|e| e.code())?;
        start_recording(&mut db);
        Ok(db)
    }
    fn to_json(&mut self, db: &Database) -> String {
        db.to_json()
    }
    fn add(&mut self, db: &mut Database, request: &Value, now: f64) -> Result<Value, String> {
        let request = AddRequest::from_json(&request.to_string()).map_err(|e| e.code().to_string())?;
        db.add(request, now).map(|out| json!(out)).map_err(|e| e.code().into())
    }
    fn sample(&mut self, db: &mut Database, target: Option<&str>) -> Result<Value, String> {
        db.sample_for(target).map(|sample| json!(sample)).map_err(|e| e.code().into())
    }
    fn best(&mut self, db: &Database, target: Option<&str>) -> Result<Value, String> {
        db.best_for(target).map(|best| json!(best)).map_err(|e| e.code().into())
    }
    fn info(&mut self, db: &Database) -> Value {
        json!(db.info())
    }
    fn stats(&mut self, db: &Database) -> Value {
        json!(db.stats())
    }
    fn should_stop(&mut self, db: &Database, target: Option<&str>) -> Result<Value, String> {
        db.should_stop_for(target).map(|verdict| json!(verdict)).map_err(|e| e.code().into())
    }
    fn plan(&mut self, db: &mut Database, n: u32, frozen: &[u32], boosted: &[u32]) -> Result<Value, String> {
        db.plan(n, frozen, boosted).map(|plan| json!(plan)).map_err(|e| e.code().into())
    }
    fn sample_at(&mut self, db: &mut Database, target: Option<&str>, now: f64) -> Result<Value, String> {
        db.sample_at(target, now).map(|sample| json!(sample)).map_err(|e| e.code().into())
    }
    fn plan_at(&mut self, db: &mut Database, p: &PlanAt) -> Result<Value, String> {
        db.plan_at(p.n, &p.frozen, &p.boosted, p.now, p.lease_seconds)
            .map(|plan| json!(plan))
            .map_err(|e| e.code().into())
    }
    fn heartbeat(
        &mut self,
        db: &mut Database,
        item: &str,
        token: &str,
        now: f64,
        lease_seconds: Option<f64>,
    ) -> Result<Value, String> {
        db.heartbeat(item, token, now, lease_seconds).map(|lease| json!(lease)).map_err(|e| e.code().into())
    }
    fn leases(&mut self, db: &Database, now: f64) -> Result<Value, String> {
        db.leases(now).map(|leases| json!(leases)).map_err(|e| e.code().into())
    }
    fn lineage(&mut self, db: &Database, id: &str) -> Value {
        json!(db.lineage(id))
    }
    fn export(&mut self, db: &Database, format: ExportFormat) -> String {
        db.export(format)
    }
    fn events(&mut self, db: &mut Database) -> Value {
        json!(db.take_events())
    }
    fn validate(&mut self, text: &str) -> Vec<String> {
        Database::validate_json(text)
    }
    fn policy(&mut self, changed: &[String], target: &str, protected: Option<&[String]>) -> Value {
        let changed: Vec<&str> = changed.iter().map(String::as_str).collect();
        let protected: Option<Vec<&str>> = protected.map(|p| p.iter().map(String::as_str).collect());
        json!(evodb_core::policy_check(&changed, target, protected.as_deref()))
    }
    fn note(&mut self, db: &mut Database, request: &Value) -> Result<Value, String> {
        let request = NoteRequest::from_json(&request.to_string()).map_err(|e| e.code().to_string())?;
        db.note(request).map(|note| json!(note)).map_err(|e| e.code().into())
    }
    fn notes(&mut self, db: &Database, target: Option<&str>, kind: Option<&str>, limit: Option<u32>) -> Value {
        json!(db.notes(target, kind.map(note_kind), limit))
    }
    fn remeasure(&mut self, db: &mut Database, request: &Value) -> Result<Value, String> {
        let request = RemeasureRequest::from_json(&request.to_string()).map_err(|e| e.code().to_string())?;
        db.remeasure(request).map(|out| json!(out)).map_err(|e| e.code().into())
    }
    fn admit(&mut self, db: &Database, code: &str, code_path: &str) -> Value {
        json!(db.admit(code, code_path))
    }
    fn admit_embedding(
        &mut self,
        db: &Database,
        code: &str,
        code_path: &str,
        embedding: &[f64],
    ) -> Result<Value, String> {
        db.admit_embedding(code, code_path, embedding).map(|admission| json!(admission)).map_err(|e| e.code().into())
    }
}

/// What replaying a vector produced; `database_text` is the exact `to_json()` output.
pub struct Replayed {
    pub expected: Expected,
    pub database_text: Option<String>,
}

/// Replays a vector's ops through the native core.
pub fn replay(vector: &Vector) -> Replayed {
    replay_on(&mut Native, vector)
}

/// Replays a vector's ops through any face.
pub fn replay_on<F: Face>(face: &mut F, vector: &Vector) -> Replayed {
    let created = match (&vector.config, &vector.initial, &vector.initial_text) {
        (_, Some(initial), _) => face.load(&to_pretty_js(initial)),
        (_, _, Some(text)) => face.load(text),
        (config, None, None) => {
            let config = config.as_ref().map_or_else(|| "{}".into(), std::string::ToString::to_string);
            face.create(&config, vector.seed)
        }
    };
    let mut db = match created {
        Ok(db) => db,
        Err(code) => {
            return Replayed {
                expected: Expected { create_error: Some(code), results: None, database: None },
                database_text: None,
            };
        }
    };
    let results = vector.ops.iter().map(|op| apply(face, &mut db, op)).collect();
    let text = face.to_json(&db);
    let database = serde_json::from_str(&text).expect("to_json writes JSON");
    Replayed {
        expected: Expected { create_error: None, results: Some(results), database: Some(database) },
        database_text: Some(text),
    }
}

fn apply<F: Face>(face: &mut F, db: &mut F::Db, op: &Value) -> Value {
    let outcome = match op["op"].as_str().expect("every op has an `op` name") {
        "add" => face.add(db, &op["request"], op["now"].as_f64().expect("add ops carry `now`")),
        "sample" => face.sample(db, op["target"].as_str()),
        "sampleAt" => face.sample_at(db, op["target"].as_str(), op["now"].as_f64().expect("sampleAt ops carry `now`")),
        "best" => face.best(db, op["target"].as_str()),
        "info" => Ok(face.info(db)),
        "stats" => Ok(face.stats(db)),
        "shouldStop" => face.should_stop(db, op["target"].as_str()),
        "plan" => {
            let islands =
                |key: &str| -> Vec<u32> { serde_json::from_value(op[key].clone()).expect("plan ops list islands") };
            let n = op["n"].as_u64().expect("plan ops carry `n`") as u32;
            face.plan(db, n, &islands("frozen"), &islands("boosted"))
        }
        "planAt" => {
            let islands =
                |key: &str| -> Vec<u32> { serde_json::from_value(op[key].clone()).expect("plan ops list islands") };
            let plan = PlanAt {
                n: op["n"].as_u64().expect("plan ops carry `n`") as u32,
                frozen: islands("frozen"),
                boosted: islands("boosted"),
                now: op["now"].as_f64().expect("planAt ops carry `now`"),
                lease_seconds: op["leaseSeconds"].as_f64(),
            };
            face.plan_at(db, &plan)
        }
        "heartbeat" => face.heartbeat(
            db,
            op["item"].as_str().expect("heartbeat ops carry `item`"),
            op["token"].as_str().expect("heartbeat ops carry `token`"),
            op["now"].as_f64().expect("heartbeat ops carry `now`"),
            op["leaseSeconds"].as_f64(),
        ),
        "leases" => face.leases(db, op["now"].as_f64().expect("leases ops carry `now`")),
        "lineage" => Ok(face.lineage(db, op["id"].as_str().expect("lineage ops carry `id`"))),
        "note" => face.note(db, &op["request"]),
        "remeasure" => face.remeasure(db, &op["request"]),
        "admit" => {
            let (code, code_path) = (op["code"].as_str().unwrap_or(""), op["codePath"].as_str().unwrap_or(""));
            match op.get("embedding") {
                Some(embedding) => {
                    let embedding: Vec<f64> =
                        serde_json::from_value(embedding.clone()).expect("an admit's embedding is a list of numbers");
                    face.admit_embedding(db, code, code_path, &embedding)
                }
                None => Ok(face.admit(db, code, code_path)),
            }
        }
        "notes" => {
            Ok(face.notes(db, op["target"].as_str(), op["kind"].as_str(), op["limit"].as_u64().map(|n| n as u32)))
        }
        "export" => {
            let format = serde_json::from_value(op["format"].clone()).expect("export ops carry a `format`");
            Ok(json!(face.export(db, format)))
        }
        "events" => Ok(face.events(db)),
        "validate" => Ok(json!(face.validate(op["text"].as_str().expect("validate ops carry `text`")))),
        "policy" => {
            let strings = |v: &Value| -> Vec<String> { serde_json::from_value(v.clone()).expect("a list of paths") };
            let protected = (!op["protected"].is_null()).then(|| strings(&op["protected"]));
            Ok(face.policy(
                &strings(&op["changed"]),
                op["target"].as_str().expect("policy ops carry `target`"),
                protected.as_deref(),
            ))
        }
        "reload" => {
            let text = face.to_json(db);
            face.load(&text).map(|reloaded| {
                *db = reloaded;
                Value::Null
            })
        }
        "snapshot" => Ok(serde_json::from_str(&face.to_json(db)).expect("to_json writes JSON")),
        other => panic!("unknown op `{other}`"),
    };
    match outcome {
        Ok(value) => json!({ "ok": value }),
        Err(code) => json!({ "error": code }),
    }
}

/// Every difference between a replay and the vector's recorded expectations: results compared
/// as JavaScript would print them (key order matters, `1` and `1.0` are one number), the
/// database byte for byte against `JSON.stringify(expected.database, null, 2)`.
pub fn mismatches(vector: &Vector, replayed: &Replayed) -> Vec<String> {
    let Some(expected) = &vector.expected else { return vec![format!("{}: no expected results", vector.name)] };
    let mut found = Vec::new();
    if replayed.expected.create_error != expected.create_error {
        found.push(format!(
            "{}: create error {:?}, expected {:?}",
            vector.name, replayed.expected.create_error, expected.create_error
        ));
    }
    let none = Vec::new();
    let got = replayed.expected.results.as_ref().unwrap_or(&none);
    let want = expected.results.as_ref().unwrap_or(&none);
    if got.len() != want.len() {
        found.push(format!("{}: {} results, expected {}", vector.name, got.len(), want.len()));
    }
    for (i, (got, want)) in got.iter().zip(want).enumerate() {
        let (got, want) = (to_compact_js(got), to_compact_js(want));
        if got != want {
            found.push(format!("{}: op {i} ({}):\n  got  {got}\n  want {want}", vector.name, vector.ops[i]));
        }
    }
    if let Some(database) = &expected.database
        && replayed.database_text.as_deref() != Some(to_pretty_js(database).as_str())
    {
        found.push(format!("{}: database bytes differ", vector.name));
    }
    found
}

/// Replays every vector through `face`, panics listing every mismatch, and returns how many
/// vectors ran (asserted by the caller against [`VECTOR_COUNT`]).
pub fn replay_all<F: Face>(face: &mut F, vectors: &[Vector]) -> usize {
    let mut found = Vec::new();
    for vector in vectors {
        found.extend(mismatches(vector, &replay_on(face, vector)));
    }
    assert!(found.is_empty(), "{} mismatches:\n{}", found.len(), found.join("\n"));
    vectors.len()
}

/// The vector files compiled in (for runners with no file system, e.g. wasm in a browser).
pub fn embedded_vectors() -> Vec<Vector> {
    include!(concat!(env!("OUT_DIR"), "/embedded_vectors.rs"))
        .iter()
        .map(|(name, text)| serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
}

/// `tests/vectors`.
pub fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors")
}

/// Every vector file, sorted by name.
pub fn load_vectors() -> Vec<(PathBuf, Vector)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("tests/vectors exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable vector");
            let vector = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, vector)
        })
        .collect()
}
