//! `evodb runs [DIR]`: every run under `DIR` (default `runs`, evoidea's layout), one per
//! subdirectory holding a `database.json`, sorted by id: its id, when it was created (its first
//! member's time), its kind, rounds, best score and whether a stopping rule holds.

use std::path::PathBuf;

use clap::ArgMatches;
use evodb_core::ExportFormat;
use evodb_host::Access;
use serde_json::{Value, json};

use crate::context::Context;
use crate::failure::Failure;
use crate::matches::optional;
use crate::reply::Reply;

#[derive(Debug)]
pub struct Args {
    pub dir: PathBuf,
}

impl Args {
    pub fn from_matches(m: &ArgMatches) -> Args {
        Args { dir: optional(m, "dir").unwrap_or_else(|| PathBuf::from("runs")) }
    }

    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        let entries = std::fs::read_dir(&self.dir).map_err(|e| {
            Failure::NotFound(format!(
                "cannot list runs in `{}`: {e}; pass the directory holding them",
                self.dir.display()
            ))
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
