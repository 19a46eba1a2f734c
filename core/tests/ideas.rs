//! Idea runs (evoidea): ideas are validated members, the plan is the memetic loop, stopping counts
//! rounds, and everything persists and replays like a programs run.

use evodb_core::{
    AddRequest, Config, Database, IDEA_CRITERIA, IdeaOrigin, IdeaRunOptions, Metrics, Profile, ROOT_PARENT_ID,
};

fn idea(title: &str) -> String {
    format!(
        r#"{{"title":"{title}","summary":"A tool for {title}.","facets":{{"audience":"solo devs","jtbd":"ship","differentiator":"fast","monetization":"subscription","distribution":"community","risks":"churn"}}}}"#
    )
}

fn scores(base: f64) -> Metrics {
    Metrics::new(IDEA_CRITERIA.iter().enumerate().map(|(i, c)| (*c, (base + i as f64 * 0.25).min(10.0)))).unwrap()
}

fn request(text: &str, metrics: Metrics) -> AddRequest {
    AddRequest { id: None, ..AddRequest::seed("x", text, metrics) }
}

fn run(options: IdeaRunOptions) -> Database {
    let mut db = Database::new(Config::for_ideas(&options).unwrap(), 7).unwrap();
    db.record_events(true);
    db
}

#[test]
fn round_one_generates_then_the_elite_is_refined_with_only_its_context() {
    let mut db = run(IdeaRunOptions::default());
    let plan = db.plan(1, &[], &[]).unwrap();
    assert_eq!(plan.items.len(), 6, "round 1 asks for the population");
    assert!(plan.items.iter().all(|item| item.idea.as_ref().unwrap().task == "generate" && item.parent_ids.is_empty()));
    assert_eq!(plan.items[0].name, "round-1/generate-0");
    let mut ids = Vec::new();
    for (i, item) in plan.items.iter().enumerate() {
        let mut r = request(&idea(&format!("idea {i}")), scores(i as f64));
        r.plan_item = Some(item.name.clone());
        let outcome = db.add(r, 1.0 + i as f64).unwrap();
        ids.push(outcome.id);
    }
    let stored = db.programs().next().unwrap();
    assert_eq!(&*stored.code_path, "idea.json");
    assert_eq!(stored.origin, Some(IdeaOrigin::Generated));
    assert!(!db.should_stop().stop);

    let plan = db.plan(1, &[], &[]).unwrap();
    assert_eq!(plan.items.len(), 2, "later rounds refine the elite");
    assert_eq!(plan.items[0].parent_ids, [ids[5].clone()], "the best first");
    assert_eq!(plan.items[1].parent_ids, [ids[4].clone()]);
    let brief = plan.items[0].idea.clone().unwrap();
    assert_eq!(brief.task, "refine");
    assert!(brief.idea.unwrap().contains("\"title\":\"idea 5\""));
    let weakest: Vec<&str> = brief.weakest.iter().map(|w| w.criterion.as_str()).collect();
    assert_eq!(weakest, ["feasibility", "speed_to_value", "differentiation"]);
    assert!(brief.best_summary.unwrap().starts_with("idea 5 — A tool for idea 5."));

    let mut refined = request(&idea("idea 5, sharper"), scores(6.0));
    refined.parent_id = ids[5].clone();
    refined.plan_item = Some(plan.items[0].name.clone());
    let refined = db.add(refined, 10.0).unwrap();
    let mut merged = request(&idea("idea 5 + 4 + 3"), scores(1.0));
    merged.parents = vec![refined.id.clone(), ids[4].clone(), ids[3].clone()];
    db.add(merged, 11.0).unwrap();
    let merged = db.programs().last().unwrap();
    assert_eq!(merged.origin, Some(IdeaOrigin::Merged));
    assert_eq!(merged.parent_id, *refined.id);
    assert_eq!(merged.second_parent_id.as_deref(), Some(&*ids[4]));
    assert_eq!(merged.all_parents().len(), 3);

    // The file and the events both bring the run back exactly.
    let text = db.to_json();
    assert_eq!(Database::from_json(&text).unwrap().to_json(), text);
    let events = db.take_events();
    assert_eq!(Database::replay(&events).unwrap().to_json(), text);
}

