//! Order-independent batches (evo-anything's parallel workers): once every item of a `plan`
//! batch is answered, the database is byte-identical whatever order the answers arrived in —
//! ids, iteration numbers, placement, pruning, migration and the PRNG follow the plan.

use evodb_core::{AddRequest, Config, Database, Event, Metrics, Plan, Status};
use proptest::prelude::*;

/// The AlphaEvolve strategy's engine with small islands and frequent migration, so a batch
/// prunes and migrates in the middle; dedupe on, so some answers come from the cache.
fn database(seed: u64, programs: u8) -> Database {
    let config = Config::from_json(
        r#"{"numIslands": 3, "maxIslandSize": 5, "migrationInterval": 3, "archiveSize": 2, "dedupe": true,
            "operators": {}, "features": [
              {"kind": "metric", "metric": "speed", "min": 0, "max": 1, "bins": 3}, {"kind": "island"}]}"#,
    )
    .unwrap();
    let mut db = Database::new(config, seed).unwrap();
    db.record_events(true);
    for i in 0..programs {
        let metrics = Metrics::new([("score", f64::from(i) / 20.0), ("speed", f64::from(i % 3) / 3.0)]).unwrap();
        db.add(AddRequest::seed("/f.py", format!("def f():\n  return {i}\n"), metrics), f64::from(i)).unwrap();
    }
    db
}

/// One answer per item: scores from `scores`, some errors, some repeated code, some own ids.
fn answers(plan: &Plan, scores: &[u8]) -> Vec<(AddRequest, f64)> {
    plan.items
        .iter()
        .zip(scores)
        .enumerate()
        .map(|(i, (item, &score))| {
            let metrics =
                Metrics::new([("score", f64::from(score) / 255.0), ("speed", f64::from(score % 7) / 7.0)]).unwrap();
            let code = match score % 5 {
                0 => "def f():\n  return 'same'\n".to_string(),
                _ => format!("def f():\n  return {score} + {i}\n"),
            };
            let request = AddRequest {
                id: (score % 4 == 0).then(|| format!("own-{}-{i}", plan.generation)),
                parent_id: item.parent_ids[0].clone(),
                plan_item: Some(item.name.clone()),
                operator: Some(item.operator),
                changes: format!("answer {i}"),
                status: if score % 6 == 1 { Status::Error } else { Status::Accepted },
                reason: (score % 6 == 1).then(|| "tests failed".to_string()),
                ..AddRequest::seed("/c.py", code, metrics)
            };
            (request, 1000.0 + f64::from(score))
        })
        .collect()
}

/// Answers in `order`, with a save and load after `reload_after` of them (held answers are
/// part of the file).
fn answer_in(db: &mut Database, answers: &[(AddRequest, f64)], order: &[usize], reload_after: usize) {
    for (k, &i) in order.iter().enumerate() {
        if k == reload_after {
            let events = db.take_events();
            *db = Database::from_json(&db.to_json()).unwrap();
            db.record_events(true);
            drop(events);
        }
        let (request, now) = &answers[i];
        db.add(request.clone(), *now).unwrap();
    }
}

/// A permutation of 0..n from sort keys.
fn permutation(keys: &[u32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&i| (keys[i], i));
    order
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn a_batch_answered_in_any_order_gives_the_same_database(
        seed in 0..1_000u64,
        programs in 1..12u8,
        batches in prop::collection::vec(
            (2..9usize).prop_flat_map(|n| (prop::collection::vec(any::<u8>(), n), prop::collection::vec(any::<u32>(), n), 0..n)),
            1..3,
        ),
    ) {
        let mut in_plan_order = database(seed, programs);
        let mut in_arrival_order = in_plan_order.clone();
        for (scores, keys, reload_after) in &batches {
            let n = scores.len() as u32;
            let plan = in_plan_order.plan(n, &[], &[]).unwrap();
            prop_assert_eq!(&in_arrival_order.plan(n, &[], &[]).unwrap(), &plan);
            let answers = answers(&plan, scores);
            answer_in(&mut in_plan_order, &answers, &(0..answers.len()).collect::<Vec<_>>(), usize::MAX);
            answer_in(&mut in_arrival_order, &answers, &permutation(keys), *reload_after);
            prop_assert_eq!(in_arrival_order.to_json(), in_plan_order.to_json());
        }
    }

    #[test]
    fn a_run_with_held_answers_replays_from_its_events(
        scores in prop::collection::vec(any::<u8>(), 2..9),
        keys in prop::collection::vec(any::<u32>(), 8),
    ) {
        let mut db = database(3, 6);
        let plan = db.plan(scores.len() as u32, &[], &[]).unwrap();
        let answers = answers(&plan, &scores);
        answer_in(&mut db, &answers, &permutation(&keys[..scores.len()]), usize::MAX);
        let events = db.take_events();
        prop_assert_eq!(Database::replay(&events).unwrap().to_json(), db.to_json());
    }
}

