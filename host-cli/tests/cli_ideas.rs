//! Issue 39, idea runs through `evodb`: `ideas` creates a run, `plan` plays evoidea's rounds
//! (generate, then refine the elite with only its brief), `add-idea` adds scored ideas with their
//! parents and origin, `should-stop` says which rule fired, and bad ideas change nothing.

use crate::cli;

use cli::{bytes, evodb};
use serde_json::{Value, json};

const CRITERIA: [&str; 8] =
    ["feasibility", "speed_to_value", "differentiation", "market_size", "distribution", "moats", "risk", "clarity"];

fn idea(title: &str) -> String {
    json!({
        "title": title,
        "summary": format!("{title}, for solo developers."),
        "facets": {"audience": "solo developers", "jtbd": "ship faster", "differentiator": "tiny",
                   "monetization": "subscription", "distribution": "open source", "risks": ["churn", "copycats"]}
    })
    .to_string()
}

/// Scores from `base` upward, the first criterion the weakest.
fn scores(base: f64) -> String {
    let map: serde_json::Map<String, Value> =
        CRITERIA.iter().enumerate().map(|(i, c)| (c.to_string(), json!((base + i as f64 * 0.1).min(10.0)))).collect();
    Value::Object(map).to_string()
}

fn ok(args: &[&str]) -> Value {
    let run = evodb(args);
    assert_eq!(run.code, 0, "{args:?}: {run:?}");
    run.json()
}

