//! The adaptive operator policy measured: best fitness after N evaluations with the four
//! operators chosen by their fixed weights (0.5 / 0.3 / 0.15 / 0.05) and by UCB1 over their
//! improvement rates (`operatorPolicy: "ucb"`), over several seeds, on the demo's synthetic
//! landscape at two ruggednesses. A bench that prints a table, not a test.
//!
//! `cargo run --release -p evodb-core --example operator_policy [-- EVALUATIONS SEEDS]`

use evodb_core::simulation::{CLOCK_STEP, Landscape, Mutator, START_CLOCK, seed_request};
use evodb_core::{Config, Database, Operator};

/// Best fitness, and how many candidates each operator made.
fn run(config: &str, seed: u64, evaluations: u64, landscape: &Landscape) -> (f64, [u64; 4]) {
    let mut db = Database::new(Config::from_json(config).expect("a valid config"), seed).expect("a database");
    db.add(seed_request(landscape), START_CLOCK).expect("the seed program");
    let mut mutator = Mutator::new(seed);
    let mut used = [0u64; 4];
    for iteration in 1..=evaluations {
        let sample = db.sample();
        let index = match sample.operator {
            Some(Operator::Exploitation) => 0,
            Some(Operator::Exploration) => 1,
            Some(Operator::Crossover) => 2,
            _ => 3,
        };
        used[index] += 1;
        let request = mutator.candidate(landscape, &sample, iteration).expect("a parent");
        db.add(request, START_CLOCK + CLOCK_STEP * iteration as f64).expect("an add");
    }
    (db.stats().best_fitness.unwrap_or(f64::NAN), used)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let evaluations: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);
    let seeds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    println!(
        "Best fitness after {evaluations} evaluations, mean over {seeds} seeds, 4 islands × 25, four operators; \
         in brackets the share of candidates made by exploitation / exploration / crossover / migration.\n"
    );
    println!("| landscape | fixed weights | UCB (`operatorPolicy: ucb`) | UCB − fixed |");
    println!("|---|---|---|---|");
    for ruggedness in [0.0, 0.3, 0.6] {
        let landscape = Landscape { terms: 4, ruggedness };
        let mut cells = Vec::new();
        for policy in ["weights", "ucb"] {
            let config =
                format!(r#"{{"numIslands": 4, "maxIslandSize": 25, "operators": {{}}, "operatorPolicy": "{policy}"}}"#);
            let (mut best, mut used) = (0.0, [0u64; 4]);
            for seed in 1..=seeds {
                let (b, u) = run(&config, seed, evaluations, &landscape);
                best += b / seeds as f64;
                for (total, n) in used.iter_mut().zip(u) {
                    *total += n;
                }
            }
            let all: u64 = used.iter().sum();
            let shares: Vec<String> = used.iter().map(|n| format!("{:.2}", *n as f64 / all as f64)).collect();
            cells.push((best, shares.join(" / ")));
        }
        println!(
            "| terms 4, ruggedness {ruggedness} | {:.4} ({}) | {:.4} ({}) | {:+.4} |",
            cells[0].0,
            cells[0].1,
            cells[1].0,
            cells[1].1,
            cells[1].0 - cells[0].0
        );
    }
}
