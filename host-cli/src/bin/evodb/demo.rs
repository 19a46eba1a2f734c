//! `evodb demo`: a self-contained evolution with no LLM, through the real component. The core's
//! synthetic problem (`evodb_core::simulation`: fit a polynomial's coefficients) stands in for the
//! LLM and the benchmark — the same one the playground simulates, so the same seed, config and
//! landscape give the same population in both; every step is a `store` call on `<out>/database`, exactly as a
//! skill's separate `evodb sample` / `evodb add` processes make them. The clock is synthetic, so
//! the same seed and iteration count give the same `database.json`, byte for byte. Run it again
//! on the same `--out` and it resumes where the last run stopped.

use std::fs;
use std::path::Path;

use evodb_core::simulation::{CLOCK_STEP, CODE_PREFIX, Landscape, Mutator, START_CLOCK, seed_request};
use evodb_core::{BestProgram, Metrics, Sample};
use evodb_host::views as output;
use evodb_host::{Access, population as wit};

use crate::args::DemoArgs;
use crate::commands::Printed;
use crate::failure::Failure;

use crate::session::{Runtime, ok};

pub fn run(runtime: &Runtime, args: DemoArgs) -> Result<Printed, Failure> {
    let DemoArgs { iterations, seed, out, config, landscape } = args;
    let landscape: Landscape = serde_json::from_str(&landscape)
        .map_err(|e| Failure::BadInput(format!("--landscape: {e}; e.g. '{{\"terms\":4,\"ruggedness\":0.5}}'")))?;
    landscape.validate().map_err(|e| Failure::BadInput(format!("--landscape: {e}")))?;
    let database_dir = out.join("database");
    let candidates_dir = out.join("candidates");
    fs::create_dir_all(&candidates_dir)
        .map_err(|e| Failure::Io(format!("cannot create `{}`: {e}", candidates_dir.display())))?;
    let mut session = runtime.open(&database_dir, Access::Write)?;
    let mut mutator = Mutator::new(seed);

    let info = session.read(|m, st, db| ok(m.call_info(st, db)))?;
    let first = if info.is_empty {
        session.init(&config, seed)?;
        let mut request = seed_request(&landscape);
        request.code_path = write_candidate(&candidates_dir, 0, &request.target_code)?;
        let metrics = request.metrics.clone();
        let request: wit::AddRequest = output::wit(request);
        let seeded = session.write(|m, st, db| m.call_add(st, db, &request, START_CLOCK))?;
        println!("Seeded {} | {}", seeded.id, format_metrics(&metrics));
        1
    } else {
        // The best program, not the initial program: pruning may have deleted the latter.
        let best = session.read(|m, st, db| ok(m.call_best(st, db)))?;
        if !best.is_some_and(|best| best.target_code.starts_with(CODE_PREFIX)) {
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
        let clock = START_CLOCK + CLOCK_STEP * i as f64;
        let sample: Sample = output::core(session.write(|m, st, db| ok(m.call_sample(st, db)))?);
        let mut request = mutator
            .candidate(&landscape, &sample, i)
            .ok_or_else(|| Failure::Internal("the demo database lost its programs".into()))?;
        request.code_path = write_candidate(&candidates_dir, i, &request.target_code)?;
        let (metrics, changes) = (request.metrics.clone(), request.changes.clone());
        let request: wit::AddRequest = output::wit(request);
        let outcome = session.write(|m, st, db| m.call_add(st, db, &request, clock))?;
        println!(
            "Iteration {}/{} | {} | best: {:.3}",
            i - first + 1,
            iterations,
            format_metrics(&metrics),
            outcome.best_metrics.as_ref().map_or(0.0, mean)
        );
        println!("  Δ {changes}");
    }

    let stats = session.read(|m, st, db| ok(m.call_stats(st, db)))?;
    let best = session.read(|m, st, db| ok(m.call_best(st, db)))?;
    println!("\nEvolution complete.");
    if let (Some(baseline), Some(best_fitness)) = (stats.baseline_fitness, stats.best_fitness) {
        let percent = if baseline > 0.0 { (best_fitness - baseline) / baseline * 100.0 } else { 0.0 };
        println!("Baseline → best fitness: {baseline:.3} → {best_fitness:.3} ({percent:+.0}%)");
    }
    if let Some(best) = output::core::<_, Option<BestProgram>>(best) {
        println!("Best: {} (iteration {}, id {})", output::json(&best.metrics), best.iteration_found, best.id);
        println!("Strategy that worked best: {}", best.changes);
    }
    println!("Database: {} ({} programs)", database_dir.join("database.json").display(), stats.program_count);
    let me = std::env::args().next().unwrap_or_else(|| "evodb".into());
    println!("Next: {me} info {}", database_dir.display());
    Ok(Printed { stdout: String::new(), warnings: Vec::new() })
}

/// The seed's fitness: the mean of the metrics.
fn mean(metrics: &wit::Metrics) -> f64 {
    metrics.iter().map(|(_, v)| v).sum::<f64>() / metrics.len().max(1) as f64
}

fn format_metrics(metrics: &Metrics) -> String {
    metrics.iter().map(|(name, value)| format!("{name}: {value:.3}")).collect::<Vec<_>>().join(" | ")
}

fn write_candidate(dir: &Path, iteration: u64, code: &str) -> Result<String, Failure> {
    let path = dir.join(format!("iteration_{iteration}.py"));
    fs::write(&path, code).map_err(|e| Failure::Io(format!("cannot write `{}`: {e}", path.display())))?;
    Ok(fs::canonicalize(&path).unwrap_or(path).display().to_string())
}