#[test]
fn three_rounds_generate_then_refine_the_elite_and_stop_at_max_rounds() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("run");
    let d = db.to_str().unwrap();
    ok(&["ideas", d, "--rounds", "3", "--population", "3", "--elite", "2", "--threshold", "9.5"]);
    let refused = evodb(&["ideas", d]);
    assert_ne!(refused.code, 0, "an existing run is not created again: {refused:?}");

    let round1 = ok(&["plan", d, "1"]);
    let items = round1["items"].as_array().unwrap();
    assert_eq!(items.len(), 3, "{round1}");
    let mut ids = Vec::new();
    for (i, item) in items.iter().enumerate() {
        assert_eq!(item["idea"]["task"], "generate", "{item}");
        let name = item["name"].as_str().unwrap();
        let added = ok(&[
            "add-idea",
            d,
            "--idea",
            &idea(&format!("Idea {i}")),
            "--scores",
            &scores(5.0 + i as f64),
            "--planItem",
            name,
        ]);
        ids.push(added["id"].as_str().unwrap().to_string());
    }
    assert_eq!(ok(&["should-stop", d])["stop"], false);

    let round2 = ok(&["plan", d, "1"]);
    let items = round2["items"].as_array().unwrap();
    assert_eq!(items.len(), 2, "the elite: {round2}");
    let brief = &items[0]["idea"];
    assert_eq!((&brief["task"], &items[0]["parentIds"][0]), (&json!("refine"), &json!(ids[2])), "{round2}");
    assert!(brief["idea"].as_str().unwrap().contains(r#""title":"Idea 2""#), "{brief}");
    assert_eq!(
        (&brief["weakest"][0]["criterion"], brief["weakest"][0]["score"].as_f64()),
        (&json!("feasibility"), Some(7.0)),
        "{brief}"
    );
    assert!(brief["bestSummary"].as_str().unwrap().starts_with("Idea 2 — "), "{brief}");
    assert!(!brief.to_string().contains("Idea 0"), "no other idea reaches a refine item: {brief}");
    let refined = ok(&[
        "add-idea",
        d,
        "--idea",
        &idea("Idea 2, sharper"),
        "--scores",
        &scores(7.5),
        "--parents",
        &ids[2],
        "--planItem",
        items[0]["name"].as_str().unwrap(),
    ]);
    let merged = ok(&[
        "add-idea",
        d,
        "--idea",
        &idea("Idea 1 + 2"),
        "--scores",
        &scores(6.0),
        "--parents",
        &format!("{},{}", ids[1], ids[2]),
    ]);
    let file: Value = serde_json::from_slice(&bytes(&db.join("database.json"))).unwrap();
    let stored = &file["programs"][merged["id"].as_str().unwrap()];
    assert_eq!((&stored["origin"], &stored["parents"]), (&json!("merged"), &json!([ids[1], ids[2]])), "{stored}");
    assert_eq!(file["programs"][refined["id"].as_str().unwrap()]["origin"], "refined");
    assert_eq!(file["evodb"]["config"]["kind"], "ideas");

    ok(&["plan", d, "1"]);
    let verdict = ok(&["should-stop", d]);
    assert_eq!((&verdict["stop"], &verdict["reason"]), (&json!(true), &json!("max rounds")), "{verdict}");
    let valid = evodb(&["validate", d, "--history"]);
    assert_eq!(valid.code, 0, "the history replays the idea run: {valid:?}");

    // evoidea's files, list and show.
    let out = tmp.path().join("exported");
    ok(&["export", d, "--format", "evoidea", "--out", out.to_str().unwrap()]);
    let state: Value = serde_json::from_slice(&bytes(&out.join("state.json"))).unwrap();
    let last: Value = serde_json::from_slice(&bytes(&out.join("final.json"))).unwrap();
    for file in [&state, &last] {
        assert_eq!(
            (&file["run_id"], &file["iteration"], &file["stagnation_counter"]),
            (&json!("run"), &json!(3), &json!(1)),
            "round 3 added nothing better: {file}"
        );
        assert_eq!(file["best_idea_id"], refined["id"], "{file}");
        assert!(file["best_score"].as_f64().unwrap() > 7.8, "{file}");
        let ideas = file["ideas"].as_array().unwrap();
        assert_eq!(ideas.len(), 5, "{file}");
        for idea in ideas {
            for key in ["id", "title", "summary", "facets", "scores", "overall_score", "status", "origin", "parents"] {
                assert!(idea.get(key).is_some(), "{key} in {idea}");
            }
            assert_eq!(idea["scores"].as_object().unwrap().len(), 8, "{idea}");
            assert_eq!(idea["status"], "active");
        }
        assert_eq!(ideas[4]["parents"], json!([ids[1], ids[2]]));
        assert_eq!(ideas[0]["origin"], "generated");
    }
    assert_eq!((&last["stopped"], &last["stop_reason"]), (&json!(true), &json!("max rounds")), "{last}");
    assert_eq!(last["best_idea"]["title"], "Idea 2, sharper");
    assert_eq!(last["best_score_trajectory"].as_array().unwrap().len(), 3, "{last}");
    let printed = ok(&["export", d, "--format", "evoidea"]);
    assert_eq!(printed["state"], state);

    let runs = ok(&["runs", tmp.path().to_str().unwrap()]);
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 1, "only directories holding a run: {runs:?}");
    assert_eq!((&runs[0]["id"], &runs[0]["kind"], &runs[0]["rounds"]), (&json!("run"), &json!("ideas"), &json!(3)));
    assert_eq!((&runs[0]["stopped"], &runs[0]["bestScore"]), (&json!(true), &state["best_score"]));
    assert!(runs[0]["created"].as_str().unwrap().ends_with('Z'), "{:?}", runs[0]);

    let shown = evodb(&["show", d]);
    assert_eq!(shown.code, 0, "{shown:?}");
    for needle in ["best: Idea 2, sharper", "scores: feasibility 7.5", "best score by round:", "stopped: max rounds"] {
        assert!(shown.stdout.contains(needle), "{needle}: {}", shown.stdout);
    }
    let profile = ok(&["profile", "export", d]);
    assert_eq!(profile["weights"].as_object().unwrap().len(), 8);
    assert_eq!(profile["weights"]["moats"], 1.0);

    // A run that is not there is a clear error, and nothing is created.
    let missing = tmp.path().join("no-such-run");
    for command in [vec!["show"], vec!["profile", "export"], vec!["export", "--format", "evoidea"]] {
        let mut args: Vec<&str> = command.clone();
        args.insert(if command[0] == "export" { 1 } else { command.len() }, missing.to_str().unwrap());
        let run = evodb(&args);
        assert_eq!(run.code, 3, "{args:?}: {run:?}");
        assert!(run.stderr.contains("no run at"), "{run:?}");
    }
    let run = evodb(&["add-idea", missing.to_str().unwrap(), "--idea", &idea("t"), "--scores", &scores(5.0)]);
    assert!(run.code == 3 && run.stderr.contains("no run at"), "{run:?}");
    assert!(!missing.exists());
}

