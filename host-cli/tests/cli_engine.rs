//! The engine beyond the seed through `evodb`: MAP-Elites and operators configured by `init`
//! flags, `plan` + `add --planItem` for parallel workers, statuses, `should-stop`, the markdown
//! and ASCII exports, `validate` listing every problem, and a history that replays the database.

use crate::cli;

use std::fs;

use cli::{add_args, evodb, seed_args};
use evodb_core::{Database, Event};
use serde_json::{Value, json};

fn db_dir() -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db").display().to_string();
    (tmp, db)
}

#[test]
fn a_planned_batch_lands_on_its_islands_whatever_order_the_workers_finish_in() {
    let (_tmp, db) = db_dir();
    let init = evodb(&[
        "init",
        &db,
        "--seed",
        "5",
        "--islands",
        "4",
        "--operators",
        "default",
        "--dedupe",
        "--features",
        r#"[{"kind":"island"},{"kind":"codeLines","thresholds":[3]}]"#,
        "--maxEvaluations",
        "12",
    ]);
    assert_eq!(init.code, 0, "{init:?}");
    assert_eq!(evodb(&seed_args(std::path::Path::new(&db))).code, 0);

    let plan = evodb(&["plan", &db, "6", "--frozen", "3", "--boosted", "1"]).json();
    let items = plan["items"].as_array().unwrap();
    assert_eq!(items.len(), 6);
    let islands: Vec<u64> = items.iter().map(|i| i["island"].as_u64().unwrap()).collect();
    assert!(!islands.contains(&3), "island 3 is frozen: {islands:?}");
    assert_eq!(islands.iter().filter(|&&i| i == 1).count(), 3, "island 1 is boosted: {islands:?}");

    // Workers report back in reverse order: each answer before item 0's is held (saved, not yet
    // applied); item 0's applies them all, in plan order, each on its item's island.
    let mut ids = Vec::new();
    for (i, item) in items.iter().enumerate().rev() {
        let mut args = add_args(std::path::Path::new(&db), "0", 100 + i, 0.2 + i as f64 / 100.0);
        args.extend(["--planItem".into(), item["name"].as_str().unwrap().into()]);
        let run = evodb(&args);
        let out = run.json();
        assert_eq!(out["cell"][0], item["island"], "the island dimension follows the plan");
        let stored: Value = serde_json::from_str(&evodb(&["export", &db]).stdout).unwrap();
        let id = out["id"].as_str().unwrap().to_string();
        if i > 0 {
            assert!(run.stderr.contains("warning: held:"), "{}", run.stderr);
            assert!(stored["programs"].get(&id).is_none(), "held, not applied yet");
        } else {
            assert!(run.stderr.contains("also applied the answers held for"), "{}", run.stderr);
        }
        ids.push((id, item["island"].clone()));
    }
    let stored: Value = serde_json::from_str(&evodb(&["export", &db]).stdout).unwrap();
    for (id, island) in &ids {
        assert_eq!(stored["programs"][id]["island"], *island, "{id}");
    }
    let iterations: Vec<u64> =
        ids.iter().rev().map(|(id, _)| stored["programs"][id]["iterationFound"].as_u64().unwrap()).collect();
    assert!(iterations.windows(2).all(|w| w[0] < w[1]), "iteration numbers follow the plan: {iterations:?}");
    let again = evodb(&{
        let mut args = add_args(std::path::Path::new(&db), "0", 200, 0.5);
        args.extend(["--planItem".into(), items[0]["name"].as_str().unwrap().into()]);
        args
    });
    assert_eq!(again.code, 1, "an item answers once: {again:?}");
    assert!(again.stderr.contains("not a pending plan item"), "{}", again.stderr);

    // A rejected and an error candidate; the error joins no island but spends budget.
    let mut rejected = add_args(std::path::Path::new(&db), "0", 300, 0.1);
    rejected.extend(["--status".into(), "rejected".into(), "--reason".into(), "slower".into()]);
    assert_eq!(evodb(&rejected).json()["status"], "rejected");
    let mut error = add_args(std::path::Path::new(&db), "0", 301, 0.0);
    error.extend(["--status".into(), "error".into()]);
    let refused = evodb(&error);
    assert_eq!(refused.code, 1, "an error needs a reason: {refused:?}");
    error.extend(["--reason".into(), "ImportError".into()]);
    assert_eq!(evodb(&error).json()["status"], "error");
    // The same code again is answered from the fitness cache.
    let repeat = evodb(&add_args(std::path::Path::new(&db), "0", 100, 0.9)).json();
    assert_eq!(repeat["cached"], true, "{repeat}");

    let stop = evodb(&["should-stop", &db]).json();
    assert_eq!((stop["evaluations"].as_u64(), stop["rounds"].as_u64()), (Some(10), Some(1)), "{stop}");
    assert_eq!(stop["stop"], false);
    for i in 0..2 {
        evodb(&add_args(std::path::Path::new(&db), "0", 400 + i, 0.3)).json();
    }
    assert_eq!(evodb(&["should-stop", &db]).json()["reason"], "budget exhausted");

    let stats = evodb(&["stats", &db]).json();
    assert_eq!(stats["cells"]["total"], 8, "4 islands × 2 size buckets: {stats}");
    let markdown = evodb(&["export", &db, "--format", "markdown"]);
    assert!(markdown.stdout.starts_with("## 🧬 Population"), "{}", markdown.stdout);
    assert!(markdown.stdout.contains("❌ rejected") && markdown.stdout.contains("**Feature cell**: island "));
    let tree = evodb(&["export", &db, "--format", "tree"]);
    // Every candidate above was made from the seed's parent "0": ten roots, one line each.
    assert_eq!(tree.stdout.lines().count(), 10, "{}", tree.stdout);
    assert_eq!(tree.stdout.matches('★').count(), 1, "the best is marked: {}", tree.stdout);

    // The history is the event log: it rebuilds the database byte for byte.
    let history = evodb(&["history", &db]).stdout;
    let events: Vec<Event> = history.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(matches!(events[0], Event::Created { .. }));
    assert!(
        events.iter().any(|e| matches!(e, Event::Status { .. }))
            && events.iter().any(|e| matches!(e, Event::Cached { .. }))
    );
    let file = fs::read_to_string(format!("{db}/database.json")).unwrap();
    assert_eq!(Database::replay(&events).unwrap().to_json(), file);
}

#[test]
fn validate_lists_every_broken_invariant_and_exits_1() {
    let (_tmp, db) = db_dir();
    assert_eq!(evodb(&seed_args(std::path::Path::new(&db))).code, 0);
    for i in 1..4 {
        evodb(&add_args(std::path::Path::new(&db), "0", i, 0.1 * i as f64)).json();
    }
    assert_eq!(evodb(&["validate", &db]).json()["valid"], true);
    let path = format!("{db}/database.json");
    let mut file: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    file["currentIsland"] = json!(7);
    file["islands"][0].as_array_mut().unwrap().push(json!("ghost"));
    file["bestProgramId"] = json!("nobody");
    fs::write(&path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
    let before = fs::read(&path).unwrap();

    let out = evodb(&["validate", &db]);
    assert_eq!(out.code, 1, "{out:?}");
    let report: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let problems: Vec<&str> = report["problems"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems[0].contains("currentIsland") && problems[1].contains("ghost") && problems[2].contains("nobody"));
    assert!(out.stderr.contains("and 2 more"), "{}", out.stderr);
    assert_eq!(fs::read(&path).unwrap(), before, "validate changes nothing");
}
