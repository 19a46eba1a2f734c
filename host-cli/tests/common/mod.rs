//! Shared by the component tests: loading `wasm/dist/*.wasm`, the `population` interface as a
//! conformance face, and WIT records rebuilt into the seed CLI's JSON shapes.
#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};

use evodb_conformance::Face;
use evodb_host::{Host, State, population};
use serde_json::{Map, Value, json};
use wasmtime::Store;
use wasmtime::component::{Component, ResourceAny};

fn artifact(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../wasm/dist").join(name)
}

pub fn load(host: &Host, name: &str) -> Component {
    let path = artifact(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}; run wasm/build.sh first", path.display()));
    host.compile(&bytes).expect("the component compiles")
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

pub fn request(r: &Value) -> population::AddRequest {
    let text = |key: &str| r[key].as_str().map(String::from);
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
    }
}

pub fn add_outcome(o: &population::AddOutcome) -> Value {
    let mut v = json!({"id": o.id, "metrics": metrics(&o.metrics), "bestProgramId": o.best_program_id,
        "bestMetrics": metrics(&o.best_metrics), "lastIteration": o.last_iteration});
    if !o.warnings.is_empty() {
        v["warnings"] = json!(o.warnings);
    }
    v
}

pub fn sample(s: &population::SampleResult) -> Value {
    json!({
        "parent": s.parent.as_ref().map(|p| json!({"id": p.id, "codePath": p.code_path, "targetCode": p.target_code,
            "metrics": metrics(&p.metrics), "changes": p.changes})),
        "inspirations": s.inspirations.iter()
            .map(|i| json!({"id": i.id, "metrics": metrics(&i.metrics), "changes": i.changes})).collect::<Vec<_>>(),
    })
}

pub fn best(b: &Option<population::BestProgram>) -> Value {
    json!(b.as_ref().map(|b| json!({"id": b.id, "codePath": b.code_path, "targetCode": b.target_code,
        "metrics": metrics(&b.metrics), "changes": b.changes, "iterationFound": b.iteration_found})))
}

pub fn info(i: &population::DatabaseInfo) -> Value {
    json!({"isEmpty": i.is_empty, "lastIteration": i.last_iteration, "programCount": i.program_count,
        "bestProgramId": i.best_program_id, "bestMetrics": i.best_metrics.as_deref().map(metrics),
        "seedCodePath": i.seed_code_path, "seedTargetCode": i.seed_target_code})
}

pub fn stats(s: &population::PopulationStats) -> Value {
    json!({"programCount": s.program_count, "evaluations": s.evaluations, "bestProgramId": s.best_program_id,
        "bestFitness": s.best_fitness, "meanFitness": s.mean_fitness, "baselineFitness": s.baseline_fitness,
        "improvement": s.improvement,
        "islands": s.islands.iter().map(|i| json!({"island": i.island, "size": i.size,
            "bestProgramId": i.best_program_id, "bestFitness": i.best_fitness, "meanFitness": i.mean_fitness}))
            .collect::<Vec<_>>()})
}

impl Face for Wasmtime {
    type Db = ResourceAny;
    fn create(&mut self, config: &str, seed: u64) -> Result<ResourceAny, String> {
        let db = self.guest.database();
        db.call_create(&mut self.store, config, seed).expect("no trap").map_err(|e| code(&e))
    }
    fn load(&mut self, text: &str) -> Result<ResourceAny, String> {
        self.guest.database().call_from_json(&mut self.store, text).expect("no trap").map_err(|e| code(&e))
    }
    fn to_json(&mut self, db: &ResourceAny) -> String {
        self.guest.database().call_to_json(&mut self.store, *db).expect("no trap")
    }
    fn add(&mut self, db: &mut ResourceAny, r: &Value, now: f64) -> Result<Value, String> {
        let out = self.guest.database().call_add(&mut self.store, *db, &request(r), now).expect("no trap");
        out.map(|o| add_outcome(&o)).map_err(|e| code(&e))
    }
    fn sample(&mut self, db: &mut ResourceAny) -> Value {
        sample(&self.guest.database().call_sample(&mut self.store, *db).expect("no trap"))
    }
    fn best(&mut self, db: &ResourceAny) -> Value {
        best(&self.guest.database().call_best(&mut self.store, *db).expect("no trap"))
    }
    fn info(&mut self, db: &ResourceAny) -> Value {
        info(&self.guest.database().call_info(&mut self.store, *db).expect("no trap"))
    }
    fn stats(&mut self, db: &ResourceAny) -> Value {
        stats(&self.guest.database().call_stats(&mut self.store, *db).expect("no trap"))
    }
}
