//! A self-contained evolution with no LLM: the population engine drives a synthetic problem
//! (fit a polynomial's coefficients), with a built-in mutator and evaluator, printing the seed
//! skill's progress lines and writing `evolve-output/database/database.json`.
//!
//! `cargo run --release -p evodb-core --example demo [-- --iterations 60 --seed 7 --out evolve-output]`

use std::fs;
use std::path::{Path, PathBuf};

use evodb_core::json_text::to_compact_js;
use evodb_core::{AddRequest, Config, Database, Metrics};

/// The hidden target: the evaluator scores how close a candidate's coefficients come to it.
const TARGET: [f64; 4] = [3.0, -2.0, 0.5, 1.25];

fn main() {
    let options = Options::from_args();
    let database_dir = options.out.join("database");
    let candidates_dir = options.out.join("candidates");
    fs::create_dir_all(&database_dir).and_then(|_| fs::create_dir_all(&candidates_dir)).unwrap_or_else(|e| {
        eprintln!("cannot create {}: {e}", options.out.display());
        std::process::exit(1);
    });

    let mut db = Database::new(Config::default(), options.seed).expect("default config is valid");
    let mut mutator = Mutator(options.seed ^ 0x5EED);
    let mut clock = 1_700_000_000.0;

    let seed_coefficients = [0.0; 4];
    let seed_code = render(&seed_coefficients);
    let seed_path = write_candidate(&candidates_dir, 0, &seed_code);
    let baseline = evaluate(&seed_coefficients);
    let seed = db.add(AddRequest::seed(seed_path, seed_code, baseline.clone()), clock).expect("seed program");
    println!("Seeded {} | {}", seed.id, format_metrics(&baseline));

    for i in 1..=options.iterations {
        clock += 1.5;
        let sample = db.sample();
        let parent = sample.parent.expect("the database holds the seed program");
        let mut coefficients = parse(&parent.target_code);
        let changes = mutator.mutate(&mut coefficients, sample.inspirations.len());
        let code = render(&coefficients);
        let metrics = evaluate(&coefficients);
        let request = AddRequest {
            id: None,
            code_path: write_candidate(&candidates_dir, i, &code),
            target_code: code,
            parent_id: parent.id,
            metrics: metrics.clone(),
            changes: changes.clone(),
            island: None,
        };
        let outcome = db.add(request, clock).expect("candidate is valid");
        println!(
            "Iteration {i}/{} | {} | best: {}",
            options.iterations,
            format_metrics(&metrics),
            format_score(db.fitness(&outcome.best_program_id).unwrap_or(0.0))
        );
        println!("  Δ {changes}");
    }

    let best = db.best().expect("non-empty database");
    let (before, after) = (db.fitness(&seed.id).unwrap_or(mean(&baseline)), mean(&best.metrics));
    println!("\nEvolution complete.");
    println!("Baseline: {}", to_compact_js(&baseline));
    println!("Best:     {} (iteration {})", to_compact_js(&best.metrics), best.iteration_found);
    println!("Improvement: {:+.0}%", if before > 0.0 { (after - before) / before * 100.0 } else { 0.0 });
    println!("Strategy that worked best: {}", best.changes);

    let path = database_dir.join("database.json");
    write_atomically(&path, &db.to_json());
    println!("\nDatabase: {} ({} programs)", path.display(), db.len());
}

struct Options {
    iterations: u64,
    seed: u64,
    out: PathBuf,
}

impl Options {
    fn from_args() -> Options {
        let mut options = Options { iterations: 60, seed: 7, out: PathBuf::from("evolve-output") };
        let mut args = std::env::args().skip(1);
        while let Some(flag) = args.next() {
            let value = args.next().unwrap_or_default();
            let bad = |what: &str| -> ! {
                eprintln!("{flag}: expected {what}, got `{value}`");
                std::process::exit(2);
            };
            match flag.as_str() {
                "--iterations" => options.iterations = value.parse().unwrap_or_else(|_| bad("a number")),
                "--seed" => options.seed = value.parse().unwrap_or_else(|_| bad("a number")),
                "--out" => options.out = PathBuf::from(value),
                _ => bad("one of --iterations, --seed, --out"),
            }
        }
        options
    }
}

/// The evaluator: two metrics in [0, 1], like the skill's benchmark and judge scores.
fn evaluate(coefficients: &[f64; 4]) -> Metrics {
    let poly = |c: &[f64; 4], x: f64| c.iter().rev().fold(0.0, |acc, k| acc * x + k);
    let errors: Vec<f64> = (0..=10)
        .map(|i| {
            let x = f64::from(i) / 5.0 - 1.0;
            (poly(coefficients, x) - poly(&TARGET, x)).abs()
        })
        .collect();
    let mean_square = errors.iter().map(|e| e * e).sum::<f64>() / errors.len() as f64;
    let worst = errors.iter().copied().fold(0.0, f64::max);
    let accuracy = 1.0 / (1.0 + mean_square);
    let worst_case = 1.0 / (1.0 + worst);
    Metrics::new([("accuracy", round3(accuracy)), ("worst-case", round3(worst_case))]).expect("finite scores")
}

/// The seed's fitness: the mean of the metrics.
fn mean(metrics: &Metrics) -> f64 {
    metrics.iter().map(|(_, v)| v).sum::<f64>() / metrics.len().max(1) as f64
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The mutator: nudges one coefficient; the step shrinks as the parent improves.
struct Mutator(u64);

impl Mutator {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn mutate(&mut self, coefficients: &mut [f64; 4], inspirations: usize) -> String {
        let index = (self.next() % 4) as usize;
        let step = [0.25, 0.5, 1.0][(self.next() % 3) as usize];
        let delta = if self.next().is_multiple_of(2) { step } else { -step };
        coefficients[index] += delta;
        format!("adjusted coefficient c{index} by {delta:+} (with {inspirations} inspirations in view)")
    }
}

fn render(coefficients: &[f64; 4]) -> String {
    let terms: Vec<String> = coefficients.iter().enumerate().map(|(i, c)| format!("{c} * x**{i}")).collect();
    format!("def f(x):\n    return {}\n", terms.join(" + "))
}

fn parse(code: &str) -> [f64; 4] {
    let body = code.split("return ").nth(1).unwrap_or_default();
    let mut coefficients = [0.0; 4];
    for (slot, term) in coefficients.iter_mut().zip(body.split(" + ")) {
        *slot = term.split(" * ").next().and_then(|c| c.trim().parse().ok()).unwrap_or(0.0);
    }
    coefficients
}

fn format_metrics(metrics: &Metrics) -> String {
    metrics.iter().map(|(name, value)| format!("{name}: {}", format_score(value))).collect::<Vec<_>>().join(" | ")
}

fn format_score(value: f64) -> String {
    format!("{value:.3}")
}

fn write_candidate(dir: &Path, iteration: u64, code: &str) -> String {
    let path = dir.join(format!("iteration_{iteration}.py"));
    fs::write(&path, code).expect("write candidate");
    fs::canonicalize(&path).unwrap_or(path).display().to_string()
}

/// Temp file in the same directory, then rename: a reader sees the old or the new file.
fn write_atomically(path: &Path, text: &str) {
    let tmp = path.with_extension("json.tmp");
    fs::write(&tmp, text).and_then(|_| fs::rename(&tmp, path)).expect("write database.json");
}
