//! In-flight-aware sampling measured: best fitness after N evaluations when K workers sample
//! before any of them answers, with `pending` at `ignore` (the seed's) and at `aware`, over
//! several seeds, on the demo's synthetic landscape. A bench that prints a table, not a test.
//!
//! `cargo run --release -p evodb-core --example in_flight [-- EVALUATIONS SEEDS]`
//!
//! Each worker holds one sample; the oldest answers first (its candidate is evaluated and added),
//! then samples again, so K samples are always out. K = 1 is the sequential loop.

use std::collections::VecDeque;

use evodb_core::simulation::{CLOCK_STEP, Landscape, Mutator, START_CLOCK, seed_request};
use evodb_core::{Config, Database};

fn run(config: &str, seed: u64, workers: usize, evaluations: u64, landscape: &Landscape) -> (f64, f64) {
    let config = Config::from_json(config).expect("a valid config");
    let mut db = Database::new(config, seed).expect("a database");
    db.add(seed_request(landscape), START_CLOCK).expect("the seed program");
    let mut mutator = Mutator::new(seed);
    let mut out: VecDeque<_> = (0..workers).map(|_| db.sample()).collect();
    let mut parents = std::collections::BTreeSet::new();
    for iteration in 1..=evaluations {
        let sample = out.pop_front().expect("K samples out");
        if let Some(parent) = &sample.parent {
            parents.insert(parent.id.to_string());
        }
        let request = mutator.candidate(landscape, &sample, iteration).expect("a parent");
        db.add(request, START_CLOCK + CLOCK_STEP * iteration as f64).expect("an add");
        out.push_back(db.sample());
    }
    let best = db.stats().best_fitness.unwrap_or(f64::NAN);
    (best, parents.len() as f64 / evaluations as f64)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let evaluations: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);
    let seeds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(12);
    let landscape = Landscape { terms: 4, ruggedness: 0.3 };
    let base = r#""numIslands": 4, "maxIslandSize": 25"#;
    println!(
        "Best fitness after {evaluations} evaluations with K workers out at once, mean over {seeds} seeds \
         (distinct parents per evaluation in brackets); landscape terms 4, ruggedness 0.3; 4 islands × 25.\n"
    );
    println!("| sampling | K | `pending: ignore` (seed) | `pending: aware` | aware − ignore |");
    println!("|---|---|---|---|---|");
    for (name, extra) in [("seed's (exploration ratio)", ""), ("four operators", r#", "operators": {}"#)] {
        for workers in [1usize, 4, 16] {
            let mut cells = Vec::new();
            for pending in ["ignore", "aware"] {
                let config = format!(r#"{{{base}{extra}, "pending": "{pending}"}}"#);
                let (mut best, mut spread) = (0.0, 0.0);
                for seed in 1..=seeds {
                    let (b, s) = run(&config, seed, workers, evaluations, &landscape);
                    best += b / seeds as f64;
                    spread += s / seeds as f64;
                }
                cells.push((best, spread));
            }
            println!(
                "| {name} | {workers} | {:.4} ({:.2}) | {:.4} ({:.2}) | {:+.4} |",
                cells[0].0,
                cells[0].1,
                cells[1].0,
                cells[1].1,
                cells[1].0 - cells[0].0
            );
        }
    }
}
