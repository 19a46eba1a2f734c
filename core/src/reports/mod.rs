//! What a run reports about itself, read from the state and changing nothing: population
//! statistics, lineage and family trees, and the playbook's population markdown.

mod export;
mod lineage;
mod stats;
