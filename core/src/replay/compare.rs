//! The history against the file: `notice_lost_section` (a `database.json` another tool rewrote
//! without its `evodb` section, while `history.ndjson` says evodb made the run) and
//! `compare_history` (the history replayed, compared with the file, as the playground does when it
//! says "the history and the file disagree"). Loud, not silent: both name what differs.

use std::collections::BTreeSet;

use serde_json::Value;

use super::rerun_from_creation;
use crate::config::Config;
use crate::database::{Database, Event};

/// The config keys the seed's own file keeps (they survive a rewrite by the seed's CLI).
const SEED_KEYS: [&str; 5] = ["numIslands", "maxIslandSize", "migrationInterval", "migrationRate", "explorationRatio"];

impl Database {
    /// Whether the file this database was read from had no `evodb` section (the seed's CLI
    /// writes none; nor does any tool that rewrote an evodb file without keeping it).
    pub fn lacks_evodb_section(&self) -> bool {
        self.without_evodb_section
    }

    /// What loading noticed that the caller should be told (e.g. by
    /// [`Database::notice_lost_section`]), oldest first.
    pub fn load_warnings(&self) -> &[String] {
        &self.load_warnings
    }

    /// After a load: when the file had no `evodb` section but `history` (the run's
    /// `history.ndjson`) holds evodb's events, the section was lost — another tool rewrote the
    /// file — and a warning naming what was lost, as far as the history tells, joins
    /// [`Database::load_warnings`]. A seed file with no history is the seed's, and says nothing.
    ///
    /// ```
    /// use evodb_core::{Config, Database};
    /// let mut db = Database::new(Config::from_json(r#"{"stopping": {"patience": 4}}"#).unwrap(), 1).unwrap();
    /// db.record_events(true);
    /// let history: String = db.take_events().iter().map(|e| serde_json::to_string(e).unwrap() + "\n").collect();
    /// let mut file: serde_json::Value = serde_json::from_str(&db.to_json()).unwrap();
    /// file.as_object_mut().unwrap().remove("evodb"); // what the seed's CLI writes back
    /// let mut loaded = Database::from_json(&file.to_string()).unwrap();
    /// loaded.notice_lost_section(&history);
    /// assert!(loaded.load_warnings()[0].contains("stopping rules (patience)"), "{:?}", loaded.load_warnings());
    /// ```
    pub fn notice_lost_section(&mut self, history: &str) {
        if !self.without_evodb_section {
            return;
        }
        if let Some(warning) = lost_section_warning(history) {
            self.load_warnings.push(warning);
        }
    }
}

/// The events of a history's lines; a line that is no event is skipped (`validate` reports it).
fn events_of(history: &str) -> Vec<Event> {
    history.lines().filter(|line| !line.trim().is_empty()).filter_map(|line| serde_json::from_str(line).ok()).collect()
}

fn lost_section_warning(history: &str) -> Option<String> {
    let events = events_of(history);
    if events.is_empty() {
        return None;
    }
    let mut lost = Vec::new();
    if let Some(Event::Created { config, .. }) = events.first() {
        lost.extend(config_lost(config));
    }
    let notes = events.iter().filter(|e| matches!(e, Event::Noted { .. })).count();
    let failures = events.iter().filter(|e| matches!(e, Event::Status { reason, .. } if !reason.is_empty())).count();
    if notes + failures > 0 {
        lost.push(plural(notes + failures, "note"));
    }
    let rounds = events.iter().filter(|e| matches!(e, Event::Planned { .. })).count();
    if rounds > 0 {
        lost.push(format!("{} and their pending items", plural(rounds, "plan round")));
    }
    let evaluations = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Added { released: false, .. }
                    | Event::Status { released: false, .. }
                    | Event::Cached { released: false, .. }
            )
        })
        .count();
    lost.push(format!("the candidate log ({}, statuses, stagnation)", plural(evaluations, "evaluation")));
    lost.push("the PRNG state (re-seeded from the file)".into());
    Some(format!(
        "database.json has no `evodb` section, but history.ndjson holds {} events of evodb's: another tool \
         rewrote the file without it. Lost: {}. evodb carries on with the seed's defaults for them; restore \
         database.json from a backup to keep them (`evodb validate --history` lists what differs)",
        events.len(),
        lost.join("; ")
    ))
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") }
}

