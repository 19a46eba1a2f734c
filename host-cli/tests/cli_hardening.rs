//! The hostile review's cases that end in success or in a repair, not a refusal (those are in
//! `cli_bad_input.rs`): a torn history tail, a typo'd database path, standard input for `*File`
//! flags, a demo that outlives its initial program, the warnings a seed-skill loop depends on.

use crate::cli;

use std::fs;
use std::io::Write;
use std::process::Stdio;

use cli::{add_args, command, evodb, seed_args};
use serde_json::Value;

fn history_lines(db: &std::path::Path) -> Vec<Value> {
    let text = fs::read_to_string(db.join("history.ndjson")).unwrap();
    assert!(text.ends_with('\n'), "the history ends on a whole line");
    text.lines().map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))).collect()
}

#[test]
fn a_torn_history_tail_is_reported_by_validate_and_removed_by_the_next_writer() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path();
    let parent = evodb(&seed_args(db)).json()["id"].as_str().unwrap().to_string();
    let whole = history_lines(db).len();
    // A writer killed mid-append leaves half an event.
    let mut history = fs::OpenOptions::new().append(true).open(db.join("history.ndjson")).unwrap();
    history.write_all(br#"{"event":"added","seq":2,"id":"#).unwrap();

    let validate = evodb(&["validate", db.to_str().unwrap()]);
    assert_eq!(validate.code, 1, "{validate:?}");
    assert!(
        validate.stdout.contains(&format!("history.ndjson line {} is torn or not JSON", whole + 1)),
        "{validate:?}"
    );

    let added = evodb(&add_args(db, &parent, 1, 0.5));
    let id = added.json()["id"].as_str().unwrap().to_string();
    assert!(added.stderr.contains("warning: history.ndjson ended in a torn line (30 bytes"), "{added:?}");
    let events = history_lines(db);
    assert!(events.len() > whole, "the add's events follow the whole lines");
    assert!(events.iter().any(|e| e["event"] == "added" && e["id"] == id.as_str()));
    assert_eq!(evodb(&["validate", db.to_str().unwrap()]).code, 0);
}

#[test]
fn a_writer_that_creates_a_database_says_so_and_init_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("evolve-outptu/database");
    let run = evodb(&seed_args(&typo));
    run.json();
    assert!(run.stderr.contains("no database at") && run.stderr.contains("creating a new one"), "{run:?}");
    let again = evodb(&seed_args(&typo));
    assert!(!again.stderr.contains("creating a new one"), "only the first write creates it: {again:?}");

    let init = evodb(&["init", dir.path().join("fresh").to_str().unwrap()]);
    init.json();
    assert!(init.stderr.is_empty(), "init is asked to create: {init:?}");
}

#[test]
fn a_second_seed_and_other_metric_names_are_warned_about_on_stderr_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path();
    let parent = evodb(&seed_args(db)).json()["id"].as_str().unwrap().to_string();
    let again = evodb(&seed_args(db));
    assert!(again.json().get("warnings").is_none(), "stdout keeps the seed's shape");
    assert!(
        again.stderr.contains("warning: the database already holds 1 program and this is a second initial program")
    );

    let mut args = add_args(db, &parent, 1, 0.5);
    let at = args.iter().position(|a| a == "--metrics").unwrap();
    args[at + 1] = r#"{"accuracy": 0.5}"#.into();
    let renamed = evodb(&args);
    assert!(renamed.json().get("warnings").is_none());
    assert!(
        renamed.stderr.contains("warning: metrics name [accuracy] but the stored programs use [score, speed]"),
        "{renamed:?}"
    );
}

#[test]
fn file_flags_read_standard_input_for_a_dash_and_changes_lose_their_final_newline() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path();
    let parent = evodb(&seed_args(db)).json()["id"].as_str().unwrap().to_string();
    let changes = dir.path().join("changes.txt");
    fs::write(&changes, "hash map instead of nested loops\n").unwrap();
    let mut args = add_args(db, &parent, 1, 0.5);
    for (flag, value) in [("--targetCode", "-"), ("--changes", changes.to_str().unwrap())] {
        let at = args.iter().position(|a| a == flag).unwrap();
        args[at] = format!("{flag}File");
        args[at + 1] = value.into();
    }
    let mut child = command().args(&args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"def f():\n    return 42\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let id = serde_json::from_slice::<Value>(&output.stdout).unwrap()["id"].as_str().unwrap().to_string();
    let stored: Value = serde_json::from_str(&fs::read_to_string(db.join("database.json")).unwrap()).unwrap();
    assert_eq!(stored["programs"][&id]["targetCode"], "def f():\n    return 42\n", "code keeps its bytes");
    assert_eq!(stored["programs"][&id]["changes"], "hash map instead of nested loops");
}

#[test]
fn the_demo_resumes_any_number_of_times_after_pruning_deleted_its_seed_program() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let config = r#"{"numIslands": 1, "maxIslandSize": 3}"#;
    for round in 0..3 {
        let run = cli::Run::from(
            command()
                .args(["demo", "--iterations", "15", "--out", out.to_str().unwrap(), "--config", config])
                .output()
                .unwrap(),
        );
        assert_eq!(run.code, 0, "round {round}: {run:?}");
        assert!(run.stdout.contains("Baseline → best fitness: "), "round {round}: {run:?}");
    }
    let stats = evodb(&["stats", out.join("database").to_str().unwrap()]).json();
    assert!(stats["baselineFitness"].is_number(), "{stats}");
    let lineage_root = evodb(&["export", out.join("database").to_str().unwrap(), "--format", "json"]);
    assert!(!lineage_root.stdout.contains("\"iterationFound\": 0,"), "the initial program was pruned");
}

/// Issue 35's last defect: `add --id X` retried after X was pruned was stored a second time (two
/// `added` events). The retry is answered with a warning, exit 0, and the run is unchanged.
#[test]
fn an_add_retried_after_its_program_was_pruned_is_answered_not_added() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let init = evodb(&["init", db.to_str().unwrap(), "--numIslands", "1", "--maxIslandSize", "2"]);
    assert_eq!(init.code, 0, "{init:?}");
    let parent = evodb(&seed_args(&db)).json()["id"].as_str().unwrap().to_string();
    evodb(&[add_args(&db, &parent, 1, 0.9), vec!["--id".into(), "good".into()]].concat()).json();
    let weak = [add_args(&db, &parent, 2, 0.01), vec!["--id".into(), "weak".into()]].concat();
    assert_eq!(evodb(&weak).json()["id"], "weak");
    let before = fs::read(db.join("database.json")).unwrap();
    assert!(!String::from_utf8_lossy(&before).contains("\"weak\": {"), "`weak` was pruned at once");

    let retry = evodb(&weak);
    assert_eq!(retry.code, 0, "{retry:?}");
    assert_eq!(retry.json()["id"], "weak");
    assert!(retry.stderr.contains("since been pruned"), "{retry:?}");
    let added = history_lines(&db).iter().filter(|e| e["event"] == "added" && e["id"] == "weak").count();
    assert_eq!(added, 1, "one `added` event for weak");
    assert_eq!(fs::read(db.join("database.json")).unwrap(), before, "the retry changed nothing");
}