#[test]
fn an_early_answer_is_held_saved_and_applied_when_its_turn_comes() {
    let mut db = database(11, 4);
    let plan = db.plan(3, &[], &[]).unwrap();
    let answers = answers(&plan, &[11, 22, 33]);
    let before = db.info().last_iteration;

    let held = db.add(answers[2].0.clone(), answers[2].1).unwrap();
    assert!(held.warnings[0].starts_with("held:"), "{:?}", held.warnings);
    assert!(held.warnings[0].contains(&format!("`{}`, `{}` are answered", plan.items[0].name, plan.items[1].name)));
    assert_eq!(db.info().last_iteration, before, "nothing applied yet");
    assert!(db.to_json().contains("\"held\""), "the held answer is saved with the database");
    let again = db.add(answers[2].0.clone(), answers[2].1).unwrap();
    assert_eq!(again.id, held.id, "a retry of a held answer is answered again");
    let other = db.add(answers[1].0.clone(), answers[1].1).unwrap();
    assert!(other.warnings[0].contains(&format!("once `{}` is answered", plan.items[0].name)));
    let changed = AddRequest { changes: "something else".into(), ..answers[2].0.clone() };
    assert!(db.add(changed, 0.0).unwrap_err().to_string().contains("already answered"));

    let events_before = db.take_events().len();
    assert!(events_before > 0);
    let first = db.add(answers[0].0.clone(), answers[0].1).unwrap();
    assert_eq!(
        first.warnings,
        [format!("also applied the answers held for `{}`, `{}`", plan.items[1].name, plan.items[2].name)]
    );
    assert_eq!(first.last_iteration, before + 3, "the answer reports the database after the held ones too");
    assert_eq!(db.info().last_iteration, before + 3, "all three applied, in plan order");
    let released: Vec<bool> = db
        .take_events()
        .iter()
        .filter_map(|e| match e {
            Event::Added { released, .. } | Event::Status { released, .. } | Event::Cached { released, .. } => {
                Some(*released)
            }
            _ => None,
        })
        .collect();
    assert_eq!(released, [false, true, true]);
    assert!(!db.to_json().contains("\"held\""));
}

#[test]
fn a_new_plan_applies_what_is_still_held() {
    let mut db = database(5, 4);
    let plan = db.plan(3, &[], &[]).unwrap();
    let answers = answers(&plan, &[11, 22, 33]);
    let before = db.info().last_iteration;
    db.add(answers[1].0.clone(), answers[1].1).unwrap();
    db.add(answers[2].0.clone(), answers[2].1).unwrap();
    assert_eq!(db.info().last_iteration, before);
    // Item 0's worker never answers: the next batch does not wait for it.
    db.plan(2, &[], &[]).unwrap();
    assert_eq!(db.info().last_iteration, before + 2);
    // Item 0 can still be answered; it applies at once.
    db.add(answers[0].0.clone(), answers[0].1).unwrap();
    assert_eq!(db.info().last_iteration, before + 3);
}

/// A store that keeps a snapshot re-runs the lines after it (`catch_up`). A plan writes the
/// answers it still held (`released`) before its own `planned` line; catching up through held
/// answers, a plan that releases them and a late answer rebuilds the database byte for byte.
#[test]
fn a_snapshot_catches_up_through_held_and_released_answers() {
    let snapshot = database(5, 4).to_json();
    let mut live = Database::from_json(&snapshot).unwrap();
    live.record_events(true);
    let plan = live.plan(3, &[], &[]).unwrap();
    let answers = answers(&plan, &[11, 22, 33]);
    live.add(answers[1].0.clone(), answers[1].1).unwrap();
    live.add(answers[2].0.clone(), answers[2].1).unwrap();
    live.plan(2, &[], &[]).unwrap();
    live.add(answers[0].0.clone(), answers[0].1).unwrap();
    let lines: String = live.take_events().iter().map(|e| evodb_core::json_text::to_compact_js(e) + "\n").collect();
    let released = lines.find(r#""released":true"#).expect("the second plan released held answers");
    assert!(lines[released..].contains(r#"{"event":"planned""#), "a released answer precedes its plan: {lines}");

    let mut again = Database::from_json(&snapshot).unwrap();
    again.catch_up(&lines).expect("the lines re-run");
    assert_eq!(again.to_json(), live.to_json());

    // Lines the snapshot already reflects are refused by name, not re-applied or looped over.
    let mut ahead = Database::from_json(&live.to_json()).unwrap();
    let err = ahead.catch_up(&lines).unwrap_err().to_string();
    assert!(err.contains("pending event"), "{err}");
}
