//! The public shapes: every request and result that crosses a face (the wasm-bindgen package, the
//! WIT component, the CLI), defined once here. Each is serialized exactly as the seed CLI prints
//! it (camelCase keys, nulls where the seed prints null); WIT faces convert to and from their
//! records with the code [`bridge!`](crate::bridge) generates from [`face_shapes!`](crate::face_shapes).
//!
//! This layer depends on nothing but the foundation (errors, metrics): every other module may use
//! it, and it uses none of them.

mod bridge;
mod embedding;
mod git_names;
mod ideas;
mod kinds;
mod leases;
mod measurements;
mod notes;
mod request;
mod results;
mod stats;
mod target_results;

pub use bridge::{IntoCore, IntoFace};
pub use embedding::MAX_EMBEDDING_LENGTH;
pub(crate) use embedding::embedding_problem;
pub use git_names::{MAX_BRANCH_BYTES, branch_problem, commit_problem};
pub use ideas::{
    CriterionScore, Facets, IDEA_CRITERIA, IDEA_PATH, IDEA_SCORE_RANGE, Idea, IdeaBrief, IdeaOrigin, IdeaSubmission,
    MAX_IDEA_FACET_BYTES, MAX_IDEA_SUMMARY_BYTES, MAX_IDEA_TITLE_BYTES, check_idea_scores,
};
pub use kinds::{ExportFormat, Operator, Status};
pub use leases::{Lease, LeaseEntry, LeaseState, MAX_LEASE_SECONDS, check_lease_seconds};
pub use measurements::{RemeasureRequest, Remeasured};
pub use notes::{MAX_NOTE_BYTES, Note, NoteKind, NoteRequest};
pub use request::{AddRequest, MAX_TEXT_BYTES, ROOT_PARENT_ID, SEED_CHANGES};
pub use results::{
    AddOutcome, Admission, AdmissionVerdict, BestProgram, Info, Inspiration, Lineage, NearDuplicate, Plan, PlanItem,
    PolicyVerdict, Sample, SampledParent, StopVerdict,
};
pub use stats::{Attribution, CellStats, CostTotals, InstanceCoverage, InstanceStats, IslandStats, ParetoStats, Stats};
pub use target_results::{SynergyItem, SynergyPart, SynergyResult, TargetStats};
