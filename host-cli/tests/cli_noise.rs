//! Issue 37's noise and silent-loss defects, through `evodb`: `remeasure` folds a new measurement
//! into a program's metrics, `--noiseMargin` keeps a lucky measurement from resetting patience,
//! a database.json another tool rewrote without its `evodb` section is loud, and
//! `validate --history` compares the history with the file.

use crate::cli;

use cli::{add_args, bytes, evodb, seed_args};
use serde_json::Value;

fn add(db: &std::path::Path, id: &str, parent: &str, score: f64) -> Value {
    let mut args = add_args(db, parent, id.len() + score.to_bits() as usize % 1000, score);
    args.extend(["--id".into(), id.into()]);
    let run = evodb(&args);
    assert_eq!(run.code, 0, "{run:?}");
    run.json()
}

/// Bug: nothing re-measured, so one lucky measurement of the incumbent decided the run.
#[test]
fn remeasure_folds_a_new_measurement_into_the_mean_and_moves_the_best() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    let d = db.to_str().unwrap();
    assert_eq!(evodb(&["init", d, "--rngSeed", "3"]).code, 0);
    assert_eq!(evodb(&seed_args(&db)).code, 0);
    add(&db, "steady", "0", 0.5);
    add(&db, "lucky", "0", 0.7);
    assert_eq!(evodb(&["best", d]).json()["id"], "lucky");

    let again = evodb(&["remeasure", d, "--id", "lucky", "--metrics", r#"{"score": 0.2, "speed": 0.5}"#]);
    assert_eq!(again.code, 0, "{again:?}");
    let again = again.json();
    assert_eq!((&again["measurements"], &again["metrics"]["score"]), (&2.into(), &0.45.into()), "{again}");
    assert_eq!(again["previousFitness"], 0.6);
    assert_eq!(again["bestProgramId"], "steady", "{again}");
    let file: Value = serde_json::from_slice(&bytes(&db.join("database.json"))).unwrap();
    assert_eq!(file["programs"]["lucky"]["measurements"], 2);
    let history = String::from_utf8(bytes(&db.join("history.ndjson"))).unwrap();
    assert!(history.contains(r#""event":"remeasured","id":"lucky""#), "{history}");
    let stats = evodb(&["stats", d]).json();
    assert_eq!(stats["evaluations"], 3, "a re-measurement is no evaluation: {stats}");
    let valid = evodb(&["validate", d, "--history"]);
    assert_eq!(valid.code, 0, "the history replays the re-measurement: {valid:?}");

    // Refused, naming the problem, and nothing changes.
    let before = (bytes(&db.join("database.json")), bytes(&db.join("history.ndjson")));
    for (args, needle) in [
        (vec!["remeasure", d, "--id", "ghost", "--metrics", r#"{"score": 1}"#], "no live program"),
        (vec!["remeasure", d, "--id", "lucky", "--metrics", r#"{"score": 1}"#], "measured as {score, speed}"),
        (vec!["remeasure", d, "--id", "lucky", "--metrics", "{bad"], "--metrics is not valid JSON"),
    ] {
        let run = evodb(&args);
        assert_eq!(run.code, 1, "{args:?}: {run:?}");
        assert!(run.stderr.contains(needle), "{args:?}: {run:?}");
    }
    assert_eq!((bytes(&db.join("database.json")), bytes(&db.join("history.ndjson"))), before);
    let nowhere = tmp.path().join("nowhere");
    let run = evodb(&["remeasure", nowhere.to_str().unwrap(), "--id", "x", "--metrics", r#"{"score": 1}"#]);
    assert_eq!(run.code, 3, "{run:?}");
    assert!(!nowhere.exists(), "a failed remeasure made no database");
}

/// Bug: a lucky measurement of the incumbent reset patience (or a gain of 0.00005 did), so
/// noise decided when the run stopped. `--noiseMargin` on init ignores gains within it.
#[test]
fn patience_ignores_new_bests_within_the_noise_margin() {
    let tmp = tempfile::tempdir().unwrap();
    for (margin, stops) in [(None, false), (Some("0.01"), true)] {
        let db = tmp.path().join(format!("db-{}", margin.unwrap_or("none")));
        let d = db.to_str().unwrap();
        let mut init = vec!["init", d, "--rngSeed", "1", "--patience", "2"];
        init.extend(margin.map(|m| ["--noiseMargin", m]).into_iter().flatten());
        assert_eq!(evodb(&init).code, 0);
        add(&db, "p0", "0", 0.5);
        add(&db, "p1", "p0", 0.50005);
        add(&db, "p2", "p1", 0.5001);
        let verdict = evodb(&["should-stop", d]).json();
        assert_eq!(verdict["stop"], stops, "margin {margin:?}: {verdict}");
        assert_eq!(evodb(&["best", d]).json()["id"], "p2", "the best moves either way");
    }
    let bad = tmp.path().join("bad");
    let run = evodb(&["init", bad.to_str().unwrap(), "--noiseMargin=-1"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("stopping.noiseMargin"), "{run:?}");
    assert!(!bad.exists());
}

/// Bug: after the seed CLI's `add` rewrote a database, evodb dropped its config, notes, island
/// names and stopping rules without a word, and `validate` said valid.
#[test]
fn a_database_that_lost_its_evodb_section_is_loud_and_validate_history_disagrees() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    let d = db.to_str().unwrap();
    let config = tmp.path().join("config.json");
    std::fs::write(&config, r#"{"islands": [{"name": "sieves"}, {"name": "loops"}], "stopping": {"patience": 5}}"#)
        .unwrap();
    assert_eq!(evodb(&["init", d, "--config", config.to_str().unwrap()]).code, 0);
    assert_eq!(evodb(&seed_args(&db)).code, 0);
    assert_eq!(evodb(&["note", d, "--kind", "lesson", "--text", "a set beats a list"]).code, 0);
    let sound = evodb(&["validate", d, "--history"]);
    assert_eq!((sound.code, sound.stderr.as_str()), (0, ""), "{sound:?}");

    // What the seed's CLI writes back: its own keys only.
    let mut file: Value = serde_json::from_slice(&bytes(&db.join("database.json"))).unwrap();
    file.as_object_mut().unwrap().remove("evodb");
    for program in file["programs"].as_object_mut().unwrap().values_mut() {
        program.as_object_mut().unwrap().remove("island");
    }
    std::fs::write(db.join("database.json"), serde_json::to_string_pretty(&file).unwrap()).unwrap();

    let info = evodb(&["info", d]);
    assert_eq!(info.code, 0, "{info:?}");
    let warnings: Vec<&str> = info.stderr.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), 1, "warned once: {info:?}");
    for lost in ["no `evodb` section", "island names (sieves, loops)", "stopping rules (patience)", "1 note"] {
        assert!(warnings[0].contains(lost), "{lost}: {}", warnings[0]);
    }
    let checked = evodb(&["validate", d, "--history"]);
    assert_eq!(checked.code, 1, "{checked:?}");
    let report: Value = serde_json::from_str(&checked.stdout).unwrap();
    assert!(report["problems"][0].as_str().unwrap().contains("no `evodb` section"), "{checked:?}");

    // A file that disagrees with its history otherwise: a program's metrics edited by hand.
    let other = tmp.path().join("other");
    let o = other.to_str().unwrap();
    assert_eq!(evodb(&seed_args(&other)).code, 0);
    add(&other, "p1", "0", 0.4);
    let text = String::from_utf8(bytes(&other.join("database.json"))).unwrap();
    std::fs::write(other.join("database.json"), text.replace("\"score\": 0.4", "\"score\": 0.9")).unwrap();
    assert_eq!(evodb(&["validate", o]).code, 0, "the file alone holds together");
    let checked = evodb(&["validate", o, "--history"]);
    assert_eq!(checked.code, 1, "{checked:?}");
    let problems = checked.stdout;
    assert!(problems.contains("the metrics differ for 1 program: p1"), "{problems}");
}

/// Bug: floats printed as 0.7985500000000001 in `stats` and the markdown headings, and
/// `stats.improvement` was absolute only while SKILL.md reports a percentage.
#[test]
fn stats_and_markdown_print_floats_without_artefacts_and_the_improvement_as_a_percentage() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("db");
    let d = db.to_str().unwrap();
    assert_eq!(evodb(&seed_args(&db)).code, 0); // score 0.1, speed 0.5: fitness 0.3
    // score 0.7971 and speed 0.8: fitness (0.7971 + 0.8) / 2 = 0.79855, 0.7985500000000001 in binary.
    let mut args = add_args(&db, "0", 1, 0.7971);
    let at = args.iter().position(|a| a == "--metrics").unwrap() + 1;
    args[at] = r#"{"score": 0.7971, "speed": 0.8}"#.into();
    assert_eq!(evodb(&args).code, 0);
    let stats = evodb(&["stats", d]);
    assert!(!stats.stdout.contains("00000000"), "{}", stats.stdout);
    let stats = stats.json();
    assert_eq!(stats["bestFitness"], 0.79855);
    assert_eq!(stats["improvement"], 0.49855);
    assert_eq!(stats["improvementPercent"], 166.18, "(0.79855 - 0.3) / 0.3, to two decimals: {stats}");
    let markdown = evodb(&["export", d, "--format", "markdown"]).stdout;
    assert!(markdown.contains("· fitness 0.79855 ·"), "{markdown}");
    assert!(!markdown.contains("00000000"), "{markdown}");
}