#[test]
fn bad_ideas_scores_and_origins_are_refused_and_change_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("run");
    let d = db.to_str().unwrap();
    ok(&["ideas", d]);
    let first = ok(&["add-idea", d, "--idea", &idea("First"), "--scores", &scores(5.0)]);
    let first = first["id"].as_str().unwrap();
    let before = (bytes(&db.join("database.json")), bytes(&db.join("history.ndjson")));
    let too_high = scores(5.0).replace("\"clarity\":5.7", "\"clarity\":10.5");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--idea".into(), r#"{"summary":"no title"}"#.into(), "--scores".into(), scores(5.0)], "idea.title"),
        (
            vec!["--idea".into(), r#"{"title":"t","facets":{"audience":1}}"#.into(), "--scores".into(), scores(5.0)],
            "idea.facets.audience",
        ),
        (vec!["--idea".into(), idea("t"), "--scores".into(), too_high], "scores.clarity"),
        (vec!["--idea".into(), idea("t"), "--scores".into(), r#"{"feasibility":5}"#.into()], "scores.speed_to_value"),
        (
            vec![
                "--idea".into(),
                idea("t"),
                "--scores".into(),
                scores(5.0),
                "--origin".into(),
                "merged".into(),
                "--parents".into(),
                first.into(),
            ],
            "origin",
        ),
    ];
    for (flags, needle) in cases {
        let mut args = vec!["add-idea".to_string(), d.to_string()];
        args.extend(flags);
        let run = evodb(&args);
        assert_eq!(run.code, 1, "{args:?}: {run:?}");
        assert!(run.stderr.contains(needle), "{needle}: {run:?}");
    }
    assert_eq!((bytes(&db.join("database.json")), bytes(&db.join("history.ndjson"))), before);
    let missing = evodb(&["add-idea", d, "--scores", &scores(5.0)]);
    assert_eq!(missing.code, 2, "{missing:?}");
    let elite = evodb(&["ideas", tmp.path().join("other").to_str().unwrap(), "--elite", "9"]);
    assert!(elite.code == 1 && elite.stderr.contains("ideas.elite"), "{elite:?}");
    assert!(!tmp.path().join("other").exists(), "a refused run leaves nothing behind");

    // A programs run has no evoidea files and no profile; `show` still summarises it.
    let programs = tmp.path().join("programs");
    assert_eq!(evodb(&cli::seed_args(&programs)).code, 0);
    let p = programs.to_str().unwrap();
    for args in [vec!["export", p, "--format", "evoidea"], vec!["profile", "export", p]] {
        let run = evodb(&args);
        assert!(run.code == 1 && run.stderr.contains("programs"), "{args:?}: {run:?}");
    }
    let refused = evodb(&["add-idea", p, "--idea", &idea("t"), "--scores", &scores(5.0)]);
    assert!(refused.code == 1 && refused.stderr.contains("idea"), "{refused:?}");
    let shown = evodb(&["show", p]);
    assert!(shown.code == 0 && shown.stdout.contains("(programs)"), "{shown:?}");
    let out = evodb(&["export", p, "--format", "json", "--out", tmp.path().to_str().unwrap()]);
    assert_eq!(out.code, 2, "--out is for evoidea's files: {out:?}");
}

#[test]
fn a_profile_weights_the_overall_score() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("run");
    let d = db.to_str().unwrap();
    let profile = tmp.path().join("profile.json");
    std::fs::write(&profile, r#"{"weights": {"clarity": 7}}"#).unwrap();
    ok(&["ideas", d, "--profile", profile.to_str().unwrap()]);
    let only_clear: serde_json::Map<String, Value> =
        CRITERIA.iter().map(|c| (c.to_string(), json!(if *c == "clarity" { 10.0 } else { 3.0 }))).collect();
    ok(&["add-idea", d, "--idea", &idea("Clear"), "--scores", &Value::Object(only_clear).to_string()]);
    let best = ok(&["should-stop", d])["bestFitness"].as_f64().unwrap();
    assert!((best - 91.0 / 14.0).abs() < 1e-9, "{best}");
    std::fs::write(&profile, r#"{"weights": {"vibes": 1}}"#).unwrap();
    let bad = evodb(&["ideas", tmp.path().join("r2").to_str().unwrap(), "--profile", profile.to_str().unwrap()]);
    assert!(bad.code == 1 && bad.stderr.contains("profile.weights.vibes"), "{bad:?}");
}

/// What a scripted subagent answers: a text, or nothing (it timed out).
type Answer = Option<String>;

/// `/evoidea`'s orchestrator, step for step as `plugin/commands/evoidea.md` says, with scripted
/// subagents: the answers come from queues, the critic scores by title.
struct Orchestrator<'a> {
    run: &'a str,
    files: std::path::PathBuf,
    generate: std::collections::VecDeque<Answer>,
    refine: std::collections::VecDeque<Answer>,
    critic: fn(&str) -> f64,
    /// Every prompt a refine subagent was given, to check it saw only its own idea.
    refine_inputs: Vec<String>,
}

impl Orchestrator<'_> {
    /// Asks a subagent; invalid JSON is asked again once (the seed's rule), then dropped.
    fn ask(queue: &mut std::collections::VecDeque<Answer>, run: &str, what: &str) -> Option<Value> {
        for attempt in 0..2 {
            match queue.pop_front().expect("the script has an answer") {
                None => {
                    ok(&["note", run, "--kind", "failure", "--text", &format!("{what} timed out; skipped this round")]);
                    return None;
                }
                Some(text) => match serde_json::from_str::<Value>(&text) {
                    Ok(value) => return Some(value),
                    Err(_) if attempt == 0 => continue,
                    Err(e) => {
                        ok(&["note", run, "--kind", "failure", "--text", &format!("{what}: invalid JSON twice ({e})")]);
                        return None;
                    }
                },
            }
        }
        None
    }

    /// One round: plan, subagents, critic, add-idea, should-stop; the verdict.
    fn round(&mut self) -> Value {
        let plan = ok(&["plan", self.run, "1"]);
        let mut new: Vec<(String, Value, Vec<String>)> = Vec::new();
        let items = plan["items"].as_array().unwrap().clone();
        let generate: Vec<&Value> = items.iter().filter(|item| item["idea"]["task"] == "generate").collect();
        if !generate.is_empty()
            && let Some(Value::Array(ideas)) = Self::ask(&mut self.generate, self.run, "generate")
        {
            for (item, idea) in generate.iter().zip(ideas) {
                new.push((item["name"].as_str().unwrap().into(), idea, Vec::new()));
            }
        }
        for item in items.iter().filter(|item| item["idea"]["task"] == "refine") {
            let brief = &item["idea"];
            let input = format!(
                "IDEA:\n{}\nCRITIQUE:\n{}\nBENCHMARK:\n{}",
                brief["idea"], brief["weakest"], brief["bestSummary"]
            );
            self.refine_inputs.push(input);
            let parent = item["parentIds"][0].as_str().unwrap().to_string();
            if let Some(idea) = Self::ask(&mut self.refine, self.run, &format!("refine of {parent}")) {
                new.push((item["name"].as_str().unwrap().into(), idea, vec![parent]));
            }
        }
        for (name, idea, parents) in new {
            let title = idea["title"].as_str().unwrap_or_default().to_string();
            let base = (self.critic)(&title);
            let file = self.files.join(format!("{}.json", name.replace('/', "-")));
            std::fs::write(&file, idea.to_string()).unwrap();
            let mut args =
                vec!["add-idea".to_string(), self.run.into(), "--ideaFile".into(), file.display().to_string()];
            args.extend(["--scores".into(), scores(base), "--planItem".into(), name]);
            if !parents.is_empty() {
                args.extend(["--parents".into(), parents.join(",")]);
            }
            let added = evodb(&args);
            assert_eq!(added.code, 0, "{args:?}: {added:?}");
        }
        ok(&["should-stop", self.run])
    }
}

