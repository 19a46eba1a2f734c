//! Every integration suite of the host in one test binary (ripgrep's `tests/tests.rs`): wasmtime,
//! the PostgreSQL client and SQLite are linked once, not once per suite. `cargo test -p evodb-host
//! <name>` runs one suite by its module name (`cargo test -p evodb-host cli_apply::`). The suites
//! that need PostgreSQL's server are `#[ignore = "needs PostgreSQL …"]`; `tests/run.sh` runs them
//! with `--include-ignored`.

mod cli;
mod common;

mod cli_admission;
mod cli_apply;
mod cli_bad_input;
mod cli_engine;
mod cli_fleet;
mod cli_git_mode;
mod cli_hardening;
mod cli_ideas;
mod cli_import;
mod cli_leases;
mod cli_mcp;
mod cli_memory;
mod cli_noise;
mod cli_objectives;
mod cli_prompt;
mod cli_reliability;
mod cli_sandbox;
mod cli_seed_compat;
mod cli_serve;
mod cli_setup;
mod cli_stores;
mod cli_trial;
mod cli_trial_worktree;
mod cli_view;
mod component_vectors;
mod hostile_git;
mod hostile_import;
mod hostile_store;
mod hostile_view;
mod precompiled;
mod store;
