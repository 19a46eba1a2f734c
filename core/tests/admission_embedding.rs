//! `admit` by the caller's own embedding (issue 41): adds keep their embedding in
//! `database.json` (it survives a reload and replays from the events); a run's embeddings share
//! one length, held answers included; bad embeddings and thresholds are refused by name and
//! change nothing.

use evodb_core::{AddRequest, AdmissionVerdict, Config, Database, Metrics};

fn candidate(id: &str, parent: &str, code: &str, embedding: Option<Vec<f64>>) -> AddRequest {
    AddRequest {
        id: Some(id.into()),
        parent_id: parent.into(),
        changes: format!("made {id}"),
        embedding,
        ..AddRequest::seed("/c.py", code, Metrics::new([("score", 0.5)]).unwrap())
    }
}

#[test]
fn embeddings_are_kept_reloaded_and_replayed() {
    let mut db = Database::new(Config::from_json(r#"{"embeddingThreshold": 0.8}"#).unwrap(), 3).unwrap();
    db.record_events(true);
    db.add(candidate("a", "0", "x = 1", Some(vec![1.0, 0.0])), 1.0).unwrap();
    db.add(candidate("b", "a", "y = 2", None), 2.0).unwrap();
    let text = db.to_json();
    assert!(text.contains(r#""embedding": ["#), "{text}");
    let reloaded = Database::from_json(&text).unwrap();
    let near = reloaded.admit_embedding("z = 3", "/c.py", &[0.9, 0.3]).unwrap();
    assert_eq!((near.verdict, near.of.as_deref()), (AdmissionVerdict::NearDuplicate, Some("a")));
    assert_eq!(near, db.admit_embedding("z = 3", "/c.py", &[0.9, 0.3]).unwrap());
    let events = db.take_events();
    assert_eq!(Database::replay(&events).unwrap().to_json(), text);
    // A stored embedding that no add could give is a corrupt database.
    let mut broken: serde_json::Value = serde_json::from_str(&text).unwrap();
    broken["programs"]["a"]["embedding"] = serde_json::json!([0, 0]);
    let err = Database::from_json(&broken.to_string()).unwrap_err().to_string();
    assert!(err.contains("programs.a.embedding") && err.contains("all zeros"), "{err}");
}

#[test]
fn a_held_answer_fixes_the_length_too() {
    let mut db = Database::new(Config::from_json(r#"{"numIslands": 2}"#).unwrap(), 3).unwrap();
    db.add(candidate("s", "0", "x = 0", None), 1.0).unwrap();
    let plan = db.plan(2, &[], &[]).unwrap();
    let answer = |item: usize, id: &str, embedding: Vec<f64>| AddRequest {
        plan_item: Some(plan.items[item].name.clone()),
        ..candidate(id, &plan.items[item].parent_ids[0], &format!("v = '{id}'"), Some(embedding))
    };
    // The second item's answer is held (the first is unanswered); it sets the run's length.
    db.add(answer(1, "late", vec![0.1, 0.2, 0.3]), 2.0).unwrap();
    let before = db.to_json();
    let err = db.add(answer(0, "early", vec![0.1, 0.2]), 3.0).unwrap_err().to_string();
    assert!(err.contains("embedding") && err.contains("have 3") && err.contains("same model"), "{err}");
    assert_eq!(db.to_json(), before, "a refused add changes nothing");
    let err = db.admit_embedding("q", "/c.py", &[1.0]).unwrap_err().to_string();
    assert!(err.contains("have 3"), "{err}");
    db.add(answer(0, "early", vec![0.3, 0.2, 0.1]), 3.0).unwrap();
    assert!(Database::validate_json(&db.to_json()).is_empty());
}

#[test]
fn bad_embeddings_and_thresholds_are_refused_by_name() {
    let mut db = Database::new(Config::default(), 3).unwrap();
    for (embedding, expected) in [
        (vec![], "empty"),
        (vec![0.0, 0.0], "all zeros"),
        (vec![1.0, f64::INFINITY], "[1] is inf"),
        (vec![0.5; evodb_core::MAX_EMBEDDING_LENGTH + 1], "over the limit"),
    ] {
        let err = db.add(candidate("a", "0", "x", Some(embedding.clone())), 1.0).unwrap_err().to_string();
        assert!(err.contains("embedding") && err.contains(expected), "{err}");
        let err = db.admit_embedding("x", "/c.py", &embedding).unwrap_err().to_string();
        assert!(err.contains("embedding") && err.contains(expected), "{err}");
    }
    assert_eq!(db.info().program_count, 0);
    let err = Config::from_json(r#"{"embeddingThreshold": 1.5}"#).unwrap_err().to_string();
    assert!(err.contains("embeddingThreshold"), "{err}");
    // Nothing stored yet: only the code can match, and nothing does.
    let verdict = db.admit_embedding("x", "/c.py", &[0.3, 0.4]).unwrap();
    assert_eq!((verdict.verdict, verdict.of, verdict.similarity), (AdmissionVerdict::Evaluate, None, 0.0));
}