fn ideas_json(titles: &[&str]) -> String {
    let ideas: Vec<Value> = titles.iter().map(|t| serde_json::from_str(&idea(t)).unwrap()).collect();
    Value::Array(ideas).to_string()
}

fn refined(title: &str) -> String {
    let mut idea: Value = serde_json::from_str(&idea(title)).unwrap();
    idea["changes"] = json!(["narrower audience", "usage-based pricing"]);
    idea.to_string()
}

/// The seed's `state.json` schema, field by field (`final.json` is a superset).
fn assert_seed_state_schema(state: &Value) {
    let types = [
        ("run_id", "string"),
        ("iteration", "number"),
        ("best_score", "number"),
        ("best_idea_id", "string"),
        ("stagnation_counter", "number"),
    ];
    for (key, kind) in types {
        let ok = match kind {
            "string" => state[key].is_string(),
            _ => state[key].is_number(),
        };
        assert!(ok, "`{key}` is a {kind}: {state}");
    }
    for idea in state["ideas"].as_array().expect("ideas[]") {
        for key in ["id", "title", "summary"] {
            assert!(idea[key].is_string(), "{key}: {idea}");
        }
        let facets = idea["facets"].as_object().unwrap();
        for key in ["audience", "jtbd", "differentiator", "monetization", "distribution", "risks"] {
            assert!(facets[key].is_string(), "facets.{key}: {idea}");
        }
        for criterion in CRITERIA {
            let score = idea["scores"][criterion].as_f64().unwrap();
            assert!((0.0..=10.0).contains(&score), "{criterion}: {idea}");
        }
        assert!(idea["overall_score"].is_number());
        assert!(["active", "pruned"].contains(&idea["status"].as_str().unwrap()));
        assert!(["generated", "refined", "merged"].contains(&idea["origin"].as_str().unwrap()));
        assert!(idea["parents"].as_array().unwrap().iter().all(Value::is_string));
    }
}

