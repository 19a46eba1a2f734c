//! The rules of a run, each in its own module as `impl Database` blocks over the state: whether a
//! candidate is worth evaluating (`admission`) and which live programs are near-duplicates
//! (`near_duplicates`), how a
//! parent and inspirations are sampled, when and how islands migrate, how islands are pruned to
//! capacity (cells and the elite archive protect their bests), which operator makes the next
//! candidate (and which island its answer joins), how a batch is planned and its items leased, when a candidate no fitter than its parent is rejected, when a run should
//! stop, how a program measured again folds the new measurement in, the file policy a candidate's changes must pass, and where `apply` puts a program's code
//! in the user's file.

mod admission;
mod attribution;
mod embedding;
mod fold_measurement;
mod ideas;
mod in_flight;
mod leases;
mod memory;
mod migration;
mod near_duplicates;
mod operators;
mod parent_rule;
mod placement;
mod planning;
mod policy;
mod pruned_retries;
mod pruning;
mod sampled_islands;
mod sampling;
mod selection;
mod stopping;

pub use admission::DEFAULT_NEAR_DUPLICATE;
pub(crate) use fold_measurement::fold_measurement;
pub(crate) use ideas::round_score;
pub(crate) use in_flight::MAX_IN_FLIGHT;
pub use leases::lease_token;
pub use near_duplicates::CodeSignatures;
pub use placement::{FilePlacement, Placed, place_in_target};
pub use policy::{DEFAULT_PROTECTED, policy_check};
pub(crate) use pruned_retries::MAX_PRUNED;
pub(crate) use sampled_islands::MAX_SAMPLED;
