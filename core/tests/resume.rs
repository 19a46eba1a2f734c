//! Determinism: stopping, saving, reloading and continuing is indistinguishable from never
//! stopping — the PRNG state travels in the file.

use evodb_core::{AddRequest, Config, Database, InspirationScope, Metrics, MigrationMode, Placement};

/// A small loop like the skill's: sample, mutate the parent, add. Returns every result as JSON.
fn run_ops(db: &mut Database, ops: std::ops::Range<u64>) -> Vec<String> {
    let mut log = Vec::new();
    for op in ops {
        // op 0 seeds; then every third op is a bare sample, the rest sample-then-add.
        let sample = db.sample();
        log.push(serde_json::to_string(&sample).unwrap());
        if op % 3 == 1 {
            continue;
        }
        let parent = sample.parent.map_or_else(|| "0".into(), |p| p.id.to_string());
        let score = ((op * 7919) % 101) as f64 / 100.0;
        let request = AddRequest {
            id: None,
            code_path: format!("/run/candidates/iteration_{op}.py"),
            target_code: format!("def f():\n    return {}\n", op % 17),
            parent_id: parent,
            metrics: Metrics::new([("score", score), ("speed", 1.0 - score / 2.0)]).unwrap(),
            changes: format!("change {op}"),
            island: None,
            ..AddRequest::seed("", "", Metrics::default())
        };
        log.push(serde_json::to_string(&db.add(request, 1_700_000_000.0 + op as f64 * 0.25).unwrap()).unwrap());
    }
    log.push(serde_json::to_string(&db.best()).unwrap());
    log
}

fn assert_resume_is_seamless(config: Config) {
    let mut straight = Database::new(config.clone(), 2024).unwrap();
    let mut straight_log = run_ops(&mut straight, 0..100);
    straight_log.extend(run_ops(&mut straight, 100..200));

    let mut first_half = Database::new(config, 2024).unwrap();
    let mut resumed_log = run_ops(&mut first_half, 0..100);
    let saved = first_half.to_json();
    let mut resumed = Database::from_json(&saved).unwrap();
    assert_eq!(resumed.to_json(), saved, "load → save is lossless");
    resumed_log.extend(run_ops(&mut resumed, 100..200));

    assert_eq!(resumed_log, straight_log, "same results op by op");
    assert_eq!(resumed.to_json(), straight.to_json(), "byte-identical final database");
    assert!(straight.last_iteration() > 100);
}

#[test]
fn resume_with_seed_defaults() {
    assert_resume_is_seamless(Config { max_island_size: 12, ..Config::default() });
}

#[test]
fn resume_with_every_option_on() {
    assert_resume_is_seamless(Config {
        num_islands: 4,
        max_island_size: 9,
        migration_interval: 3,
        migration_rate: 0.3,
        placement: Placement::ParentIsland,
        migration: MigrationMode::Copy,
        inspiration_scope: InspirationScope::AllIslands,
        directions: [("speed".to_string(), evodb_core::Direction::Min)].into(),
        ..Config::default()
    });
}

#[test]
fn different_seeds_give_different_runs() {
    let config = Config::default();
    let mut a = Database::new(config.clone(), 1).unwrap();
    let mut b = Database::new(config, 2).unwrap();
    assert_ne!(run_ops(&mut a, 0..30), run_ops(&mut b, 0..30));
}
