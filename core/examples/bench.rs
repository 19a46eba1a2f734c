//! Quick speed check: one JSON line per population size with the cost of one `add` followed by
//! one `sample`, at steady state (islands full, so every add also prunes).
//!
//! `cargo run --release -p evodb-core --example bench [-- 120 1000]`; with `--objectives`, scalar
//! beside pareto selection on the same speed/accuracy programs, and their ratio; with
//! `--instances`, scalar beside the `instances` selection on programs scored on 50 tests each.
//!
//! Population N is the total island capacity (3 islands × N/3, so N = 120 is the seed's
//! default); `live_programs` is how many distinct programs that holds once migration has shared
//! the best ones between islands.

use std::hint::black_box;

use evodb_core::{AddRequest, Database};

/// A workload's candidate `i` with its parent.
type Request = fn(usize, &str) -> AddRequest;
/// A workload's database of `population` programs in a selection mode.
type Filled = fn(usize, &str) -> Database;
use std::time::Instant;

#[path = "../benches/workload.rs"]
mod workload;

use workload::{
    database_of, instances_database_of, instances_request, map_elites_database_of, objectives_database_of,
    objectives_request, request,
};

fn main() {
    let objectives = std::env::args().any(|a| a == "--objectives");
    let sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    // Several objectives (issue 42): the same programs ranked by the mean, then by the pareto
    // front (`--objectives`) or by the instance front of their per-test scores (`--instances`,
    // events recorded, as the CLI records them).
    let modes: Option<(&str, Filled, Request)> = if std::env::args().any(|a| a == "--instances") {
        Some(("instances", instances_database_of, instances_request))
    } else if objectives {
        Some(("pareto", objectives_database_of, objectives_request))
    } else {
        None
    };
    if let Some((mode, database_of, request)) = modes {
        for &population in &if sizes.is_empty() { vec![120, 1_000, 10_000] } else { sizes } {
            let scalar = time(population, database_of(population, "scalar"), request);
            let other = time(population, database_of(population, mode), request);
            println!(
                "{{\"population\":{population},\"scalar_us\":{scalar:.3},\"{mode}_us\":{other:.3},\"ratio\":{:.2}}}",
                other / scalar
            );
        }
        return;
    }
    let sizes = if sizes.is_empty() { vec![120, 1_000, 10_000, 100_000] } else { sizes };
    for &population in &sizes {
        run("seed", population, database_of(population));
    }
    // The AlphaEvolve strategy's engine: cells, crowded-cell eviction, the archive, the four operators.
    for &population in sizes.iter().filter(|&&n| n >= 10_000) {
        run("mapElites", population, map_elites_database_of(population, true));
        run("mapElitesNoMigration", population, map_elites_database_of(population, false));
    }
}

/// Microseconds per add + sample at steady state.
fn time(population: usize, mut db: Database, request: Request) -> f64 {
    let ops = 20_000;
    let start = Instant::now();
    let mut parent: std::sync::Arc<str> = "0".into();
    for i in 0..ops {
        db.add(request(population + i, &parent), (population + i) as f64).unwrap();
        parent = black_box(db.sample()).parent.map(|p| p.id).unwrap_or_default();
        drop(black_box(db.take_events()));
    }
    start.elapsed().as_secs_f64() * 1e6 / ops as f64
}

fn run(engine: &str, population: usize, mut db: evodb_core::Database) {
    {
        let ops = 20_000;
        let start = Instant::now();
        let mut parent: std::sync::Arc<str> = "0".into();
        for i in 0..ops {
            db.add(request(population + i, &parent), (population + i) as f64).unwrap();
            let sample = black_box(db.sample());
            parent = sample.parent.map(|p| p.id).unwrap_or_default();
        }
        let micros = start.elapsed().as_secs_f64() * 1e6 / ops as f64;
        println!(
            "{{\"engine\":\"{engine}\",\"population\":{population},\"live_programs\":{},\"add_sample_us\":{micros:.3}}}",
            db.len()
        );
    }
}
