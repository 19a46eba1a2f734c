//! `catch_up`: a database read from a snapshot, brought up to date with the history lines
//! stored after it (a PostgreSQL run stores its whole database only now and then).
//!
//! Unlike [`Replay`](super::Replay), which reads every event, this reads only what re-running the
//! inputs needs and checks each consequence by its text: the lines were written by
//! [`to_compact_js`] from the same events, so a faithful re-run writes them again byte for byte.
//! Reading inputs alone, each kind into a plain struct (not a tagged enum, which serde buffers),
//! keeps the store component small: a parser for every event, a `created` event's whole config
//! among them, would add ~180 KB to it.

use serde::Deserialize;

use crate::api::{AddRequest, NoteRequest};
use crate::database::Database;
use crate::error::{Error, Result};
use crate::json_text::to_compact_js;

/// A history line's kind: `{"event": "added", …}`.
#[derive(Deserialize)]
struct Kind<'a> {
    #[serde(borrow)]
    event: std::borrow::Cow<'a, str>,
}

/// The arguments of an input that carries a candidate (`added`, `status`, `cached`, `synergy`,
/// `held`); `released`: applied as a consequence of a later answer, not an input itself.
#[derive(Deserialize)]
struct Answer {
    request: AddRequest,
    now: f64,
    #[serde(default)]
    released: bool,
}

#[derive(Deserialize)]
struct Sampled {
    #[serde(default)]
    target: Option<String>,
    #[serde(default)]
    now: Option<f64>,
}

#[derive(Deserialize)]
struct Noted {
    request: NoteRequest,
}

