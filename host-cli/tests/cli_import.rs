//! `evodb import openevolve|shinka`: runs made by OpenEvolve's and ShinkaEvolve's own database
//! code (tests/import/*_run.py, in a venv with both from PyPI) become evodb runs with the same
//! programs, parents, islands and best program; bad sources are refused with nothing stored.

use crate::cli;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use cli::{Run, evodb};
use serde_json::Value;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The venv's python (tests/import/venv.sh makes it once).
fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let output = Command::new("bash").arg(format!("{ROOT}/tests/import/venv.sh")).output().expect("bash runs");
        assert!(output.status.success(), "tests/import/venv.sh failed: {}", String::from_utf8_lossy(&output.stderr));
        PathBuf::from(String::from_utf8(output.stdout).unwrap().trim())
    })
}

/// Runs `tests/import/<script>` into `out`; returns its expected.json.
fn make_fixture(script: &str, out: &Path) -> Value {
    // A fixed hash seed: OpenEvolve's database iterates sets of string ids, so with Python's
    // random one its pruning (and whether a failed evaluation survives) changed from run to run.
    let output = Command::new(python())
        .env("PYTHONHASHSEED", "0")
        .arg(format!("{ROOT}/tests/import/{script}"))
        .arg(out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{script} failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&std::fs::read(out.join("expected.json")).unwrap()).unwrap()
}

fn database(db: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(db.join("database.json")).unwrap()).unwrap()
}

/// Each program's island, from `database.json`'s island lists.
fn islands_of(database: &Value) -> BTreeMap<String, u64> {
    let mut of = BTreeMap::new();
    for (island, members) in database["islands"].as_array().unwrap().iter().enumerate() {
        for id in members.as_array().unwrap() {
            of.insert(id.as_str().unwrap().to_string(), island as u64);
        }
    }
    of
}

/// What the source's own code reported, against the imported run: every program, its parent,
/// its island, the best program; a valid database whose history has one event per program.
fn assert_same_run(expected: &Value, db: &Path, imported: &Value) {
    let count = expected["programs"].as_u64().unwrap();
    assert_eq!(imported["imported"], count, "{imported}");
    assert_eq!(imported["bestProgramId"], expected["best"], "{imported}");
    let database = database(db);
    let programs = database["programs"].as_object().unwrap();
    assert_eq!(programs.len() as u64, count);
    for (id, parent) in expected["parent_of"].as_object().unwrap() {
        let program = &programs[id.as_str()];
        let parent = parent.as_str().unwrap_or("0");
        assert!(
            program["parentId"] == parent || program["changes"].as_str().unwrap().contains("island copy of"),
            "{id}: parent {} instead of {parent}",
            program["parentId"]
        );
    }
    let islands = islands_of(&database);
    for (id, island) in expected["island_of"].as_object().unwrap() {
        assert_eq!(islands.get(id.as_str()), island.as_u64().as_ref(), "{id}'s island");
    }
    assert_eq!(database["bestProgramId"], expected["best"]);
    let validate = evodb(&["validate", db.to_str().unwrap()]);
    assert_eq!(validate.code, 0, "{validate:?}");
    let history = std::fs::read_to_string(db.join("history.ndjson")).unwrap();
    let added = history.lines().filter(|line| line.starts_with("{\"event\":\"added\"")).count() as u64;
    assert_eq!(added, count, "one `added` event per program");
    // The run carries on in evodb.
    assert_eq!(evodb(&["sample", db.to_str().unwrap()]).code, 0);
}

#[test]
fn an_openevolve_checkpoint_becomes_the_same_run() {
    let tmp = tempfile::tempdir().unwrap();
    let expected = make_fixture("openevolve_run.py", &tmp.path().join("oe"));
    let db = tmp.path().join("imported");
    // The run's output directory: its latest checkpoint is read.
    let run = evodb(&["import", "openevolve", tmp.path().join("oe").to_str().unwrap(), db.to_str().unwrap()]);
    let imported = run.json();
    assert_eq!((imported["tool"].as_str(), imported["islands"].as_u64()), (Some("openevolve"), Some(3)));
    assert_same_run(&expected, &db, &imported);
    let database = database(&db);
    // A migrant copy comes after the program it copies and says so; the error text of a failed
    // evaluation is kept in `changes`.
    let migrant = expected["migrants"][0].as_str().unwrap();
    let changes = database["programs"][migrant]["changes"].as_str().unwrap();
    assert!(changes.contains("migrant copy of"), "{changes}");
    let failed = expected["failed"].as_array().unwrap();
    assert!(!failed.is_empty(), "the fixture keeps a failed evaluation");
    for id in failed {
        let changes = database["programs"][id.as_str().unwrap()]["changes"].as_str().unwrap();
        assert!(changes.contains("error: timed out after 30 s"), "{changes}");
    }
    // The source's numbering is kept beside evodb's, in the text the playground shows and searches.
    for (id, program) in database["programs"].as_object().unwrap() {
        let changes = program["changes"].as_str().unwrap();
        assert!(changes.contains("OpenEvolve generation ") && changes.contains(", iteration "), "{id}: {changes}");
    }
    assert!(run.stderr.is_empty() || run.stderr.contains("no longer holds"), "{}", run.stderr);
}

