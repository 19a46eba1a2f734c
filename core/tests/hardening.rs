//! The engine's side of the hostile review: files with trailing content, counters at their
//! limit, unbounded metrics, a baseline that outlives its program, and the warnings the seed
//! skill's loop needs. Each test is named after its case.

use evodb_core::{AddRequest, Config, Database, Error, MAX_COUNTER, Metrics};
use serde_json::Value;

fn candidate(parent: &str, score: f64) -> AddRequest {
    AddRequest {
        parent_id: parent.into(),
        changes: "a change".into(),
        ..AddRequest::seed("f.py", format!("code {score}"), Metrics::new([("score", score)]).unwrap())
    }
}

fn seeded() -> Database {
    let mut db = Database::new(Config::default(), 7).unwrap();
    db.add(AddRequest::seed("f.py", "x", Metrics::new([("score", 0.2)]).unwrap()), 1.0).unwrap();
    db
}

fn corrupt_problem(text: &str) -> String {
    match Database::from_json(text) {
        Err(Error::CorruptDatabase { problem }) => problem,
        other => panic!("expected a corrupt-database error, got {other:?}"),
    }
}

/// The stored file with one top-level key set to a JSON value.
fn with_key(db: &Database, key: &str, value: Value) -> String {
    let mut file: Value = serde_json::from_str(&db.to_json()).unwrap();
    file[key] = value;
    serde_json::to_string_pretty(&file).unwrap()
}

#[test]
fn trailing_garbage_a_nul_byte_or_a_second_object_after_the_database_is_refused() {
    let text = seeded().to_json();
    for tail in ["garbage", "\0", "{}", "\n{\"numIslands\": 3}", "]"] {
        let problem = corrupt_problem(&format!("{text}{tail}"));
        assert!(problem.contains("trailing content after the JSON value"), "{tail:?}: {problem}");
    }
    // Whitespace after the object is fine.
    assert!(Database::from_json(&format!("{text}\n\n  \t")).is_ok());
}