/// A `remeasured` line is the request itself, plus its tag.
#[derive(Deserialize)]
struct Remeasured {
    id: String,
    metrics: crate::metrics::Metrics,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Planned {
    n: u32,
    frozen: Vec<u32>,
    boosted: Vec<u32>,
    #[serde(default)]
    now: Option<f64>,
    #[serde(default)]
    lease_seconds: Option<f64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Heartbeat {
    item: String,
    token: String,
    now: f64,
    #[serde(default)]
    lease_seconds: Option<f64>,
}

impl Database {
    /// Brings a database read from a snapshot up to date with the events recorded after it
    /// (`history.ndjson` lines, as [`Database::take_events`] wrote them): re-runs each input and
    /// checks that it writes exactly the lines that follow it. Call it right after loading; the
    /// re-run events are not recorded again. On an error the database is left part-way: drop it.
    ///
    /// ```
    /// use evodb_core::{AddRequest, Config, Database, Metrics};
    /// let snapshot = Database::new(Config::default(), 7).unwrap().to_json();
    /// let mut db = Database::from_json(&snapshot).unwrap(); // a store's load
    /// db.record_events(true);
    /// db.add(AddRequest::seed("/f.py", "def f(): ...", Metrics::new([("score", 0.5)]).unwrap()), 1.0).unwrap();
    /// let lines: String = db.take_events().iter().map(|e| evodb_core::json_text::to_compact_js(e) + "\n").collect();
    ///
    /// let mut again = Database::from_json(&snapshot).unwrap();
    /// again.catch_up(&lines).unwrap();
    /// assert_eq!(again.to_json(), db.to_json());
    /// ```
    pub fn catch_up(&mut self, history: &str) -> Result<()> {
        let recording = self.recording();
        self.record_events(true);
        let caught_up = self.rerun_lines(history);
        self.record_events(recording);
        caught_up
    }

    fn rerun_lines(&mut self, history: &str) -> Result<()> {
        let lines: Vec<&str> = history.lines().filter(|line| !line.trim().is_empty()).collect();
        let at = |i: usize, problem: String| Error::input(format!("pending event {}", i + 1), problem);
        // `i`: the first line not yet written again. An operation's lines need not start with its
        // input: a plan first applies the answers it held (`released`), then writes `planned`.
        let mut i = 0;
        while i < lines.len() {
            let mut input = None;
            for (j, line) in lines.iter().enumerate().skip(i) {
                if let Some(found) = Input::read(line).map_err(|e| at(j, format!("is not an event ({e})")))? {
                    input = Some((j, found));
                    break;
                }
            }
            let Some((j, input)) = input else {
                return Err(at(i, "follows no input: the event that caused it is missing".into()));
            };
            input.apply(self).map_err(|e| at(j, format!("no longer applies: {e}")))?;
            let written = self.take_events();
            if written.is_empty() {
                // An answer the snapshot already holds is answered again and changes nothing.
                return Err(at(j, "changes nothing on re-run: the snapshot already reflects it".into()));
            }
            for event in written {
                let text = to_compact_js(&event);
                match lines.get(i) {
                    Some(line) if *line == text => i += 1,
                    Some(line) => return Err(at(i, format!("differs on re-run: stored {line}, re-run {text}"))),
                    None => return Err(at(i, format!("is missing: the re-run also wrote {text}"))),
                }
            }
            if i <= j {
                return Err(at(j, "was not written again by its own re-run".into()));
            }
        }
        Ok(())
    }
}

/// An input event's arguments, read from its history line.
enum Input {
    Answer(Box<Answer>),
    Sampled(Sampled),
    Noted(Noted),
    Remeasured(Remeasured),
    Planned(Planned),
    Heartbeat(Heartbeat),
}

impl Input {
    /// The line's input; `None` for a consequence (`migrated`, `evicted`, `archive`, a released
    /// answer) or `created`.
    fn read(line: &str) -> serde_json::Result<Option<Input>> {
        Ok(match serde_json::from_str::<Kind<'_>>(line)?.event.as_ref() {
            "added" | "status" | "cached" | "synergy" | "held" => {
                let answer: Answer = serde_json::from_str(line)?;
                (!answer.released).then(|| Input::Answer(Box::new(answer)))
            }
            "sampled" => Some(Input::Sampled(serde_json::from_str(line)?)),
            "noted" => Some(Input::Noted(serde_json::from_str(line)?)),
            "remeasured" => Some(Input::Remeasured(serde_json::from_str(line)?)),
            "planned" => Some(Input::Planned(serde_json::from_str(line)?)),
            "heartbeat" => Some(Input::Heartbeat(serde_json::from_str(line)?)),
            _ => None,
        })
    }

    fn apply(self, db: &mut Database) -> Result<()> {
        match self {
            Input::Answer(answer) => db.add(answer.request, answer.now).map(drop),
            Input::Sampled(Sampled { target, now: None }) => db.sample_for(target.as_deref()).map(drop),
            Input::Sampled(Sampled { target, now: Some(now) }) => db.sample_at(target.as_deref(), now).map(drop),
            Input::Noted(Noted { request }) => db.note(request).map(drop),
            Input::Remeasured(Remeasured { id, metrics }) => {
                db.remeasure(crate::api::RemeasureRequest { id, metrics }).map(drop)
            }
            Input::Planned(Planned { n, frozen, boosted, now: None, .. }) => db.plan(n, &frozen, &boosted).map(drop),
            Input::Planned(Planned { n, frozen, boosted, now: Some(now), lease_seconds }) => {
                db.plan_at(n, &frozen, &boosted, now, lease_seconds).map(drop)
            }
            Input::Heartbeat(Heartbeat { item, token, now, lease_seconds }) => {
                db.heartbeat(&item, &token, now, lease_seconds).map(drop)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{AddRequest, Config, Database, Metrics};

    /// A database with three programs, saved, and the lines of a few more operations after it.
    fn snapshot_and_lines() -> (String, String, Database) {
        let config = Config::from_json(r#"{"numIslands": 2, "maxIslandSize": 2, "migrationInterval": 2}"#).unwrap();
        let mut db = Database::new(config, 5).unwrap();
        for i in 0..3 {
            let metrics = Metrics::new([("score", f64::from(i) / 10.0)]).unwrap();
            db.add(AddRequest::seed(format!("/c/{i}.py"), format!("v{i}"), metrics), f64::from(i)).unwrap();
        }
        let snapshot = db.to_json();
        let mut db = Database::from_json(&snapshot).unwrap();
        db.record_events(true);
        for i in 3..12 {
            let parent = db.sample().parent.map(|p| p.id.to_string()).unwrap();
            let metrics = Metrics::new([("score", f64::from(i % 5) / 10.0)]).unwrap();
            let request = AddRequest { parent_id: parent, ..AddRequest::seed("/c.py", format!("v{i}"), metrics) };
            db.add(request, f64::from(i)).unwrap();
        }
        let lines = db.take_events().iter().map(|e| crate::json_text::to_compact_js(e) + "\n").collect();
        (snapshot, lines, db)
    }

    #[test]
    fn catching_up_rebuilds_the_database_and_its_consequences() {
        let (snapshot, lines, db) = snapshot_and_lines();
        assert!(lines.contains(r#"{"event":"evicted""#) && lines.contains(r#"{"event":"migrated""#), "{lines}");
        let mut again = Database::from_json(&snapshot).unwrap();
        again.catch_up(&lines).unwrap();
        assert_eq!(again.to_json(), db.to_json());
    }

    #[test]
    fn a_line_that_does_not_follow_is_named() {
        let (snapshot, lines, _) = snapshot_and_lines();
        let load = || Database::from_json(&snapshot).unwrap();
        // A consequence changed: the re-run writes another line.
        let changed = lines.replacen(r#""deleted":true"#, r#""deleted":false"#, 1);
        assert_ne!(changed, lines);
        let err = load().catch_up(&changed).unwrap_err().to_string();
        assert!(err.contains("differs on re-run"), "{err}");
        // An input's consequences cut off.
        let cut: String = lines.lines().take_while(|l| !l.contains("evicted")).map(|l| format!("{l}\n")).collect();
        assert!(load().catch_up(&cut).unwrap_err().to_string().contains("is missing"));
        // A consequence first: the inputs before it were lost.
        let first_evicted = lines.lines().position(|l| l.contains("evicted")).unwrap();
        let headless: String = lines.lines().skip(first_evicted).map(|l| format!("{l}\n")).collect();
        let err = load().catch_up(&headless).unwrap_err().to_string();
        assert!(err.contains("differs on re-run") || err.contains("follows no input"), "{err}");
        // A torn input line.
        let last_added = lines.rfind(r#"{"event":"added""#).unwrap();
        let torn = &lines[..last_added + 30];
        assert!(load().catch_up(torn).unwrap_err().to_string().contains("is not an event"));
    }
}
