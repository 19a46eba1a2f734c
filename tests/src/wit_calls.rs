//! The vectors as WIT calls, for runners in other languages (jco, wasmtime-py): each vector
//! becomes the list of `population` interface calls that replays it, every argument and every
//! expected result already in WIT's shape — records with the WIT's kebab-case field names,
//! options as `null`, enums as their case names, metrics as `[name, value]` pairs. A runner
//! needs no per-type code: it lowers arguments and lifts results generically, by the component's
//! own types, and compares. `bless` writes the file; a test fails when it is stale.

use evodb_core::{AddRequest, Database, Error, ExportFormat, Metrics, NoteRequest, RemeasureRequest};
use serde_json::{Map, Value, json};

use crate::{Face, Native, Vector, replay_on};

/// Where the calls are written (relative to `tests/`).
pub const WIT_CALLS_FILE: &str = "wit-calls.json";

/// A core value as WIT's JSON shape.
pub trait WitJson {
    fn wit_json(&self) -> Value;
}

macro_rules! wit_json_as_is {
    ($($t:ty),*) => {$(
        impl WitJson for $t {
            fn wit_json(&self) -> Value {
                json!(self)
            }
        }
    )*};
}
wit_json_as_is!(String, std::sync::Arc<str>, bool, u32, u64, f64, usize);

impl WitJson for Metrics {
    fn wit_json(&self) -> Value {
        Value::Array(self.iter().map(|(name, value)| json!([name, value])).collect())
    }
}

impl<T: WitJson> WitJson for Option<T> {
    fn wit_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, WitJson::wit_json)
    }
}

impl<T: WitJson> WitJson for Vec<T> {
    fn wit_json(&self) -> Value {
        Value::Array(self.iter().map(WitJson::wit_json).collect())
    }
}

/// `best_program_id` → `best-program-id`; `Exploitation` → `exploitation`.
fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(if c == '_' { '-' } else { c });
        }
    }
    out
}

macro_rules! wit_json_shapes {
    (
        records { $($core:ident = $wit:ident { $($field:ident),* $(,)? }),* $(,)? }
        enums { $($core_enum:ident = $wit_enum:ident { $($case:ident),* $(,)? }),* $(,)? }
    ) => {
        $(
            impl WitJson for evodb_core::$core {
                fn wit_json(&self) -> Value {
                    let evodb_core::$core { $($field),* } = self;
                    let mut record = Map::new();
                    $(record.insert(kebab(stringify!($field)), $field.wit_json());)*
                    Value::Object(record)
                }
            }
        )*
        $(
            impl WitJson for evodb_core::$core_enum {
                fn wit_json(&self) -> Value {
                    match self {
                        $(evodb_core::$core_enum::$case => json!(kebab(stringify!($case)))),*
                    }
                }
            }
        )*

        /// Every record and enum of the field list, by its WIT name, with its fields or cases
        /// (for the test that compares them with `wit/population.wit`).
        pub fn shapes() -> Vec<(String, Vec<String>)> {
            vec![
                $((kebab(stringify!($wit)), vec![$(kebab(stringify!($field))),*]),)*
                $((kebab(stringify!($wit_enum)), vec![$(kebab(stringify!($case))),*]),)*
            ]
        }
    };
}
evodb_core::face_shapes!(wit_json_shapes);

/// Replays through the native core and writes down each call a WIT face makes for it.
struct Recorder {
    native: Native,
    calls: Vec<Value>,
}

impl Recorder {
    fn call(&mut self, name: &str, args: Vec<Value>, outcome: Result<Value, String>) {
        let mut call = json!({ "call": name, "args": args });
        match outcome {
            Ok(value) => call["ok"] = value,
            Err(code) => call["err"] = json!(code),
        }
        self.calls.push(call);
    }

    /// A call that returns a new `database`: it replaces the one later method calls go to,
    /// and starts recording events as every runner's databases do.
    fn open(&mut self, name: &str, args: Vec<Value>, opened: Result<Database, String>) -> Result<Database, String> {
        match &opened {
            Ok(_) => {
                self.calls.push(json!({ "call": name, "args": args, "ok": "$database" }));
                self.call("[method]database.record-events", vec![json!(true)], Ok(Value::Null));
            }
            Err(code) => self.call(name, args, Err(code.clone())),
        }
        opened
    }
}

