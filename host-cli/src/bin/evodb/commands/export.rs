//! `evodb export <dbPath> --format json|mermaid|tree|markdown|evoidea [--out DIR]`: the whole run,
//! for a reader; `evoidea` is an idea run as evoidea's `state.json` and `final.json`, printed or
//! written into `--out`.

use std::path::{Path, PathBuf};

use clap::ArgMatches;
use evodb_core::ExportFormat;
use evodb_host::Access;
use evodb_safe_files::replace_file;
use serde_json::{Value, json};

use crate::context::Context;
use crate::failure::Failure;
use crate::idea_runs::{evoidea_files, missing_run, run_id};
use crate::matches::{optional, required};
use crate::reply::Reply;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Args {
    pub db: PathBuf,
    pub format: ExportFormat,
    #[serde(default)]
    pub out: Option<PathBuf>,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        // The parser allows only the table's possible values.
        let format = match required::<String>(m, "format").as_str() {
            "json" => ExportFormat::Json,
            "mermaid" => ExportFormat::Mermaid,
            "tree" => ExportFormat::Tree,
            "markdown" => ExportFormat::Markdown,
            "evoidea" => ExportFormat::Evoidea,
            other => unreachable!("--format `{other}` is not among the table's possible values"),
        };
        Args { db: required(m, "dbPath"), format, out: optional(m, "out") }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        if self.out.is_some() && self.format != ExportFormat::Evoidea {
            return Err(Failure::Usage("--out writes evoidea's files: pass it with --format evoidea".into()));
        }
        let mut session = ctx.engine()?.open(&self.db, Access::Read)?;
        if self.format == ExportFormat::Evoidea && !session.holds_database() {
            return Err(missing_run(&self.db));
        }
        let text = session.export(self.format)?;
        if self.format != ExportFormat::Evoidea {
            return Ok(Reply::from(text.trim_end().to_string()));
        }
        let files = evoidea_files(&text, &run_id(&self.db))?;
        match &self.out {
            None => Ok(Reply::json(&files)),
            Some(dir) => {
                let written = write_evoidea_files(dir, &files)?;
                Ok(Reply::json(&written))
            }
        }
    }
}

/// `DIR/state.json` and `DIR/final.json` (0644), each replaced whole, never half-written; their paths.
fn write_evoidea_files(dir: &Path, files: &Value) -> Result<Value, Failure> {
    let failed = |path: &Path, e: std::io::Error| Failure::Io(format!("cannot write `{}`: {e}", path.display()));
    std::fs::create_dir_all(dir).map_err(|e| failed(dir, e))?;
    let mut written = serde_json::Map::new();
    for file in ["state", "final"] {
        let path = dir.join(format!("{file}.json"));
        let text = evodb_core::json_text::to_pretty_js(&files[file]) + "\n";
        replace_file(&path, text.as_bytes(), Some(std::os::unix::fs::PermissionsExt::from_mode(0o644)))
            .map_err(|e| failed(&path, e))?;
        written.insert(file.to_string(), json!(path.display().to_string()));
    }
    Ok(Value::Object(written))
}
