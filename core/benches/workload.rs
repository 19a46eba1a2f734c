//! The workload shared by the criterion bench and the quick bench runner.

use evodb_core::{AddRequest, Config, Database, Metrics};

/// The seed's layout (3 islands) with capacity grown so the islands hold `population` programs.
pub fn database_of(population: usize) -> Database {
    let config = Config { max_island_size: population.div_ceil(3) as u32, ..Config::default() };
    filled(config, population)
}

/// The same with the AlphaEvolve strategy's engine on: MAP-Elites cells (speed in 10 bins × code size × island),
/// crowded-cell eviction, the elite archive and the four operators; with the seed's ring
/// migration, or with islands kept apart (`migrate` false).
pub fn map_elites_database_of(population: usize, migrate: bool) -> Database {
    let interval = if migrate { 10 } else { u64::MAX };
    let config = Config::from_json(&format!(
        r#"{{"maxIslandSize": {}, "migrationInterval": {interval}, "operators": {{}}, "features": [
            {{"kind": "metric", "metric": "speed", "min": 0, "max": 1, "bins": 10}},
            {{"kind": "codeLines", "thresholds": [2, 4]}}, {{"kind": "island"}}]}}"#,
        population.div_ceil(3)
    ))
    .unwrap();
    filled(config, population)
}

/// Two objectives that trade off only partly (speed and accuracy from independent hashes), in
/// `mode` (`scalar` or `pareto`): the same programs, ranked by the mean or by the first front.
#[allow(dead_code)]
pub fn objectives_database_of(population: usize, mode: &str) -> Database {
    let selection = match mode {
        "scalar" => String::new(),
        _ => format!(r#", "selection": {{"mode": "{mode}", "objectives": ["speed", "accuracy"]}}"#),
    };
    let config = Config::from_json(&format!(r#"{{"maxIslandSize": {}{selection}}}"#, population.div_ceil(3))).unwrap();
    let mut db = Database::new(config, 1).unwrap();
    for i in 0..population {
        db.add(objectives_request(i, "0"), i as f64).unwrap();
    }
    db
}

/// A candidate measured on speed and accuracy.
#[allow(dead_code)]
pub fn objectives_request(i: usize, parent: &str) -> AddRequest {
    let hash = |salt: u64| ((i as u64 ^ salt).wrapping_mul(2_654_435_761) % 10_000) as f64 / 10_000.0;
    let metrics = Metrics::new([("speed", hash(0)), ("accuracy", hash(0x9e37_79b9))]).unwrap();
    AddRequest { metrics, ..request(i, parent) }
}

/// Per-instance scores (`selection.mode` `instances` or `scalar`, issue 42): each candidate scored
/// on `INSTANCES` tests (pass 1, fail 0, from a hash: about a third pass), its score the mean.
/// Events are recorded, as every CLI and playground run records them.
#[allow(dead_code)]
pub fn instances_database_of(population: usize, mode: &str) -> Database {
    let config = Config::from_json(&format!(
        r#"{{"maxIslandSize": {}, "selection": {{"mode": "{mode}"}}}}"#,
        population.div_ceil(3)
    ))
    .unwrap();
    let mut db = Database::new(config, 1).unwrap();
    db.record_events(true);
    for i in 0..population {
        db.add(instances_request(i, "0"), i as f64).unwrap();
        db.take_events();
    }
    db
}

/// How many tests `instances_request` scores.
#[allow(dead_code)]
pub const INSTANCES: usize = 50;

#[allow(dead_code)]
pub fn instances_request(i: usize, parent: &str) -> AddRequest {
    let pass = |t: usize| (i as u64 * 31 + t as u64).wrapping_mul(2_654_435_761).is_multiple_of(3) as u8 as f64;
    let scores = Metrics::new((0..INSTANCES).map(|t| (format!("test_{t}"), pass(t)))).unwrap();
    let mean = (0..INSTANCES).map(pass).sum::<f64>() / INSTANCES as f64;
    AddRequest { metrics: Metrics::new([("score", mean)]).unwrap(), instance_scores: scores, ..request(i, parent) }
}

fn filled(config: Config, population: usize) -> Database {
    let mut db = Database::new(config, 1).unwrap();
    for i in 0..population {
        db.add(request(i, "0"), i as f64).unwrap();
    }
    db
}

pub fn request(i: usize, parent: &str) -> AddRequest {
    let score = ((i as u64).wrapping_mul(2_654_435_761) % 10_000) as f64 / 10_000.0;
    AddRequest {
        id: None,
        code_path: format!("/run/candidates/iteration_{i}.py"),
        target_code: format!("def f(x):\n{}    return x * {i}\n", "    x += 1\n".repeat(i % 5)),
        parent_id: parent.to_string(),
        metrics: Metrics::new([("score", score), ("speed", 1.0 - score)]).unwrap(),
        changes: "mutated".to_string(),
        island: None,
        ..AddRequest::seed("", "", Metrics::default())
    }
}