fn request_json(request: &Value) -> Value {
    let request: evodb_core::AddRequest = serde_json::from_value(request.clone())
        .unwrap_or_else(|e| panic!("a vector's request must parse to be sent over WIT: {e}"));
    request.wit_json()
}

impl Recorder {
    /// Records `name` answering `value` (or the error code), and returns the core's JSON of it
    /// for the face-neutral comparison.
    fn answer<T: WitJson + serde::Serialize>(
        &mut self,
        name: &str,
        args: Vec<Value>,
        value: Result<T, Error>,
    ) -> Result<Value, String> {
        let value = value.map_err(|e| e.code().to_string());
        self.call(name, args, value.as_ref().map(WitJson::wit_json).map_err(Clone::clone));
        value.map(|v| json!(v))
    }
}

impl Face for Recorder {
    type Db = Database;
    fn create(&mut self, config: &str, seed: u64) -> Result<Database, String> {
        let db = self.native.create(config, seed);
        self.open("[static]database.create", vec![json!(config), json!(seed)], db)
    }
    fn load(&mut self, text: &str) -> Result<Database, String> {
        let db = self.native.load(text);
        self.open("[static]database.from-json", vec![json!(text)], db)
    }
    fn to_json(&mut self, db: &Database) -> String {
        let text = db.to_json();
        self.call("[method]database.export", vec![json!("json")], Ok(json!(text)));
        text
    }
    fn add(&mut self, db: &mut Database, request: &Value, now: f64) -> Result<Value, String> {
        let outcome = AddRequest::from_json(&request.to_string()).and_then(|request| db.add(request, now));
        self.answer("[method]database.add", vec![request_json(request), json!(now)], outcome)
    }
    fn sample(&mut self, db: &mut Database, target: Option<&str>) -> Result<Value, String> {
        match target {
            None => self.answer("[method]database.sample", vec![], Ok(db.sample())),
            Some(_) => self.answer("[method]database.sample-for", vec![json!(target)], db.sample_for(target)),
        }
    }
    fn sample_at(&mut self, db: &mut Database, target: Option<&str>, now: f64) -> Result<Value, String> {
        self.answer("[method]database.sample-at", vec![json!(target), json!(now)], db.sample_at(target, now))
    }
    fn best(&mut self, db: &Database, target: Option<&str>) -> Result<Value, String> {
        match target {
            None => self.answer("[method]database.best", vec![], Ok(db.best())),
            Some(_) => self.answer("[method]database.best-for", vec![json!(target)], db.best_for(target)),
        }
    }
    fn info(&mut self, db: &Database) -> Value {
        self.answer("[method]database.info", vec![], Ok(db.info())).expect("infallible")
    }
    fn stats(&mut self, db: &Database) -> Value {
        self.answer("[method]database.stats", vec![], Ok(db.stats())).expect("infallible")
    }
    fn should_stop(&mut self, db: &Database, target: Option<&str>) -> Result<Value, String> {
        match target {
            None => self.answer("[method]database.should-stop", vec![], Ok(db.should_stop())),
            Some(_) => self.answer("[method]database.should-stop-for", vec![json!(target)], db.should_stop_for(target)),
        }
    }
    fn plan(&mut self, db: &mut Database, n: u32, frozen: &[u32], boosted: &[u32]) -> Result<Value, String> {
        let plan = db.plan(n, frozen, boosted);
        self.answer("[method]database.plan", vec![json!(n), json!(frozen), json!(boosted)], plan)
    }
    fn plan_at(&mut self, db: &mut Database, p: &crate::PlanAt) -> Result<Value, String> {
        let plan = db.plan_at(p.n, &p.frozen, &p.boosted, p.now, p.lease_seconds);
        let args = vec![json!(p.n), json!(p.frozen), json!(p.boosted), json!(p.now), json!(p.lease_seconds)];
        self.answer("[method]database.plan-at", args, plan)
    }
    fn heartbeat(
        &mut self,
        db: &mut Database,
        item: &str,
        token: &str,
        now: f64,
        lease_seconds: Option<f64>,
    ) -> Result<Value, String> {
        let lease = db.heartbeat(item, token, now, lease_seconds);
        self.answer(
            "[method]database.heartbeat",
            vec![json!(item), json!(token), json!(now), json!(lease_seconds)],
            lease,
        )
    }
    fn leases(&mut self, db: &Database, now: f64) -> Result<Value, String> {
        self.answer("[method]database.leases", vec![json!(now)], db.leases(now))
    }
    fn lineage(&mut self, db: &Database, id: &str) -> Value {
        self.answer("[method]database.lineage", vec![json!(id)], Ok(db.lineage(id))).expect("infallible")
    }
    fn export(&mut self, db: &Database, format: ExportFormat) -> String {
        let text = db.export(format);
        self.call("[method]database.export", vec![json!(format)], Ok(json!(text)));
        text
    }
    fn events(&mut self, db: &mut Database) -> Value {
        let events = db.take_events();
        let lines: Vec<String> = events.iter().map(evodb_core::json_text::to_compact_js).collect();
        self.call("[method]database.take-events", vec![], Ok(json!(lines)));
        json!(events)
    }
    fn validate(&mut self, text: &str) -> Vec<String> {
        let problems = Database::validate_json(text);
        self.call("validate", vec![json!(text)], Ok(json!(problems)));
        problems
    }
    fn policy(&mut self, changed: &[String], target: &str, protected: Option<&[String]>) -> Value {
        let verdict = evodb_core::policy_check(&paths(changed), target, protected.map(paths).as_deref());
        let args = vec![json!(changed), json!(target), json!(protected)];
        self.answer("policy-check", args, Ok(verdict)).expect("infallible")
    }
    fn note(&mut self, db: &mut Database, request: &Value) -> Result<Value, String> {
        let parsed = NoteRequest::from_json(&request.to_string())
            .unwrap_or_else(|e| panic!("a vector's note request must parse to be sent over WIT: {e}"));
        let note = db.note(parsed.clone());
        self.answer("[method]database.note", vec![parsed.wit_json()], note)
    }
    fn notes(&mut self, db: &Database, target: Option<&str>, kind: Option<&str>, limit: Option<u32>) -> Value {
        let notes = db.notes(target, kind.map(crate::note_kind), limit);
        self.answer("[method]database.notes", vec![json!(target), json!(kind), json!(limit)], Ok(notes))
            .expect("infallible")
    }
    fn remeasure(&mut self, db: &mut Database, request: &Value) -> Result<Value, String> {
        let parsed = RemeasureRequest::from_json(&request.to_string())
            .unwrap_or_else(|e| panic!("a vector's remeasure request must parse to be sent over WIT: {e}"));
        let outcome = db.remeasure(parsed.clone());
        self.answer("[method]database.remeasure", vec![parsed.wit_json()], outcome)
    }
    fn admit(&mut self, db: &Database, code: &str, code_path: &str) -> Value {
        let admission = db.admit(code, code_path);
        self.answer("[method]database.admit", vec![json!(code), json!(code_path)], Ok(admission)).expect("infallible")
    }
    fn admit_embedding(
        &mut self,
        db: &Database,
        code: &str,
        code_path: &str,
        embedding: &[f64],
    ) -> Result<Value, String> {
        let admission = db.admit_embedding(code, code_path, embedding);
        self.answer(
            "[method]database.admit-embedding",
            vec![json!(code), json!(code_path), json!(embedding)],
            admission,
        )
    }
}

fn paths(list: &[String]) -> Vec<&str> {
    list.iter().map(String::as_str).collect()
}

/// The calls that replay `vector` through the WIT interface (the last reads the database's
/// `database.json` text).
fn calls_of(vector: &Vector) -> Vec<Value> {
    let mut recorder = Recorder { native: Native, calls: Vec::new() };
    replay_on(&mut recorder, vector);
    recorder.calls
}

/// The whole file: how many vectors, and each as its calls.
pub fn wit_calls(vectors: &[Vector]) -> Value {
    let vectors: Vec<Value> = vectors.iter().map(|v| json!({ "name": v.name, "calls": calls_of(v) })).collect();
    json!({
        "about": "Generated by `cargo run -p evodb-conformance --bin bless` from tests/vectors/*.json: \
                  each vector as the evodb:population/population calls that replay it, arguments and \
                  results in WIT's shape. Method calls go to the database the last `\"ok\": \"$database\"` \
                  call returned.",
        "vectorCount": vectors.len(),
        "vectors": vectors,
    })
}