#[test]
fn stopping_counts_rounds_without_a_better_best() {
    let mut db = run(IdeaRunOptions { rounds: 10, threshold: 9.5, patience: 2, ..IdeaRunOptions::default() });
    for round in 0..4 {
        db.plan(1, &[], &[]).unwrap();
        let base = if round == 0 { 5.0 } else { 4.0 };
        db.add(request(&idea(&format!("r{round}")), scores(base)), round as f64).unwrap();
        let verdict = db.should_stop();
        assert_eq!(verdict.stagnation, round, "round {round}");
        if round >= 2 {
            assert_eq!(verdict.reason.as_deref(), Some("stagnation"));
        } else {
            assert!(!verdict.stop);
        }
    }
    let mut db = run(IdeaRunOptions { threshold: 7.0, ..IdeaRunOptions::default() });
    db.plan(1, &[], &[]).unwrap();
    db.add(request(&idea("great"), scores(7.0)), 1.0).unwrap();
    assert_eq!(db.should_stop().reason.as_deref(), Some("threshold reached"));
    let mut db = run(IdeaRunOptions { rounds: 1, ..IdeaRunOptions::default() });
    db.plan(1, &[], &[]).unwrap();
    db.add(request(&idea("fine"), scores(1.0)), 1.0).unwrap();
    assert_eq!(db.should_stop().reason.as_deref(), Some("max rounds"));
}

#[test]
fn all_pruned_means_generate_again() {
    let mut db = run(IdeaRunOptions::default());
    db.plan(1, &[], &[]).unwrap();
    let mut r = request(&idea("rejected"), scores(5.0));
    r.status = evodb_core::Status::Rejected;
    db.add(r, 1.0).unwrap();
    let plan = db.plan(1, &[], &[]).unwrap();
    assert_eq!(plan.items.len(), 6);
    assert!(plan.items.iter().all(|item| item.idea.as_ref().unwrap().task == "generate"));
}

#[test]
fn bad_ideas_and_scores_change_nothing() {
    let mut db = run(IdeaRunOptions::default());
    db.add(request(&idea("first"), scores(5.0)), 1.0).unwrap();
    let first = db.programs().next().unwrap().id.to_string();
    let before = db.to_json();
    let mut out_of_range = scores(5.0).iter().map(|(n, v)| (n.to_string(), v)).collect::<Vec<_>>();
    out_of_range[2].1 = 11.0;
    let cases: Vec<(AddRequest, &str)> = vec![
        (request(r#"{"summary":"no title"}"#, scores(5.0)), "idea.title"),
        (request(r#"{"title":"t","facets":[1]}"#, scores(5.0)), "idea.facets"),
        (request(&format!(r#"{{"title":"t","summary":"{}"}}"#, "s".repeat(3000)), scores(5.0)), "idea.summary"),
        (request(&idea("t"), Metrics::new(out_of_range).unwrap()), "scores.differentiation"),
        (request(&idea("t"), Metrics::new([("score", 5.0)]).unwrap()), "scores.score"),
        (
            AddRequest {
                origin: Some(IdeaOrigin::Merged),
                parent_id: first.clone(),
                ..request(&idea("t"), scores(5.0))
            },
            "origin",
        ),
        (AddRequest { parents: vec![first.clone(), first.clone()], ..request(&idea("t"), scores(5.0)) }, "parents[1]"),
        (AddRequest { origin: Some(IdeaOrigin::Refined), ..request(&idea("t"), scores(5.0)) }, "origin"),
    ];
    for (bad, field) in cases {
        let err = db.add(bad, 2.0).unwrap_err();
        assert!(err.to_string().contains(field), "{field}: {err}");
        assert_eq!(db.to_json(), before, "{field} changed the database");
    }
    let _ = ROOT_PARENT_ID;
}

#[test]
fn programs_runs_refuse_idea_fields_and_are_unchanged() {
    let mut db = Database::new(Config::default(), 1).unwrap();
    let mut r = AddRequest::seed("/a.py", "x = 1", Metrics::new([("s", 1.0)]).unwrap());
    r.origin = Some(IdeaOrigin::Generated);
    assert!(db.add(r, 1.0).unwrap_err().to_string().contains("idea runs"));
    assert!(!db.to_json().contains("ideas"), "a programs run writes nothing of ideas");
}

#[test]
fn a_profile_makes_overall_score_a_weighted_mean() {
    let profile = Profile::from_json(r#"{"weights":{"clarity":7}}"#).unwrap();
    let mut db = run(IdeaRunOptions { profile: Some(profile), ..IdeaRunOptions::default() });
    let only_clarity = Metrics::new(IDEA_CRITERIA.map(|c| (c, if c == "clarity" { 10.0 } else { 3.0 }))).unwrap();
    db.add(request(&idea("clear"), only_clarity), 1.0).unwrap();
    let best = db.should_stop().best_fitness.unwrap();
    assert!((best - (7.0 * 10.0 + 7.0 * 3.0) / 14.0).abs() < 1e-9, "{best}");
}
