//! OpenEvolve's checkpoints: `<checkpoint>/metadata.json` (islands, archive, best) and one
//! `<checkpoint>/programs/<id>.json` per program, as `ProgramDatabase.save` writes them. Given a
//! run's output directory (or its `checkpoints/`), the latest `checkpoint_<N>` is read.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use evodb_core::Status;
use serde_json::{Value, json};

use super::{SourceProgram, SourceRun, extension, island_within, json as py_json};
use crate::failure::Failure;

const TOOL: &str = "openevolve";
/// OpenEvolve's default `database.migration_interval` (a checkpoint does not record the config).
const DEFAULT_MIGRATION_INTERVAL: u64 = 50;

pub(super) fn read(path: &Path) -> Result<SourceRun, Failure> {
    let checkpoint = checkpoint_dir(path)?;
    let metadata = read_json(&checkpoint.join("metadata.json"))?;
    let mut island_of: HashMap<String, i64> = HashMap::new();
    let islands_listed = metadata.get("islands").and_then(Value::as_array).cloned().unwrap_or_default();
    for (island, members) in islands_listed.iter().enumerate() {
        for id in members.as_array().into_iter().flatten().filter_map(Value::as_str) {
            island_of.entry(id.to_string()).or_insert(island as i64);
        }
    }
    let islands = u32::try_from(islands_listed.len()).unwrap_or(u32::MAX).max(1);
    let archive_size = metadata.get("archive").and_then(Value::as_array).map_or(0, Vec::len);

    let programs_dir = checkpoint.join("programs");
    let mut files: Vec<PathBuf> = match fs::read_dir(&programs_dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect(),
        Err(e) => return Err(Failure::BadInput(format!("cannot read `{}`: {e}", programs_dir.display()))),
    };
    files.sort();
    let mut warnings = Vec::new();
    let mut programs = Vec::with_capacity(files.len());
    for file in &files {
        let value = read_json(file)?;
        programs.push(program(&value, file, &island_of, islands)?);
    }
    let fitness = if programs.iter().all(|p| p.metrics.iter().any(|(name, _)| name == "combined_score")) {
        json!({"kind": "primary", "metric": "combined_score"})
    } else {
        warnings.push(
            "not every program reports combined_score, so the imported run ranks programs by the mean of their \
             metrics (OpenEvolve leaves its feature dimensions out of that mean)"
                .to_string(),
        );
        json!({"kind": "mean"})
    };
    Ok(SourceRun {
        tool: TOOL,
        islands,
        programs,
        fitness,
        migration_interval: DEFAULT_MIGRATION_INTERVAL,
        archive_size: u32::try_from(archive_size).unwrap_or(u32::MAX),
        warnings,
    })
}

fn program(
    value: &Value,
    file: &Path,
    island_of: &HashMap<String, i64>,
    islands: u32,
) -> Result<SourceProgram, Failure> {
    let text = |key: &str| value.get(key).and_then(Value::as_str);
    let (Some(id), Some(code)) = (text("id"), text("code")) else {
        return Err(Failure::BadInput(format!(
            "`{}` is not an OpenEvolve program: it needs string fields `id` and `code`",
            file.display()
        )));
    };
    let metadata = value.get("metadata");
    let (metrics, other) = py_json::metrics(value.get("metrics"), "");
    let mut changes: Vec<String> =
        text("changes_description").filter(|c| !c.is_empty()).map(String::from).into_iter().collect();
    let parent_id = text("parent_id").map(String::from);
    if metadata.and_then(|m| m.get("migrant")).and_then(Value::as_bool) == Some(true) {
        changes.push(format!("migrant copy of {}", parent_id.as_deref().unwrap_or("an unknown program")));
    }
    changes.extend(other);
    let island = island_of.get(id).copied().or_else(|| metadata.and_then(|m| m.get("island")).and_then(Value::as_i64));
    Ok(SourceProgram {
        id: id.to_string(),
        parent_id,
        code: code.to_string(),
        extension: extension(text("language").unwrap_or("python")),
        metrics,
        island: island_within(island, islands),
        iteration: value.get("iteration_found").and_then(Value::as_u64).unwrap_or(0),
        timestamp: value.get("timestamp").and_then(Value::as_f64).unwrap_or(0.0),
        changes: changes.join("\n"),
        status: Status::Accepted,
        reason: None,
        operator: None,
    })
}

/// The checkpoint to read: `path` itself, or the latest `checkpoint_<N>` under it or under its
/// `checkpoints/`.
fn checkpoint_dir(path: &Path) -> Result<PathBuf, Failure> {
    if path.join("metadata.json").is_file() {
        return Ok(path.to_path_buf());
    }
    for dir in [path.join("checkpoints"), path.to_path_buf()] {
        let latest = fs::read_dir(&dir).ok().into_iter().flatten().filter_map(Result::ok).filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let n: u64 = name.strip_prefix("checkpoint_")?.parse().ok()?;
            e.path().join("metadata.json").is_file().then(|| (n, e.path()))
        });
        if let Some((_, latest)) = latest.max_by_key(|(n, _)| *n) {
            return Ok(latest);
        }
    }
    Err(Failure::NotFound(format!(
        "`{}` is not an OpenEvolve checkpoint: give a directory holding metadata.json and programs/ \
         (e.g. openevolve_output/checkpoints/checkpoint_100), or one holding checkpoint_<N> directories",
        path.display()
    )))
}

fn read_json(path: &Path) -> Result<Value, Failure> {
    let text =
        fs::read_to_string(path).map_err(|e| Failure::BadInput(format!("cannot read `{}`: {e}", path.display())))?;
    py_json::parse(&text).map_err(|e| {
        Failure::BadInput(format!("`{}` is not valid JSON ({e}); is the checkpoint complete?", path.display()))
    })
}
