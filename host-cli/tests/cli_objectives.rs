//! Several objectives through `evodb` (issue 42): per-instance scores (`--instanceScores`, the
//! `instances` selection, `best --front`, coverage in `stats`) and a pareto front.

use crate::cli;

use std::path::Path;

use cli::{bytes, evodb};
use serde_json::Value;

/// `add` (or `seed` with `parent` "0") of a candidate scored per test: its score is the mean.
fn tested(db: &str, id: &str, parent: &str, tests: &[f64]) -> Vec<String> {
    let mean = tests.iter().sum::<f64>() / tests.len() as f64;
    let scores: serde_json::Map<String, Value> =
        tests.iter().enumerate().map(|(i, s)| (format!("test_{i}"), Value::from(*s))).collect();
    let mut args: Vec<String> = vec![
        if parent == "0" { "seed" } else { "add" }.into(),
        db.into(),
        "--codePath".into(),
        format!("/c/{id}.py"),
        "--targetCode".into(),
        format!("def f():\n    return '{id}'\n"),
        "--metrics".into(),
        format!("{{\"score\": {mean}}}"),
        "--instanceScores".into(),
        Value::Object(scores).to_string(),
    ];
    if parent != "0" {
        args.extend([
            "--parentId".into(),
            parent.into(),
            "--changes".into(),
            format!("made {id}"),
            "--id".into(),
            id.into(),
        ]);
    }
    args
}

#[test]
fn an_instances_run_keeps_specialists_and_reports_coverage() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db").display().to_string();
    let init = evodb(&["init", &db, "--islands", "1", "--maxIslandSize", "3", "--selection", "instances"]);
    assert_eq!(init.code, 0, "{init:?}");
    let seed = evodb(&tested(&db, "seed", "0", &[1.0, 1.0, 0.0, 0.0]));
    assert_eq!(seed.code, 0, "{seed:?}");
    let seed_id = seed.json()["id"].as_str().unwrap().to_string();
    for (id, tests) in
        [("specialist", [0.0, 0.0, 0.0, 1.0]), ("middling", [0.5, 0.5, 0.0, 0.5]), ("better", [1.0, 1.0, 1.0, 0.0])]
    {
        let run = evodb(&tested(&db, id, &seed_id, &tests));
        assert_eq!(run.code, 0, "{run:?}");
    }

    // Capacity 3: `middling` leads no test and goes; `specialist`, alone on test_3, stays.
    let front: Vec<String> = evodb(&["best", &db, "--front"])
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(front, ["better", "specialist"]);
    assert_eq!(evodb(&["best", &db]).json()["id"], "better", "the best is the fittest");
    let stats = evodb(&["stats", &db]).json();
    let instances = &stats["instances"];
    assert_eq!(instances["instanceCount"], 4, "{stats}");
    assert_eq!(instances["meanBest"], 1.0);
    assert_eq!(instances["coverage"][3]["leader"], "specialist");
    assert!(stats.get("pareto").is_none(), "{stats}");

    // An add without instance scores, or with a bad one, is refused by name and changes nothing.
    let before = bytes(&Path::new(&db).join("database.json"));
    let mut unscored = tested(&db, "unscored", "better", &[1.0]);
    unscored.truncate(unscored.len() - 8);
    unscored.extend(["--parentId".into(), "better".into(), "--changes".into(), "no scores".into()]);
    let refused = evodb(&unscored);
    assert_ne!(refused.code, 0, "{refused:?}");
    assert!(
        refused.stderr.contains("instanceScores") && refused.stderr.contains("--instanceScores '"),
        "{}",
        refused.stderr
    );
    let mut bad = tested(&db, "bad", "better", &[1.0]);
    let at = bad.iter().position(|a| a == "--instanceScores").unwrap();
    bad[at + 1] = r#"{"test_0": "passed"}"#.into();
    let refused = evodb(&bad);
    assert_ne!(refused.code, 0, "{refused:?}");
    assert!(refused.stderr.contains("instanceScores"), "{}", refused.stderr);
    assert_eq!(bytes(&Path::new(&db).join("database.json")), before, "a refused add changes nothing");
}

#[test]
fn front_needs_a_pareto_or_instances_run() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db").display().to_string();
    assert_eq!(evodb(&["init", &db]).code, 0);
    assert_eq!(evodb(&cli::seed_args(Path::new(&db))).code, 0);
    let refused = evodb(&["best", &db, "--front"]);
    assert_ne!(refused.code, 0);
    assert!(
        refused.stderr.contains("--selection pareto") && refused.stderr.contains("instances"),
        "{}",
        refused.stderr
    );
}
