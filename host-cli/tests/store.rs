//! The `store` interface under wasmtime: each call is a fresh instance (as each CLI process is)
//! that sees only the preopened database directory; `database.json` is replaced atomically,
//! `history.ndjson` gets one line per changing operation, and a failed call changes nothing.

mod common;

use std::path::Path;

use common::{Wasmtime, load, request};
use evodb_conformance::Face;
use evodb_host::bindings::WithStore;
use evodb_host::views;
use evodb_host::{GUEST_DIR, Host, State, population};
use serde_json::{Value, json};
use wasmtime::Store;
use wasmtime::component::{Component, ResourceAny};

type Outcome<T> = wasmtime::Result<Result<T, population::Error>>;

struct Fixture {
    host: Host,
    component: Component,
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let host = Host::new().unwrap();
        let component = load(&host);
        Fixture { host, component, dir: tempfile::tempdir().unwrap() }
    }

    /// A new instance, as a new process would make, preopening the fixture's directory.
    fn instance(&self) -> (Store<State>, WithStore) {
        let mut store = self.host.store(Some(self.dir.path())).unwrap();
        let bindings = self.host.instantiate_store(&mut store, &self.component).unwrap();
        (store, bindings)
    }

    /// One writing process: load (or create) the database in `dir`, run `op`, save it.
    fn write<T>(
        &self,
        dir: &str,
        op: impl FnOnce(&population::GuestDatabase<'_>, &mut Store<State>, ResourceAny) -> Outcome<T>,
    ) -> Result<T, population::Error> {
        let (mut store, b) = self.instance();
        let (s, m) = (b.evodb_population_store(), b.evodb_population_population().database());
        let db = match s.call_load(&mut store, dir).unwrap()? {
            Some(db) => db,
            None => {
                let db = m.call_create(&mut store, "{}", 0).unwrap()?;
                m.call_record_events(&mut store, db, true).unwrap();
                db
            }
        };
        let value = op(&m, &mut store, db).unwrap()?;
        s.call_save(&mut store, dir, db).unwrap()?;
        Ok(value)
    }

    /// `init`: a new database with `config`, saved.
    fn init(&self, dir: &str, config: &str, rng_seed: u64) -> Result<(), population::Error> {
        let (mut store, b) = self.instance();
        let (s, m) = (b.evodb_population_store(), b.evodb_population_population().database());
        let db = m.call_create(&mut store, config, rng_seed).unwrap()?;
        m.call_record_events(&mut store, db, true).unwrap();
        s.call_save(&mut store, dir, db).unwrap()
    }

    fn add(
        &self,
        dir: &str,
        request: &population::AddRequest,
        now: f64,
    ) -> Result<population::AddOutcome, population::Error> {
        self.write(dir, |m, store, db| m.call_add(store, db, request, now))
    }

    fn file(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.dir.path().join(name)).unwrap_or_default()
    }
}

fn req(i: usize) -> Value {
    json!({"codePath": format!("/c/{i}.py"), "targetCode": format!("v{i}"), "parentId": "0",
        "metrics": {"score": (i * 37 % 100) as f64 / 100.0}, "changes": format!("change {i}")})
}

#[test]
fn store_calls_match_the_in_memory_database_byte_for_byte() {
    let fx = Fixture::new();
    let config = r#"{"numIslands": 2, "maxIslandSize": 6, "migrationInterval": 4}"#;
    fx.init(GUEST_DIR, config, 9).unwrap();

    let mut memory = Wasmtime::new(&fx.host, &fx.component);
    let mut db = memory.create(config, 9).unwrap();
    let mut ops = 1;
    for i in 0..30 {
        let stored = fx.add(GUEST_DIR, &request(&req(i)), i as f64).unwrap();
        assert_eq!(
            serde_json::json!(views::core::<_, evodb_core::AddOutcome>(stored)),
            memory.add(&mut db, &req(i), i as f64).unwrap()
        );
        ops += 1;
        if i % 3 == 0 {
            let stored = fx.write(GUEST_DIR, |m, store, db| m.call_sample(store, db).map(Ok)).unwrap();
            assert_eq!(
                serde_json::json!(views::core::<_, evodb_core::Sample>(stored)),
                memory.sample(&mut db),
                "sample after add {i}"
            );
            ops += 1;
        }
    }
    assert_eq!(String::from_utf8(fx.file("database.json")).unwrap(), memory.to_json(&db));
    let history = String::from_utf8(fx.file("history.ndjson")).unwrap();
    let lines: Vec<Value> = history.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let inputs =
        lines.iter().filter(|e| ["created", "added", "sampled"].contains(&e["event"].as_str().unwrap())).count();
    assert_eq!(inputs, ops, "one input event per changing operation");
    assert_eq!(
        (&lines[0]["event"], &lines[1]["event"], &lines[1]["seq"]),
        (&json!("created"), &json!("added"), &json!(1))
    );
    // The history alone rebuilds the file, byte for byte.
    let events: Vec<evodb_core::Event> = history.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let replayed = evodb_core::Database::replay(&events).expect("the history replays");
    assert_eq!(replayed.to_json(), memory.to_json(&db));
    assert!(!fx.dir.path().join("database.json.tmp").exists(), "no temp file is left behind");
}

#[test]
fn failed_calls_leave_every_file_byte_identical() {
    let fx = Fixture::new();
    fx.init(GUEST_DIR, "{}", 1).unwrap();
    fx.add(GUEST_DIR, &request(&req(1)), 2.0).unwrap();
    let (before, history) = (fx.file("database.json"), fx.file("history.ndjson"));

    let mut bad = request(&req(2));
    bad.metrics = vec![("score".into(), f64::NAN)];
    let nan = fx.add(GUEST_DIR, &bad, 3.0);
    assert!(matches!(&nan, Err(population::Error::InvalidInput(m)) if m.contains("metrics.score")), "{nan:?}");
    let bad_config = fx.init("/db/sub", r#"{"numIslands": "three"}"#, 1);
    assert!(matches!(&bad_config, Err(population::Error::InvalidConfig(m)) if m.contains("numIslands")));
    assert_eq!((fx.file("database.json"), fx.file("history.ndjson")), (before.clone(), history.clone()));

    // A torn file is reported, and left as it is for the user to restore.
    let torn = &before[..before.len() / 2];
    std::fs::write(fx.dir.path().join("database.json"), torn).unwrap();
    let err = fx.add(GUEST_DIR, &request(&req(3)), 4.0);
    assert!(matches!(&err, Err(population::Error::CorruptDatabase(m)) if m.contains("ends early")), "{err:?}");
    assert_eq!(fx.file("database.json"), torn);
    assert_eq!(fx.file("history.ndjson"), history);
}

#[test]
fn the_component_sees_only_the_preopened_directory() {
    let fx = Fixture::new();
    let outside = tempfile::tempdir().unwrap();
    let escape = format!("{GUEST_DIR}/../..{}", outside.path().display());
    for dir in [outside.path().to_str().unwrap(), escape.as_str(), "/", "/db/.."] {
        let result = fx.add(dir, &request(&req(1)), 1.0);
        assert!(matches!(&result, Err(population::Error::Io(_))), "{dir}: {result:?}");
    }
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0, "nothing was written outside");
    assert!(!Path::new("/database.json").exists());
}
