//! Compatibility with `database.json` as the seed skill's own CLI writes it
//! (`tests/fixtures/seed-written/database.json`).

use std::path::PathBuf;

use evodb_core::json_text::to_pretty_js;
use evodb_core::{AddRequest, Database, Error, Metrics};
use serde_json::Value;

fn fixture() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/seed-written/database.json");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; the seed-written fixture lives in tests/fixtures/", path.display()))
}

/// What the seed's CLI keeps when it loads and saves our file: its own keys only.
fn as_the_seed_would_rewrite_it(text: &str) -> String {
    let mut value: Value = serde_json::from_str(text).unwrap();
    let top = value.as_object_mut().unwrap();
    top.shift_remove("evodb");
    for program in top["programs"].as_object_mut().unwrap().values_mut() {
        let program = program.as_object_mut().unwrap();
        program.shift_remove("island");
        program.shift_remove("migratedFrom");
    }
    to_pretty_js(&value)
}

#[test]
fn a_seed_written_file_round_trips_byte_for_byte() {
    let seed_text = fixture();
    let db = Database::from_json(&seed_text).unwrap();
    let ours = db.to_json();
    assert_ne!(ours, seed_text, "evodb adds its own keys");
    assert_eq!(as_the_seed_would_rewrite_it(&ours), seed_text, "every seed key, in order, with the same types");
}

#[test]
fn a_seed_written_file_reads_as_the_seed_sees_it() {
    let db = Database::from_json(&fixture()).unwrap();
    let info = db.info();
    assert_eq!((info.program_count, info.last_iteration, info.is_empty), (46, 46, false));
    assert_eq!(info.best_program_id.as_deref(), Some("cf1a5563-1908-477d-a505-2aa45acb4866"));
    assert_eq!(info.seed_code_path.as_deref(), Some("/proj/src/score.js"));
    assert_eq!(db.island_members(0).len(), 18);
    // Home islands are re-derived from the island lists (the initial program is on island 0 only).
    assert_eq!(db.program("b0521ae5-bc5d-47fb-bb1b-3898ccb6f440").unwrap().island, 0);
}

#[test]
fn evodb_carries_on_after_the_seed_rewrites_its_file() {
    let mut db = Database::from_json(&fixture()).unwrap();
    let req = AddRequest {
        id: None,
        code_path: "/proj/evolve-output/candidates/iteration_46.js".into(),
        target_code: "function score(items) { return 1; }".into(),
        parent_id: "cf1a5563-1908-477d-a505-2aa45acb4866".into(),
        metrics: Metrics::new([("benchmark-score", 0.99)]).unwrap(),
        changes: "constant".into(),
        island: None,
        ..AddRequest::seed("", "", Metrics::default())
    };
    let out = db.add(req, 1_795_300_000.5).unwrap();
    assert_eq!((out.last_iteration, out.best_program_id.clone()), (47, Some(out.id.clone())));
    let rewritten = as_the_seed_would_rewrite_it(&db.to_json());

    // Two independent loads of the stripped file continue identically: the PRNG is re-seeded
    // from the file's contents, not from the clock.
    let mut first = Database::from_json(&rewritten).unwrap();
    let mut second = Database::from_json(&rewritten).unwrap();
    for _ in 0..10 {
        assert_eq!(first.sample(), second.sample());
    }
    assert_eq!(first.program(&out.id).unwrap().generation, 3, "parent cf1a5563 is generation 2");
}

#[test]
fn torn_and_invalid_files_are_rejected_with_the_problem_named() {
    let text = fixture();
    let cases: Vec<(String, &str)> = vec![
        (text[..text.len() / 2].to_string(), "ends early"),
        (String::new(), "ends early"),
        ("{not json".into(), "not valid JSON"),
        ("[]".into(), "not a database.json"),
        (text.replacen("\"numIslands\": 3", "\"numIslands\": \"3\"", 1), "numIslands"),
        (text.replacen("\"currentIsland\": 1", "\"currentIsland\": 7", 1), "currentIsland"),
        (text.replacen("\"islandGenerations\": [\n    16,", "\"islandGenerations\": [\n", 1), "islandGenerations"),
        (text.replacen("\"benchmark-score\": 0.41", "\"benchmark-score\": \"high\"", 1), "benchmark-score"),
        (text.replacen("\"numIslands\": 3", "\"numIslands\": 0", 1), "numIslands"),
    ];
    for (bad, needle) in cases {
        let err = Database::from_json(&bad).unwrap_err();
        assert!(err.to_string().contains(needle), "expected `{needle}` in: {err}");
        assert!(matches!(err, Error::CorruptDatabase { .. } | Error::InvalidConfig { .. }), "{err:?}");
    }
}
