//! The one translation between the core's types and the WIT records, both ways, and the one
//! error conversion.

use crate::exports::evodb::population::population as wit;

/// Exhaustive, so a new core error cannot silently arrive as another case.
pub(crate) fn error(err: evodb_core::Error) -> wit::Error {
    use evodb_core::Error as E;
    let message = err.to_string();
    match err {
        E::InvalidConfig { .. } => wit::Error::InvalidConfig(message),
        E::InvalidInput { .. } => wit::Error::InvalidInput(message),
        E::DuplicateId(_) => wit::Error::DuplicateId(message),
        E::CorruptDatabase { .. } => wit::Error::CorruptDatabase(message),
    }
}

pub(crate) fn metrics(m: &evodb_core::Metrics) -> wit::Metrics {
    m.iter().map(|(name, value)| (name.to_string(), value)).collect()
}

pub(crate) fn add_request(r: wit::AddRequest) -> Result<evodb_core::AddRequest, wit::Error> {
    Ok(evodb_core::AddRequest {
        id: r.id,
        code_path: r.code_path,
        target_code: r.target_code,
        parent_id: r.parent_id.unwrap_or_else(|| evodb_core::ROOT_PARENT_ID.to_string()),
        metrics: evodb_core::Metrics::new(r.metrics).map_err(error)?,
        changes: r.changes.unwrap_or_default(),
        island: r.island,
        status: r.status.map_or(evodb_core::Status::Accepted, status_from_wit),
        reason: r.reason,
        operator: r.operator.map(operator_from_wit),
        plan_item: r.plan_item,
    })
}

fn status_from_wit(s: wit::Status) -> evodb_core::Status {
    match s {
        wit::Status::Accepted => evodb_core::Status::Accepted,
        wit::Status::Rejected => evodb_core::Status::Rejected,
        wit::Status::Error => evodb_core::Status::Error,
    }
}

fn status(s: evodb_core::Status) -> wit::Status {
    match s {
        evodb_core::Status::Accepted => wit::Status::Accepted,
        evodb_core::Status::Rejected => wit::Status::Rejected,
        evodb_core::Status::Error => wit::Status::Error,
    }
}

fn operator_from_wit(o: wit::Operator) -> evodb_core::Operator {
    match o {
        wit::Operator::Exploitation => evodb_core::Operator::Exploitation,
        wit::Operator::Exploration => evodb_core::Operator::Exploration,
        wit::Operator::Crossover => evodb_core::Operator::Crossover,
        wit::Operator::Migration => evodb_core::Operator::Migration,
    }
}

fn operator(o: evodb_core::Operator) -> wit::Operator {
    match o {
        evodb_core::Operator::Exploitation => wit::Operator::Exploitation,
        evodb_core::Operator::Exploration => wit::Operator::Exploration,
        evodb_core::Operator::Crossover => wit::Operator::Crossover,
        evodb_core::Operator::Migration => wit::Operator::Migration,
    }
}

pub(crate) fn add_outcome(o: evodb_core::AddOutcome) -> wit::AddOutcome {
    wit::AddOutcome {
        metrics: metrics(&o.metrics),
        best_metrics: o.best_metrics.as_ref().map(metrics),
        id: o.id,
        best_program_id: o.best_program_id,
        last_iteration: o.last_iteration,
        warnings: o.warnings,
        status: status(o.status),
        cached: o.cached,
        cell: o.cell,
    }
}

fn sampled_parent(p: evodb_core::SampledParent) -> wit::SampledParent {
    wit::SampledParent {
        metrics: metrics(&p.metrics),
        id: p.id,
        code_path: p.code_path,
        target_code: p.target_code,
        changes: p.changes,
    }
}

pub(crate) fn sample(s: evodb_core::Sample) -> wit::SampleResult {
    wit::SampleResult {
        parent: s.parent.map(sampled_parent),
        inspirations: s
            .inspirations
            .into_iter()
            .map(|i| wit::Inspiration { metrics: metrics(&i.metrics), id: i.id, changes: i.changes })
            .collect(),
        operator: s.operator.map(operator),
        island: s.island,
        second_parent: s.second_parent.map(sampled_parent),
        donor_island: s.donor_island,
        forced_by: s.forced_by,
    }
}

pub(crate) fn plan(p: evodb_core::Plan) -> wit::WorkPlan {
    wit::WorkPlan {
        generation: p.generation,
        items: p
            .items
            .into_iter()
            .map(|i| wit::PlanItem {
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

pub(crate) fn stop_verdict(v: evodb_core::StopVerdict) -> wit::StopVerdict {
    wit::StopVerdict {
        stop: v.stop,
        reason: v.reason,
        evaluations: v.evaluations,
        rounds: v.rounds,
        stagnation: v.stagnation,
        best_fitness: v.best_fitness,
    }
}

pub(crate) fn best(b: Option<evodb_core::BestProgram>) -> Option<wit::BestProgram> {
    b.map(|b| wit::BestProgram {
        metrics: metrics(&b.metrics),
        id: b.id,
        code_path: b.code_path,
        target_code: b.target_code,
        changes: b.changes,
        iteration_found: b.iteration_found,
    })
}

pub(crate) fn info(i: evodb_core::Info) -> wit::DatabaseInfo {
    wit::DatabaseInfo {
        is_empty: i.is_empty,
        last_iteration: i.last_iteration,
        program_count: i.program_count as u32,
        best_program_id: i.best_program_id,
        best_metrics: i.best_metrics.as_ref().map(metrics),
        seed_code_path: i.seed_code_path,
        seed_target_code: i.seed_target_code,
    }
}

pub(crate) fn stats(s: evodb_core::Stats) -> wit::PopulationStats {
    wit::PopulationStats {
        program_count: s.program_count as u32,
        evaluations: s.evaluations,
        best_program_id: s.best_program_id,
        best_fitness: s.best_fitness,
        mean_fitness: s.mean_fitness,
        baseline_fitness: s.baseline_fitness,
        improvement: s.improvement,
        islands: s
            .islands
            .into_iter()
            .map(|i| wit::IslandStats {
                island: i.island,
                size: i.size as u32,
                best_program_id: i.best_program_id,
                best_fitness: i.best_fitness,
                mean_fitness: i.mean_fitness,
            })
            .collect(),
        archive: s.archive,
        stagnation: s.stagnation,
        rounds: s.rounds,
        recent_statuses: s.recent_statuses.into_iter().map(status).collect(),
        cells: s.cells.map(|c| wit::CellStats {
            filled: c.filled as u32,
            total: c.total,
            coverage: c.coverage,
            qd_score: c.qd_score,
            qd_offset: c.qd_offset,
        }),
    }
}

pub(crate) fn lineage(l: evodb_core::Lineage) -> wit::Lineage {
    wit::Lineage { id: l.id, ancestors: l.ancestors, missing_ancestor: l.missing_ancestor, descendants: l.descendants }
}
