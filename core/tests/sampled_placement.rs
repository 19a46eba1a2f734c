//! Issue 37, item 1: with operators on, a child joins the island its sample named
//! (`sampled_island`), not the round-robin one, unless its add names an island.

use evodb_core::{AddRequest, Config, Database, Metrics, Operator};

const OPERATORS: &str = r#"{"operators": {"exploitation": 0.5, "exploration": 0, "crossover": 0, "migration": 0.5}}"#;

fn db(config: &str, seed: u64) -> Database {
    Database::new(Config::from_json(config).unwrap(), seed).unwrap()
}

fn child(id: &str, parent: &str, operator: Option<Operator>, i: usize) -> AddRequest {
    AddRequest {
        id: Some(id.to_string()),
        code_path: format!("/c/{id}.py"),
        target_code: format!("code {id}"),
        parent_id: parent.to_string(),
        metrics: Metrics::new([("score", 0.3 + (i * 37 % 11) as f64 / 20.0)]).unwrap(),
        changes: format!("made {id}"),
        operator,
        ..AddRequest::seed("", "", Metrics::default())
    }
}

fn seeded(config: &str, seed: u64) -> Database {
    let mut db = db(config, seed);
    let seed = AddRequest::seed("/src/f.py", "def f(): 0", Metrics::new([("score", 0.25)]).unwrap());
    db.add(seed, 1.0).unwrap();
    db
}

/// The issue's repro: `init --rngSeed 3` with exploitation and migration, a seed, then eight
/// times `sample` and `add --parentId <parent> --operator <op>` (no `--island`). Round-robin
/// placement put 3 of the 8 children on another island than their sample named.
#[test]
fn every_child_joins_the_island_its_sample_named() {
    let mut db = seeded(OPERATORS, 3);
    let mut elsewhere = 0;
    for i in 0..8 {
        let sample = db.sample();
        let (parent, island) = (sample.parent.unwrap().id.to_string(), sample.island.unwrap());
        let id = format!("c{i}");
        db.add(child(&id, &parent, sample.operator, i), 10.0 + i as f64).unwrap();
        let placed = db.program(&id).unwrap().island;
        assert_eq!(placed, island, "child {id} of {parent} by {:?}", sample.operator);
        // The round-robin island would have been the previous add's current island.
        elsewhere += usize::from(placed != (db.current_island() + 2) % 3);
    }
    assert!(elsewhere > 0, "the repro no longer exercises an island other than round-robin's");
    assert!(db.to_json().contains("\"evodb\""));
    assert!(!db.to_json().contains("\"sampled\""), "every sample was answered");
}

/// The unanswered samples are in `database.json`: a save and load between sample and add
/// places the same way as a run kept in memory.
#[test]
fn a_reloaded_database_places_like_the_one_in_memory() {
    let mut kept = seeded(OPERATORS, 3);
    let mut reloaded = kept.clone();
    for i in 0..8 {
        let (a, b) = (kept.sample(), reloaded.sample());
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        reloaded = Database::from_json(&reloaded.to_json()).unwrap();
        let parent = a.parent.unwrap().id.to_string();
        let id = format!("c{i}");
        kept.add(child(&id, &parent, None, i), 10.0 + i as f64).unwrap();
        reloaded.add(child(&id, &parent, None, i), 10.0 + i as f64).unwrap();
        assert_eq!(kept.program(&id).unwrap().island, a.island.unwrap());
        assert_eq!(kept.to_json(), reloaded.to_json(), "after add {i}");
    }
}

/// Samples handed out together and answered in the other order: each add, naming its
/// operator, joins its own sample's island.
#[test]
fn parallel_samples_answered_out_of_order_keep_their_islands() {
    let mut db = seeded(OPERATORS, 3);
    for i in 0..4 {
        db.add(child(&format!("p{i}"), "0", None, i), 2.0 + i as f64).unwrap();
    }
    let samples: Vec<_> = (0..6).map(|_| db.sample()).collect();
    for (i, sample) in samples.iter().enumerate().rev() {
        let parent = sample.parent.as_ref().unwrap().id.to_string();
        let id = format!("c{i}");
        db.add(child(&id, &parent, sample.operator, i), 20.0 + i as f64).unwrap();
        // Samples of one parent by one operator are interchangeable; their islands are not lost.
        let island = db.program(&id).unwrap().island;
        let alike = samples
            .iter()
            .filter(|s| s.parent.as_ref().unwrap().id == sample.parent.as_ref().unwrap().id)
            .filter(|s| s.operator == sample.operator);
        assert!(alike.clone().any(|s| s.island == Some(island)), "child {id} on island {island}");
    }
}

