//! `evodb demo`: a self-contained evolution with no LLM, through the real component. The core's
//! synthetic problem (`evodb_core::simulation`: fit a polynomial's coefficients) stands in for the
//! LLM and the benchmark — the same one the playground simulates, so the same seed, config and
//! landscape give the same population in both; every step is a `store` call on `<out>/database`, exactly as a
//! skill's separate `evodb sample` / `evodb add` processes make them. The clock is synthetic, so
//! the same seed and iteration count give the same `database.json`, byte for byte. Run it again
//! on the same `--out` and it resumes where the last run stopped.

use std::fs;
use std::path::{Path, PathBuf};

use clap::ArgMatches;

use evodb_core::Metrics;
use evodb_core::simulation::{CLOCK_STEP, CODE_PREFIX, Landscape, Mutator, START_CLOCK, seed_request};
use evodb_host::bridge as output;

use crate::context::Context;
use crate::failure::Failure;
use crate::matches::required;
use crate::reply::Reply;
use crate::session::Engine;

#[derive(Debug)]
pub struct Args {
    pub iterations: u64,
    /// `--rngSeed`: the seed of the database and of the built-in mutator.
    pub seed: u64,
    pub out: PathBuf,
    pub config: String,
    pub landscape: String,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            iterations: required(m, "iterations"),
            seed: required(m, "rngSeed"),
            out: required(m, "out"),
            config: required(m, "config"),
            landscape: required(m, "landscape"),
        }
    }

    /// The run's story, a line per step, is the reply (the demo takes well under a second).
    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        demo(ctx.engine()?, self)
    }
}

fn demo(engine: &Engine, Args { iterations, seed, out, config, landscape }: Args) -> Result<Reply, Failure> {
    let mut story: Vec<String> = Vec::new();
    let landscape: Landscape = serde_json::from_str(&landscape)
        .map_err(|e| Failure::BadInput(format!("--landscape: {e}; e.g. '{{\"terms\":4,\"ruggedness\":0.5}}'")))?;
    landscape.validate().map_err(|e| Failure::BadInput(format!("--landscape: {e}")))?;
    let database_dir = out.join("database");
    let candidates_dir = out.join("candidates");
    fs::create_dir_all(&candidates_dir)
        .map_err(|e| Failure::Io(format!("cannot create `{}`: {e}", candidates_dir.display())))?;
    let mut session = engine.open_to_create(&database_dir)?;
    let mut mutator = Mutator::new(seed);

    let info = session.info()?;
    let first = if info.is_empty {
        session.init(&config, seed)?;
        let mut request = seed_request(&landscape);
        request.code_path = write_candidate(&candidates_dir, 0, &request.target_code)?;
        let metrics = request.metrics.clone();
        let seeded = session.add(request, START_CLOCK)?;
        story.push(format!("Seeded {} | {}", seeded.id, format_metrics(&metrics)));
        1
    } else {
        // The best program, not the initial program: pruning may have deleted the latter.
        let best = session.best(None)?;
        if !best.is_some_and(|best| best.target_code.starts_with(CODE_PREFIX)) {
            return Err(Failure::BadInput(format!(
                "`{}` holds a run that is not the demo's; pass --out <another directory>",
                database_dir.display()
            )));
        }
        story.push(format!("Resuming {} at iteration {}", database_dir.display(), info.last_iteration));
        info.last_iteration
    };

    let last = first + iterations.saturating_sub(1);
    for i in first..=last {
        let clock = START_CLOCK + CLOCK_STEP * i as f64;
        let sample = session.sample()?;
        let mut request = mutator
            .candidate(&landscape, &sample, i)
            .ok_or_else(|| Failure::Internal("the demo database lost its programs".into()))?;
        request.code_path = write_candidate(&candidates_dir, i, &request.target_code)?;
        let (metrics, changes) = (request.metrics.clone(), request.changes.clone());
        let outcome = session.add(request, clock)?;
        story.push(format!(
            "Iteration {}/{} | {} | best: {:.3}",
            i - first + 1,
            iterations,
            format_metrics(&metrics),
            outcome.best_metrics.as_ref().map_or(0.0, mean)
        ));
        story.push(format!("  Δ {changes}"));
    }

    let stats = session.stats()?;
    let best = session.best(None)?;
    story.push("\nEvolution complete.".into());
    if let (Some(baseline), Some(best_fitness)) = (stats.baseline_fitness, stats.best_fitness) {
        let percent = if baseline > 0.0 { (best_fitness - baseline) / baseline * 100.0 } else { 0.0 };
        story.push(format!("Baseline → best fitness: {baseline:.3} → {best_fitness:.3} ({percent:+.0}%)"));
    }
    if let Some(best) = best {
        story.push(format!(
            "Best: {} (iteration {}, id {})",
            output::json(&best.metrics),
            best.iteration_found,
            best.id
        ));
        story.push(format!("Strategy that worked best: {}", best.changes));
    }
    story.push(format!(
        "Database: {} ({} programs)",
        database_dir.join("database.json").display(),
        stats.program_count
    ));
    let me = std::env::args().next().unwrap_or_else(|| "evodb".into());
    story.push(format!("Next: {me} info {}", database_dir.display()));
    Ok(Reply::from(story.join("\n")))
}

/// The seed's fitness: the mean of the metrics.
fn mean(metrics: &Metrics) -> f64 {
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
