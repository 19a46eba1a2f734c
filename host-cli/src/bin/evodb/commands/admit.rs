//! `evodb admit`: before a worker pays for an evaluation, whether the candidate duplicates (or
//! nearly duplicates) a live program. The rule is the core's (`Database::admit`); this reads the
//! code and prints the verdict; with `--embedding`, the caller's own vector of the code is
//! compared with the live programs' stored ones (`Database::admit_embedding`). It only reads:
//! nothing is recorded, no budget is spent.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::embedding_from_flag;
use evodb_host::Access;

use crate::context::Context;
use crate::failure::Failure;
use crate::input::read_text;
use crate::matches::{optional, required};
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub db: PathBuf,
    pub code: Option<String>,
    pub code_file: Option<PathBuf>,
    pub code_path: Option<String>,
    /// `--embedding`: JSON text.
    pub embedding: Option<String>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            db: required(m, "dbPath"),
            code: optional(m, "code"),
            code_file: optional(m, "codeFile"),
            code_path: optional(m, "codePath"),
            embedding: optional(m, "embedding"),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let embedding = self.embedding.as_deref().map(embedding_from_flag).transpose()?;
        let code = match (self.code, &self.code_file) {
            (Some(code), _) => code,
            (None, Some(file)) => read_text("--codeFile", file)?,
            (None, None) => {
                return Err(Failure::Usage(
                    "admit needs the candidate's code: --code '<code>' or --codeFile <path> (- for standard input)"
                        .into(),
                ));
            }
        };
        let code_path = self
            .code_path
            .or_else(|| self.code_file.filter(|f| f.as_os_str() != "-").map(|f| f.display().to_string()))
            .unwrap_or_default();
        let mut session = ctx.engine()?.open(&self.db, Access::Read)?;
        let admission = match embedding {
            Some(embedding) => session.admit_embedding(&code, &code_path, &embedding)?,
            None => session.admit(&code, &code_path)?,
        };
        Ok(Reply::json(&admission))
    }
}