#[test]
fn evoidea_end_to_end_with_scripted_subagents_a_retry_a_timeout_and_a_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    let db = runs.join("solo-dev-tools");
    let d = db.to_str().unwrap();
    let files = tmp.path().join("answers");
    std::fs::create_dir_all(&files).unwrap();
    let ghost = evodb(&["show", runs.join("ghost").to_str().unwrap()]);
    assert!(ghost.code == 3 && ghost.stderr.contains("no run at"), "resuming a missing run: {ghost:?}");

    ok(&["ideas", d, "--rounds", "3", "--population", "3", "--elite", "2", "--threshold", "9.0"]);
    let critic: fn(&str) -> f64 = |title| match title {
        "Changelog bot" => 5.0,
        "Uptime pager" => 6.0,
        "Invoice CLI" => 4.0,
        "Uptime pager for indie SaaS" => 7.0,
        "Uptime pager with status pages" => 9.0,
        other => panic!("the critic was not scripted for {other}"),
    };
    let mut orchestrator = Orchestrator {
        run: d,
        files: files.clone(),
        generate: [
            Some("Here are three ideas: 1. a changelog bot …".to_string()),
            Some(ideas_json(&["Changelog bot", "Uptime pager", "Invoice CLI"])),
        ]
        .into(),
        refine: [Some(refined("Uptime pager for indie SaaS")), None].into(),
        critic,
        refine_inputs: Vec::new(),
    };
    let verdict = orchestrator.round();
    assert_eq!(verdict["stop"], false, "{verdict}");
    assert!(orchestrator.generate.is_empty(), "the invalid answer was asked again once");
    let verdict = orchestrator.round();
    assert_eq!(verdict["stop"], false, "{verdict}");
    assert!(orchestrator.refine.is_empty());
    assert_eq!(orchestrator.refine_inputs.len(), 2, "one refine per elite idea");
    for input in &orchestrator.refine_inputs {
        assert!(!input.contains("Invoice CLI"), "a refine sees only its own idea and the benchmark: {input}");
    }
    let notes = ok(&["notes", d, "--kind", "failure"]);
    assert!(notes.to_string().contains("timed out"), "the timed-out refine is logged: {notes}");

    // Interrupted here; `/evoidea --resume solo-dev-tools` reads everything back from evodb.
    let shown = evodb(&["show", d]);
    assert!(shown.code == 0 && shown.stdout.contains("round 2") && shown.stdout.contains("not stopped"), "{shown:?}");
    let mut resumed = Orchestrator {
        run: d,
        files,
        generate: Default::default(),
        refine: [Some(refined("Uptime pager with status pages")), Some(refined("Uptime pager with status pages"))]
            .into(),
        critic,
        refine_inputs: Vec::new(),
    };
    let verdict = resumed.round();
    assert_eq!((&verdict["stop"], &verdict["reason"]), (&json!(true), &json!("threshold reached")), "{verdict}");
    assert!(resumed.refine_inputs[0].contains("Uptime pager for indie SaaS"), "round 3 refines the new best first");

    ok(&["export", d, "--format", "evoidea", "--out", d]);
    let state: Value = serde_json::from_slice(&bytes(&db.join("state.json"))).unwrap();
    let last: Value = serde_json::from_slice(&bytes(&db.join("final.json"))).unwrap();
    assert_seed_state_schema(&state);
    assert_seed_state_schema(&last);
    assert_eq!((&state["run_id"], &state["iteration"]), (&json!("solo-dev-tools"), &json!(3)));
    assert_eq!(last["best_idea"]["title"], "Uptime pager with status pages");
    assert_eq!(last["stop_reason"], "threshold reached");
    let trajectory: Vec<f64> =
        last["best_score_trajectory"].as_array().unwrap().iter().map(|s| s.as_f64().unwrap()).collect();
    assert_eq!(trajectory.len(), 3);
    assert!(trajectory.windows(2).all(|w| w[0] < w[1]), "{trajectory:?}");
    let listed = ok(&["runs", runs.to_str().unwrap()]);
    assert_eq!(listed[0]["id"], "solo-dev-tools");
    assert_eq!((&listed[0]["stopped"], &listed[0]["stopReason"]), (&json!(true), &json!("threshold reached")));
    let shown = evodb(&["show", d]);
    assert!(
        shown.stdout.contains("best: Uptime pager with status pages")
            && shown.stdout.contains("stopped: threshold reached"),
        "{shown:?}"
    );
    assert_eq!(evodb(&["validate", d, "--history"]).code, 0, "the run's history replays");
}
