//! Shared by the component tests: the embedded component, the `population` interface as a
//! conformance face, and WIT records rebuilt into the seed CLI's JSON shapes.
#![allow(dead_code)] // each test file uses its own part

use evodb_conformance::Face;
use evodb_host::{Host, State, bridge, population};
use serde_json::{Value, json};
use wasmtime::Store;
use wasmtime::component::{Component, ResourceAny};

/// The `with-store` component the `evodb` binary runs (its machine code, built in).
pub fn load(host: &Host) -> Component {
    host.load_embedded().expect("the built-in machine code loads")
}

/// The `population` interface of a component instance as a conformance face.
pub struct Wasmtime {
    pub store: Store<State>,
    pub guest: population::Guest,
}

impl Wasmtime {
    pub fn new(host: &Host, component: &Component) -> Wasmtime {
        let mut store = host.store(evodb_host::NoFiles);
        let guest = host.instantiate_population(&mut store, component).expect("instantiates");
        Wasmtime { store, guest }
    }
}

pub fn code(err: &population::Error) -> String {
    match err {
        population::Error::InvalidConfig(_) => "invalid-config",
        population::Error::InvalidInput(_) => "invalid-input",
        population::Error::DuplicateId(_) => "duplicate-id",
        population::Error::CorruptDatabase(_) => "corrupt-database",
        population::Error::Io(_) => "io",
    }
    .into()
}

/// A vector's request (JSON) as the WIT record: parsed by the core, bridged field for field.
pub fn request(r: &Value) -> population::AddRequest {
    let request: evodb_core::AddRequest = serde_json::from_value(r.clone()).expect("vector requests parse");
    bridge::wit(request)
}

/// A WIT result as the seed CLI's JSON shape of its core twin.
fn shape<W: evodb_core::api::IntoCore<C>, C: serde::Serialize>(value: W) -> Value {
    json!(bridge::core(value))
}

