//! `admit` by the caller's own embedding (issue 41), on the command line and through the MCP
//! tools: `seed`/`add --embedding` keep a program's vector, `admit --embedding` finds a
//! near-duplicate by cosine similarity from `embeddingThreshold`; a vector that is not a JSON
//! list, is all zeros, empty or of another length than the run's is refused (exit 1, naming
//! the problem and the fix) and changes nothing.

use crate::cli;

use cli::{Run, bytes, evodb};
use serde_json::Value;

fn on(db: &str, command: &str, rest: &[&str]) -> Run {
    let mut args = vec![command, db];
    args.extend_from_slice(rest);
    evodb(&args)
}

fn add(db: &str, parent: &str, code: &str, embedding: &str) -> Run {
    let rest = [
        "--codePath",
        "c.py",
        "--targetCode",
        code,
        "--parentId",
        parent,
        "--metrics",
        r#"{"score": 0.5}"#,
        "--changes",
        "c",
        "--embedding",
        embedding,
    ];
    on(db, "add", &rest)
}

#[test]
fn admit_compares_the_callers_embeddings_and_refuses_bad_ones() {
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("db");
    let db = path.to_str().unwrap();
    let init = on(db, "init", &["--embeddingThreshold", "0.95"]);
    assert_eq!(init.code, 0, "{init:?}");
    let seed = on(
        db,
        "seed",
        &[
            "--codePath",
            "c.py",
            "--targetCode",
            "x = 1\n",
            "--metrics",
            r#"{"score": 0.1}"#,
            "--embedding",
            "[1, 0, 0]",
        ],
    )
    .json();
    let seed_id = seed["id"].as_str().unwrap();
    let added = add(db, seed_id, "y = [i * i for i in range(9)]\n", "[0, 1, 0]").json();
    let admit = |code: &str, embedding: &str| {
        on(db, "admit", &["--code", code, "--codePath", "c.py", "--embedding", embedding])
    };

    let near = admit("z = 3\n", "[0.99, 0.1, 0]").json();
    assert_eq!((near["verdict"].as_str(), near["of"].as_str()), (Some("near-duplicate"), Some(seed_id)), "{near}");
    let far = admit("z = 3\n", "[0.7, 0.7, 0.1]").json();
    assert_eq!(far["verdict"], "evaluate", "{far}");
    assert!(far["similarity"].as_f64().unwrap() > 0.6, "{far}");
    let same = admit("x = 1  # the seed again\n", "[0, 0, 1]").json();
    assert_eq!((same["verdict"].as_str(), same["of"].as_str()), (Some("duplicate"), Some(seed_id)), "{same}");
    assert_eq!(admit("z = 3\n", "[0.1, 0.99, 0]").json()["of"], added["id"]);

    let before = (bytes(&path.join("database.json")), bytes(&path.join("history.ndjson")));
    for (refused, named) in [
        (admit("z = 3\n", "[1, 0]"), "have 3"),
        (admit("z = 3\n", "[]"), "is empty"),
        (admit("z = 3\n", "[0.5, \"x\"]"), "not a JSON list of numbers"),
        (add(db, seed_id, "w = 4\n", "0.5, 0.5, 0.5"), "--embedding '[0.12"),
        (add(db, seed_id, "w = 4\n", "[0, 0, 0]"), "all zeros"),
        (add(db, seed_id, "w = 4\n", "[1, 2, 3, 4]"), "same model (vectors of 3 numbers)"),
    ] {
        assert_eq!(refused.code, 1, "{refused:?}");
        assert!(refused.stderr.contains("embedding") && refused.stderr.contains(named), "{named}: {refused:?}");
    }
    assert_eq!((bytes(&path.join("database.json")), bytes(&path.join("history.ndjson"))), before, "nothing changed");

    // The vectors are kept with the programs, and the threshold with the config.
    let stored: Value = serde_json::from_slice(&before.0).unwrap();
    assert_eq!(stored["programs"][seed_id]["embedding"], serde_json::json!([1, 0, 0]));
    assert_eq!(stored["evodb"]["config"]["embeddingThreshold"], 0.95);
    let bad = on(scratch.path().join("other").to_str().unwrap(), "init", &["--embeddingThreshold", "2"]);
    assert_ne!(bad.code, 0, "{bad:?}");
    assert!(bad.stderr.contains("embeddingThreshold"), "{bad:?}");
    assert_eq!(on(db, "validate", &["--history"]).json()["valid"], true);
}
