//! Issue 41: in-flight-aware sampling. With `pending: "aware"`, samples taken before any answer
//! spread over islands and over the top parents; the open work is saved with the database and
//! closed by the add that names its parent; the history replays it byte for byte; and without
//! it nothing is remembered and sampling is the seed's.

use std::collections::BTreeSet;

use evodb_core::{AddRequest, Config, Database, Metrics};

fn metrics(score: f64) -> Metrics {
    Metrics::new([("score", score)]).unwrap()
}

fn child(parent: &str, i: u32, score: f64) -> AddRequest {
    AddRequest {
        code_path: format!("/c/{i}.py"),
        target_code: format!("def f(): return {i}"),
        parent_id: parent.into(),
        metrics: metrics(score),
        changes: format!("change {i}"),
        ..AddRequest::seed("", "", Metrics::default())
    }
}

/// A database of `config` holding a seed and `n` children of it, fitter as they go.
fn grown(config: &str, n: u32) -> Database {
    let mut db = Database::new(Config::from_json(config).unwrap(), 7).unwrap();
    db.record_events(true);
    let seed = db.add(AddRequest::seed("/s.py", "def f(): return 0", metrics(0.1)), 0.0).unwrap().id;
    for i in 1..=n {
        db.add(child(&seed, i, 0.1 + f64::from(i) / 100.0), f64::from(i)).unwrap();
    }
    db
}

#[test]
fn concurrent_operator_samples_spread_over_the_islands() {
    let islands_of = |pending: &str| {
        let mut db = grown(&format!(r#"{{"numIslands": 4, "operators": {{}}, "pending": "{pending}"}}"#), 8);
        (0..8).map(|_| db.sample().island.unwrap()).collect::<Vec<u32>>()
    };
    let aware = islands_of("aware");
    for island in 0..4 {
        assert_eq!(aware.iter().filter(|&&i| i == island).count(), 2, "two of eight samples per island: {aware:?}");
    }
    let seed = islands_of("ignore");
    assert!(seed.iter().collect::<BTreeSet<_>>().len() < 4, "without it samples pile up: {seed:?}");
}

#[test]
fn concurrent_exploitation_spreads_over_the_top_parents() {
    let parents_of = |pending: &str| {
        let config =
            format!(r#"{{"numIslands": 1, "explorationRatio": 0, "exploitationTop": 3, "pending": "{pending}"}}"#);
        let mut db = grown(&config, 6);
        (0..3).map(|_| db.sample().parent.unwrap().id.to_string()).collect::<BTreeSet<String>>()
    };
    assert_eq!(parents_of("aware").len(), 3, "three workers, three different parents of the top three");
}

#[test]
fn open_work_is_saved_settled_by_its_add_and_replayed() {
    let mut db = grown(r#"{"numIslands": 2, "operators": {}, "pending": "aware"}"#, 3);
    let samples: Vec<_> = (0..3).map(|_| db.sample()).collect();
    let saved = db.to_json();
    assert_eq!(saved.matches("\"parentId\"").count() - db_parent_ids(&db), 3, "three open entries saved");
    let mut loaded = Database::from_json(&saved).unwrap();
    assert_eq!(loaded.to_json(), saved, "a load keeps the open work");
    let parent = samples[0].parent.as_ref().unwrap().id.to_string();
    loaded.add(child(&parent, 90, 0.9), 100.0).unwrap();
    db.add(child(&parent, 90, 0.9), 100.0).unwrap();
    let after = db.to_json();
    assert_eq!(loaded.to_json(), after);
    assert_eq!(after.matches("\"parentId\"").count() - db_parent_ids(&db), 2, "the add closed one entry");
    let replayed = Database::replay(&db.take_events()).unwrap();
    assert_eq!(replayed.to_json(), after, "the history replays the open work");
}

#[test]
fn without_it_nothing_is_remembered() {
    let mut db = grown(r#"{"numIslands": 2, "operators": {}}"#, 3);
    for _ in 0..3 {
        db.sample();
    }
    assert!(!db.to_json().contains("inFlight"));
}

/// How many `parentId` keys the programs themselves hold (every program has one), so the rest
/// count `evodb.inFlight` and `evodb.sampled` entries.
fn db_parent_ids(db: &Database) -> usize {
    let value: serde_json::Value = serde_json::from_str(&db.to_json()).unwrap();
    let programs = value["programs"].as_object().unwrap().len();
    let sampled = value["evodb"]["sampled"].as_array().map_or(0, Vec::len);
    programs + sampled
}
