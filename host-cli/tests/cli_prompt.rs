//! `evodb prompt`: the playbook's prompt for a sample or plan item, filled by the engine — no
//! glue left to the agent (issue 37) — and refused, with nothing stored, when the playbook is
//! unfilled or the input is not a sample or a plan item.

use crate::cli;

use std::fs;
use std::path::{Path, PathBuf};

use cli::evodb;
use tempfile::TempDir;

/// A run with named islands and the operators on, a seed and a child; the shipped playbook filled.
fn setup() -> (TempDir, PathBuf, PathBuf) {
    let scratch = tempfile::tempdir().unwrap();
    let (db, strategy) = (scratch.path().join("db"), scratch.path().join("strategy"));
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../skill/strategies/alphaevolve");
    fs::create_dir_all(strategy.join("prompts")).unwrap();
    let fill = |text: String| {
        text.replace(
            "<CUSTOMIZE: the goal in one or two sentences, e.g. what must get faster and what must not change>",
            "make lcs fast",
        )
        .replace("<CUSTOMIZE: the function, method or whole file to evolve>", "lcs")
    };
    fs::write(strategy.join("strategy.md"), fill(fs::read_to_string(shipped.join("strategy.md")).unwrap())).unwrap();
    for entry in fs::read_dir(shipped.join("prompts")).unwrap() {
        let entry = entry.unwrap();
        let text = fs::read_to_string(entry.path()).unwrap();
        let text: Vec<&str> =
            text.lines().map(|line| if line.contains("<CUSTOMIZE:") { "Prefer plain loops." } else { line }).collect();
        fs::write(strategy.join("prompts").join(entry.file_name()), text.join("\n")).unwrap();
    }
    fs::write(scratch.path().join("context.md"), "lcs(a, b) returns the length\n").unwrap();
    let config = r#"{"islands": [{"name": "loops", "description": "plain loops"}, {"name": "tables", "description": "DP tables"}], "operators": {}}"#;
    let db_arg = db.to_str().unwrap();
    fs::write(scratch.path().join("config.json"), config).unwrap();
    let config_path = scratch.path().join("config.json");
    evodb(&["init", db_arg, "--rngSeed", "3", "--config", config_path.to_str().unwrap()]).json();
    let seed = evodb(&[
        "seed",
        db_arg,
        "--codePath",
        "a.py",
        "--targetCode",
        "def lcs(a, b): return 0",
        "--metrics",
        r#"{"score": 0.2}"#,
    ]);
    let seed = seed.json()["id"].as_str().unwrap().to_string();
    evodb(&[
        "add",
        db_arg,
        "--codePath",
        "b.py",
        "--targetCode",
        "def lcs(a, b): return 1",
        "--parentId",
        &seed,
        "--metrics",
        r#"{"score": 0.5}"#,
        "--changes",
        "memoised the recursion",
    ])
    .json();
    (scratch, db, strategy)
}

