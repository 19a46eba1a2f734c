//! `evodb skill install <dir>`: writes the evodb-evolve skill (SKILL.md, references, the worked
//! example, and the Node drop-in `scripts/db-cli.mjs` with its WebAssembly engine), embedded in
//! the binary from `skill/`, so the skill installs with nothing but `evodb` at hand.

use std::path::PathBuf;

use clap::ArgMatches;

use crate::context::Context;
use crate::failure::Failure;
use crate::install::{check_writable, refuse_to_clobber, skill_files, write_file};
use crate::matches::{required, subcommand};
use crate::reply::Reply;

/// `evodb skill <action>`'s arguments (their help is in the command-line table, `evodb_cli_spec`).
#[derive(Debug)]
pub enum Args {
    /// `skill install <dir> [--force]`: `force` replaces the skill's files in a directory that
    /// is not empty.
    Install { dir: PathBuf, force: bool },
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        match subcommand(m) {
            ("install", m) => Args::Install { dir: required(m, "dir"), force: m.get_flag("force") },
            (other, _) => unreachable!("the table's command `skill {other}` has no arguments here"),
        }
    }

    pub fn run(self, _: &Context) -> Result<Reply, Failure> {
        let Args::Install { dir, force } = self;
        let files = skill_files();
        refuse_to_clobber(&dir, force, "the skill")?;
        // Every path is checked before the first write: a refusal leaves the directory untouched.
        for (relative, _) in &files {
            check_writable(&dir, relative)?;
        }
        for (relative, contents) in &files {
            write_file(&dir, relative, contents)?;
        }
        Ok(Reply::json(&serde_json::json!({ "installed": dir.display().to_string(), "files": files.len() })))
    }
}
