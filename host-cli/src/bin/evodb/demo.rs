//! `evodb demo`: a self-contained evolution with no LLM, through the real component. A built-in
//! mutator and evaluator stand in for the LLM and the benchmark on a synthetic problem (fit a
//! polynomial's coefficients); every step is a `store` call on `<out>/database`, exactly as a
//! skill's separate `evodb sample` / `evodb add` processes make them. The clock is synthetic, so
//! the same seed and iteration count give the same `database.json`, byte for byte. Run it again
//! on the same `--out` and it resumes where the last run stopped.

use std::fs;
use std::path::Path;

use evodb_host::views as output;
use evodb_host::{Access, population as wit};

use crate::args::DemoArgs;
use crate::commands::Printed;
use crate::failure::Failure;

use crate::session::Runtime;

/// The hidden target: the evaluator scores how close a candidate's coefficients come to it.
const TARGET: [f64; 4] = [3.0, -2.0, 0.5, 1.25];
const START_CLOCK: f64 = 1_700_000_000.0;
const CODE_PREFIX: &str = "def f(x):";

pub fn run(runtime: &Runtime, args: DemoArgs) -> Result<Printed, Failure> {
    let DemoArgs { iterations, seed, out } = args;
    let database_dir = out.join("database");
    let candidates_dir = out.join("candidates");
    fs::create_dir_all(&candidates_dir)
        .map_err(|e| Failure::Io(format!("cannot create `{}`: {e}", candidates_dir.display())))?;
    let mut session = runtime.open(&database_dir, Access::Write)?;
    let mut mutator = Mutator(seed ^ 0x5EED);

    let info = session.call(|s, st, dir| s.call_info(st, dir))?;
    let first = if info.is_empty {
        session.call(|s, st, dir| s.call_init(st, dir, "{}", seed, START_CLOCK))?;
        let coefficients = [0.0; 4];
        let code = render(&coefficients);
        let metrics = evaluate(&coefficients);
        let request = wit::AddRequest {
            id: None,
            code_path: write_candidate(&candidates_dir, 0, &code)?,
            target_code: code,
            parent_id: Some(evodb_core::ROOT_PARENT_ID.into()),
            metrics: metrics.clone(),
            changes: Some("initial implementation".into()),
            island: None,
            status: None,
            reason: None,
            operator: None,
            plan_item: None,
        };
        let seeded = session.call(|s, st, dir| s.call_add(st, dir, &request, START_CLOCK))?;
        println!("Seeded {} | {}", seeded.id, format_metrics(&metrics));
        1
    } else {
        if !info.seed_target_code.as_deref().unwrap_or_default().starts_with(CODE_PREFIX) {
            return Err(Failure::BadInput(format!(
                "`{}` holds a run that is not the demo's; pass --out <another directory>",
                database_dir.display()
            )));
        }
        println!("Resuming {} at iteration {}", database_dir.display(), info.last_iteration);
        info.last_iteration
    };

    let last = first + iterations.saturating_sub(1);
    for i in first..=last {
        let clock = START_CLOCK + 1.5 * i as f64;
        let sample = session.call(|s, st, dir| s.call_sample(st, dir, clock))?;
        let parent = sample.parent.ok_or_else(|| Failure::Internal("the demo database lost its programs".into()))?;
        let mut coefficients = parse(&parent.target_code);
        let changes = mutator.mutate(&mut coefficients, sample.inspirations.len());
        let code = render(&coefficients);
        let metrics = evaluate(&coefficients);
        let request = wit::AddRequest {
            id: None,
            code_path: write_candidate(&candidates_dir, i, &code)?,
            target_code: code,
            parent_id: Some(parent.id),
            metrics: metrics.clone(),
            changes: Some(changes.clone()),
            island: None,
            status: None,
            reason: None,
            operator: None,
            plan_item: None,
        };
        let outcome = session.call(|s, st, dir| s.call_add(st, dir, &request, clock))?;
        println!(
            "Iteration {}/{} | {} | best: {:.3}",
            i - first + 1,
            iterations,
            format_metrics(&metrics),
            outcome.best_metrics.as_ref().map_or(0.0, mean)
        );
        println!("  Δ {changes}");
    }

    let stats = session.call(|s, st, dir| s.call_stats(st, dir))?;
    let best = session.call(|s, st, dir| s.call_best(st, dir))?;
    println!("\nEvolution complete.");
    if let (Some(baseline), Some(best_fitness)) = (stats.baseline_fitness, stats.best_fitness) {
        let percent = if baseline > 0.0 { (best_fitness - baseline) / baseline * 100.0 } else { 0.0 };
        println!("Baseline → best fitness: {baseline:.3} → {best_fitness:.3} ({percent:+.0}%)");
    }
    if let Some(best) = output::best(best) {
        println!("Best: {} (iteration {}, id {})", output::json(&best.metrics), best.iteration_found, best.id);
        println!("Strategy that worked best: {}", best.changes);
    }
    println!("Database: {} ({} programs)", database_dir.join("database.json").display(), stats.program_count);
    let me = std::env::args().next().unwrap_or_else(|| "evodb".into());
    println!("Next: {me} info {}", database_dir.display());
    Ok(Printed { stdout: String::new(), warnings: Vec::new() })
}

/// The evaluator: two metrics in [0, 1], like the skill's benchmark and judge scores.
fn evaluate(coefficients: &[f64; 4]) -> wit::Metrics {
    let poly = |c: &[f64; 4], x: f64| c.iter().rev().fold(0.0, |acc, k| acc * x + k);
    let errors: Vec<f64> = (0..=10)
        .map(|i| {
            let x = f64::from(i) / 5.0 - 1.0;
            (poly(coefficients, x) - poly(&TARGET, x)).abs()
        })
        .collect();
    let mean_square = errors.iter().map(|e| e * e).sum::<f64>() / errors.len() as f64;
    let worst = errors.iter().copied().fold(0.0, f64::max);
    vec![("accuracy".into(), round3(1.0 / (1.0 + mean_square))), ("worst-case".into(), round3(1.0 / (1.0 + worst)))]
}

/// The seed's fitness: the mean of the metrics.
fn mean(metrics: &wit::Metrics) -> f64 {
    metrics.iter().map(|(_, v)| v).sum::<f64>() / metrics.len().max(1) as f64
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The stand-in for the LLM: nudges one coefficient by a random step.
struct Mutator(u64);

impl Mutator {
    /// PCG-style LCG step; the demo's own stream, independent of the database's PRNG.
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
    format!("{CODE_PREFIX}\n    return {}\n", terms.join(" + "))
}

fn parse(code: &str) -> [f64; 4] {
    let body = code.split("return ").nth(1).unwrap_or_default();
    let mut coefficients = [0.0; 4];
    for (slot, term) in coefficients.iter_mut().zip(body.split(" + ")) {
        *slot = term.split(" * ").next().and_then(|c| c.trim().parse().ok()).unwrap_or(0.0);
    }
    coefficients
}

fn format_metrics(metrics: &wit::Metrics) -> String {
    metrics.iter().map(|(name, value)| format!("{name}: {value:.3}")).collect::<Vec<_>>().join(" | ")
}

fn write_candidate(dir: &Path, iteration: u64, code: &str) -> Result<String, Failure> {
    let path = dir.join(format!("iteration_{iteration}.py"));
    fs::write(&path, code).map_err(|e| Failure::Io(format!("cannot write `{}`: {e}", path.display())))?;
    Ok(fs::canonicalize(&path).unwrap_or(path).display().to_string())
}
