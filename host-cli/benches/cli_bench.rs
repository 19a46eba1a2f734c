//! The `evodb` CLI's in-process figures, one JSON line each (`bench/run` pairs them with their
//! peers and prints the table):
//!
//! - `phase.<name>`: where one call's time goes, measured in-process: process start, the engine
//!   and the built-in machine code, instantiation, load, the operation, save;
//! - `large.*`: `add` on a 10,000-program database against a bare serde_json read + write;
//! - `size.store`: the bytes of the component `evodb` embeds.
//!
//! The whole-process figures beside the seed skill's own CLI and evodb's Node drop-in (wall and
//! CPU, `cli.*`) are `bench/run`'s own: it times the three as processes, in turn.
//!
//! `cargo bench -p evodb-host --bench cli_bench` (needs the release binary:
//! `cargo build --release -p evodb-host`).

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use evodb_host::bindings::WithStore;
use evodb_host::{DirectoryFiles, Host, State, embedded, population};
use wasmtime::Store;

mod common;
use common::{figure, in_process, in_process_split, median, write_database};

const RUNS: usize = 40;
const PHASE_RUNS: usize = 200;
const LARGE_RUNS: usize = 10;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let evodb = root.join("target/release/evodb");
    assert!(evodb.is_file(), "{} is missing: cargo build --release -p evodb-host", evodb.display());
    let scratch = tempfile::tempdir().unwrap();
    let fixture = scratch.path().join("seed-written");
    fs::create_dir(&fixture).unwrap();
    fs::copy(root.join("tests/fixtures/seed-written/database.json"), fixture.join("database.json")).unwrap();
    set_writable(&fixture.join("database.json"));

    let size = serde_json::json!({"id": "size.store", "label": "the store component evodb embeds",
        "value": embedded::COMPONENT.len(), "unit": "B"});
    println!("{size}");
    phases(&fixture);
    large_database(&evodb, scratch.path());
}

/// `phase.*`: each step of one `sample` and one `add`, in this process, median of [`PHASE_RUNS`].
/// Runs before anything else in the process loads the component.
fn phases(db: &Path) {
    let start = median(RUNS, || {
        let mut c = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/evodb"));
        c.arg("--version");
        c
    });
    figure("phase.start", "process start and argument parsing (evodb --version)", start, None);
    // Only a process's first load uses the machine code in place (later ones copy it), so this
    // phase is that one load, as each CLI process makes it.
    let first = Instant::now();
    let host = Host::new().unwrap();
    let component = host.load_embedded().unwrap();
    figure("phase.engine", "engine and the built-in machine code (one load)", first.elapsed(), None);
    let instance = || {
        let mut store = host.store(DirectoryFiles::read_write(db, db));
        let bindings = host.instantiate_store(&mut store, &component).unwrap();
        (store, bindings)
    };
    figure("phase.instantiate", "instantiation", in_process(PHASE_RUNS, || drop(instance())), None);
    let timed = |f: &dyn Fn(&mut Store<State>, &WithStore, wasmtime::component::ResourceAny)| {
        in_process_split(PHASE_RUNS, || {
            let (mut store, b) = instance();
            let loaded = Instant::now();
            let db = b.evodb_population_store().call_load(&mut store).unwrap().unwrap().unwrap();
            let loaded = loaded.elapsed();
            let op = Instant::now();
            f(&mut store, &b, db);
            (loaded, op.elapsed())
        })
    };
    let (load, sample) = timed(&|store, b, db| {
        b.evodb_population_population().database().call_sample(&mut *store, db).unwrap();
    });
    figure("phase.load", "load: read and parse database.json", load, None);
    figure("phase.sample", "the operation: sample", sample, None);
    let request = population::AddRequest {
        id: None,
        code_path: "/c/x.py".into(),
        target_code: "def f(x):\n    return x\n".into(),
        parent_id: "0".into(),
        metrics: vec![("benchmark-score".into(), 0.5), ("efficiency-score".into(), 0.4)],
        changes: "bench".into(),
        island: None,
        status: population::Status::Accepted,
        reason: None,
        operator: None,
        plan_item: None,
        token: None,
        branch: None,
        commit: None,
        target: None,
        decide: false,
        model: None,
        tokens_in: None,
        tokens_out: None,
        cost_usd: None,
        eval_seconds: None,
        origin: None,
        parents: Vec::new(),
        instance_scores: Vec::new(),
        embedding: None,
    };
    let (_, add) = timed(&|store, b, db| {
        b.evodb_population_population().database().call_add(&mut *store, db, &request, 1.0).unwrap().unwrap();
    });
    figure("phase.add", "the operation: add", add, None);
    let (_, save) = timed(&|store, b, db| {
        b.evodb_population_population().database().call_sample(&mut *store, db).unwrap();
        b.evodb_population_store().call_save(&mut *store, db).unwrap().unwrap();
    });
    let save = save.saturating_sub(sample);
    figure("phase.save", "save: serialize, write, fsync, rename, append the history", save, None);
}

/// `large.*`: a 10,000-program database (~25 MB).
fn large_database(evodb: &Path, scratch: &Path) {
    let large = scratch.join("large");
    write_database(&large, 10_000, 10_000, 2_000);
    let add_args = command_args("add", &large);
    let add = median(LARGE_RUNS, || {
        let mut c = Command::new(evodb);
        c.args(&add_args);
        c
    });
    let bare = in_process(LARGE_RUNS, || serde_roundtrip(&large.join("database.json")));
    figure(
        "large.add",
        "evodb add, 10,000 programs",
        add,
        Some(("serde_json read + parse + write + fsync, in-process".into(), bare)),
    );
}

fn command_args(command: &str, db: &Path) -> Vec<String> {
    let mut args = vec![command.to_string(), db.display().to_string()];
    if command == "add" {
        args.extend(
            ["--codePath", "/candidates/x.py", "--targetCode", "def f(x):\n    return x\n", "--parentId", "0"]
                .into_iter()
                .chain(["--metrics", r#"{"benchmark-score": 0.5, "efficiency-score": 0.4, "score": 0.5}"#])
                .chain(["--changes", "bench"])
                .map(String::from),
        );
    }
    args
}

fn serde_roundtrip(path: &Path) {
    let text = fs::read_to_string(path).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tmp = path.with_extension("bare.tmp");
    let mut file = fs::File::create(&tmp).unwrap();
    file.write_all(serde_json::to_string_pretty(&value).unwrap().as_bytes()).unwrap();
    file.sync_all().unwrap();
    fs::remove_file(tmp).unwrap();
}

fn set_writable(path: &Path) {
    let mut permissions = fs::metadata(path).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)] // a copy in our own temp dir
    permissions.set_readonly(false);
    fs::set_permissions(path, permissions).unwrap();
}
