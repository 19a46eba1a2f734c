//! # evodb-core
//!
//! The population database of LLM-driven evolutionary code search: islands, parent and
//! inspiration sampling, ring migration, pruning, the best program — the seed skill's
//! `database.mjs` rules, exactly, plus options beyond it. Pure: no IO, no clock, no OS entropy.
//! All randomness comes from one seeded PRNG whose state is saved with the database, so a
//! resumed database continues exactly as if it had never stopped.
//!
//! ```
//! use evodb_core::{AddRequest, Config, Database, Metrics};
//!
//! let mut db = Database::new(Config::default(), 42).unwrap();
//! let metrics = Metrics::new([("score", 0.5)]).unwrap();
//! let seed = db.add(AddRequest::seed("/src/f.py", "def f(): ...", metrics), 1_700_000_000.0).unwrap();
//! let sample = db.sample();
//! assert_eq!(*sample.parent.unwrap().id, *seed.id);
//! let text = db.to_json(); // database.json, readable by the seed's own CLI
//! assert_eq!(Database::from_json(&text).unwrap().to_json(), text);
//! ```

#![forbid(unsafe_code)]

// Layers, lowest first; a module uses only its own layer and those below (tests/layers.rs):
// foundation (error, metrics, rng, counters, ranking, live_order, json_text) → api (the shapes
// that cross faces) → config → state → rules → reports and format → database (orchestration,
// the public operations) → simulation (synthetic runs, replay), which only drives the engine.
mod counters;
mod error;
mod instance_front;
pub mod json_text;
mod live_order;
mod metrics;
mod pareto;
mod ranking;
mod rng;

pub mod api;
mod config;
mod flags;
mod format;
mod operations;
mod replay;
pub use replay::Replay;
mod database;
mod reports;
pub use reports::{
    Handout, HandoutProgram, PLACEHOLDERS, PromptParts, check_prompt_template, problem_from_playbook,
    prompt_template_name,
};
mod rules;
pub mod simulation;

pub use api::{
    AddOutcome, AddRequest, Admission, AdmissionVerdict, Attribution, BestProgram, CellStats, CostTotals, ExportFormat,
    Info, Inspiration, InstanceCoverage, InstanceStats, IslandStats, Lease, LeaseEntry, LeaseState, Lineage,
    MAX_BRANCH_BYTES, MAX_EMBEDDING_LENGTH, MAX_LEASE_SECONDS, MAX_NOTE_BYTES, MAX_TEXT_BYTES, NearDuplicate, Note,
    NoteKind, NoteRequest, Operator, ParetoStats, Plan, PlanItem, PolicyVerdict, ROOT_PARENT_ID, RemeasureRequest,
    Remeasured, Sample, SampledParent, Stats, Status, StopVerdict, SynergyItem, SynergyPart, SynergyResult,
    TargetStats, branch_problem, commit_problem,
};
pub use api::{
    CriterionScore, Facets, IDEA_CRITERIA, IDEA_PATH, Idea, IdeaBrief, IdeaOrigin, IdeaSubmission, check_idea_scores,
};
pub use config::{
    Config, Direction, FeatureDim, FitnessSpec, IdeaRunOptions, IdeaSettings, InspirationScope, IslandSpec,
    MigrationMode, NoteLimits, OperatorPolicy, OperatorWeights, PendingMode, Placement, Profile, RunKind, Selection,
    SelectionMode, StopRules, TargetSpec,
};
pub use counters::MAX_COUNTER;
pub use database::{Database, Event, MAX_SEED, Program, code_hash};
pub use error::{Error, Result};
pub use flags::{
    AddCommand, AddFlags, ConfigFile, ConfigFlags, FlagError, add_request_from_flags, config_from_flags,
    config_from_playbook, embedding_from_flag, without_final_newline,
};
pub use metrics::Metrics;
pub use rules::{
    CodeSignatures, DEFAULT_NEAR_DUPLICATE, DEFAULT_PROTECTED, FilePlacement, Placed, lease_token, place_in_target,
    policy_check,
};
