//! The sandbox around every call: a time budget, a memory cap, the database directory as the
//! component's only view of the file system, and nothing written outside the database directory.

use crate::cli;

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use cli::{Run, add_args, bytes, command, evodb, seed_args};
use evodb_core::{AddRequest, Config, Database, Metrics};
use evodb_host::{DirectoryFiles, Host, HostError, Limits};
use std::time::Duration;
use wasmtime::component::Component;

use crate::common;

/// A database of `n` programs with ~1 KB of code each, written by the engine directly.
fn large_database(dir: &Path, n: usize) {
    let config = Config::from_json(&format!("{{\"maxIslandSize\": {n}}}")).unwrap();
    let mut db = Database::new(config, 3).unwrap();
    let code = "    total = total + x  # a line of a longer candidate\n".repeat(20);
    for i in 0..n {
        let metrics = Metrics::new([("score", (i % 97) as f64 / 97.0)]).unwrap();
        db.add(AddRequest::seed(format!("/c/{i}.py"), format!("def f{i}(x):\n{code}"), metrics), i as f64).unwrap();
    }
    fs::write(dir.join("database.json"), db.to_json()).unwrap();
}

fn unchanged_after(dir: &Path, run: impl FnOnce() -> Run) -> Run {
    let before = (bytes(&dir.join("database.json")), bytes(&dir.join("history.ndjson")));
    let result = run();
    assert_eq!(before, (bytes(&dir.join("database.json")), bytes(&dir.join("history.ndjson"))), "{result:?}");
    result
}

#[test]
fn a_call_over_its_time_budget_or_memory_cap_is_stopped_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    large_database(dir.path(), 3000);
    let mut args = add_args(dir.path(), "0", 1, 0.5);

    args.extend(["--timeBudgetMs".into(), "1".into()]);
    let run = unchanged_after(dir.path(), || evodb(&args));
    assert_eq!(run.code, 4, "{run:?}");
    assert!(run.stderr.contains("database operation exceeded its time budget (1 ms)"), "{run:?}");

    args.truncate(args.len() - 2);
    args.extend(["--memoryLimitMb".into(), "8".into()]);
    let run = unchanged_after(dir.path(), || evodb(&args));
    assert_eq!(run.code, 4, "{run:?}");
    assert!(run.stderr.contains("database operation exceeded its memory cap (8 MiB)"), "{run:?}");

    // The defaults are ample for the same database.
    args.truncate(args.len() - 2);
    assert_eq!(evodb(&args).json()["lastIteration"], 3001);
}

/// Loads the database in `dir` once, under `host`'s time budget, on this thread.
fn timed_load(host: &Host, component: &Component, dir: &Path) -> Result<bool, HostError> {
    let mut store = host.store(DirectoryFiles::read_only(Some(dir), dir));
    let bindings = host.instantiate_store(&mut store, component).unwrap();
    let store_interface = bindings.evodb_population_store();
    host.call(&mut store, |store| store_interface.call_load(store)).map(|db| db.is_some())
}

/// The budget's alarm belongs to the thread whose call armed it (`evodb serve` runs a writer and
/// a reader engine on two threads): one call running out of time interrupts neither the other
/// thread's call nor a later call on the same thread.
#[test]
fn a_time_budget_interrupts_only_its_own_call() {
    let dir = tempfile::tempdir().unwrap();
    large_database(dir.path(), 3000);
    let short = Host::with_limits(Limits { time_budget: Duration::from_millis(1), ..Limits::default() }).unwrap();
    let ample = Host::new().unwrap();
    let (short_code, ample_code) = (common::load(&short), common::load(&ample));
    std::thread::scope(|scope| {
        let neighbour =
            scope.spawn(|| (0..20).map(|_| timed_load(&ample, &ample_code, dir.path())).collect::<Vec<_>>());
        for _ in 0..20 {
            let result = timed_load(&short, &short_code, dir.path());
            assert!(matches!(result, Err(HostError::TimeBudget(_))), "{result:?}");
        }
        for result in neighbour.join().unwrap() {
            assert!(matches!(result, Ok(true)), "the other thread's call was interrupted: {result:?}");
        }
    });
    // The same thread, after its alarms: a call with time to spare finishes.
    assert!(matches!(timed_load(&ample, &ample_code, dir.path()), Ok(true)));
}