impl Face for Wasmtime {
    type Db = ResourceAny;
    fn create(&mut self, config: &str, seed: u64) -> Result<ResourceAny, String> {
        let db =
            self.guest.database().call_create(&mut self.store, config, seed).expect("no trap").map_err(|e| code(&e))?;
        self.guest.database().call_record_events(&mut self.store, db, true).expect("no trap");
        Ok(db)
    }
    fn load(&mut self, text: &str) -> Result<ResourceAny, String> {
        let db = self.guest.database().call_from_json(&mut self.store, text).expect("no trap").map_err(|e| code(&e))?;
        self.guest.database().call_record_events(&mut self.store, db, true).expect("no trap");
        Ok(db)
    }
    fn to_json(&mut self, db: &ResourceAny) -> String {
        self.guest.database().call_export(&mut self.store, *db, population::ExportFormat::Json).expect("no trap")
    }
    fn add(&mut self, db: &mut ResourceAny, r: &Value, now: f64) -> Result<Value, String> {
        let out = self.guest.database().call_add(&mut self.store, *db, &request(r), now).expect("no trap");
        out.map(shape).map_err(|e| code(&e))
    }
    fn sample(&mut self, db: &mut ResourceAny, target: Option<&str>) -> Result<Value, String> {
        let calls = self.guest.database();
        match target {
            None => Ok(shape(calls.call_sample(&mut self.store, *db).expect("no trap"))),
            Some(_) => {
                calls.call_sample_for(&mut self.store, *db, target).expect("no trap").map(shape).map_err(|e| code(&e))
            }
        }
    }
    fn sample_at(&mut self, db: &mut ResourceAny, target: Option<&str>, now: f64) -> Result<Value, String> {
        let out = self.guest.database().call_sample_at(&mut self.store, *db, target, now).expect("no trap");
        out.map(shape).map_err(|e| code(&e))
    }
    fn best(&mut self, db: &ResourceAny, target: Option<&str>) -> Result<Value, String> {
        let calls = self.guest.database();
        match target {
            None => Ok(shape(calls.call_best(&mut self.store, *db).expect("no trap"))),
            Some(_) => {
                calls.call_best_for(&mut self.store, *db, target).expect("no trap").map(shape).map_err(|e| code(&e))
            }
        }
    }
    fn info(&mut self, db: &ResourceAny) -> Value {
        shape(self.guest.database().call_info(&mut self.store, *db).expect("no trap"))
    }
    fn stats(&mut self, db: &ResourceAny) -> Value {
        shape(self.guest.database().call_stats(&mut self.store, *db).expect("no trap"))
    }
    fn should_stop(&mut self, db: &ResourceAny, target: Option<&str>) -> Result<Value, String> {
        let calls = self.guest.database();
        match target {
            None => Ok(shape(calls.call_should_stop(&mut self.store, *db).expect("no trap"))),
            Some(_) => calls
                .call_should_stop_for(&mut self.store, *db, target)
                .expect("no trap")
                .map(shape)
                .map_err(|e| code(&e)),
        }
    }
    fn plan(&mut self, db: &mut ResourceAny, n: u32, frozen: &[u32], boosted: &[u32]) -> Result<Value, String> {
        let out = self.guest.database().call_plan(&mut self.store, *db, n, frozen, boosted).expect("no trap");
        out.map(shape).map_err(|e| code(&e))
    }
    fn plan_at(&mut self, db: &mut ResourceAny, p: &evodb_conformance::PlanAt) -> Result<Value, String> {
        let out = self
            .guest
            .database()
            .call_plan_at(&mut self.store, *db, p.n, &p.frozen, &p.boosted, p.now, p.lease_seconds)
            .expect("no trap");
        out.map(shape).map_err(|e| code(&e))
    }
    fn heartbeat(
        &mut self,
        db: &mut ResourceAny,
        item: &str,
        token: &str,
        now: f64,
        lease_seconds: Option<f64>,
    ) -> Result<Value, String> {
        let out = self
            .guest
            .database()
            .call_heartbeat(&mut self.store, *db, item, token, now, lease_seconds)
            .expect("no trap");
        out.map(shape).map_err(|e| code(&e))
    }
    fn leases(&mut self, db: &ResourceAny, now: f64) -> Result<Value, String> {
        let out = self.guest.database().call_leases(&mut self.store, *db, now).expect("no trap");
        out.map(shape).map_err(|e| code(&e))
    }
    fn lineage(&mut self, db: &ResourceAny, id: &str) -> Value {
        json!(
            self.guest
                .database()
                .call_lineage(&mut self.store, *db, id)
                .expect("no trap")
                .map(bridge::core::<_, evodb_core::Lineage>)
        )
    }
    fn export(&mut self, db: &ResourceAny, format: evodb_core::ExportFormat) -> String {
        let format = bridge::wit(format);
        self.guest.database().call_export(&mut self.store, *db, format).expect("no trap")
    }
    fn events(&mut self, db: &mut ResourceAny) -> Value {
        let lines = self.guest.database().call_take_events(&mut self.store, *db).expect("no trap");
        Value::Array(lines.iter().map(|line| serde_json::from_str(line).expect("events are JSON")).collect())
    }
    fn validate(&mut self, text: &str) -> Vec<String> {
        self.guest.call_validate(&mut self.store, text).expect("no trap")
    }
    fn policy(&mut self, changed: &[String], target: &str, protected: Option<&[String]>) -> Value {
        let verdict = self.guest.call_policy_check(&mut self.store, changed, target, protected).expect("no trap");
        shape(verdict)
    }
    fn note(&mut self, db: &mut ResourceAny, r: &Value) -> Result<Value, String> {
        let request: evodb_core::NoteRequest = serde_json::from_value(r.clone()).expect("vector notes parse");
        let out = self.guest.database().call_note(&mut self.store, *db, &bridge::wit(request)).expect("no trap");
        out.map(shape).map_err(|e| code(&e))
    }
    fn notes(&mut self, db: &ResourceAny, target: Option<&str>, kind: Option<&str>, limit: Option<u32>) -> Value {
        let kind = kind.map(|kind| bridge::wit(evodb_conformance::note_kind(kind)));
        let notes = self.guest.database().call_notes(&mut self.store, *db, target, kind, limit).expect("no trap");
        shape(notes)
    }
    fn remeasure(&mut self, db: &mut ResourceAny, r: &Value) -> Result<Value, String> {
        let request: evodb_core::RemeasureRequest = serde_json::from_value(r.clone()).expect("vector remeasures parse");
        let out = self.guest.database().call_remeasure(&mut self.store, *db, &bridge::wit(request)).expect("no trap");
        out.map(shape).map_err(|e| code(&e))
    }
    fn admit(&mut self, db: &ResourceAny, code: &str, code_path: &str) -> Value {
        shape(self.guest.database().call_admit(&mut self.store, *db, code, code_path).expect("no trap"))
    }
    fn admit_embedding(
        &mut self,
        db: &ResourceAny,
        text: &str,
        code_path: &str,
        embedding: &[f64],
    ) -> Result<Value, String> {
        let out = self
            .guest
            .database()
            .call_admit_embedding(&mut self.store, *db, text, code_path, embedding)
            .expect("no trap");
        out.map(shape).map_err(|e| code(&e))
    }
}
