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
//! assert_eq!(sample.parent.unwrap().id, seed.id);
//! let text = db.to_json(); // database.json, readable by the seed's own CLI
//! assert_eq!(Database::from_json(&text).unwrap().to_json(), text);
//! ```

mod candidates;
mod config;
mod counters;
mod database;
mod error;
mod events;
mod export;
mod features;
mod island;
pub mod json_text;
mod lineage;
mod live_order;
mod metrics;
mod migration;
mod operators;
mod persistence;
mod plan;
mod policy;
mod population;
mod program;
mod pruning;
mod ranking;
mod rng;
mod sampling;
pub mod simulation;
mod stats;
mod stopping;
mod validate;
mod views;

pub use candidates::{Status, code_hash};
pub use config::{
    Config, Direction, FitnessSpec, InspirationScope, MigrationMode, OperatorWeights, Placement, StopRules,
};
pub use counters::MAX_COUNTER;
pub use database::{Database, MAX_SEED};
pub use error::{Error, Result};
pub use events::Event;
pub use features::FeatureDim;
pub use lineage::Lineage;
pub use metrics::Metrics;
pub use operators::Operator;
pub use plan::{Plan, PlanItem};
pub use policy::{DEFAULT_PROTECTED, PolicyVerdict, policy_check};
pub use program::{AddRequest, MAX_TEXT_BYTES, Program, ROOT_PARENT_ID};
pub use stats::{CellStats, IslandStats, Stats};
pub use stopping::StopVerdict;
pub use views::{AddOutcome, BestProgram, Info, Inspiration, Sample, SampledParent};
