//! Each seed rule (docs/design.md §2), checked by hand-computed expectations.

use evodb_core::{AddRequest, Config, Database, Error, InspirationScope, Metrics, MigrationMode, Placement};

fn request(id: &str, parent: &str, score: f64) -> AddRequest {
    AddRequest {
        id: Some(id.to_string()),
        code_path: format!("/c/{id}.py"),
        target_code: format!("code {id}"),
        parent_id: parent.to_string(),
        metrics: Metrics::new([("score", score)]).unwrap(),
        changes: format!("made {id}"),
        island: None,
        ..AddRequest::seed("", "", Metrics::default())
    }
}

fn db_with(config: Config) -> Database {
    Database::new(config, 1).unwrap()
}

fn members(db: &Database, island: u32) -> Vec<String> {
    db.island_members(island).into_iter().map(String::from).collect()
}

#[test]
fn add_follows_the_seed_steps() {
    let mut db = db_with(Config::default());
    let out =
        db.add(AddRequest::seed("/src/f.py", "def f(): 1", Metrics::new([("score", 0.2)]).unwrap()), 10.0).unwrap();
    let seed = db.program(&out.id).unwrap().clone();
    assert_eq!((seed.parent_id.as_str(), seed.generation, seed.iteration_found), ("0", 0, 0));
    assert_eq!(&*seed.changes, "initial implementation");
    assert_eq!((db.last_iteration(), db.current_island()), (1, 1));
    assert_eq!(out.id.len(), 36, "generated ids are UUID-shaped");

    let child = db.add(request("c1", &out.id, 0.5), 11.0).unwrap();
    assert_eq!(db.program("c1").unwrap().generation, 1);
    assert_eq!(db.program("c1").unwrap().iteration_found, 1);
    assert_eq!(members(&db, 1), ["c1"], "round-robin: the second program lands on island 1");
    assert_eq!((child.best_program_id.as_deref().unwrap(), child.last_iteration), ("c1", 2));
    assert!(child.warnings.is_empty());
    db.add(request("c2", "c1", 0.1), 12.0).unwrap();
    assert_eq!(db.program("c2").unwrap().generation, 2);
    assert_eq!(db.current_island(), 0, "round-robin wraps");
}

#[test]
fn unknown_parent_is_generation_zero_with_a_warning() {
    let mut db = db_with(Config::default());
    let out = db.add(request("a", "no-such-id", 0.3), 1.0).unwrap();
    assert_eq!(db.program("a").unwrap().generation, 0);
    assert_eq!(out.warnings.len(), 1);
    assert!(out.warnings[0].contains("no-such-id"), "{:?}", out.warnings);
}

#[test]
fn newer_wins_ties_and_older_keeps_best_on_equal_timestamps() {
    let mut db = db_with(Config::default());
    db.add(request("a", "0", 0.5), 1.0).unwrap();
    db.add(request("b", "0", 0.5), 2.0).unwrap();
    assert_eq!(db.best_id(), Some("b"), "equal fitness: the newer timestamp wins");
    db.add(request("c", "0", 0.5), 2.0).unwrap();
    assert_eq!(db.best_id(), Some("b"), "equal fitness and timestamp: not better, best stays");
    db.add(request("d", "0", 0.4), 9.0).unwrap();
    assert_eq!(db.best_id(), Some("b"));
}

#[test]
fn migration_happens_exactly_at_the_interval_and_shares_ids() {
    let config = Config { migration_interval: 2, ..Config::default() };
    let mut db = db_with(config);
    // Round-robin over 3 islands: island 0 gets a, d; island 1 gets b; island 2 gets c.
    for (i, (id, score)) in [("a", 0.1), ("b", 0.9), ("c", 0.5)].into_iter().enumerate() {
        db.add(request(id, "0", score), i as f64).unwrap();
    }
    assert_eq!(members(&db, 0), ["a"], "max generation 1 − 0 < 2: no migration yet");
    db.add(request("d", "0", 0.2), 3.0).unwrap();
    // Island generations are [2,1,1]: 2 − 0 ≥ 2 → migrate. Each island sends its best
    // max(1, floor(size × 0.1)) = 1 to i+1 and i−1 (0 sends d, 1 sends b, 2 sends c).
    assert_eq!(members(&db, 0), ["a", "d", "b", "c"]);
    assert_eq!(members(&db, 1), ["b", "d", "c"]);
    assert_eq!(members(&db, 2), ["c", "d", "b"]);
    assert_eq!(db.len(), 4, "shared ids, not copies");
    assert!(db.to_json().contains("\"lastMigrationGeneration\": 2"));
    // Re-migration: the clock restarts at 2, so the next one is due when a generation hits 4.
    for (i, id) in ["e", "f", "g", "h", "i"].into_iter().enumerate() {
        db.add(request(id, "0", 0.0), 10.0 + i as f64).unwrap();
        assert!(db.to_json().contains("\"lastMigrationGeneration\": 2"), "after {id}");
    }
    db.add(request("j", "0", 0.0), 20.0).unwrap(); // island 0 reaches generation 4
    assert!(db.to_json().contains("\"lastMigrationGeneration\": 4"));
}

