//! The `store` interface under wasmtime: each call is a fresh instance (as each CLI process is)
//! granted one database directory's files; `database.json` is replaced atomically,
//! `history.ndjson` gets one line per changing operation, and a failed call changes nothing.

use crate::common;

use common::{Wasmtime, load, request};
use evodb_conformance::Face;
use evodb_host::bindings::WithStore;
use evodb_host::bridge;
use evodb_host::{DirectoryFiles, Host, State, population};
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

    /// A new instance, as a new writing process would make, granted the fixture's directory.
    fn instance(&self) -> (Store<State>, WithStore) {
        self.instance_with(DirectoryFiles::read_write(self.dir.path(), self.dir.path()))
    }

    fn instance_with(&self, files: DirectoryFiles) -> (Store<State>, WithStore) {
        let mut store = self.host.store(files);
        let bindings = self.host.instantiate_store(&mut store, &self.component).unwrap();
        (store, bindings)
    }

    /// One writing process: load (or create) the database in `dir`, run `op`, save it.
    fn write<T>(
        &self,
        op: impl FnOnce(&population::GuestDatabase<'_>, &mut Store<State>, ResourceAny) -> Outcome<T>,
    ) -> Result<T, population::Error> {
        let (mut store, b) = self.instance();
        let (s, m) = (b.evodb_population_store(), b.evodb_population_population().database());
        let db = match s.call_load(&mut store).unwrap()? {
            Some(db) => db,
            None => {
                let db = m.call_create(&mut store, "{}", 0).unwrap()?;
                m.call_record_events(&mut store, db, true).unwrap();
                db
            }
        };
        let value = op(&m, &mut store, db).unwrap()?;
        s.call_save(&mut store, db).unwrap()?;
        Ok(value)
    }

    /// `init`: a new database with `config`, saved.
    fn init(&self, config: &str, rng_seed: u64) -> Result<(), population::Error> {
        let (mut store, b) = self.instance();
        let (s, m) = (b.evodb_population_store(), b.evodb_population_population().database());
        let db = m.call_create(&mut store, config, rng_seed).unwrap()?;
        m.call_record_events(&mut store, db, true).unwrap();
        s.call_save(&mut store, db).unwrap()
    }

    fn add(&self, request: &population::AddRequest, now: f64) -> Result<population::AddOutcome, population::Error> {
        self.write(|m, store, db| m.call_add(store, db, request, now))
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
    fx.init(config, 9).unwrap();

    let mut memory = Wasmtime::new(&fx.host, &fx.component);
    let mut db = memory.create(config, 9).unwrap();
    let mut ops = 1;
    for i in 0..30 {
        let stored = fx.add(&request(&req(i)), i as f64).unwrap();
        assert_eq!(
            serde_json::json!(bridge::core::<_, evodb_core::AddOutcome>(stored)),
            memory.add(&mut db, &req(i), i as f64).unwrap()
        );
        ops += 1;
        if i % 3 == 0 {
            let stored = fx.write(|m, store, db| m.call_sample(store, db).map(Ok)).unwrap();
            assert_eq!(
                serde_json::json!(bridge::core::<_, evodb_core::Sample>(stored)),
                memory.sample(&mut db, None).expect("a sample without a target"),
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
    fx.init("{}", 1).unwrap();
    fx.add(&request(&req(1)), 2.0).unwrap();
    let (before, history) = (fx.file("database.json"), fx.file("history.ndjson"));

    let mut bad = request(&req(2));
    bad.metrics = vec![("score".into(), f64::NAN)];
    let nan = fx.add(&bad, 3.0);
    assert!(matches!(&nan, Err(population::Error::InvalidInput(m)) if m.contains("metrics.score")), "{nan:?}");
    let bad_config = fx.init(r#"{"numIslands": "three"}"#, 1);
    assert!(matches!(&bad_config, Err(population::Error::InvalidConfig(m)) if m.contains("numIslands")));
    assert_eq!((fx.file("database.json"), fx.file("history.ndjson")), (before.clone(), history.clone()));

    // A torn file is reported, and left as it is for the user to restore.
    let torn = &before[..before.len() / 2];
    std::fs::write(fx.dir.path().join("database.json"), torn).unwrap();
    let err = fx.add(&request(&req(3)), 4.0);
    assert!(matches!(&err, Err(population::Error::CorruptDatabase(m)) if m.contains("ends early")), "{err:?}");
    assert_eq!(fx.file("database.json"), torn);
    assert_eq!(fx.file("history.ndjson"), history);
}

#[test]
fn a_reader_cannot_commit_and_links_are_not_followed() {
    let fx = Fixture::new();
    fx.init("{}", 1).unwrap();
    let before = (fx.file("database.json"), fx.file("history.ndjson"));

    // An instance granted the directory for reading loads it, and its save is refused.
    let (mut store, b) = fx.instance_with(DirectoryFiles::read_only(Some(fx.dir.path()), fx.dir.path()));
    let db = b.evodb_population_store().call_load(&mut store).unwrap().unwrap().expect("a database");
    let saved = b.evodb_population_store().call_save(&mut store, db).unwrap();
    assert!(matches!(&saved, Err(population::Error::Io(m)) if m.contains("reading only")), "{saved:?}");
    assert_eq!((fx.file("database.json"), fx.file("history.ndjson")), before);

    // A history that links out of the directory is neither read nor appended to.
    let outside = tempfile::tempdir().unwrap();
    let log = outside.path().join("log.ndjson");
    std::fs::write(&log, "").unwrap();
    std::fs::remove_file(fx.dir.path().join("history.ndjson")).unwrap();
    std::os::unix::fs::symlink(&log, fx.dir.path().join("history.ndjson")).unwrap();
    let err = fx.add(&request(&req(1)), 1.0);
    assert!(matches!(&err, Err(population::Error::Io(m)) if m.contains("symbolic link")), "{err:?}");
    assert_eq!(fx.file("database.json"), before.0, "refused before database.json changed");
    assert_eq!(std::fs::read(&log).unwrap(), b"");
    let (mut store, b) = fx.instance();
    let history = b.evodb_population_store().call_history(&mut store).unwrap();
    assert!(matches!(&history, Err(population::Error::Io(m)) if m.contains("symbolic link")), "{history:?}");
}
