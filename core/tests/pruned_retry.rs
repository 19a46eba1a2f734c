//! Issue 35's last defect: `add --id X` retried after X was pruned was stored a second time (two
//! `added` events, `lastIteration` off by one). A retry of a pruned program's add is answered,
//! never added again (`answered_pruned_retry`), also after a save and load.

use evodb_core::{AddRequest, Config, Database, Metrics};

/// One island of two: every add past the second prunes the worst.
fn small() -> Database {
    let config = Config::from_json(r#"{"numIslands": 1, "maxIslandSize": 2}"#).unwrap();
    let mut db = Database::new(config, 7).unwrap();
    db.add(AddRequest::seed("/s.py", "seed", Metrics::new([("score", 0.5)]).unwrap()), 1.0).unwrap();
    db
}

fn with_id(id: &str, score: f64) -> AddRequest {
    AddRequest {
        id: Some(id.to_string()),
        code_path: format!("/c/{id}.py"),
        target_code: format!("code {id}"),
        parent_id: "0".into(),
        metrics: Metrics::new([("score", score)]).unwrap(),
        changes: format!("made {id}"),
        ..AddRequest::seed("", "", Metrics::default())
    }
}

#[test]
fn a_pruned_programs_retried_add_is_answered_not_added() {
    let mut db = small();
    db.add(with_id("good", 0.9), 2.0).unwrap();
    // The worst of three goes at once: `weak` itself.
    let first = db.add(with_id("weak", 0.1), 3.0).unwrap();
    assert_eq!(first.id, "weak");
    assert!(!db.to_json().contains("\"weak\": {"), "`weak` was pruned");
    let before = db.info();

    for db in [&mut db, &mut Database::from_json(&small_reloaded_after_prune()).unwrap()] {
        let count = db.info().program_count;
        let last = db.info().last_iteration;
        let retry = db.add(with_id("weak", 0.1), 9.0).unwrap();
        assert_eq!(retry.id, "weak");
        assert!(retry.warnings.iter().any(|w| w.contains("since been pruned")), "{:?}", retry.warnings);
        assert_eq!((db.info().program_count, db.info().last_iteration), (count, last), "nothing changed");
    }
    assert_eq!(db.info().last_iteration, before.last_iteration);

    // The id with other fields is another program: added.
    let other = db.add(with_id("weak", 0.95), 10.0).unwrap();
    assert!(other.warnings.iter().all(|w| !w.contains("pruned")), "{:?}", other.warnings);
    assert_eq!(db.info().last_iteration, before.last_iteration + 1);
}

/// The same run, saved and loaded after `weak` was pruned.
fn small_reloaded_after_prune() -> String {
    let mut db = small();
    db.add(with_id("good", 0.9), 2.0).unwrap();
    db.add(with_id("weak", 0.1), 3.0).unwrap();
    let text = db.to_json();
    assert!(text.contains("\"pruned\""), "the pruned program is remembered in the file");
    text
}
