//! `evodb strategy init <dir>` and `evodb strategy check <dir>`: a strategy playbook (seed 004's
//! engine playbook and per-operator prompts, `skill/strategies/<name>/`) copied into a run, and
//! the check that every `<CUSTOMIZE: …>` marker in it has been filled.

use std::fs;
use std::path::{Path, PathBuf};

use clap::ArgMatches;
use serde_json::{Value, json};

use crate::context::Context;
use crate::failure::Failure;
use crate::install::{check_writable, refuse_to_clobber, skill_files, write_file};
use crate::matches::{optional, required, subcommand};
use crate::reply::Reply;

/// What a playbook asks its user to fill in. `CUSTOMIZE.md` explains the markers and is not checked.
const MARKER: &str = "<CUSTOMIZE";
const GUIDE: &str = "CUSTOMIZE.md";

/// The placeholders `evodb prompt` fills (the table in `strategy.md`); any other `{{name}}` in a
/// prompt is a typo that would reach the mutator unfilled.
use evodb_core::PLACEHOLDERS;

#[derive(Debug)]
pub enum Args {
    /// `strategy`: none for the default, `alphaevolve`.
    Init {
        dir: PathBuf,
        strategy: Option<String>,
        force: bool,
    },
    Check {
        dir: PathBuf,
        db: Option<PathBuf>,
    },
    Config {
        dir: PathBuf,
    },
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        match subcommand(m) {
            ("init", m) => {
                Args::Init { dir: required(m, "dir"), strategy: optional(m, "strategy"), force: m.get_flag("force") }
            }
            ("check", m) => Args::Check { dir: required(m, "dir"), db: optional(m, "db") },
            ("config", m) => Args::Config { dir: required(m, "dir") },
            (other, _) => unreachable!("the table's command `strategy {other}` has no arguments here"),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        match self {
            Args::Init { dir, strategy, force } => init(&dir, strategy.as_deref().unwrap_or("alphaevolve"), force),
            Args::Check { dir, db } => check(&dir, db.as_deref(), ctx),
            Args::Config { dir } => Ok(Reply::from(playbook_config(&dir)?)),
        }
    }
}

fn init(dir: &Path, strategy: &str, force: bool) -> Result<Reply, Failure> {
    let prefix = Path::new("strategies").join(strategy);
    let files: Vec<(PathBuf, &[u8])> = skill_files()
        .into_iter()
        .filter_map(|(path, contents)| Some((path.strip_prefix(&prefix).ok()?.to_path_buf(), contents)))
        .collect();
    if files.is_empty() {
        return Err(Failure::Usage(format!(
            "no strategy `{strategy}`; the strategies are: {}",
            strategies().join(", ")
        )));
    }
    refuse_to_clobber(dir, force, "the playbook")?;
    for (relative, _) in &files {
        check_writable(dir, relative)?;
    }
    for (relative, contents) in &files {
        write_file(dir, relative, contents)?;
    }
    let unfilled = unfilled_markers(dir)?;
    let next = format!(
        "fill the {} <CUSTOMIZE: …> markers (see {}), then run `evodb strategy check {}`",
        unfilled.len(),
        dir.join(GUIDE).display(),
        dir.display()
    );
    let report = json!({
        "strategy": strategy,
        "dir": dir.display().to_string(),
        "files": files.len(),
        "unfilled": unfilled,
        "next": next,
    });
    Ok(Reply::from(report.to_string()))
}

/// The run's config the filled playbook gives (the core's `config_from_playbook`).
fn playbook_config(dir: &Path) -> Result<String, Failure> {
    let path = dir.join("strategy.md");
    let text = fs::read_to_string(&path).map_err(|e| {
        Failure::NotFound(format!(
            "cannot read `{}`: {e}; run `evodb strategy init {}` first",
            path.display(),
            dir.display()
        ))
    })?;
    Ok(evodb_core::config_from_playbook(&text)?)
}

/// Where the run's config (`db`) disagrees with the playbook's islands and stopping rules, as
/// `{key, playbook, run}`.
fn config_disagreements(dir: &Path, db: &Path, ctx: &Context) -> Result<Vec<Value>, Failure> {
    let playbook: Value = serde_json::from_str(&playbook_config(dir)?).map_err(|e| Failure::Internal(e.to_string()))?;
    let database = ctx.engine()?.database_json(db)?;
    let run = &database["evodb"]["config"];
    let mut found = Vec::new();
    let islands = |config: &Value| {
        let list = config["islands"].as_array().cloned().unwrap_or_default();
        list.iter().map(|i| json!({"name": i["name"], "description": i["description"]})).collect::<Vec<_>>()
    };
    if islands(&playbook) != islands(run) {
        found.push(json!({"key": "islands", "playbook": playbook["islands"], "run": run["islands"]}));
    }
    for (key, value) in playbook["stopping"].as_object().into_iter().flatten() {
        let stored = &run["stopping"][key];
        if stored.as_f64() != value.as_f64() {
            found.push(json!({"key": format!("stopping.{key}"), "playbook": value, "run": stored}));
        }
    }
    Ok(found)
}

