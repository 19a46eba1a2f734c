//! WIT records → the seed CLI's JSON shapes (defined once, in `evodb_core`'s views) → one line
//! of JSON, numbers written as JavaScript writes them. The CLI prints these; the component's
//! conformance runner compares them with the native core's.

use evodb_core::json_text::to_compact_js;
use evodb_core::{
    AddOutcome, AddRequest, BestProgram, CellStats, Info, Inspiration, IslandStats, Lineage, Metrics, Operator, Plan,
    PlanItem, PolicyVerdict, Sample, SampledParent, Stats, Status, StopVerdict,
};
use serde::Serialize;

use crate::population as wit;

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

pub fn add_outcome(o: wit::AddOutcome) -> AddOutcome {
    AddOutcome {
        id: o.id,
        metrics: metrics(o.metrics),
        best_program_id: o.best_program_id,
        best_metrics: o.best_metrics.map(metrics),
        last_iteration: o.last_iteration,
        warnings: o.warnings,
        status: status(o.status),
        cached: o.cached,
        cell: o.cell,
    }
}

pub fn status(s: wit::Status) -> Status {
    match s {
        wit::Status::Accepted => Status::Accepted,
        wit::Status::Rejected => Status::Rejected,
        wit::Status::Error => Status::Error,
    }
}

pub fn operator(o: wit::Operator) -> Operator {
    match o {
        wit::Operator::Exploitation => Operator::Exploitation,
        wit::Operator::Exploration => Operator::Exploration,
        wit::Operator::Crossover => Operator::Crossover,
        wit::Operator::Migration => Operator::Migration,
    }
}

/// The other direction, for requests: the core's status and operator as WIT values.
pub fn wit_status(s: Status) -> wit::Status {
    match s {
        Status::Accepted => wit::Status::Accepted,
        Status::Rejected => wit::Status::Rejected,
        Status::Error => wit::Status::Error,
    }
}

pub fn wit_operator(o: Operator) -> wit::Operator {
    match o {
        Operator::Exploitation => wit::Operator::Exploitation,
        Operator::Exploration => wit::Operator::Exploration,
        Operator::Crossover => wit::Operator::Crossover,
        Operator::Migration => wit::Operator::Migration,
    }
}

/// A core add request as the component's.
pub fn wit_request(r: AddRequest) -> wit::AddRequest {
    wit::AddRequest {
        id: r.id,
        code_path: r.code_path,
        target_code: r.target_code,
        parent_id: Some(r.parent_id),
        metrics: r.metrics.iter().map(|(name, value)| (name.to_string(), value)).collect(),
        changes: Some(r.changes),
        island: r.island,
        status: Some(wit_status(r.status)),
        reason: r.reason,
        operator: r.operator.map(wit_operator),
        plan_item: r.plan_item,
    }
}

fn sampled_parent(p: wit::SampledParent) -> SampledParent {
    SampledParent {
        id: p.id,
        code_path: p.code_path,
        target_code: p.target_code,
        metrics: metrics(p.metrics),
        changes: p.changes,
    }
}

pub fn sample(s: wit::SampleResult) -> Sample {
    Sample {
        parent: s.parent.map(sampled_parent),
        inspirations: s
            .inspirations
            .into_iter()
            .map(|i| Inspiration { id: i.id, metrics: metrics(i.metrics), changes: i.changes })
            .collect(),
        operator: s.operator.map(operator),
        island: s.island,
        second_parent: s.second_parent.map(sampled_parent),
        donor_island: s.donor_island,
        forced_by: s.forced_by,
    }
}

pub fn plan(p: wit::WorkPlan) -> Plan {
    Plan {
        generation: p.generation,
        items: p
            .items
            .into_iter()
            .map(|i| PlanItem {
                name: i.name,
                operator: operator(i.operator),
                island: i.island,
                parent_ids: i.parent_ids,
                donor_island: i.donor_island,
                forced_by: i.forced_by,
            })
            .collect(),
    }
}

pub fn stop_verdict(v: wit::StopVerdict) -> StopVerdict {
    StopVerdict {
        stop: v.stop,
        reason: v.reason,
        evaluations: v.evaluations,
        rounds: v.rounds,
        stagnation: v.stagnation,
        best_fitness: v.best_fitness,
    }
}

pub fn policy_verdict(v: wit::PolicyVerdict) -> PolicyVerdict {
    PolicyVerdict { pass: v.pass, reason: v.reason }
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
        archive: s.archive,
        stagnation: s.stagnation,
        rounds: s.rounds,
        recent_statuses: s.recent_statuses.into_iter().map(status).collect(),
        cells: s.cells.map(|c| CellStats {
            filled: c.filled as usize,
            total: c.total,
            coverage: c.coverage,
            qd_score: c.qd_score,
            qd_offset: c.qd_offset,
        }),
    }
}

pub fn lineage(l: wit::Lineage) -> Lineage {
    Lineage { id: l.id, ancestors: l.ancestors, missing_ancestor: l.missing_ancestor, descendants: l.descendants }
}
