//! `evodb` as a drop-in for the seed skill's `db-cli.mjs`: the seed's commands, flags and JSON
//! shapes, checked against the engine itself; files written by the seed's CLI read as they are.

use crate::cli;

use std::fs;
use std::path::Path;

use cli::{add_args, evodb, seed_args};
use evodb_core::json_text::to_compact_js;
use evodb_core::{AddRequest, Config, Database, Metrics};
use serde_json::{Value, json};

/// What the engine answers for the same operation, in the CLI's shape.
fn engine_json(value: &impl serde::Serialize) -> Value {
    serde_json::from_str(&to_compact_js(value)).unwrap()
}

fn request(args: &[String]) -> AddRequest {
    let flag = |name: &str| args.iter().position(|a| a == name).map(|i| args[i + 1].clone());
    let metrics: Metrics = serde_json::from_str(&flag("--metrics").unwrap()).unwrap();
    let mut request = AddRequest::seed(flag("--codePath").unwrap(), flag("--targetCode").unwrap(), metrics);
    if let Some(parent) = flag("--parentId") {
        request.parent_id = parent;
        request.changes = flag("--changes").unwrap();
    }
    request
}

#[test]
fn every_seed_command_prints_the_engines_answer_in_the_seeds_shape() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("database");
    let mut engine = Database::new(Config::default(), 0).unwrap();

    let created = evodb(&["create", db.to_str().unwrap()]).json();
    assert_eq!(created, engine_json(&engine.info()));
    assert_eq!(
        created.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["isEmpty", "lastIteration", "programCount", "bestProgramId", "bestMetrics", "seedCodePath", "seedTargetCode"]
    );
    assert_eq!(evodb(&["sample", db.to_str().unwrap()]).json(), json!({"parent": null, "inspirations": []}));
    engine.sample();
    assert_eq!(evodb(&["best", db.to_str().unwrap()]).json(), Value::Null);

    let seed = seed_args(&db);
    let seeded = evodb(&seed).json();
    let expected = engine.add(request(&seed), 0.0).unwrap();
    assert_eq!(seeded, json!({"id": expected.id, "metrics": engine_json(&expected.metrics)}));

    let mut parent = expected.id.clone();
    for i in 1..=24 {
        let parent_id = if i % 7 == 0 { "pruned-long-ago".to_string() } else { parent.clone() };
        let args = add_args(&db, &parent_id, i, (i * 37 % 100) as f64 / 100.0);
        let run = evodb(&args);
        let mut expected = engine.add(request(&args), 0.0).unwrap();
        if i % 7 == 0 {
            assert!(run.stderr.contains("warning: parent id `pruned-long-ago` is not in the database"), "{run:?}");
        }
        expected.warnings.clear();
        assert_eq!(run.json(), engine_json(&expected), "add {i}");
        if i % 3 == 0 {
            let sampled = evodb(&["sample", db.to_str().unwrap()]).json();
            assert_eq!(sampled, engine_json(&engine.sample()), "sample after add {i}");
            parent = sampled["parent"]["id"].as_str().unwrap().to_string();
        }
    }
    assert_eq!(evodb(&["best", db.to_str().unwrap()]).json(), engine_json(&engine.best()));
    assert_eq!(evodb(&["info", db.to_str().unwrap()]).json(), engine_json(&engine.info()));
    assert_eq!(evodb(&["stats", db.to_str().unwrap()]).json(), engine_json(&engine.stats()));
}

#[test]
fn flags_take_equals_signs_and_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let code = dir.path().join("candidate.py");
    fs::write(&code, "def f(x):\n    # it's \"quoted\" $(not run)\n    return x\n").unwrap();
    let changes = dir.path().join("changes.txt");
    fs::write(&changes, "--starts with dashes\nand spans lines").unwrap();
    let db_arg = db.to_str().unwrap();
    let seeded = evodb(&[
        "seed",
        db_arg,
        "--codePath=/c/0.py",
        &format!("--targetCodeFile={}", code.display()),
        "--metrics={\"score\":0.5}",
    ])
    .json();
    let added = evodb(&[
        "add",
        db_arg,
        "--codePath",
        "/c/1.py",
        "--targetCodeFile",
        code.to_str().unwrap(),
        "--parentId",
        seeded["id"].as_str().unwrap(),
        "--metrics",
        "{\"score\":0.75}",
        "--changesFile",
        changes.to_str().unwrap(),
    ])
    .json();
    let best = evodb(&["best", db_arg]).json();
    assert_eq!(best["id"], added["id"]);
    assert_eq!(best["targetCode"], fs::read_to_string(&code).unwrap());
    assert_eq!(best["changes"], "--starts with dashes\nand spans lines");
    assert_eq!(evodb(&["info", db_arg]).json()["seedCodePath"], "/c/0.py");
}

