//! The conformance vectors (`tests/vectors/*.json`) and their native replay.
//!
//! A vector is face-neutral JSON:
//!
//! ```json
//! { "name": "…", "description": "…", "seed": 7,
//!   "config": {…} | "initial": {database.json value} | "initialText": "raw text",
//!   "ops": [ {"op": "add", "now": 1700000000.5, "request": {…AddRequest…}},
//!            {"op": "sample"}, {"op": "best"}, {"op": "info"},
//!            {"op": "reload"}, {"op": "snapshot"} ],
//!   "expected": { "results": [ {"ok": …} | {"error": "code"} ], "database": {…} }
//!            | { "createError": "code" } }
//! ```
//!
//! `reload` round-trips the database through its JSON text; `snapshot` records the database
//! value. Every face replays the same ops through its own API and must produce the same results
//! and, for `database`, exactly the bytes of `JSON.stringify(expected.database, null, 2)`.

pub mod specs;

use std::path::{Path, PathBuf};

use evodb_core::json_text::to_pretty_js;
use evodb_core::{AddRequest, Config, Database};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// How many vectors the suite holds; every runner asserts it ran exactly this many.
pub const VECTOR_COUNT: usize = 33;

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

/// What replaying a vector produced; `database_text` is the exact `to_json()` output.
pub struct Replayed {
    pub expected: Expected,
    pub database_text: Option<String>,
}

/// Replays a vector's ops through the native core.
pub fn replay(vector: &Vector) -> Replayed {
    let created = match (&vector.config, &vector.initial, &vector.initial_text) {
        (_, Some(initial), _) => Database::from_json(&to_pretty_js(initial)),
        (_, _, Some(text)) => Database::from_json(text),
        (config, None, None) => {
            let config = config.as_ref().map(|c| c.to_string()).unwrap_or_else(|| "{}".into());
            Config::from_json(&config).and_then(|config| Database::new(config, vector.seed))
        }
    };
    let mut db = match created {
        Ok(db) => db,
        Err(e) => {
            return Replayed {
                expected: Expected { create_error: Some(e.code().into()), results: None, database: None },
                database_text: None,
            };
        }
    };
    let results = vector.ops.iter().map(|op| apply(&mut db, op)).collect();
    let text = db.to_json();
    let database = serde_json::from_str(&text).expect("to_json writes JSON");
    Replayed {
        expected: Expected { create_error: None, results: Some(results), database: Some(database) },
        database_text: Some(text),
    }
}

fn apply(db: &mut Database, op: &Value) -> Value {
    let outcome = match op["op"].as_str().expect("every op has an `op` name") {
        "add" => {
            let request: AddRequest = serde_json::from_value(op["request"].clone()).expect("vector add requests parse");
            let now = op["now"].as_f64().expect("add ops carry `now`");
            db.add(request, now).map(|out| json!(out))
        }
        "sample" => Ok(json!(db.sample())),
        "best" => Ok(json!(db.best())),
        "info" => Ok(json!(db.info())),
        "reload" => Database::from_json(&db.to_json()).map(|reloaded| {
            *db = reloaded;
            Value::Null
        }),
        "snapshot" => Ok(serde_json::from_str(&db.to_json()).expect("to_json writes JSON")),
        other => panic!("unknown op `{other}`"),
    };
    match outcome {
        Ok(value) => json!({ "ok": value }),
        Err(e) => json!({ "error": e.code() }),
    }
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
