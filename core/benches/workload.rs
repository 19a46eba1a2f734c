//! The workload shared by the criterion bench and the quick bench runner.

use evodb_core::{AddRequest, Config, Database, Metrics};

/// The seed's layout (3 islands) with capacity grown so the islands hold `population` programs.
pub fn database_of(population: usize) -> Database {
    let config = Config { max_island_size: population.div_ceil(3) as u32, ..Config::default() };
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
        target_code: format!("def f(x):\n    return x * {i}\n"),
        parent_id: parent.to_string(),
        metrics: Metrics::new([("score", score), ("speed", 1.0 - score)]).unwrap(),
        changes: "mutated".to_string(),
        island: None,
        ..AddRequest::seed("", "", Metrics::default())
    }
}