#[test]
fn pruning_removes_the_worst_and_deletes_programs_on_no_island() {
    let config = Config { num_islands: 1, max_island_size: 2, ..Config::default() };
    let mut db = db_with(config);
    db.add(request("a", "0", 0.5), 1.0).unwrap();
    db.add(request("b", "0", 0.1), 2.0).unwrap();
    db.add(request("c", "0", 0.3), 3.0).unwrap();
    assert_eq!(members(&db, 0), ["a", "c"], "the worst (b) goes; order is kept");
    assert!(db.program("b").is_none(), "b was on no other island: deleted");
    assert_eq!(db.len(), 2);
}

#[test]
fn a_shared_program_survives_pruning_while_another_island_holds_it() {
    let config = Config { num_islands: 2, max_island_size: 3, migration_interval: 1, ..Config::default() };
    let mut db = db_with(config);
    db.add(request("a", "0", 0.1), 1.0).unwrap(); // island 0, then migrates to island 1
    db.add(request("b", "0", 0.5), 2.0).unwrap(); // island 1: [a, b]
    db.add(request("c", "0", 0.6), 3.0).unwrap(); // island 0: [a, c]; migration: c → 1, b → 0
    assert_eq!(
        (members(&db, 0), members(&db, 1)),
        (vec!["a".into(), "c".into(), "b".into()], vec!["a".into(), "b".into(), "c".into()])
    );
    db.add(request("d", "0", 0.7), 4.0).unwrap(); // island 1 over capacity: a leaves it
    assert_eq!(members(&db, 1), ["b", "c", "d"]);
    assert_eq!(members(&db, 0), ["a", "c", "b"]);
    assert!(db.program("a").is_some(), "a is still on island 0");
}

#[test]
fn empty_island_falls_back_to_the_seed_program_and_empty_database_samples_nothing() {
    let mut db = db_with(Config::default());
    let empty = db.sample();
    assert!(empty.parent.is_none() && empty.inspirations.is_empty());
    db.add(request("s", "0", 0.1), 1.0).unwrap();
    let sample = db.sample();
    assert_eq!(&*sample.parent.unwrap().id, "s", "island 1 is empty: the initial program (iterationFound 0)");
    assert!(sample.inspirations.is_empty());
    assert_eq!(db.current_island(), 1, "sampling never moves the current island");
}

#[test]
fn inspirations_exclude_the_parent_and_cope_with_few_programs() {
    let mut db = db_with(Config { num_islands: 1, ..Config::default() });
    for i in 0..3 {
        db.add(request(&format!("p{i}"), "0", i as f64 / 10.0), i as f64).unwrap();
    }
    for _ in 0..20 {
        let s = db.sample();
        let parent = s.parent.unwrap().id;
        assert!(s.inspirations.iter().all(|i| i.id != parent));
        assert_eq!(s.inspirations.len(), 2, "3 programs: 3 from the top pool, none from the rest, minus the parent");
    }
}

#[test]
fn exploitation_only_picks_the_top_three() {
    let mut db = db_with(Config { num_islands: 1, exploration_ratio: 0.0, ..Config::default() });
    for i in 0..10 {
        db.add(request(&format!("p{i}"), "0", i as f64), i as f64).unwrap();
    }
    for _ in 0..50 {
        let id = db.sample().parent.unwrap().id;
        assert!(["p9", "p8", "p7"].contains(&&*id), "{id}");
    }
}

#[test]
fn placement_options() {
    let mut db = db_with(Config { placement: Placement::ParentIsland, ..Config::default() });
    db.add(request("root", "0", 0.1), 1.0).unwrap(); // island 0 (unknown parent → round-robin)
    db.add(request("kid", "root", 0.2), 2.0).unwrap();
    db.add(request("grandkid", "kid", 0.2), 3.0).unwrap();
    assert_eq!(members(&db, 0), ["root", "kid", "grandkid"]);
    assert_eq!(db.current_island(), 0, "the sampling island still rotates");

    let mut db = db_with(Config { placement: Placement::Explicit, ..Config::default() });
    let err = db.add(request("x", "0", 0.1), 1.0).unwrap_err();
    assert!(matches!(err, Error::InvalidInput { ref field, .. } if field == "island"), "{err}");
    db.add(AddRequest { island: Some(2), ..request("x", "0", 0.1) }, 1.0).unwrap();
    assert_eq!(members(&db, 2), ["x"]);
    let err = db.add(AddRequest { island: Some(3), ..request("y", "0", 0.1) }, 1.0).unwrap_err();
    assert!(err.to_string().contains("islands 0..2"), "{err}");
    assert_eq!(db.len(), 1, "a rejected add changes nothing");
}