#[test]
fn a_symlink_out_of_the_database_directory_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    evodb(&seed_args(&outside.path().join("victim"))).json();
    let victim = outside.path().join("victim/database.json");
    let victim_bytes = bytes(&victim);

    fs::create_dir(&db).unwrap();
    symlink(&victim, db.join("database.json")).unwrap();
    for args in [vec!["info".to_string(), db.display().to_string()], add_args(&db, "0", 1, 0.5)] {
        let run = evodb(&args);
        assert_eq!(run.code, 5, "{args:?}: {run:?}");
        assert!(run.stderr.contains("database.json"), "{run:?}");
    }
    assert_eq!(bytes(&victim), victim_bytes, "the file outside was not touched");

    // A history symlinked outside: refused before database.json changes.
    let db2 = dir.path().join("db2");
    evodb(&seed_args(&db2)).json();
    fs::remove_file(db2.join("history.ndjson")).unwrap();
    let outside_log = outside.path().join("log.ndjson");
    fs::write(&outside_log, "").unwrap();
    symlink(&outside_log, db2.join("history.ndjson")).unwrap();
    let run = unchanged_after(&db2, || evodb(&add_args(&db2, "0", 1, 0.5)));
    assert_eq!(run.code, 5, "{run:?}");
    assert_eq!(bytes(&outside_log), b"");
}

#[test]
fn dot_dot_and_symlinked_paths_resolve_to_the_directory_they_name() {
    let dir = tempfile::tempdir().unwrap();
    let inner = dir.path().join("inner");
    fs::create_dir(&inner).unwrap();
    // `inner/..` names `dir` itself: the database lands there, nothing in `inner`.
    let dotted = inner.join("..");
    evodb(&seed_args(&dotted)).json();
    assert!(dir.path().join("database.json").is_file());
    assert_eq!(fs::read_dir(&inner).unwrap().count(), 0);

    // A database path that is a symlink to a directory works on the directory it points to.
    let target = dir.path().join("target");
    fs::create_dir(&target).unwrap();
    let link = dir.path().join("link");
    symlink(&target, &link).unwrap();
    evodb(&seed_args(&link)).json();
    assert!(target.join("database.json").is_file());
    assert_eq!(evodb(&["info", link.to_str().unwrap()]).json()["programCount"], 1);
}

#[test]
fn nothing_is_written_outside_the_database_directory() {
    // No cache of machine code any more: HOME, XDG_CACHE_HOME and TMPDIR stay as empty as they were.
    let home = tempfile::tempdir().unwrap();
    let db = tempfile::tempdir().unwrap();
    let missing = db.path().join("not-yet");
    let run = |args: &[&str]| {
        Run::from(
            command()
                .env("HOME", home.path())
                .env("XDG_CACHE_HOME", home.path().join("cache"))
                .env("TMPDIR", home.path())
                .args(args)
                .output()
                .unwrap(),
        )
    };
    assert_eq!(run(&["info", missing.to_str().unwrap()]).code, 0);
    let seeded = run(&[
        "seed",
        db.path().to_str().unwrap(),
        "--codePath",
        "f.py",
        "--targetCode",
        "x",
        "--metrics",
        r#"{"s":1}"#,
    ]);
    assert_eq!(seeded.code, 0, "{seeded:?}");
    assert_eq!(run(&["sample", db.path().to_str().unwrap()]).code, 0);
    let left: Vec<_> = fs::read_dir(home.path()).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(left.is_empty(), "evodb wrote outside the database directory: {left:?}");
    assert!(!missing.exists(), "a reader created the directory it was asked about");
}

#[test]
fn the_demo_is_reproducible_and_resumable() {
    let runs: Vec<_> = (0..2)
        .map(|_| {
            let dir = tempfile::tempdir().unwrap();
            let run = Run::from(
                command().current_dir(dir.path()).args(["demo", "--iterations", "12", "--seed", "3"]).output().unwrap(),
            );
            assert_eq!(run.code, 0, "{run:?}");
            assert!(run.stdout.contains("Iteration 12/12 | accuracy: "), "{}", run.stdout);
            assert!(run.stdout.contains("Baseline → best fitness: "), "{}", run.stdout);
            let root = dir.path().canonicalize().unwrap().display().to_string();
            let text = fs::read_to_string(dir.path().join("evolve-output/database/database.json")).unwrap();
            (dir, text.replace(&root, "<root>"))
        })
        .collect();
    assert_eq!(runs[0].1, runs[1].1, "same seed, same database.json");

    let dir = runs[0].0.path();
    let run =
        Run::from(command().current_dir(dir).args(["demo", "--iterations", "3", "--seed", "3"]).output().unwrap());
    assert!(run.stdout.starts_with("Resuming evolve-output/database at iteration 13"), "{}", run.stdout);
    let info = Run::from(command().current_dir(dir).args(["info", "evolve-output/database"]).output().unwrap()).json();
    assert_eq!(info["lastIteration"], 16);
    let validated =
        Run::from(command().current_dir(dir).args(["validate", "evolve-output/database"]).output().unwrap());
    assert_eq!(validated.json()["valid"], true);
}