/// The add's own island wins, and it still answers (consumes) its sample.
#[test]
fn an_explicit_island_wins_and_answers_the_sample() {
    let mut db = seeded(OPERATORS, 3);
    let sample = db.sample();
    let parent = sample.parent.unwrap().id.to_string();
    let elsewhere = (sample.island.unwrap() + 1) % 3;
    let request = AddRequest { island: Some(elsewhere), ..child("c", &parent, None, 0) };
    db.add(request, 5.0).unwrap();
    assert_eq!(db.program("c").unwrap().island, elsewhere);
    assert!(!db.to_json().contains("\"sampled\""));
}

/// With operators off nothing is remembered: placement stays the seed's round-robin.
#[test]
fn operators_off_keep_round_robin() {
    let mut db = seeded("{}", 3);
    for i in 0..6 {
        let before = db.current_island();
        let parent = db.sample().parent.unwrap().id.to_string();
        db.add(child(&format!("c{i}"), &parent, None, i), 10.0 + i as f64).unwrap();
        assert_eq!(db.program(&format!("c{i}")).unwrap().island, before);
    }
    assert!(!db.to_json().contains("\"sampled\""));
}

/// A replay of the history repeats every sample, so it places every child where the run did,
/// including a sample left unanswered at the end.
#[test]
fn a_replayed_history_places_the_same_way() {
    let mut db = db(OPERATORS, 3);
    db.record_events(true);
    let seed = AddRequest::seed("/src/f.py", "def f(): 0", Metrics::new([("score", 0.25)]).unwrap());
    db.add(seed, 1.0).unwrap();
    for i in 0..8 {
        let sample = db.sample();
        let parent = sample.parent.unwrap().id.to_string();
        db.add(child(&format!("c{i}"), &parent, None, i), 10.0 + i as f64).unwrap();
    }
    db.sample();
    assert!(db.to_json().contains("\"sampled\""), "the last sample is unanswered");
    let replayed = Database::replay(&db.take_events()).unwrap();
    assert_eq!(replayed.to_json(), db.to_json());
}

/// Crossover's diverse parent (and migration's donor program) is recorded on the child that
/// answers the sample, and the lineage exports show it.
#[test]
fn the_second_parent_is_recorded_on_the_child() {
    let crossover = r#"{"operators": {"exploitation": 0, "exploration": 0, "crossover": 1, "migration": 0}}"#;
    let mut db = seeded(crossover, 3);
    for i in 0..4 {
        db.add(child(&format!("p{i}"), "0", None, i), 2.0 + i as f64).unwrap();
    }
    let sample = db.sample();
    assert_eq!(sample.operator, Some(Operator::Crossover));
    let (parent, second) = (sample.parent.unwrap().id.to_string(), sample.second_parent.unwrap().id.to_string());
    db.add(child("x", &parent, sample.operator, 9), 10.0).unwrap();
    let program = db.program("x").unwrap();
    assert_eq!(program.second_parent_id.as_deref(), Some(second.as_str()));
    assert!(db.to_json().contains(&format!("\"secondParentId\": \"{second}\"")));
    assert!(db.lineage_mermaid().contains(" -.-> "), "{}", db.lineage_mermaid());
    assert!(db.lineage_tree().contains(&format!("(+ {})", &second[..second.len().min(8)])), "{}", db.lineage_tree());
    let reloaded = Database::from_json(&db.to_json()).unwrap();
    assert_eq!(reloaded.to_json(), db.to_json());
    // A plain add (no sample answered) records none.
    db.add(child("y", &parent, None, 10), 11.0).unwrap();
    assert_eq!(db.program("y").unwrap().second_parent_id, None);
}