/// Exit 1 while a marker is unfilled, a prompt names an unknown placeholder or (with `db`) the
/// run's config disagrees with the playbook; the JSON on stdout lists every one, the message on
/// stderr names the first.
fn check(dir: &Path, db: Option<&Path>, ctx: &Context) -> Result<Reply, Failure> {
    if !dir.join("strategy.md").is_file() {
        return Err(Failure::NotFound(format!(
            "no strategy.md in `{}`; run `evodb strategy init {}` first",
            dir.display(),
            dir.display()
        )));
    }
    let unfilled = unfilled_markers(dir)?;
    let unknown = unknown_placeholders(dir)?;
    // The run is compared once the playbook is filled (an unfilled one gives no config yet).
    let disagrees = match db {
        Some(db) if unfilled.is_empty() => config_disagreements(dir, db, ctx)?,
        _ => Vec::new(),
    };
    let ready = unfilled.is_empty() && unknown.is_empty() && disagrees.is_empty();
    let mut report = json!({ "dir": dir.display().to_string(), "ready": ready, "unfilled": unfilled, "unknownPlaceholders": unknown });
    if db.is_some() {
        report["configDisagrees"] = json!(disagrees);
    }
    if ready {
        return Ok(Reply::from(report.to_string()));
    }
    if let (true, true, Some(first)) = (unfilled.is_empty(), unknown.is_empty(), disagrees.first()) {
        let failure = Failure::BadInput(format!(
            "the run's config disagrees with the playbook on {} ({} in the playbook, {} in the run); write the config \
             with `evodb strategy config {}` before `evodb init`, or edit the playbook to match the run",
            first["key"].as_str().unwrap_or(""),
            first["playbook"],
            first["run"],
            dir.display()
        ));
        return Ok(Reply::failed(report.to_string(), failure));
    }
    let (first, what, fix) = match unfilled.first() {
        Some(first) => (
            first,
            format!("{} <CUSTOMIZE: …> markers are still unfilled", unfilled.len()),
            "fill it (see CUSTOMIZE.md)",
        ),
        None => (
            &unknown[0],
            format!("{} unknown placeholders in the prompts", unknown.len()),
            "use a placeholder from strategy.md's table",
        ),
    };
    // The report goes out even though the command fails.
    let failure = Failure::BadInput(format!(
        "{what}; the first: {}:{} {} — {fix}, then check again",
        first["file"].as_str().unwrap_or(""),
        first["line"],
        first["text"].as_str().unwrap_or("")
    ));
    Ok(Reply::failed(report.to_string(), failure))
}

fn strategies() -> Vec<String> {
    let mut names: Vec<String> = skill_files()
        .into_iter()
        .filter_map(|(path, _)| {
            let rest = path.strip_prefix("strategies").ok()?;
            Some(rest.components().next()?.as_os_str().to_string_lossy().into_owned())
        })
        .collect();
    names.dedup();
    names
}

/// Every `<CUSTOMIZE` marker in the playbook's text files (but the guide), as `{file, line, text}`.
fn unfilled_markers(dir: &Path) -> Result<Vec<Value>, Failure> {
    let mut found = Vec::new();
    for (relative, text) in playbook_texts(dir)? {
        for (i, line) in text.lines().enumerate() {
            let mut rest = line;
            while let Some(start) = rest.find(MARKER) {
                let marker = &rest[start..];
                let end = marker.find('>').map_or(marker.len(), |end| end + 1);
                found.push(json!({ "file": relative, "line": i + 1, "text": &marker[..end] }));
                rest = &marker[end..];
            }
        }
    }
    Ok(found)
}

/// `{{name}}`s in the prompts that are not among [`PLACEHOLDERS`], as `{file, line, text}`.
fn unknown_placeholders(dir: &Path) -> Result<Vec<Value>, Failure> {
    let mut found = Vec::new();
    for (relative, text) in playbook_texts(dir)?.into_iter().filter(|(path, _)| path.starts_with("prompts/")) {
        for (i, line) in text.lines().enumerate() {
            let mut rest = line;
            while let Some(start) = rest.find("{{") {
                let after = &rest[start + 2..];
                let Some(end) = after.find("}}") else { break };
                let name = after[..end].trim();
                if !PLACEHOLDERS.contains(&name) {
                    found.push(json!({ "file": relative, "line": i + 1, "text": format!("{{{{{name}}}}}") }));
                }
                rest = &after[end + 2..];
            }
        }
    }
    Ok(found)
}

/// The playbook's Markdown files, relative path and text, in path order (the guide left out).
fn playbook_texts(dir: &Path) -> Result<Vec<(String, String)>, Failure> {
    let mut texts = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let entries =
            fs::read_dir(&current).map_err(|e| Failure::Io(format!("cannot read `{}`: {e}", current.display())))?;
        for entry in entries {
            let entry = entry.map_err(|e| Failure::Io(format!("cannot read `{}`: {e}", current.display())))?;
            let path = entry.path();
            let kind = entry.file_type().map_err(|e| Failure::Io(format!("cannot read `{}`: {e}", path.display())))?;
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file() && path.extension().is_some_and(|ext| ext == "md") {
                let relative = path.strip_prefix(dir).unwrap_or(&path).display().to_string();
                if relative == GUIDE {
                    continue;
                }
                let text = fs::read_to_string(&path)
                    .map_err(|e| Failure::BadInput(format!("cannot read `{}` as text: {e}", path.display())))?;
                texts.push((relative, text));
            }
        }
    }
    texts.sort();
    Ok(texts)
}