#[test]
fn trailing_content_after_a_config_or_request_is_refused_too() {
    assert!(Config::from_json(r#"{"numIslands": 2} x"#).is_err());
    let request = r#"{"codePath":"a","targetCode":"b","metrics":{}} {}"#;
    assert!(AddRequest::from_json(request).is_err());
}

#[test]
fn a_counter_above_2_pow_53_is_refused_on_load() {
    let db = seeded();
    for value in [MAX_COUNTER + 1, u64::MAX] {
        let problem = corrupt_problem(&with_key(&db, "lastIteration", value.into()));
        assert!(problem.contains("`lastIteration`") && problem.contains("2^53"), "{problem}");
    }
    let problem = corrupt_problem(&with_key(&db, "islandGenerations", serde_json::json!([0, u64::MAX, 0])));
    assert!(problem.contains("`islandGenerations[1]`"), "{problem}");
    // 2^53 − 1 itself loads.
    assert!(Database::from_json(&with_key(&db, "lastIteration", MAX_COUNTER.into())).is_ok());
}

#[test]
fn an_add_that_would_overflow_a_counter_is_refused_and_changes_nothing() {
    let seed = seeded();
    let at_limit = Database::from_json(&with_key(&seed, "lastIteration", MAX_COUNTER.into())).unwrap();
    let mut db = at_limit.clone();
    let parent = seed.best_id().unwrap().to_owned();
    let err = db.add(candidate(&parent, 0.5), 2.0).unwrap_err();
    assert!(err.to_string().contains("lastIteration") && err.to_string().contains("overflow"), "{err}");
    assert_eq!(db.to_json(), at_limit.to_json(), "nothing changed");

    let generations = serde_json::json!([0, MAX_COUNTER, 0]);
    let mut db = Database::from_json(&with_key(&seed, "islandGenerations", generations)).unwrap();
    let before = db.to_json();
    let err = db.add(candidate(&parent, 0.5), 2.0).unwrap_err();
    assert!(err.to_string().contains("islandGenerations[1]"), "{err}");
    assert_eq!(db.to_json(), before);
}

#[test]
fn more_than_a_thousand_metrics_or_a_long_metric_name_is_refused() {
    let many: Vec<(String, f64)> = (0..1001).map(|i| (format!("m{i}"), 0.5)).collect();
    let err = Metrics::new(many).unwrap_err();
    assert!(err.to_string().contains("more than 1000"), "{err}");
    assert!(Metrics::new((0..1000).map(|i| (format!("m{i}"), 0.5))).is_ok());
    let err = Metrics::new([("x".repeat(257), 0.5)]).unwrap_err();
    assert!(err.to_string().contains("257-byte name"), "{err}");

    // The same bound on load: a stored program with 100,000 metrics is refused quickly.
    let db = seeded();
    let mut file: Value = serde_json::from_str(&db.to_json()).unwrap();
    let id = db.best_id().unwrap().to_owned();
    file["programs"][&id]["metrics"] = (0..100_000).map(|i| (format!("m{i}"), Value::from(0.5))).collect();
    let problem = corrupt_problem(&serde_json::to_string(&file).unwrap());
    assert!(problem.contains("more than 1000"), "{problem}");
}

#[test]
fn the_baseline_outlives_the_initial_program_when_pruning_deletes_it() {
    let config = Config { num_islands: 1, max_island_size: 2, ..Config::default() };
    let mut db = Database::new(config, 3).unwrap();
    let seed = db.add(AddRequest::seed("f.py", "x", Metrics::new([("score", 0.1)]).unwrap()), 1.0).unwrap();
    for i in 0..4 {
        db.add(candidate(&seed.id, 0.5 + f64::from(i) / 10.0), 2.0).unwrap();
    }
    assert!(db.program(&seed.id).is_none(), "the initial program was pruned");
    let stats = db.stats();
    assert_eq!(stats.baseline_fitness, Some(0.1));
    assert!((stats.improvement.unwrap() - 0.7).abs() < 1e-9);
    // … and it survives a save and a load.
    assert_eq!(Database::from_json(&db.to_json()).unwrap().stats().baseline_fitness, Some(0.1));
}

#[test]
fn a_second_seed_and_metrics_that_differ_from_the_stored_ones_are_warned_about() {
    let mut db = seeded();
    let again = db.add(AddRequest::seed("f.py", "y", Metrics::new([("score", 0.3)]).unwrap()), 2.0).unwrap();
    assert!(again.warnings.iter().any(|w| w.contains("second initial program")), "{:?}", again.warnings);

    let parent = db.best_id().unwrap().to_owned();
    let renamed = AddRequest { metrics: Metrics::new([("speed", 0.9)]).unwrap(), ..candidate(&parent, 0.0) };
    let out = db.add(renamed, 3.0).unwrap();
    assert!(out.warnings.iter().any(|w| w.contains("[speed]") && w.contains("[score]")), "{:?}", out.warnings);

    let same = db.add(candidate(&parent, 0.4), 4.0).unwrap();
    assert!(same.warnings.iter().all(|w| !w.contains("metrics name")), "{:?}", same.warnings);
}

/// Found by `fuzz_load`: a program that no island lists (here its id was spliced out of
/// `islands`) loaded, and evodb then wrote a file that `validate` rejects.
#[test]
fn a_program_on_no_island_is_refused_on_load() {
    let db = seeded();
    let mut file: Value = serde_json::from_str(&db.to_json()).unwrap();
    file["islands"] = serde_json::json!([[], [], []]);
    let problem = corrupt_problem(&serde_json::to_string(&file).unwrap());
    assert!(problem.contains("on no island"), "{problem}");
}

/// Found by `fuzz_load`: a candidate log numbering the next candidate at or below a stored
/// program's `seq` loaded, and the next add reused a number.
#[test]
fn a_next_seq_at_or_below_a_stored_seq_is_refused_on_load() {
    let db = seeded();
    let mut file: Value = serde_json::from_str(&db.to_json()).unwrap();
    file["evodb"]["candidates"]["nextSeq"] = 1.into();
    let problem = corrupt_problem(&serde_json::to_string(&file).unwrap());
    assert!(problem.contains("has `seq` 1 but the next candidate is numbered 1"), "{problem}");
}

/// Found by `fuzz_load`: a stored cell its program's metrics do not produce loaded, and a later
/// migration copy panicked recomputing it.
#[test]
fn a_stored_cell_its_metrics_do_not_produce_is_refused_on_load() {
    let config =
        Config::from_json(r#"{"features": [{"kind": "metric", "metric": "score", "min": 0, "max": 1, "bins": 4}]}"#);
    let mut db = Database::new(config.unwrap(), 1).unwrap();
    db.add(AddRequest::seed("f.py", "x", Metrics::new([("score", 0.1)]).unwrap()), 1.0).unwrap();
    let id = db.best_id().unwrap().to_owned();
    let mut file: Value = serde_json::from_str(&db.to_json()).unwrap();
    file["programs"][&id]["cell"] = serde_json::json!([3]);
    let problem = corrupt_problem(&serde_json::to_string(&file).unwrap());
    assert!(problem.contains("but its metrics and code place it in [0]"), "{problem}");
    file["programs"][&id]["cell"] = serde_json::json!([0]);
    file["programs"][&id]["metrics"] = serde_json::json!({"scorf": 0.1});
    let problem = corrupt_problem(&serde_json::to_string(&file).unwrap());
    assert!(problem.contains("metrics.score"), "{problem}");
}
