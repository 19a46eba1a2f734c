//! Shared by the component tests: the embedded component, the `population` interface as a
//! conformance face, and WIT records rebuilt into the seed CLI's JSON shapes.
#![allow(dead_code)] // each test file uses its own part

use evodb_conformance::Face;
use evodb_host::{Host, State, population, views};
use serde_json::{Map, Value, json};
use wasmtime::Store;
use wasmtime::component::{Component, ResourceAny};

/// The `with-store` component the `evodb` binary runs (its machine code, built in).
pub fn load(host: &Host) -> Component {
    evodb_host::embedded::load(host).expect("the built-in machine code loads")
}

/// The `population` interface of a component instance as a conformance face.
pub struct Wasmtime {
    pub store: Store<State>,
    pub guest: population::Guest,
}

impl Wasmtime {
    pub fn new(host: &Host, component: &Component) -> Wasmtime {
        let mut store = host.store(None).unwrap();
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
        population::Error::AlreadyExists(_) => "already-exists",
    }
    .into()
}

pub fn metrics(list: &[(String, f64)]) -> Value {
    Value::Object(list.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<Map<_, _>>())
}

/// A vector's request (JSON) as the WIT record, field by field.
pub fn request(r: &Value) -> population::AddRequest {
    let text = |key: &str| r[key].as_str().map(String::from);
    let parsed: Option<evodb_core::AddRequest> = serde_json::from_value(r.clone()).ok();
    population::AddRequest {
        id: text("id"),
        code_path: text("codePath").expect("codePath"),
        target_code: text("targetCode").expect("targetCode"),
        parent_id: text("parentId"),
        metrics: r["metrics"]
            .as_object()
            .expect("metrics")
            .iter()
            .map(|(k, v)| (k.clone(), v.as_f64().unwrap()))
            .collect(),
        changes: text("changes"),
        island: r["island"].as_u64().map(|i| i as u32),
        status: parsed.as_ref().filter(|_| r.get("status").is_some()).map(|p| views::wit_status(p.status)),
        reason: text("reason"),
        operator: parsed.as_ref().and_then(|p| p.operator).map(views::wit_operator),
        plan_item: text("planItem"),
    }
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
        self.guest.database().call_to_json(&mut self.store, *db).expect("no trap")
    }
    fn add(&mut self, db: &mut ResourceAny, r: &Value, now: f64) -> Result<Value, String> {
        let out = self.guest.database().call_add(&mut self.store, *db, &request(r), now).expect("no trap");
        out.map(|o| json!(views::add_outcome(o))).map_err(|e| code(&e))
    }
    fn sample(&mut self, db: &mut ResourceAny) -> Value {
        json!(views::sample(self.guest.database().call_sample(&mut self.store, *db).expect("no trap")))
    }
    fn best(&mut self, db: &ResourceAny) -> Value {
        json!(views::best(self.guest.database().call_best(&mut self.store, *db).expect("no trap")))
    }
    fn info(&mut self, db: &ResourceAny) -> Value {
        json!(views::info(self.guest.database().call_info(&mut self.store, *db).expect("no trap")))
    }
    fn stats(&mut self, db: &ResourceAny) -> Value {
        json!(views::stats(self.guest.database().call_stats(&mut self.store, *db).expect("no trap")))
    }
    fn should_stop(&mut self, db: &ResourceAny) -> Value {
        json!(views::stop_verdict(self.guest.database().call_should_stop(&mut self.store, *db).expect("no trap")))
    }
    fn plan(&mut self, db: &mut ResourceAny, n: u32, frozen: &[u32], boosted: &[u32]) -> Result<Value, String> {
        let out = self.guest.database().call_plan(&mut self.store, *db, n, frozen, boosted).expect("no trap");
        out.map(|p| json!(views::plan(p))).map_err(|e| code(&e))
    }
    fn lineage(&mut self, db: &ResourceAny, id: &str) -> Value {
        json!(self.guest.database().call_lineage(&mut self.store, *db, id).expect("no trap").map(views::lineage))
    }
    fn export(&mut self, db: &ResourceAny, format: &str) -> String {
        let d = self.guest.database();
        match format {
            "tree" => d.call_lineage_tree(&mut self.store, *db),
            "mermaid" => d.call_lineage_mermaid(&mut self.store, *db),
            "markdown" => d.call_population_markdown(&mut self.store, *db),
            other => panic!("unknown export format `{other}`"),
        }
        .expect("no trap")
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
        json!(views::policy_verdict(verdict))
    }
}
