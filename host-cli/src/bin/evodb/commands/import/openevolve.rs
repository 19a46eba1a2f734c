//! OpenEvolve's checkpoints: `<checkpoint>/metadata.json` (islands, archive, best) and one
//! `<checkpoint>/programs/<id>.json` per program, as `ProgramDatabase.save` writes them. Given a
//! run's output directory (or its `checkpoints/`), the latest `checkpoint_<N>` is read.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use evodb_core::Status;
use serde_json::{Value, json};

use super::source::{Reading, directory_below, not_regular};
use super::{SourceProgram, SourceRun, extension, island_within, json as py_json};
use crate::failure::Failure;

const TOOL: &str = "openevolve";
/// OpenEvolve's default `database.migration_interval` (a checkpoint does not record the config).
const DEFAULT_MIGRATION_INTERVAL: u64 = 50;

pub(super) fn read(path: &Path, reading: &Reading) -> Result<SourceRun, Failure> {
    let checkpoint = checkpoint_dir(path, reading)?;
    let metadata = read_json(&checkpoint.join("metadata.json"), reading)?;
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
    if directory_below(&programs_dir)?.is_none() {
        return Err(Failure::BadInput(format!(
            "cannot read `{}`: it is not a directory; an OpenEvolve checkpoint keeps one file per program there",
            programs_dir.display()
        )));
    }
    let entries = fs::read_dir(&programs_dir)
        .map_err(|e| Failure::BadInput(format!("cannot read `{}`: {e}", programs_dir.display())))?;
    let mut files: Vec<PathBuf> = Vec::new();
    for (n, entry) in entries.enumerate() {
        if n % 1024 == 0 {
            reading.check_time(&programs_dir)?;
        }
        let entry = entry.map_err(|e| Failure::BadInput(format!("cannot read `{}`: {e}", programs_dir.display())))?;
        let file = entry.path();
        if file.extension().is_some_and(|e| e == "json") {
            reading.charge(file.as_os_str().len() as u64, &programs_dir)?;
            files.push(file);
        }
    }
    files.sort();
    let mut warnings = Vec::new();
    let mut programs = Vec::with_capacity(files.len());
    for file in &files {
        let value = read_json(file, reading)?;
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

pub(super) fn program(
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
    // The source's own numbering, beside evodb's: shown with the change and found by search.
    let iteration = value.get("iteration_found").and_then(Value::as_u64).unwrap_or(0);
    changes.push(match value.get("generation").and_then(Value::as_u64) {
        Some(generation) => format!("OpenEvolve generation {generation}, iteration {iteration}"),
        None => format!("OpenEvolve iteration {iteration}"),
    });
    let island = island_of.get(id).copied().or_else(|| metadata.and_then(|m| m.get("island")).and_then(Value::as_i64));
    Ok(SourceProgram {
        id: id.to_string(),
        origin: format!("`{}`", file.display()),
        parent_id,
        code: code.to_string(),
        extension: extension(text("language").unwrap_or("python")),
        metrics,
        island: island_within(island, islands),
        iteration,
        timestamp: value.get("timestamp").and_then(Value::as_f64).filter(|t| t.is_finite()).unwrap_or(0.0),
        changes: changes.join("\n"),
        status: Status::Accepted,
        reason: None,
        operator: None,
    })
}

/// The checkpoint to read: `path` itself, or the latest `checkpoint_<N>` under it or under its
/// `checkpoints/`. Below `path`, nothing is reached through a link: a linked `checkpoint_<N>` is
/// refused rather than passed over for an older one.
fn checkpoint_dir(path: &Path, reading: &Reading) -> Result<PathBuf, Failure> {
    if fs::symlink_metadata(path.join("metadata.json")).is_ok() {
        return Ok(path.to_path_buf());
    }
    for dir in [path.join("checkpoints"), path.to_path_buf()] {
        if dir != path && directory_below(&dir)?.is_none() {
            continue;
        }
        let Ok(entries) = fs::read_dir(&dir) else { continue };
        let mut latest: Option<(u64, PathBuf, fs::FileType)> = None;
        for (n, entry) in entries.enumerate() {
            if n % 1024 == 0 {
                reading.check_time(path)?;
            }
            let Ok(entry) = entry else { continue };
            let Some(number) =
                entry.file_name().to_str().and_then(|name| name.strip_prefix("checkpoint_")?.parse().ok())
            else {
                continue;
            };
            let Ok(kind) = entry.file_type() else { continue };
            let candidate = kind.is_symlink()
                || (kind.is_dir() && fs::symlink_metadata(entry.path().join("metadata.json")).is_ok());
            if candidate && latest.as_ref().is_none_or(|(best, _, _)| number > *best) {
                latest = Some((number, entry.path(), kind));
            }
        }
        match latest {
            Some((_, latest, kind)) if kind.is_symlink() => return Err(not_regular(&latest, kind)),
            Some((_, latest, _)) => return Ok(latest),
            None => {}
        }
    }
    Err(Failure::NotFound(format!(
        "`{}` is not an OpenEvolve checkpoint: give a directory holding metadata.json and programs/ \
         (e.g. openevolve_output/checkpoints/checkpoint_100), or one holding checkpoint_<N> directories",
        path.display()
    )))
}

fn read_json(path: &Path, reading: &Reading) -> Result<Value, Failure> {
    let text = reading.read_text(path)?;
    py_json::parse(&text).map_err(|e| {
        Failure::BadInput(format!("`{}` is not valid JSON ({e}); is the checkpoint complete?", path.display()))
    })
}
