//! Issue 37: the tool does the bookkeeping. A sample with the operators on carries its parent's
//! fitness, a `plan` item carries what a sample carries (the parent and its fitness, the second
//! parent, inspirations best first), and `add` applies the playbook's rule "no fitter than its
//! parent → rejected" when asked (`decide`), identically on replay.

use evodb_core::{AddRequest, Config, Database, Metrics, Status};

fn metrics(score: f64) -> Metrics {
    Metrics::new([("score", score)]).unwrap()
}

fn child(parent: &str, i: u32, score: f64) -> AddRequest {
    AddRequest {
        code_path: format!("/c/{i}.py"),
        target_code: format!("def f(): return {i}"),
        parent_id: parent.into(),
        metrics: metrics(score),
        changes: format!("change {i}"),
        ..AddRequest::seed("", "", Metrics::default())
    }
}

fn with_operators(seed: u64) -> Database {
    let config = Config::from_json(r#"{"numIslands": 2, "operators": {}}"#).unwrap();
    let mut db = Database::new(config, seed).unwrap();
    db.record_events(true);
    db.add(AddRequest::seed("/s.py", "def f(): return 0", metrics(0.3)), 0.0).unwrap();
    db
}

#[test]
fn a_sample_with_operators_carries_its_parents_fitness() {
    let mut db = with_operators(7);
    let sample = db.sample();
    let parent = sample.parent.expect("a parent");
    assert_eq!(sample.parent_fitness, db.fitness(&parent.id));
    assert_eq!(sample.parent_fitness, Some(0.3));
}

#[test]
fn a_sample_without_operators_keeps_the_seeds_shape() {
    let mut db = Database::new(Config::default(), 1).unwrap();
    db.add(AddRequest::seed("/s.py", "def f(): return 0", metrics(0.3)), 0.0).unwrap();
    let sample = serde_json::to_value(db.sample()).unwrap();
    let keys: Vec<&str> = sample.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["parent", "inspirations"]);
}

#[test]
fn plan_items_carry_what_a_sample_carries() {
    let mut db = with_operators(11);
    let mut parent = db.best().unwrap().id.to_string();
    for i in 1..=12 {
        let score = 0.3 + f64::from(i) * 0.05;
        parent = db.add(child(&parent, i, score), f64::from(i)).unwrap().id;
    }
    let plan = db.plan(6, &[], &[]).unwrap();
    for item in &plan.items {
        let parent = item.parent.as_ref().expect("every item of a populated run has a parent");
        assert_eq!(item.parent_ids.first().map(String::as_str), Some(&*parent.id));
        assert_eq!(item.parent_fitness, db.fitness(&parent.id));
        assert_eq!(&*db.program(&parent.id).unwrap().target_code, &*parent.target_code);
        let second = item.second_parent.as_ref().map(|p| p.id.to_string());
        assert_eq!(item.parent_ids.get(1), second.as_ref(), "{}", item.name);
        // Inspirations: the island's best that are not the item's parents, best first.
        let ids: Vec<&str> = item.inspirations.iter().map(|p| &*p.id).collect();
        assert!(!ids.contains(&&*parent.id) && second.as_deref().is_none_or(|s| !ids.contains(&s)));
        let fitness: Vec<f64> = ids.iter().map(|id| db.fitness(id).unwrap()).collect();
        assert!(fitness.windows(2).all(|w| w[0] >= w[1]), "{}: {fitness:?}", item.name);
        let members = db.island_members(item.island);
        assert!(ids.iter().all(|id| members.contains(id)), "{} draws from its own island", item.name);
    }
    assert!(plan.items.iter().any(|item| !item.inspirations.is_empty()));
}

#[test]
fn a_plan_draws_its_inspirations_without_the_prng() {
    // The same run planned with and without reading the items' inspirations: the same plans,
    // the same next sample (inspirations for items are a pure function of the population).
    let mut a = with_operators(5);
    let mut b = with_operators(5);
    for db in [&mut a, &mut b] {
        let seed = db.best().unwrap().id.to_string();
        for i in 1..=6 {
            db.add(child(&seed, i, 0.2 + f64::from(i) * 0.1), f64::from(i)).unwrap();
        }
    }
    assert_eq!(a.plan(3, &[], &[]).unwrap(), b.plan(3, &[], &[]).unwrap());
    assert_eq!(a.sample(), b.sample());
}

#[test]
fn decide_accepts_a_fitter_child_and_rejects_one_no_fitter_than_its_parent() {
    let mut db = with_operators(3);
    let seed = db.best().unwrap().id.to_string();
    let better = db.add(AddRequest { decide: true, ..child(&seed, 1, 0.5) }, 1.0).unwrap();
    assert_eq!(better.status, Status::Accepted);
    let equal = db.add(AddRequest { decide: true, ..child(&better.id, 2, 0.5) }, 2.0).unwrap();
    assert_eq!(equal.status, Status::Rejected, "as fit as its parent is no fitter");
    let worse = db.add(AddRequest { decide: true, ..child(&better.id, 3, 0.4) }, 3.0).unwrap();
    assert_eq!(worse.status, Status::Rejected);
    let program = db.program(&worse.id).expect("a rejected candidate stays as memory");
    assert_eq!(program.reason.as_deref(), Some("no fitter than its parent (fitness 0.4 against the parent's 0.5)"));
    // Without a live parent there is nothing to compare with: accepted.
    let orphan = db.add(AddRequest { decide: true, ..child("pruned-long-ago", 4, 0.1) }, 4.0).unwrap();
    assert_eq!(orphan.status, Status::Accepted);

    // The history records the request (`decide`), and replay decides the same way.
    let events = db.take_events();
    let replayed = Database::replay(&events).expect("the history replays");
    assert_eq!(replayed.program(&worse.id).unwrap().status, Status::Rejected);
    assert_eq!(replayed.program(&better.id).unwrap().status, Status::Accepted);
}

#[test]
fn decide_with_a_status_is_refused_and_changes_nothing() {
    let mut db = with_operators(3);
    let seed = db.best().unwrap().id.to_string();
    let before = db.to_json();
    let error =
        AddRequest { decide: true, status: Status::Error, reason: Some("crashed".into()), ..child(&seed, 1, 0.5) };
    let err = db.add(error, 1.0).unwrap_err().to_string();
    assert!(err.contains("decide") && err.contains("--status"), "{err}");
    assert_eq!(db.to_json(), before);
}

#[test]
fn a_planned_crossover_child_records_both_parents() {
    let mut db = with_operators(2);
    let mut parent = db.best().unwrap().id.to_string();
    for i in 1..=8 {
        parent = db.add(child(&parent, i, 0.3 + f64::from(i) * 0.05), f64::from(i)).unwrap().id;
    }
    let mut i = 100;
    let (item, second) = loop {
        let plan = db.plan(4, &[], &[]).unwrap();
        let mut crossover = None;
        for item in plan.items {
            i += 1;
            let first = item.parent.as_ref().unwrap().id.to_string();
            let request = AddRequest { plan_item: Some(item.name.clone()), ..child(&first, i, 0.2) };
            let added = db.add(request, f64::from(i)).unwrap();
            if let (Some(second), None) = (&item.second_parent, &crossover) {
                crossover = Some((added.id, second.id.to_string()));
            }
        }
        if let Some(found) = crossover {
            break found;
        }
        assert!(i < 200, "a crossover or migration item within 25 plans");
    };
    let program = db.program(&item).expect("the child is live");
    assert_eq!(program.second_parent_id.as_deref(), Some(second.as_str()));
}
