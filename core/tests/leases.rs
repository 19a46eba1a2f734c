//! Leases on plan items (issue 41): an item handed out under a lease is answered once, by the
//! worker holding its current token; an expired item is handed out again by the next plan; a
//! stale answer is refused; heartbeats extend; events replay it all; and leases change no draw.

use evodb_core::{AddRequest, Config, Database, LeaseState, Metrics, Plan, PlanItem};

fn database(config: &str) -> Database {
    let mut db = Database::new(Config::from_json(config).unwrap(), 11).unwrap();
    db.record_events(true);
    for i in 0..4 {
        let metrics = Metrics::new([("score", f64::from(i) / 10.0)]).unwrap();
        db.add(AddRequest::seed("/f.py", format!("def f():\n  return {i}\n"), metrics), f64::from(i)).unwrap();
    }
    db
}

fn answer(item: &PlanItem, token: Option<&str>, score: f64) -> AddRequest {
    AddRequest {
        parent_id: item.parent_ids[0].clone(),
        plan_item: Some(item.name.clone()),
        token: token.map(str::to_string),
        changes: format!("answer to {}", item.name),
        ..AddRequest::seed("/c.py", format!("def f():\n  return {score}\n"), Metrics::new([("score", score)]).unwrap())
    }
}

fn token(item: &PlanItem) -> &str {
    &item.lease.as_ref().expect("a leased item").token
}

