//! `answered_pruned_retry`: a retried add of a program that pruning has since removed is
//! answered, never added a second time (issue 35: `add --id X` retried after X was evicted was
//! stored twice — two `added` events, `lastIteration` off by one).
//!
//! A live program's retry is recognised by its fields (`Program::is_repeated_by`); a pruned one
//! is gone, so pruning remembers its id and a digest of those fields (`remember_pruned`), the
//! newest [`MAX_PRUNED`] of them, in `database.json` (`evodb.pruned`): a save and load, or a
//! replay of the history (which prunes alike), answers the same way.

use crate::api::AddRequest;
use crate::database::{Database, Program, PrunedProgram};
use crate::metrics::Metrics;

/// Most pruned programs remembered; the oldest go first. A retry comes seconds after its first
/// attempt, while thousands of prunes would have to come between to forget it.
pub(crate) const MAX_PRUNED: usize = 1024;

impl Database {
    /// `remember_pruned`: pruning removed `program`; a retry of its add is answered from now on.
    pub(crate) fn remember_pruned(&mut self, program: &Program) {
        let digest = digest(
            &program.target_code,
            &program.code_path,
            &program.parent_id,
            &program.metrics,
            &program.changes,
            (program.status, program.reason.as_deref()),
            (program.branch.as_deref(), program.commit.as_deref()),
        );
        self.pruned.push(PrunedProgram { id: program.id.to_string(), digest, operator: program.operator });
        let excess = self.pruned.len().saturating_sub(MAX_PRUNED);
        self.pruned.drain(..excess);
    }

    /// `answered_pruned_retry`: whether `request` names a pruned program's id and repeats its
    /// fields (its operator too, when the request names one), as a retry after a lost answer
    /// does. A request that names the id with other fields is a new program.
    pub(crate) fn answered_pruned_retry(&self, request: &AddRequest) -> bool {
        let Some(id) = &request.id else { return false };
        let Some(pruned) = self.pruned.iter().rev().find(|pruned| pruned.id == *id) else { return false };
        let asked = digest(
            &request.target_code,
            &request.code_path,
            &request.parent_id,
            &request.metrics,
            &request.changes,
            (request.status, request.reason.as_deref()),
            (request.branch.as_deref(), request.commit.as_deref()),
        );
        pruned.digest == asked && request.operator.is_none_or(|operator| pruned.operator == Some(operator))
    }
}

/// FNV-1a (64 bits, as hex) over the fields' JSON: the same on every face and platform.
fn digest(
    target_code: &str,
    code_path: &str,
    parent_id: &str,
    metrics: &Metrics,
    changes: &str,
    status: (crate::api::Status, Option<&str>),
    git: (Option<&str>, Option<&str>),
) -> String {
    let fields = (target_code, code_path, parent_id, metrics, changes, status, git);
    let text = serde_json::to_string(&fields).expect("the fields serialize");
    let hash = text
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}")
}