/// The seed's own CLI wrote this file: evodb reads it as it is, carries on, and writes a
/// superset the seed's CLI still reads (every seed key, same types).
#[test]
fn a_database_written_by_the_seeds_cli_is_read_and_stays_readable_by_it() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/seed-written/database.json");
    let text = fs::read_to_string(&fixture).unwrap_or_else(|e| panic!("{}: {e}", fixture.display()));
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("database.json"), &text).unwrap();
    let db = dir.path().to_str().unwrap();
    let engine = Database::from_json(&text).unwrap();

    assert_eq!(evodb(&["info", db]).json(), engine_json(&engine.info()));
    assert_eq!(evodb(&["best", db]).json(), engine_json(&engine.best()));
    let best = engine.best().unwrap().id;
    let added = evodb(&add_args(dir.path(), &best, 99, 0.99)).json();
    assert_eq!(added["lastIteration"], engine.last_iteration() + 1);

    let seed: Value = serde_json::from_str(&text).unwrap();
    let written: Value = serde_json::from_str(&fs::read_to_string(dir.path().join("database.json")).unwrap()).unwrap();
    for (key, value) in seed.as_object().unwrap() {
        let kind = |v: &Value| std::mem::discriminant(v);
        assert_eq!(kind(&written[key]), kind(value), "seed key `{key}` keeps its type");
    }
    let program = &written["programs"][added["id"].as_str().unwrap()];
    for key in
        ["id", "codePath", "targetCode", "parentId", "generation", "iterationFound", "timestamp", "metrics", "changes"]
    {
        assert!(!program[key].is_null(), "a new program carries the seed's `{key}`");
    }
}

#[test]
fn readers_of_a_missing_database_see_an_empty_one_and_create_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("not-yet");
    let db_arg = db.to_str().unwrap();
    assert_eq!(evodb(&["info", db_arg]).json()["isEmpty"], true);
    assert_eq!(evodb(&["best", db_arg]).json(), Value::Null);
    assert_eq!(evodb(&["stats", db_arg]).json()["programCount"], 0);
    assert_eq!(evodb(&["history", db_arg]).stdout, "");
    assert!(!db.exists(), "a reader created {}", db.display());
}

#[test]
fn help_lists_every_command_and_the_exit_codes() {
    let run = evodb(&["--help"]);
    assert_eq!(run.code, 0);
    for command in [
        "create", "info", "seed", "add", "sample", "best", "init", "stats", "validate", "export", "lineage", "history",
        "demo",
    ] {
        assert!(run.stdout.contains(command), "--help lacks {command}: {}", run.stdout);
        let sub = evodb(&[command, "--help"]);
        assert_eq!(sub.code, 0, "{command} --help");
        assert!(sub.stdout.contains("Usage: evodb"), "{command} --help: {}", sub.stdout);
    }
    assert!(run.stdout.contains("Exit codes:") && run.stdout.contains("4  sandbox limit"), "{}", run.stdout);
}

#[test]
fn lineage_and_the_mermaid_tree_follow_parent_links() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path();
    let db_arg = db.to_str().unwrap();
    let root = evodb(&seed_args(db)).json()["id"].as_str().unwrap().to_string();
    let child = evodb(&add_args(db, &root, 1, 0.5)).json()["id"].as_str().unwrap().to_string();
    let grandchild = evodb(&add_args(db, &child, 2, 0.9)).json()["id"].as_str().unwrap().to_string();
    let orphan = evodb(&add_args(db, "pruned-parent", 3, 0.2)).json()["id"].as_str().unwrap().to_string();

    let lineage = evodb(&["lineage", db_arg, &grandchild]).json();
    assert_eq!(
        lineage,
        json!({"id": grandchild, "ancestors": [child, root], "missingAncestor": null, "descendants": []})
    );
    assert_eq!(evodb(&["lineage", db_arg, &root]).json()["descendants"], json!([child, grandchild]));
    assert_eq!(evodb(&["lineage", db_arg, &orphan]).json()["missingAncestor"], "pruned-parent");
    let unknown = evodb(&["lineage", db_arg, "nobody"]);
    assert_eq!(unknown.code, 3, "{unknown:?}");
    assert!(unknown.stderr.contains("no live program has id `nobody`"), "{unknown:?}");

    let mermaid = evodb(&["export", db_arg, "--format", "mermaid"]);
    assert_eq!(mermaid.code, 0, "{mermaid:?}");
    let lines: Vec<&str> = mermaid.stdout.lines().collect();
    assert_eq!(lines[0], "graph TD");
    assert_eq!(lines.iter().filter(|l| l.contains("[\"")).count(), 4, "one node per program");
    assert!(lines.contains(&"  n0 --> n1") && lines.contains(&"  n1 --> n2"), "{}", mermaid.stdout);
    assert_eq!(lines.iter().filter(|l| l.contains("-->")).count(), 2, "no edge to a pruned parent");
    assert!(lines.contains(&"  class n2 best"), "{}", mermaid.stdout);
}
