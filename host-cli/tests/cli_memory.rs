//! What agents read beside the population, through `evodb`: named islands in samples and plan
//! items, run memory (`note`, `notes`, failure notes from error adds), and strategy playbooks
//! (`strategy init` / `strategy check`).

use crate::cli;

use std::fs;
use std::path::Path;

use cli::{add_args, bytes, evodb, seed_args};
use serde_json::Value;

fn texts(notes: &Value) -> Vec<String> {
    notes.as_array().expect("a list of notes").iter().map(|n| n["text"].as_str().unwrap().to_string()).collect()
}

#[test]
fn named_islands_reach_samples_plans_and_stats() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    let config = tmp.path().join("config.json");
    fs::write(
        &config,
        r#"{"islands": [{"name": "vectorise", "description": "numpy tricks"}, {"name": "algorithms"}], "operators": {}}"#,
    )
    .unwrap();
    let init = evodb(&["init", db.to_str().unwrap(), "--config", config.to_str().unwrap()]);
    assert_eq!(init.code, 0, "{init:?}");
    assert_eq!(evodb(&seed_args(&db)).code, 0);
    let sample = evodb(&["sample", db.to_str().unwrap()]).json();
    let island = sample["island"].as_u64().unwrap();
    assert_eq!(sample["islandName"], ["vectorise", "algorithms"][island as usize], "{sample}");
    let plan = evodb(&["plan", db.to_str().unwrap(), "2"]).json();
    let named: Vec<&str> =
        plan["items"].as_array().unwrap().iter().map(|i| i["islandName"].as_str().unwrap()).collect();
    assert_eq!(named, ["vectorise", "algorithms"]);
    assert_eq!(plan["items"][0]["islandDescription"], "numpy tricks");
    assert!(plan["items"][1].get("islandDescription").is_none(), "no description, no key: {plan}");
    let stats = evodb(&["stats", db.to_str().unwrap()]).json();
    assert_eq!(stats["islands"][1]["name"], "algorithms");

    // A count that disagrees with the list names the field and leaves nothing behind.
    fs::write(&config, r#"{"numIslands": 3, "islands": [{"name": "a"}]}"#).unwrap();
    let other = tmp.path().join("other");
    let refused = evodb(&["init", other.to_str().unwrap(), "--config", config.to_str().unwrap()]);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stderr.contains("numIslands") && refused.stderr.contains("leave numIslands out"), "{refused:?}");
    assert!(!other.exists());
}

#[test]
fn notes_are_kept_listed_and_carried_by_samples_and_plans() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    let d = db.to_str().unwrap();
    assert_eq!(evodb(&seed_args(&db)).code, 0);
    let lesson = evodb(&["note", d, "--kind", "lesson", "--text", "a set beats a list for membership"]).json();
    assert_eq!((lesson["seq"].as_u64(), lesson["kind"].as_str()), (Some(1), Some("lesson")));
    let idea_file = tmp.path().join("idea.txt");
    fs::write(&idea_file, "try a bytearray sieve\n").unwrap();
    let idea = evodb(&["note", d, "--kind", "idea", "--textFile", idea_file.to_str().unwrap(), "--target", "sieve"]);
    assert_eq!(idea.json()["text"], "try a bytearray sieve", "the file's final newline is dropped");

    // An error add leaves its reason as a failure note naming the candidate and what it tried.
    let mut failed = add_args(&db, "0", 1, 0.0);
    failed.extend(["--status", "error", "--reason", "SyntaxError: line 3", "--id", "e1"].map(String::from));
    let failed: Vec<&str> = failed.iter().map(String::as_str).collect();
    assert_eq!(evodb(&failed).code, 0);
    let failures = evodb(&["notes", d, "--kind", "failure"]).json();
    let failure = "tried: change 1 — failed: SyntaxError: line 3";
    assert_eq!(texts(&failures["notes"]), [failure]);
    assert_eq!(failures["notes"][0]["programId"], "e1");

    let sample = evodb(&["sample", d]).json();
    assert_eq!(
        texts(&sample["notes"]),
        ["a set beats a list for membership", failure, "try a bytearray sieve"],
        "the lesson first, then the newest others"
    );
    let plan = evodb(&["plan", d, "1"]).json();
    assert_eq!(plan["items"][0]["notes"], sample["notes"]);
    assert_eq!(texts(&evodb(&["notes", d, "--limit", "1"]).json()["notes"]), [failure]);

    // Bad notes exit non-zero and leave the database as it was.
    let before = bytes(&db.join("database.json"));
    let empty = evodb(&["note", d, "--kind", "lesson", "--text", " "]);
    assert_eq!(empty.code, 1, "{empty:?}");
    assert!(empty.stderr.contains("`text` is empty"), "{empty:?}");
    let huge = "x".repeat(17 * 1024);
    let too_long = evodb(&["note", d, "--kind", "lesson", "--text", &huge]);
    assert_eq!(too_long.code, 1, "{too_long:?}");
    assert!(too_long.stderr.contains("at most 16384"), "{too_long:?}");
    assert_eq!(evodb(&["note", d, "--kind", "gossip", "--text", "x"]).code, 2);
    let no_text = evodb(&["note", d, "--kind", "idea"]);
    assert_eq!(no_text.code, 2, "{no_text:?}");
    assert!(no_text.stderr.contains("--text"), "{no_text:?}");
    assert_eq!(bytes(&db.join("database.json")), before);

    // The history replays the notes: `validate` checks it against the database.
    assert_eq!(evodb(&["validate", d]).json()["valid"], true);
    let history = String::from_utf8(bytes(&db.join("history.ndjson"))).unwrap();
    assert_eq!(history.matches(r#""event":"noted""#).count(), 2, "{history}");
}

fn markers(dir: &Path) -> usize {
    let mut count = 0;
    for entry in walk(dir) {
        if entry.file_name().is_some_and(|n| n != "CUSTOMIZE.md") {
            count += fs::read_to_string(&entry).unwrap().matches("<CUSTOMIZE").count();
        }
    }
    count
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() { files.extend(walk(&path)) } else { files.push(path) }
    }
    files
}