#[test]
fn copy_migration_records_provenance_never_remigrates_and_skips_duplicate_code() {
    let config = Config { migration: MigrationMode::Copy, migration_interval: 1, ..Config::default() };
    let mut db = db_with(config);
    db.add(request("a", "0", 0.9), 1.0).unwrap();
    // Island 0 → islands 1 and 2, as copies.
    let copies: Vec<_> = db.programs().filter(|p| p.migrated_from.as_deref() == Some("a")).collect();
    assert_eq!(copies.len(), 2);
    assert_eq!((copies[0].island, copies[1].island), (1, 2));
    assert!(copies.iter().all(|c| &*c.target_code == "code a" && &*c.id != "a"));
    for (i, (id, score)) in [("b", 0.1), ("c", 0.2), ("d", 0.3)].into_iter().enumerate() {
        db.add(request(id, "0", score), 2.0 + i as f64).unwrap();
    }
    // Adding d (generations [2,1,1]) migrates again: island 0's best is a, whose code both
    // neighbours already hold; islands 1 and 2 pass over their copy of a (a migrant never
    // migrates again) and send b and c instead.
    let mut sources: Vec<_> = db.programs().filter_map(|p| p.migrated_from.clone()).collect();
    sources.sort();
    assert_eq!(sources, ["a", "a", "b", "b", "c", "c"]);
    for island in 0..3 {
        let codes: Vec<_> = members(&db, island).iter().map(|id| db.program(id).unwrap().target_code.clone()).collect();
        let mut unique = codes.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(codes.len(), unique.len(), "island {island} holds duplicate code");
    }
}

#[test]
fn inspirations_from_all_islands() {
    let config = Config { inspiration_scope: InspirationScope::AllIslands, ..Config::default() };
    let mut db = db_with(config);
    for i in 0..9 {
        db.add(request(&format!("p{i}"), "0", i as f64), i as f64).unwrap();
    }
    let mut seen_other_island = false;
    for _ in 0..20 {
        let s = db.sample();
        let island = db.current_island();
        seen_other_island |= s.inspirations.iter().any(|i| db.program(&i.id).unwrap().island != island);
        assert!(matches!(s.inspirations.len(), 4 | 5), "3 from the global top 5 + 2 others, minus the parent");
    }
    assert!(seen_other_island);
}

#[test]
fn seeds_beyond_javascripts_safe_integers_are_rejected() {
    assert!(Database::new(Config::default(), evodb_core::MAX_SEED).is_ok());
    let err = Database::new(Config::default(), evodb_core::MAX_SEED + 1).unwrap_err();
    assert!(matches!(err, Error::InvalidConfig { ref field, .. } if field == "seed"), "{err}");
}

#[test]
fn a_retried_add_is_answered_again_and_adds_nothing() {
    let mut db = db_with(Config::default());
    let first = db.add(request("a", "0", 0.5), 1.0).unwrap();
    db.add(request("b", "a", 0.7), 2.0).unwrap();
    let before = db.to_json();
    let retry = db.add(request("a", "0", 0.5), 3.0).unwrap();
    assert_eq!(db.to_json(), before, "a retry changes nothing");
    assert_eq!((&retry.id, &retry.metrics, retry.status), (&first.id, &first.metrics, first.status));
    assert_eq!(retry.best_program_id.as_deref(), Some("b"), "the answer says what is best now");
    assert!(retry.warnings[0].contains("already in the database"), "{:?}", retry.warnings);
    let changed = AddRequest { changes: "another change".into(), ..request("a", "0", 0.5) };
    assert!(matches!(db.add(changed, 4.0), Err(Error::DuplicateId(_))), "a different program under a used id");
}

#[test]
fn bad_inputs_change_nothing() {
    let mut db = db_with(Config::default());
    db.add(request("a", "0", 0.5), 1.0).unwrap();
    let before = db.to_json();
    assert!(matches!(db.add(request("a", "0", 0.6), 2.0), Err(Error::DuplicateId(_))));
    assert!(db.add(request("b", "0", 0.5), f64::NAN).is_err());
    assert!(db.add(AddRequest { target_code: "  ".into(), ..request("c", "0", 0.1) }, 1.0).is_err());
    assert_eq!(db.to_json(), before);
}
