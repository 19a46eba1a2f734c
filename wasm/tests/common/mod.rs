//! The wasm-bindgen `Database` class as a conformance [`Face`]: every value goes in as a plain JS
//! object (`JSON.parse`) and comes out through `JSON.stringify`, exactly as JavaScript sees it.

use evodb_conformance::{Face, VECTOR_COUNT, embedded_vectors, replay_all};
use evodb_core::ExportFormat;
use evodb_wasm::Database;
use serde_json::Value;
use wasm_bindgen::JsValue;

pub struct Bindgen;

fn js(value: &str) -> JsValue {
    js_sys::JSON::parse(value).expect("valid JSON")
}

fn json(value: JsValue) -> Value {
    let text: String = js_sys::JSON::stringify(&value).expect("stringifies").into();
    serde_json::from_str(&text).expect("valid JSON")
}

/// The `code` of a thrown `EvodbError`.
fn code(err: JsValue) -> String {
    let name = js_sys::Reflect::get(&err, &"name".into()).ok().and_then(|n| n.as_string());
    assert_eq!(name.as_deref(), Some("EvodbError"), "errors are EvodbError: {err:?}");
    js_sys::Reflect::get(&err, &"code".into()).ok().and_then(|c| c.as_string()).expect("errors carry a code")
}

impl Face for Bindgen {
    type Db = Database;
    fn create(&mut self, config: &str, seed: u64) -> Result<Database, String> {
        let mut db = Database::new(js(config), Some(seed as f64)).map_err(code)?;
        db.record_events(true);
        Ok(db)
    }
    fn load(&mut self, text: &str) -> Result<Database, String> {
        let mut db = Database::from_json(text).map_err(code)?;
        db.record_events(true);
        Ok(db)
    }
    fn to_json(&mut self, db: &Database) -> String {
        db.to_json()
    }
    fn add(&mut self, db: &mut Database, request: &Value, now: f64) -> Result<Value, String> {
        db.add(js(&request.to_string()), now).map(json).map_err(code)
    }
    fn sample(&mut self, db: &mut Database, target: Option<&str>) -> Result<Value, String> {
        db.sample(target.map(String::from)).map(json).map_err(code)
    }
    fn sample_at(&mut self, db: &mut Database, target: Option<&str>, now: f64) -> Result<Value, String> {
        db.sample_at(target.map(String::from), now).map(json).map_err(code)
    }
    fn best(&mut self, db: &Database, target: Option<&str>) -> Result<Value, String> {
        db.best(target.map(String::from)).map(json).map_err(code)
    }
    fn info(&mut self, db: &Database) -> Value {
        json(db.info().expect("info"))
    }
    fn stats(&mut self, db: &Database) -> Value {
        json(db.stats().expect("stats"))
    }
    fn should_stop(&mut self, db: &Database, target: Option<&str>) -> Result<Value, String> {
        db.should_stop(target.map(String::from)).map(json).map_err(code)
    }
    fn plan(&mut self, db: &mut Database, n: u32, frozen: &[u32], boosted: &[u32]) -> Result<Value, String> {
        db.plan(n, Some(frozen.to_vec()), Some(boosted.to_vec())).map(json).map_err(code)
    }
    fn plan_at(&mut self, db: &mut Database, p: &evodb_conformance::PlanAt) -> Result<Value, String> {
        let (frozen, boosted) = (Some(p.frozen.clone()), Some(p.boosted.clone()));
        db.plan_at(p.n, frozen, boosted, p.now, p.lease_seconds).map(json).map_err(code)
    }
    fn heartbeat(
        &mut self,
        db: &mut Database,
        item: &str,
        token: &str,
        now: f64,
        lease_seconds: Option<f64>,
    ) -> Result<Value, String> {
        db.heartbeat(item, token, now, lease_seconds).map(json).map_err(code)
    }
    fn leases(&mut self, db: &Database, now: f64) -> Result<Value, String> {
        db.leases(now).map(json).map_err(code)
    }
    fn lineage(&mut self, db: &Database, id: &str) -> Value {
        json(db.lineage(id).expect("lineage"))
    }
    fn export(&mut self, db: &Database, format: ExportFormat) -> String {
        match format {
            ExportFormat::Json => db.to_json(),
            ExportFormat::Tree => db.lineage_tree(),
            ExportFormat::Mermaid => db.lineage_mermaid(),
            ExportFormat::Markdown => db.population_markdown(),
            ExportFormat::Evoidea => db.evoidea_export(),
        }
    }
    fn events(&mut self, db: &mut Database) -> Value {
        json(db.take_events().expect("takeEvents"))
    }
    fn validate(&mut self, text: &str) -> Vec<String> {
        Database::validate(text)
    }
    fn note(&mut self, db: &mut Database, request: &Value) -> Result<Value, String> {
        db.note(js(&request.to_string())).map(json).map_err(code)
    }
    fn notes(&mut self, db: &Database, target: Option<&str>, kind: Option<&str>, limit: Option<u32>) -> Value {
        json(db.notes(target.map(str::to_string), kind.map(str::to_string), limit).expect("notes"))
    }
    fn remeasure(&mut self, db: &mut Database, request: &Value) -> Result<Value, String> {
        db.remeasure(js(&request.to_string())).map(json).map_err(code)
    }
    fn admit(&mut self, db: &Database, code: &str, code_path: &str) -> Value {
        json(db.admit(code, code_path).expect("admit"))
    }
    fn admit_embedding(
        &mut self,
        db: &Database,
        text: &str,
        code_path: &str,
        embedding: &[f64],
    ) -> Result<Value, String> {
        db.admit_embedding(text, code_path, embedding.to_vec()).map(json).map_err(code)
    }
    fn policy(&mut self, changed: &[String], target: &str, protected: Option<&[String]>) -> Value {
        json(
            evodb_wasm::policy_check(changed.to_vec(), target, protected.map(<[String]>::to_vec)).expect("policyCheck"),
        )
    }
}

/// Replays every vector; returns how many ran (asserted against `VECTOR_COUNT`).
pub fn replay_every_vector(face_name: &str) {
    let ran = replay_all(&mut Bindgen, &embedded_vectors());
    wasm_bindgen_test::console_log!("wasm-bindgen ({face_name}): ran {ran} conformance vectors");
    assert_eq!(ran, VECTOR_COUNT);
}
