//! `evodb export <dbPath> --format json|mermaid|tree|markdown`: the whole run, for a reader.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::ExportFormat;
use evodb_host::Access;

use crate::context::Context;
use crate::failure::Failure;
use crate::matches::required;
use crate::reply::Reply;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Args {
    pub db: PathBuf,
    pub format: ExportFormat,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        // The parser allows only the table's possible values.
        let format = match required::<String>(m, "format").as_str() {
            "json" => ExportFormat::Json,
            "mermaid" => ExportFormat::Mermaid,
            "tree" => ExportFormat::Tree,
            "markdown" => ExportFormat::Markdown,
            other => unreachable!("--format `{other}` is not among the table's possible values"),
        };
        Args { db: required(m, "dbPath"), format }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let text = ctx.engine()?.open(&self.db, Access::Read)?.export(self.format)?;
        Ok(Reply::from(text.trim_end().to_string()))
    }
}
