//! Cost and attribution: what each operator, model and island spent and what it bought. Every
//! add of a run with operators on, or one that reports a cost, is counted in its row (operator ×
//! model × island): candidates, errors, improvements over their parent, dollars, tokens and
//! evaluation time. `stats` reports the rows with each one's improvement rate and cost per
//! improvement, and their totals; `stopping.maxCostUsd` stops the run on the total.

use crate::api::{AddRequest, Attribution, CostTotals, Operator};
use crate::database::{AttributionRow, Database};

impl Database {
    /// Counts one evaluated candidate (`improved`: it beat its live parent; `error`: its
    /// evaluation failed) in its row. A run without operators keeps rows only once a candidate
    /// reports a cost, so the seed's runs keep their bytes.
    pub(crate) fn attribute(
        &mut self,
        request: &AddRequest,
        operator: Option<Operator>,
        island: Option<u32>,
        improved: bool,
        error: bool,
    ) {
        let reports_cost = request.model.is_some()
            || request.tokens_in.is_some()
            || request.tokens_out.is_some()
            || request.cost_usd.is_some()
            || request.eval_seconds.is_some();
        if self.config.operators.is_none() && !reports_cost && self.candidates.attribution.is_empty() {
            return;
        }
        let key = (operator, request.model.clone(), island);
        let rows = &mut self.candidates.attribution;
        let at = match rows.binary_search_by(|row| row.key().cmp(&(key.0, key.1.as_deref(), key.2))) {
            Ok(at) => at,
            Err(at) => {
                rows.insert(at, AttributionRow { operator: key.0, model: key.1, island: key.2, ..Default::default() });
                at
            }
        };
        let row = &mut rows[at];
        row.candidates += 1;
        row.errors += u64::from(error);
        row.improvements += u64::from(improved);
        row.cost_usd += request.cost_usd.unwrap_or(0.0);
        row.tokens_in = row.tokens_in.saturating_add(request.tokens_in.unwrap_or(0));
        row.tokens_out = row.tokens_out.saturating_add(request.tokens_out.unwrap_or(0));
        row.eval_seconds += request.eval_seconds.unwrap_or(0.0);
    }

    /// The rows as `stats` reports them, in key order.
    pub(crate) fn attribution(&self) -> Vec<Attribution> {
        self.candidates
            .attribution
            .iter()
            .map(|row| Attribution {
                operator: row.operator,
                model: row.model.clone(),
                island: row.island,
                candidates: row.candidates,
                errors: row.errors,
                improvements: row.improvements,
                improvement_rate: row.improvements as f64 / row.candidates.max(1) as f64,
                cost_usd: row.cost_usd,
                cost_per_improvement: (row.improvements > 0).then(|| row.cost_usd / row.improvements as f64),
                tokens_in: row.tokens_in,
                tokens_out: row.tokens_out,
                eval_seconds: row.eval_seconds,
            })
            .collect()
    }

    /// The run's totals; `None` while no row exists.
    pub(crate) fn cost_totals(&self) -> Option<CostTotals> {
        let rows = &self.candidates.attribution;
        (!rows.is_empty()).then(|| CostTotals {
            cost_usd: rows.iter().map(|r| r.cost_usd).sum(),
            tokens_in: rows.iter().fold(0u64, |sum, r| sum.saturating_add(r.tokens_in)),
            tokens_out: rows.iter().fold(0u64, |sum, r| sum.saturating_add(r.tokens_out)),
            eval_seconds: rows.iter().map(|r| r.eval_seconds).sum(),
        })
    }
}