fn prompt_args(scratch: &TempDir, db: &Path, strategy: &Path) -> Vec<String> {
    let context = scratch.path().join("context.md");
    [
        "prompt",
        db.to_str().unwrap(),
        "--strategy",
        strategy.to_str().unwrap(),
        "--context",
        context.to_str().unwrap(),
        "--candidatePath",
        "cand/iter_3.py",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_new_sample_comes_with_its_prompt_filled_whole() {
    let (scratch, db, strategy) = setup();
    for _ in 0..6 {
        let out = evodb(&prompt_args(&scratch, &db, &strategy)).json();
        let prompt = out["prompt"].as_str().unwrap();
        assert!(!prompt.contains("{{") && !prompt.contains("<CUSTOMIZE"), "{prompt}");
        assert!(
            prompt.contains("make lcs fast")
                && prompt.contains("cand/iter_3.py")
                && prompt.contains("lcs(a, b) returns")
        );
        assert!(prompt.contains("(fitness "), "the parent's fitness is shown: {prompt}");
        let sample = &out["sample"];
        assert!(prompt.contains(sample["parent"]["targetCode"].as_str().unwrap()), "{prompt}");
        assert!(prompt.contains(sample["islandName"].as_str().unwrap()), "{prompt}");
        assert!(out["template"].as_str().unwrap().ends_with(".md"));
    }
}

#[test]
fn a_plan_item_is_filled_from_the_plan_evodb_printed() {
    let (scratch, db, strategy) = setup();
    let plan = evodb(&["plan", db.to_str().unwrap(), "3"]);
    let plan_path = scratch.path().join("plan.json");
    fs::write(&plan_path, &plan.stdout).unwrap();
    let item = plan.json()["items"][2]["name"].as_str().unwrap().to_string();
    let before = fs::read(db.join("database.json")).unwrap();
    let mut args = prompt_args(&scratch, &db, &strategy);
    args.extend(["--from".into(), plan_path.display().to_string(), "--item".into(), item]);
    let out = evodb(&args).json();
    assert!(out.get("sample").is_none(), "a plan item is not sampled again");
    assert!(!out["prompt"].as_str().unwrap().contains("{{"));
    assert_eq!(fs::read(db.join("database.json")).unwrap(), before, "filling a plan item's prompt stores nothing");
}

#[test]
fn an_unfilled_playbook_or_a_wrong_from_is_refused_and_stores_nothing() {
    let (scratch, db, strategy) = setup();
    let before = fs::read(db.join("database.json")).unwrap();
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../skill/strategies/alphaevolve/prompts/crossover.md");
    fs::copy(shipped, strategy.join("prompts/crossover.md")).unwrap();
    let run = evodb(&prompt_args(&scratch, &db, &strategy));
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("crossover.md") && run.stderr.contains("strategy check"), "{}", run.stderr);
    let plan_path = scratch.path().join("plan.json");
    fs::write(&plan_path, r#"{"items": [{"name": "a"}]}"#).unwrap();
    let mut args = prompt_args(&scratch, &db, &strategy);
    args.extend(["--from".into(), plan_path.display().to_string()]);
    let run = evodb(&args);
    assert_eq!(run.code, 2, "a whole plan without --item: {run:?}");
    assert!(run.stderr.contains("--item"), "{}", run.stderr);
    assert_eq!(fs::read(db.join("database.json")).unwrap(), before, "nothing was sampled");
}

/// Issue 37: "the playbook's island table is copied into config.json by hand and `strategy
/// check` does not notice when they disagree".
#[test]
fn strategy_config_writes_the_runs_config_and_check_notices_a_disagreement() {
    let (scratch, _, strategy) = setup();
    let playbook = strategy.join("strategy.md");
    let filled = fs::read_to_string(&playbook)
        .unwrap()
        .lines()
        .map(|line| match line {
            l if l.starts_with("| 0 |") => "| 0 | loops | plain loops |".to_string(),
            l if l.starts_with("| 1 |") => "| 1 | tables | DP tables |".to_string(),
            l if l.starts_with("| 2 |") || l.starts_with("| 3 |") => String::new(),
            l if l.starts_with("- `patience`") => "- `patience`: 8".to_string(),
            l if l.contains("<CUSTOMIZE:") => l.split("<CUSTOMIZE:").next().unwrap().to_string() + "none",
            l => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    fs::write(&playbook, filled).unwrap();
    let dir = strategy.to_str().unwrap();
    let config = evodb(&["strategy", "config", dir]);
    let parsed = config.json();
    assert_eq!(parsed["islands"][1]["name"], "tables");
    assert_eq!(parsed["stopping"]["patience"], 8);
    let config_path = scratch.path().join("config.json");
    fs::write(&config_path, &config.stdout).unwrap();
    let run = scratch.path().join("run");
    evodb(&["init", run.to_str().unwrap(), "--rngSeed", "1", "--config", config_path.to_str().unwrap()]).json();
    let agrees = evodb(&["strategy", "check", dir, "--db", run.to_str().unwrap()]);
    assert_eq!(agrees.json()["configDisagrees"], serde_json::json!([]));
    // The playbook edited after init: the check fails and names the key.
    let edited =
        fs::read_to_string(&playbook).unwrap().replace("| 1 | tables | DP tables |", "| 1 | tables | bit tricks |");
    fs::write(&playbook, edited).unwrap();
    let disagrees = evodb(&["strategy", "check", dir, "--db", run.to_str().unwrap()]);
    assert_eq!(disagrees.code, 1, "{disagrees:?}");
    assert!(
        disagrees.stderr.contains("islands") && disagrees.stderr.contains("strategy config"),
        "{}",
        disagrees.stderr
    );
}