#[test]
fn a_shinka_database_becomes_the_same_run() {
    let tmp = tempfile::tempdir().unwrap();
    let expected = make_fixture("shinka_run.py", &tmp.path().join("shinka"));
    let db = tmp.path().join("imported");
    let sqlite = expected["sqlite"].as_str().unwrap();
    let imported = evodb(&["import", "shinka", sqlite, db.to_str().unwrap()]).json();
    assert_eq!(imported["tool"], "shinka");
    assert_same_run(&expected, &db, &imported);
    let database = database(&db);
    for id in expected["incorrect"].as_array().unwrap() {
        let program = &database["programs"][id.as_str().unwrap()];
        assert_eq!(program["status"], "rejected", "{program}");
        assert!(program["reason"].as_str().unwrap().contains("test_solve failed"), "{program}");
    }
    let gen5 = &database["programs"]["gen5"];
    assert_eq!(
        (gen5["metrics"]["accuracy"].as_f64().is_some(), gen5["metrics"]["private.runtime_s"].is_number()),
        (true, true)
    );
    assert!(gen5["changes"].as_str().unwrap().starts_with("add_5 (diff)"), "{gen5}");
    assert!(gen5["changes"].as_str().unwrap().ends_with("ShinkaEvolve generation 5"), "{gen5}");
}

#[test]
fn bad_sources_are_refused_and_nothing_is_stored() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    let db_arg = db.to_str().unwrap();

    let missing = evodb(&["import", "openevolve", tmp.path().join("nowhere").to_str().unwrap(), db_arg]);
    assert_eq!(missing.code, 3, "{missing:?}");
    assert!(missing.stderr.contains("metadata.json"), "{missing:?}");

    let checkpoint = tmp.path().join("checkpoint_1");
    std::fs::create_dir_all(checkpoint.join("programs")).unwrap();
    std::fs::write(checkpoint.join("metadata.json"), r#"{"islands": [["a", "b"]], "archive": []}"#).unwrap();
    std::fs::write(
        checkpoint.join("programs/a.json"),
        r#"{"id": "a", "code": "x", "metrics": {"combined_score": NaN}}"#,
    )
    .unwrap();
    std::fs::write(checkpoint.join("programs/b.json"), r#"{"id": "b", "code": "y", "metr"#).unwrap();
    let torn = evodb(&["import", "openevolve", checkpoint.to_str().unwrap(), db_arg]);
    assert_eq!(torn.code, 1, "{torn:?}");
    assert!(torn.stderr.contains("b.json") && torn.stderr.contains("not valid JSON"), "{torn:?}");
    assert!(!db.join("database.json").exists());

    // NaN (as Python writes it) is no score: with combined_score missing on one program, the
    // run is ranked by the mean and the user is told.
    std::fs::write(
        checkpoint.join("programs/b.json"),
        r#"{"id": "b", "code": "y", "parent_id": "a", "metrics": {"combined_score": 0.5}}"#,
    )
    .unwrap();
    let run = evodb(&["import", "openevolve", checkpoint.to_str().unwrap(), db_arg]);
    assert_eq!(run.json()["imported"], 2);
    assert!(run.stderr.contains("mean of their metrics"), "{run:?}");
    let before = std::fs::read(db.join("database.json")).unwrap();
    let again = evodb(&["import", "openevolve", checkpoint.to_str().unwrap(), db_arg]);
    assert_eq!(again.code, 1, "{again:?}");
    assert!(again.stderr.contains("already holds a database"), "{again:?}");
    assert_eq!(std::fs::read(db.join("database.json")).unwrap(), before);

    let not_sqlite = tmp.path().join("run.sqlite");
    std::fs::write(&not_sqlite, "not a database").unwrap();
    let other = tmp.path().join("other");
    let refused = evodb(&["import", "shinka", not_sqlite.to_str().unwrap(), other.to_str().unwrap()]);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stderr.contains("is not a ShinkaEvolve database"), "{refused:?}");
    assert!(!other.join("database.json").exists());
    let Run { code, .. } =
        evodb(&["import", "shinka", tmp.path().join("none.sqlite").to_str().unwrap(), other.to_str().unwrap()]);
    assert_eq!(code, 3);
}
