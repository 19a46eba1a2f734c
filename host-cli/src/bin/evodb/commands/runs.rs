//! `evodb runs [DIR]`: every run under `DIR` (default `runs`, evoidea's layout), one per
//! subdirectory holding a `database.json`, sorted by id: its id, when it was created (its first
//! member's time), its kind, rounds, best score and whether a stopping rule holds.
//!
//! `evodb runs --store URL` (or a `postgres://` URL as `DIR`, or `EVODB_STORE`): every run the
//! PostgreSQL database holds, by name: when it was made, its last write, its programs, events
//! and bytes. `--delete NAME` and `--rename OLD --to NEW` act on one of them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::ArgMatches;
use evodb_core::ExportFormat;
use evodb_host::Access;
use evodb_host::postgres::{self, Form, PgRun, PgUrl, RunSummary, RunsError, form};
use serde_json::{Value, json};

use crate::context::Context;
use crate::failure::Failure;
use crate::location::{Location, shown};
use crate::matches::optional;
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub dir: Option<PathBuf>,
    pub delete: Option<String>,
    pub rename: Option<String>,
    pub to: Option<String>,
}

/// What `runs` does to a store.
enum Action {
    List,
    Delete(String),
    Rename(String, String),
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args {
            dir: optional(m, "dir"),
            delete: optional(m, "delete"),
            rename: optional(m, "rename"),
            to: optional(m, "to"),
        }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let action = match (self.delete, self.rename, self.to) {
            (None, None, None) => Action::List,
            (Some(name), None, None) => Action::Delete(name),
            (None, Some(old), Some(new)) => Action::Rename(old, new),
            (None, Some(_), None) => {
                return Err(Failure::Usage("--rename OLD takes the new name in --to NEW".into()));
            }
            (None, None, Some(_)) => {
                return Err(Failure::Usage("--to names a run's new name: pass --rename OLD too".into()));
            }
            (Some(_), _, _) => return Err(Failure::Usage("--delete goes alone: leave --rename and --to out".into())),
        };
        if ctx.store.run.is_some() {
            return Err(Failure::Usage(
                "`evodb runs` acts on every run of the store: leave --run out (--delete NAME and --rename OLD --to \
                 NEW name the run)"
                    .into(),
            ));
        }
        let store = match (&self.dir, &ctx.store.store) {
            (Some(dir), Some(_)) if form(dir.as_os_str().as_encoded_bytes(), "<dir>").ok() != Some(Form::Postgres) => {
                return Err(Failure::Usage(format!(
                    "both the directory `{}` and --store were given; pass one of them",
                    shown(dir)
                )));
            }
            (Some(dir), _) => match form(dir.as_os_str().as_encoded_bytes(), "<dir>").map_err(Failure::Usage)? {
                Form::Postgres => dir.to_str().map(String::from),
                Form::Directory => None,
            },
            (None, Some(store)) => Some(store.clone()),
            (None, None) => ctx.store.env_store.as_ref().and_then(|store| store.to_str()).map(String::from),
        };
        let Some(store) = store else {
            let dir = self.dir.unwrap_or_else(|| PathBuf::from("runs"));
            return match action {
                Action::List => list_directory(ctx, &dir),
                Action::Delete(_) | Action::Rename(..) => Err(Failure::Usage(format!(
                    "--delete and --rename act on the runs of a PostgreSQL store (--store URL); `{}` is a directory: \
                     remove or rename its run's subdirectory instead",
                    shown(&dir)
                ))),
            };
        };
        let url = PgUrl::parse(&store, Duration::from_secs(ctx.store.connect_timeout_secs)).map_err(Failure::Usage)?;
        let budget = Duration::from_millis(ctx.sandbox.time_budget_ms);
        let run = |name: &str| {
            PgRun::new(url.clone(), name).map_err(|_| {
                Failure::Usage(format!(
                    "`{}` is not a run name; pass 1 to 200 printable characters, e.g. exp-1",
                    name.escape_debug()
                ))
            })
        };
        match action {
            Action::List => list_store(ctx, &url),
            Action::Delete(name) => {
                let deleted = postgres::delete_run(&run(&name)?, budget).map_err(runs_failure)?;
                Ok(Reply::json(&json!({"deleted": summary_json(&deleted, None)})))
            }
            Action::Rename(old, new) => {
                let renamed = postgres::rename_run(&run(&old)?, &run(&new)?, budget).map_err(runs_failure)?;
                Ok(Reply::json(&json!({"renamed": old, "to": summary_json(&renamed, None)})))
            }
        }
    }
}