fn replays(db: &mut Database) {
    let events = db.take_events();
    assert_eq!(Database::replay(&events).unwrap().to_json(), db.to_json());
    let lines: String = events.iter().map(|e| evodb_core::json_text::to_compact_js(e) + "\n").collect();
    assert!(lines.contains(r#""event":"planned""#) && lines.contains(r#""now":"#), "{lines}");
}

#[test]
fn a_killed_workers_item_is_reissued_and_its_stale_answer_refused() {
    let mut db = database(r#"{"numIslands": 2}"#);
    let plan = db.plan_at(3, &[], &[], 100.0, Some(60.0)).unwrap();
    let tokens: Vec<String> = plan.items.iter().map(|item| token(item).to_string()).collect();
    assert!(plan.items.iter().all(|item| item.lease.as_ref().unwrap().expires == 160.0));
    // Worker 0 answers, worker 1 heartbeats, worker 2 is killed.
    db.add(answer(&plan.items[0], Some(&tokens[0]), 0.9), 120.0).unwrap();
    assert_eq!(db.heartbeat(&plan.items[1].name, &tokens[1], 150.0, Some(100.0)).unwrap().expires, 250.0);
    let leases = db.leases(200.0).unwrap();
    let states: Vec<(&str, LeaseState)> = leases.iter().map(|l| (l.item.as_str(), l.state)).collect();
    assert_eq!(
        states,
        [(plan.items[1].name.as_str(), LeaseState::Live), (plan.items[2].name.as_str(), LeaseState::Expired)]
    );

    // The next plan hands item 2 out again first, counted toward n.
    let again = db.plan_at(2, &[], &[], 200.0, None).unwrap();
    assert_eq!(again.items[0].name, plan.items[2].name);
    assert_eq!(again.items[0].parent_ids, plan.items[2].parent_ids);
    let reissued = again.items[0].lease.clone().unwrap();
    assert_eq!((reissued.attempt, reissued.expires), (2, 260.0));
    assert_ne!(reissued.token, tokens[2]);
    assert_eq!(again.items.len(), 2);
    assert!(again.items[1].lease.is_none(), "a plan without a lease length hands new items out unleased");

    // The killed worker comes back: its answer and heartbeat are refused, nothing changes.
    let before = db.to_json();
    let err = db.add(answer(&plan.items[2], Some(&tokens[2]), 0.1), 210.0).unwrap_err().to_string();
    assert!(err.contains("stale") && err.contains("attempt 2"), "{err}");
    assert!(db.heartbeat(&plan.items[2].name, &tokens[2], 210.0, None).unwrap_err().to_string().contains("stale"));
    let err = db.add(answer(&plan.items[2], None, 0.1), 210.0).unwrap_err().to_string();
    assert!(err.contains("--token"), "{err}");
    assert_eq!(db.to_json(), before);

    // Every item is answered once, by the token holder; a second answer is refused.
    db.add(answer(&again.items[0], Some(&reissued.token), 0.5), 220.0).unwrap();
    db.add(answer(&plan.items[1], Some(&tokens[1]), 0.6), 230.0).unwrap();
    db.add(answer(&again.items[1], None, 0.7), 240.0).unwrap();
    assert!(db.add(answer(&again.items[0], Some(&reissued.token), 0.5), 250.0).is_err());
    assert!(db.leases(300.0).unwrap().is_empty());
    assert!(Database::validate_json(&db.to_json()).is_empty());
    let answered: Vec<&str> = [&plan.items[0], &plan.items[1], &plan.items[2], &again.items[1]]
        .iter()
        .map(|item| item.name.as_str())
        .collect();
    let stats = db.stats();
    assert_eq!(stats.evaluations, 4 + answered.len() as u64);
    replays(&mut db);
}

#[test]
fn leases_change_no_draw() {
    let plain = |leased: bool| -> (Plan, String) {
        let mut db = database(r#"{"numIslands": 3, "operators": {}}"#);
        let plan = match leased {
            true => db.plan_at(4, &[], &[], 10.0, Some(30.0)).unwrap(),
            false => db.plan(4, &[], &[]).unwrap(),
        };
        for (i, item) in plan.items.iter().enumerate() {
            let token = item.lease.as_ref().map(|lease| lease.token.as_str());
            db.add(answer(item, token, 0.2 + i as f64 / 10.0), 20.0).unwrap();
        }
        db.sample();
        let mut json: serde_json::Value = serde_json::from_str(&db.to_json()).unwrap();
        json["evodb"]["pending"] = serde_json::Value::Null;
        (plan, json.to_string())
    };
    let (with, with_json) = plain(true);
    let (without, without_json) = plain(false);
    let strip =
        |plan: Plan| Plan { items: plan.items.into_iter().map(|i| PlanItem { lease: None, ..i }).collect(), ..plan };
    assert_eq!(strip(with), without);
    assert_eq!(with_json, without_json);
}

#[test]
fn without_leases_a_plan_records_no_time() {
    let mut db = database("{}");
    db.plan_at(2, &[], &[], 10.0, None).unwrap();
    let events = db.take_events();
    let line = evodb_core::json_text::to_compact_js(events.last().unwrap());
    assert!(line.starts_with(r#"{"event":"planned""#) && !line.contains("now"), "{line}");
}

#[test]
fn the_config_default_leases_and_needs_the_time() {
    let mut db = database(r#"{"leaseSeconds": 30}"#);
    let err = db.plan(1, &[], &[]).unwrap_err().to_string();
    assert!(err.contains("now"), "{err}");
    let plan = db.plan_at(1, &[], &[], 5.0, None).unwrap();
    assert_eq!(plan.items[0].lease.as_ref().unwrap().expires, 35.0);
    for bad in [r#"{"leaseSeconds": 0}"#, r#"{"leaseSeconds": -1}"#, r#"{"leaseSeconds": 1e12}"#] {
        assert!(Config::from_json(bad).unwrap_err().to_string().contains("leaseSeconds"), "{bad}");
    }
    assert!(db.plan_at(1, &[], &[], 5.0, Some(f64::INFINITY)).is_err());
}

#[test]
fn tokens_are_checked_and_expired_items_may_still_be_answered() {
    let mut db = database("{}");
    let plan = db.plan_at(2, &[], &[], 0.0, Some(10.0)).unwrap();
    let unleased = db.plan(1, &[], &[]).unwrap();
    let err = db.add(answer(&unleased.items[0], Some("x"), 0.3), 1.0).unwrap_err().to_string();
    assert!(err.contains("leave out --token"), "{err}");
    let mut loose = answer(&unleased.items[0], Some("x"), 0.3);
    loose.plan_item = None;
    assert!(db.add(loose, 1.0).unwrap_err().to_string().contains("--planItem"));
    // Expired but not handed out again: nobody else holds it, so its answer counts.
    db.add(answer(&plan.items[1], Some(token(&plan.items[1])), 0.4), 50.0).unwrap();
    assert_eq!(db.leases(50.0).unwrap()[0].state, LeaseState::Expired);
    // A held answer's item is listed as held and never handed out again.
    let leases = db.leases(50.0).unwrap();
    assert!(leases.iter().any(|l| l.state == LeaseState::Held), "{leases:?}");
    let heartbeat = db.heartbeat(&plan.items[1].name, token(&plan.items[1]), 50.0, None).unwrap_err();
    assert!(heartbeat.to_string().contains("already answered"), "{heartbeat}");
    replays(&mut db);
}

#[test]
fn catching_up_re_runs_leases_and_heartbeats() {
    let mut db = database(r#"{"leaseSeconds": 30}"#);
    let snapshot = db.to_json();
    db.take_events();
    let plan = db.plan_at(2, &[], &[], 5.0, None).unwrap();
    db.heartbeat(&plan.items[0].name, token(&plan.items[0]), 20.0, None).unwrap();
    db.plan_at(1, &[], &[], 40.0, None).unwrap();
    let lines: String = db.take_events().iter().map(|e| evodb_core::json_text::to_compact_js(e) + "\n").collect();
    assert!(lines.contains(r#""event":"heartbeat""#), "{lines}");
    let mut again = Database::from_json(&snapshot).unwrap();
    again.catch_up(&lines).unwrap();
    assert_eq!(again.to_json(), db.to_json());
}

#[test]
fn sample_hands_an_expired_item_out_again_in_place_of_a_draw() {
    let config = r#"{"numIslands": 2, "operators": {}, "targets": [{"id": "a"}, {"id": "b"}]}"#;
    let mut db = Database::new(Config::from_json(config).unwrap(), 11).unwrap();
    db.record_events(true);
    for (i, target) in ["a", "b"].iter().enumerate() {
        let metrics = Metrics::new([("score", 0.1 + i as f64 / 10.0)]).unwrap();
        let seed = AddRequest { target: Some(target.to_string()), ..AddRequest::seed("/x.py", "v0", metrics) };
        db.add(seed, 1.0).unwrap();
    }
    let plan = db.plan_at(2, &[], &[], 100.0, Some(60.0)).unwrap();
    let (a, b) = (&plan.items[0], &plan.items[1]);
    assert_eq!((a.island, b.island), (0, 1));
    // Still leased: a fresh draw, which records no time.
    let fresh = db.sample_at(None, 150.0).unwrap();
    assert!(fresh.plan_item.is_none() && fresh.lease.is_none());

    // Expired at 160: target b's sample hands out b's item, not a's (the first in plan order).
    let again = db.sample_at(Some("b"), 200.0).unwrap();
    assert_eq!(again.plan_item.as_deref(), Some(b.name.as_str()));
    assert_eq!((again.island, again.operator), (Some(b.island), Some(b.operator)));
    assert_eq!(again.parent.as_ref().map(|p| p.id.to_string()), Some(b.parent_ids[0].clone()));
    let lease = again.lease.clone().unwrap();
    assert_eq!((lease.attempt, lease.expires), (2, 260.0));
    assert_ne!(lease.token, token(b));
    // Any target: a's item; then none is left expired, so the next sample draws.
    assert_eq!(db.sample_at(None, 200.0).unwrap().plan_item.as_deref(), Some(a.name.as_str()));
    assert!(db.sample_at(None, 200.0).unwrap().plan_item.is_none());

    // The worker that was killed is refused; the sample's token answers the item once.
    let before = db.to_json();
    assert!(db.add(answer(b, Some(token(b)), 0.3), 210.0).unwrap_err().to_string().contains("stale"));
    assert_eq!(db.to_json(), before);
    let answer_b = AddRequest { target: Some("b".into()), ..answer(b, Some(&lease.token), 0.3) };
    db.add(answer_b, 210.0).unwrap();
    assert!(db.sample_at(Some("nope"), 220.0).unwrap_err().to_string().contains("targets are a, b"));
    assert!(db.sample_at(None, f64::NAN).unwrap_err().to_string().contains("now"));
    let events = db.take_events();
    // A store's reader catches up on the reissues from the lines after a snapshot (the plan's).
    let planned = events.iter().position(|e| matches!(e, evodb_core::Event::Planned { .. })).unwrap();
    let mut reader = Database::replay(&events[..=planned]).unwrap();
    let lines: String = events[planned + 1..].iter().map(|e| evodb_core::json_text::to_compact_js(e) + "\n").collect();
    reader.catch_up(&lines).unwrap();
    assert_eq!(reader.to_json(), db.to_json());
    let lines: String = events.iter().map(|e| evodb_core::json_text::to_compact_js(e) + "\n").collect();
    assert_eq!(lines.matches(r#""planItem":"#).count(), 3, "two reissues and one answer record the item: {lines}");
    assert_eq!(Database::replay(&events).unwrap().to_json(), db.to_json());
}