#[test]
fn a_strategy_playbook_is_copied_and_checked_until_filled() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("strategy");
    let d = dir.to_str().unwrap();
    let init = evodb(&["strategy", "init", d]).json();
    for file in [
        "strategy.md",
        "CUSTOMIZE.md",
        "prompts/mutation.md",
        "prompts/crossover.md",
        "prompts/exploration.md",
        "prompts/migration.md",
    ] {
        assert!(dir.join(file).is_file(), "{file} copied");
    }
    let listed = init["unfilled"].as_array().unwrap().len();
    assert!(listed > 0 && listed == markers(&dir), "init lists every marker: {init}");

    let unfilled = evodb(&["strategy", "check", d]);
    assert_eq!(unfilled.code, 1, "{unfilled:?}");
    assert!(unfilled.stderr.contains("markers are still unfilled"), "{unfilled:?}");
    assert_eq!(
        serde_json::from_str::<Value>(unfilled.stdout.trim()).unwrap()["unfilled"].as_array().unwrap().len(),
        listed
    );

    // Fill every marker but one: still failing, naming the one left.
    for file in walk(&dir).into_iter().filter(|f| f.file_name().is_some_and(|n| n != "CUSTOMIZE.md")) {
        let text = fs::read_to_string(&file).unwrap();
        let filled = text.split("<CUSTOMIZE").enumerate().map(|(i, part)| match i {
            0 => part.to_string(),
            _ => format!("filled{}", &part[part.find('>').unwrap() + 1..]),
        });
        fs::write(&file, filled.collect::<String>()).unwrap();
    }
    let mutation = dir.join("prompts/mutation.md");
    let text = fs::read_to_string(&mutation).unwrap();
    fs::write(&mutation, format!("{text}\n<CUSTOMIZE: one more hint>\n")).unwrap();
    let one_left = evodb(&["strategy", "check", d]);
    assert_eq!(one_left.code, 1);
    assert!(
        one_left.stderr.contains("prompts/mutation.md") && one_left.stderr.contains("one more hint"),
        "{one_left:?}"
    );

    // A misspelt placeholder would reach the mutator unfilled.
    fs::write(&mutation, format!("{text}\n{{{{parnet_code}}}}\n")).unwrap();
    let typo = evodb(&["strategy", "check", d]);
    assert_eq!(typo.code, 1);
    assert!(typo.stderr.contains("{{parnet_code}}"), "{typo:?}");

    fs::write(&mutation, &text).unwrap();
    let ready = evodb(&["strategy", "check", d]).json();
    assert_eq!(ready["ready"], true, "{ready}");

    // The user's copy is never overwritten without --force; an empty directory is not a playbook.
    assert_eq!(evodb(&["strategy", "init", d]).code, 2);
    assert_eq!(fs::read_to_string(&mutation).unwrap(), text);
    assert_eq!(evodb(&["strategy", "check", tmp.path().to_str().unwrap()]).code, 3);
}