/// Every run in the store, by name, with its program count (each run loaded by the engine, as
/// `info` loads it).
fn list_store(ctx: &Context, url: &PgUrl) -> Result<Reply, Failure> {
    let summaries = postgres::list_runs(url)?;
    let engine = ctx.engine()?;
    let mut runs = Vec::new();
    for summary in &summaries {
        let run = PgRun::new(url.clone(), &summary.name).map_err(Failure::Internal)?;
        let programs = match engine.open_location(Location::Postgres(Box::new(run)), Access::Read) {
            Ok(mut session) => match session.info() {
                Ok(info) => Some(info.program_count),
                Err(Failure::NotFound(_)) => continue,
                Err(failure) => return Err(failure),
            },
            // Deleted since it was listed.
            Err(Failure::NotFound(_)) => continue,
            Err(failure) => return Err(failure),
        };
        runs.push(summary_json(summary, programs));
    }
    Ok(Reply::json(&runs))
}

fn summary_json(summary: &RunSummary, programs: Option<usize>) -> Value {
    let mut value = json!({
        "name": summary.name,
        "created": summary.created,
        "lastWrite": summary.updated,
        "events": summary.events,
        "bytes": summary.bytes,
    });
    if let Some(programs) = programs {
        value["programs"] = json!(programs);
    }
    value
}

fn runs_failure(err: RunsError) -> Failure {
    match err {
        RunsError::Missing(message) => Failure::NotFound(message),
        RunsError::Taken(message) => Failure::BadInput(message),
        RunsError::Failed(err) => err.into(),
    }
}

/// evoidea's list: one run per subdirectory of `dir` holding a `database.json`.
fn list_directory(ctx: &Context, dir: &Path) -> Result<Reply, Failure> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Failure::NotFound(format!("cannot list runs in `{}`: {e}; pass the directory holding them", dir.display()))
    })?;
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .map(|entry| entry.path())
        .filter(|path| path.join("database.json").is_file())
        .collect();
    dirs.sort();
    let engine = ctx.engine()?;
    let mut runs = Vec::new();
    for dir in dirs {
        let file: Value = engine.database_json(&dir)?;
        let mut session = engine.open(&dir, Access::Read)?;
        let verdict = session.should_stop(None)?;
        let created = file["programs"]
            .as_object()
            .and_then(|programs| programs.values().filter_map(|p| p["timestamp"].as_f64()).reduce(f64::min));
        let kind = file["evodb"]["config"]["kind"].as_str().unwrap_or("programs").to_string();
        let best_score = match kind.as_str() {
            "ideas" => {
                let export: Value = serde_json::from_str(&session.export(ExportFormat::Evoidea)?)
                    .map_err(|e| Failure::Internal(format!("the evoidea export is not JSON: {e}")))?;
                export["state"]["best_score"].clone()
            }
            _ => json!(verdict.best_fitness),
        };
        runs.push(json!({
            "id": crate::idea_runs::run_id(&dir),
            "created": created.map(iso_utc),
            "kind": kind,
            "rounds": verdict.rounds,
            "bestScore": best_score,
            "stopped": verdict.stop,
            "stopReason": verdict.reason,
        }));
    }
    Ok(Reply::json(&runs))
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (UTC; Howard Hinnant's days-to-civil).
fn iso_utc(seconds: f64) -> String {
    let total = seconds.floor() as i64;
    let (days, secs) = (total.div_euclid(86_400), total.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", secs / 3_600, secs % 3_600 / 60, secs % 60)
}

#[cfg(test)]
mod tests {
    #[test]
    fn iso_utc_is_the_calendar_date() {
        assert_eq!(super::iso_utc(0.0), "1970-01-01T00:00:00Z");
        assert_eq!(super::iso_utc(1_700_000_000.5), "2023-11-14T22:13:20Z");
        assert_eq!(super::iso_utc(951_782_400.0), "2000-02-29T00:00:00Z");
    }
}
