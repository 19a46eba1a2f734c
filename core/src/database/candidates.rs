//! Candidates as the run records them: a status per candidate (the AlphaEvolve strategy), the recent statuses that
//! drive the operator overrides, and the code-hash fitness cache (evo-anything).

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::api::{Operator, Status};
use crate::metrics::Metrics;

/// How many recent candidates the overrides look at (the longest rule is "last 5 rejected").
pub(crate) const RECENT_WINDOW: usize = 5;

/// One of the last few candidates: its status and the island it went to (none for an error).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RecentCandidate {
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island: Option<u32>,
}

/// A recorded result the fitness cache answers with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CachedResult {
    pub id: Arc<str>,
    pub metrics: Metrics,
}

/// The run's record of its candidates beyond the live population.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct CandidateLog {
    /// The `seq` the next candidate gets.
    pub next_seq: u64,
    /// Evaluations spent: every add, errors and cached repeats included.
    pub evaluations: u64,
    /// Evaluations in a row that did not raise the best fitness.
    pub stagnation: u64,
    pub recent: VecDeque<RecentCandidate>,
    /// Code hash (16 hex digits) → first result, when dedupe is on.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub cache: BTreeMap<String, CachedResult>,
    /// The initial program's fitness, remembered when pruning deletes it, so the improvement over
    /// the baseline outlives the program (written only then: other files keep their bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_fitness: Option<f64>,
    /// Per target, in a several-target run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<TargetProgress>,
    /// Cost and attribution per operator × model × island, in key order (`rules/attribution.rs`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attribution: Vec<AttributionRow>,
}

/// One operator × model × island's running sums.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct AttributionRow {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operator: Option<Operator>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub island: Option<u32>,
    pub candidates: u64,
    pub errors: u64,
    pub improvements: u64,
    pub cost_usd: f64,
    pub tokens_in: u64,
    pub tokens_out: u64,
    pub eval_seconds: f64,
}

impl AttributionRow {
    pub(crate) fn key(&self) -> (Option<Operator>, Option<&str>, Option<u32>) {
        (self.operator, self.model.as_deref(), self.island)
    }
}

/// One target's share of the log: its evaluations, its stagnation, its best synergy result.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct TargetProgress {
    pub evaluations: u64,
    pub stagnation: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_synergy_fitness: Option<f64>,
}

impl CandidateLog {
    /// Records a candidate's status, keeping the last [`RECENT_WINDOW`].
    pub(crate) fn remember(&mut self, status: Status, island: Option<u32>) {
        self.recent.push_back(RecentCandidate { status, island });
        while self.recent.len() > RECENT_WINDOW {
            self.recent.pop_front();
        }
    }

    /// True when the last `n` candidates were all rejected.
    pub(crate) fn last_rejected(&self, n: usize) -> bool {
        self.recent.len() >= n && self.recent.iter().rev().take(n).all(|c| c.status == Status::Rejected)
    }

    /// Islands the last `n` candidates went to.
    pub(crate) fn recent_islands(&self, n: usize) -> impl Iterator<Item = u32> + '_ {
        self.recent.iter().rev().take(n).filter_map(|c| c.island)
    }

    pub(crate) fn recent_statuses(&self) -> Vec<Status> {
        self.recent.iter().map(|c| c.status).collect()
    }
}

/// `code_hash`: FNV-1a (64-bit) of the code after normalising line endings (CRLF and CR → LF),
/// trailing whitespace on each line, and leading/trailing blank lines — edits that change no
/// behaviour in any mainstream language. Printed as 16 lowercase hex digits.
///
/// ```
/// use evodb_core::code_hash;
/// assert_eq!(code_hash("def f():\r\n    return 1   \r\n\r\n"), code_hash("def f():\n    return 1"));
/// assert_ne!(code_hash("return 1"), code_hash("return  1"));
/// ```
pub fn code_hash(code: &str) -> String {
    const PRIME: u64 = 0x0000_0100_0000_01B3;
    let mut hash: u64 = 0xCBF2_9CE4_8422_2325;
    let normalised = code.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = normalised.lines().map(str::trim_end).collect();
    let first = lines.iter().position(|l| !l.is_empty()).unwrap_or(lines.len());
    let last = lines.iter().rposition(|l| !l.is_empty()).map_or(first, |i| i + 1);
    for (i, line) in lines[first..last.max(first)].iter().enumerate() {
        if i > 0 {
            hash = (hash ^ u64::from(b'\n')).wrapping_mul(PRIME);
        }
        for &b in line.as_bytes() {
            hash = (hash ^ u64::from(b)).wrapping_mul(PRIME);
        }
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_last_five_are_kept() {
        let mut log = CandidateLog::default();
        for _ in 0..4 {
            log.remember(Status::Rejected, Some(0));
        }
        assert!(log.last_rejected(3) && log.last_rejected(4) && !log.last_rejected(5));
        log.remember(Status::Accepted, Some(1));
        assert!(!log.last_rejected(3));
        for _ in 0..10 {
            log.remember(Status::Rejected, None);
        }
        assert_eq!(log.recent.len(), RECENT_WINDOW);
        assert!(log.last_rejected(5));
    }

    #[test]
    fn blank_edges_and_line_endings_do_not_change_the_hash() {
        assert_eq!(code_hash("\n\nx = 1\n"), code_hash("x = 1"));
        assert_eq!(code_hash("a\r\nb"), code_hash("a\nb"));
        assert_ne!(code_hash("a\n\nb"), code_hash("a\nb"));
        assert_eq!(code_hash("").len(), 16);
    }
}
