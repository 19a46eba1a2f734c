//! WIT records → the seed CLI's JSON shapes (defined once, in `evodb_core`'s views) → one line
//! of JSON, numbers written as JavaScript writes them.

use evodb_core::json_text::to_compact_js;
use evodb_core::{
    AddOutcome, BestProgram, Info, Inspiration, IslandStats, Lineage, Metrics, Sample, SampledParent, Stats,
};
use evodb_host::population as wit;
use serde::Serialize;

pub fn json(value: &impl Serialize) -> String {
    to_compact_js(value)
}

/// Values from the component are finite by construction (the engine rejects anything else).
fn metrics(list: wit::Metrics) -> Metrics {
    Metrics::new(list).expect("the component returns finite metrics")
}

pub fn info(i: wit::DatabaseInfo) -> Info {
    Info {
        is_empty: i.is_empty,
        last_iteration: i.last_iteration,
        program_count: i.program_count as usize,
        best_program_id: i.best_program_id,
        best_metrics: i.best_metrics.map(metrics),
        seed_code_path: i.seed_code_path,
        seed_target_code: i.seed_target_code,
    }
}

/// The seed prints no warnings in its JSON; the CLI prints them on stderr.
pub fn add_outcome(o: wit::AddOutcome) -> (AddOutcome, Vec<String>) {
    let outcome = AddOutcome {
        id: o.id,
        metrics: metrics(o.metrics),
        best_program_id: o.best_program_id,
        best_metrics: metrics(o.best_metrics),
        last_iteration: o.last_iteration,
        warnings: Vec::new(),
    };
    (outcome, o.warnings)
}

pub fn sample(s: wit::SampleResult) -> Sample {
    Sample {
        parent: s.parent.map(|p| SampledParent {
            id: p.id,
            code_path: p.code_path,
            target_code: p.target_code,
            metrics: metrics(p.metrics),
            changes: p.changes,
        }),
        inspirations: s
            .inspirations
            .into_iter()
            .map(|i| Inspiration { id: i.id, metrics: metrics(i.metrics), changes: i.changes })
            .collect(),
    }
}

pub fn best(b: Option<wit::BestProgram>) -> Option<BestProgram> {
    b.map(|b| BestProgram {
        id: b.id,
        code_path: b.code_path,
        target_code: b.target_code,
        metrics: metrics(b.metrics),
        changes: b.changes,
        iteration_found: b.iteration_found,
    })
}

pub fn stats(s: wit::PopulationStats) -> Stats {
    Stats {
        program_count: s.program_count as usize,
        evaluations: s.evaluations,
        best_program_id: s.best_program_id,
        best_fitness: s.best_fitness,
        mean_fitness: s.mean_fitness,
        baseline_fitness: s.baseline_fitness,
        improvement: s.improvement,
        islands: s
            .islands
            .into_iter()
            .map(|i| IslandStats {
                island: i.island,
                size: i.size as usize,
                best_program_id: i.best_program_id,
                best_fitness: i.best_fitness,
                mean_fitness: i.mean_fitness,
            })
            .collect(),
    }
}

pub fn lineage(l: wit::Lineage) -> Lineage {
    Lineage { id: l.id, ancestors: l.ancestors, missing_ancestor: l.missing_ancestor, descendants: l.descendants }
}
