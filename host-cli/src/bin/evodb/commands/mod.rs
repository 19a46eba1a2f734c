//! One module per command, each owning its `Args` (read from the parser's matches) and one
//! `run(self, ctx) -> Result<Reply, Failure>`; `cli::Command::run` dispatches to them.

pub mod add;
pub mod add_idea;
pub mod apply;
pub mod best;
pub mod copy;
pub mod create;
pub mod demo;
pub mod export;
pub mod git_tidy;
pub mod history;
pub mod ideas;
pub mod import;
pub mod info;
pub mod init;
pub mod lineage;
pub mod mcp;
pub mod note;
pub mod notes;
pub mod plan;
pub mod profile;
pub mod prompt;
pub mod remeasure;
pub mod runs;
pub mod sample;
pub mod seed;
pub mod serve;
pub mod setup;
pub mod should_stop;
pub mod show;
pub mod skill;
pub mod stats;
pub mod strategy;
pub mod trial;
pub mod validate;
pub mod view;
