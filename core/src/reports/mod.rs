//! What a run reports about itself, read from the state and changing nothing: population
//! statistics, lineage and family trees, and the playbook's population markdown.

mod evoidea;
mod export;
mod lineage;
mod population_stats;
mod prompt;

pub use prompt::{
    Handout, HandoutProgram, PLACEHOLDERS, PromptParts, check_prompt_template, problem_from_playbook,
    prompt_template_name,
};
