//! What the idea-run commands share (`export --format evoidea`, `show`, `runs`, `profile`):
//! a run's id, the engine's evoidea export with that id filled in, and the missing-run error.

use std::path::Path;

use serde_json::{Value, json};

use crate::failure::Failure;

/// The run's id as evoidea names it: its directory's name.
pub fn run_id(db: &Path) -> String {
    db.file_name().map_or_else(|| db.display().to_string(), |name| name.to_string_lossy().into_owned())
}

/// The engine's evoidea export with the run's id filled in: `{"state", "final"}`; a programs
/// run is refused.
pub fn evoidea_files(export: &str, run_id: &str) -> Result<Value, Failure> {
    let mut export: Value =
        serde_json::from_str(export).map_err(|e| Failure::Internal(format!("the evoidea export is not JSON: {e}")))?;
    if export["kind"] != "ideas" {
        return Err(Failure::BadInput(
            "this run holds programs; --format evoidea exports idea runs (made by `evodb ideas`)".into(),
        ));
    }
    for file in ["state", "final"] {
        export[file]["run_id"] = json!(run_id);
    }
    Ok(json!({ "state": export["state"], "final": export["final"] }))
}

/// A run that is not there: named, with where to look.
pub fn missing_run(db: &Path) -> Failure {
    Failure::NotFound(format!(
        "no run at `{}`; check the run id (`evodb runs {}` lists the runs)",
        db.display(),
        db.parent().filter(|p| !p.as_os_str().is_empty()).map_or(".".into(), |p| p.display().to_string())
    ))
}