/// What a config holds beyond the seed's own keys, for the warning: named islands, stopping
/// rules, and every other option set away from its default.
fn config_lost(config: &Config) -> Vec<String> {
    let mut lost = Vec::new();
    if !config.islands.is_empty() {
        let names: Vec<&str> = config.islands.iter().map(|island| island.name.as_str()).collect();
        lost.push(format!("island names ({})", names.join(", ")));
    }
    let stopping = serde_json::to_value(&config.stopping).unwrap_or(Value::Null);
    if let Some(rules) = stopping.as_object().filter(|rules| !rules.is_empty()) {
        lost.push(format!("stopping rules ({})", rules.keys().cloned().collect::<Vec<_>>().join(", ")));
    }
    let given = serde_json::to_value(config).unwrap_or(Value::Null);
    let default = serde_json::to_value(Config::default()).unwrap_or(Value::Null);
    let (Some(given), Some(default)) = (given.as_object(), default.as_object()) else { return lost };
    let other: Vec<&str> = given
        .iter()
        .filter(|(key, value)| {
            !SEED_KEYS.contains(&key.as_str())
                && !["islands", "stopping"].contains(&key.as_str())
                && default.get(key.as_str()) != Some(value)
        })
        .map(|(key, _)| key.as_str())
        .collect();
    if !other.is_empty() {
        lost.push(format!("config ({})", other.join(", ")));
    }
    lost
}

/// `compare_history`: `history` replayed from the run's creation, compared with `database_json`
/// (the file as stored). Each disagreement is named — programs on one side only, metrics, the
/// best program, the config, the notes, a lost `evodb` section; none when they agree. A history
/// that does not start at the run's creation cannot be replayed and is reported as such; an empty
/// one has nothing to compare.
///
/// ```
/// use evodb_core::{AddRequest, Config, Database, Metrics};
/// let mut db = Database::new(Config::default(), 1).unwrap();
/// db.record_events(true);
/// db.add(AddRequest::seed("/f.py", "v0", Metrics::new([("s", 0.5)]).unwrap()), 1.0).unwrap();
/// let history: String = db.take_events().iter().map(|e| serde_json::to_string(e).unwrap() + "\n").collect();
/// assert!(Database::compare_history(&db.to_json(), &history).is_empty());
/// let other = db.to_json().replace("\"s\": 0.5", "\"s\": 0.25");
/// assert!(Database::compare_history(&other, &history)[0].contains("metrics"));
/// ```
pub fn compare_history(database_json: &str, history: &str) -> Vec<String> {
    let events = events_of(history);
    match events.first() {
        None => return Vec::new(),
        Some(Event::Created { .. }) => {}
        Some(_) => {
            return vec![
                "history.ndjson does not start at the run's creation (no `created` event first), so it cannot be \
                 replayed to compare with database.json"
                    .into(),
            ];
        }
    }
    let replayed = match rerun_from_creation(&events) {
        Ok((db, _)) => db,
        Err(e) => return vec![format!("history.ndjson does not replay ({e}); the history and the file disagree")],
    };
    let stored = match Database::from_json(database_json) {
        Ok(db) => db,
        Err(e) => return vec![format!("database.json does not load ({e})")],
    };
    let mut problems = Vec::new();
    if stored.without_evodb_section
        && let Some(warning) = lost_section_warning(history)
    {
        problems.push(warning);
    }
    let ids = |db: &Database| db.programs().map(|p| p.id.to_string()).collect::<BTreeSet<_>>();
    let (in_history, in_file) = (ids(&replayed), ids(&stored));
    let listed = |ids: Vec<&String>| {
        let shown: Vec<&str> = ids.iter().take(5).map(|id| id.as_str()).collect();
        let more = if ids.len() > 5 { format!(" and {} more", ids.len() - 5) } else { String::new() };
        format!("{}{more}", shown.join(", "))
    };
    let only_history: Vec<&String> = in_history.difference(&in_file).collect();
    if !only_history.is_empty() {
        problems.push(format!(
            "the history holds {} the file does not: {}",
            plural(only_history.len(), "live program"),
            listed(only_history)
        ));
    }
    let only_file: Vec<&String> = in_file.difference(&in_history).collect();
    if !only_file.is_empty() {
        problems.push(format!(
            "the file holds {} the history never added (or pruned): {}",
            plural(only_file.len(), "program"),
            listed(only_file)
        ));
    }
    let changed: Vec<&String> = in_history
        .intersection(&in_file)
        .filter(|id| replayed.program(id).map(|p| &p.metrics) != stored.program(id).map(|p| &p.metrics))
        .collect();
    if !changed.is_empty() {
        problems.push(format!("the metrics differ for {}: {}", plural(changed.len(), "program"), listed(changed)));
    }
    if replayed.best_id() != stored.best_id() {
        problems.push(format!(
            "the best program is {} by the history but {} in the file",
            replayed.best_id().unwrap_or("none"),
            stored.best_id().unwrap_or("none")
        ));
    }
    if !stored.without_evodb_section {
        if replayed.config != stored.config {
            problems.push("the config differs from the one the history created the run with".into());
        }
        if replayed.notes.len() != stored.notes.len() {
            problems.push(format!(
                "the history took {}; the file holds {}",
                plural(replayed.notes.len(), "note"),
                stored.notes.len()
            ));
        }
    }
    if problems.is_empty() && replayed.to_json() != stored.to_json() {
        problems.push("the history replays to another database.json than the stored one".into());
    }
    problems
}
