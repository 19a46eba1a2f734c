//! [`Replay`]: a saved run as the playground shows it — its events, and after each of them the
//! best program by the engine's own rule — from `history.ndjson`, or, for a file without one
//! (the seed's own CLI writes none), from `database.json` alone. The page draws what the events
//! say; every value it shows (fitness, best program, config) comes from here, not from a second
//! engine in JavaScript.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use super::{created, rerun};
use crate::api::AddRequest;
use crate::database::{Database, Event, Program};
use crate::error::{Error, Result};
use crate::ranking::is_better;

const NO_HISTORY: &str = "No history.ndjson: the programs of database.json are re-inserted in iterationFound order. \
Programs pruned before the file was saved are not in it, so migrations and evictions are not shown.";
const NOT_FROM_CREATION: &str =
    "history.ndjson does not start at the run's creation, so the programs are re-inserted from database.json.";

/// A saved run, event by event.
///
/// ```
/// use evodb_core::{AddRequest, Config, Database, Metrics, Replay};
/// let mut db = Database::new(Config::default(), 1).unwrap();
/// db.record_events(true);
/// db.add(AddRequest::seed("/f.py", "v0", Metrics::new([("s", 0.5)]).unwrap()), 1.0).unwrap();
/// let history: String = db.take_events().iter().map(|e| serde_json::to_string(e).unwrap() + "\n").collect();
/// let replay = Replay::open(&db.to_json(), Some(&history)).unwrap();
/// assert_eq!(replay.len(), 3); // created, added, the archive's change
/// assert_eq!(replay.best_after(1), None);
/// assert_eq!(replay.best_after(2), db.best_id());
/// ```
#[derive(Debug)]
pub struct Replay {
    events: Vec<Event>,
    /// `best_after[i]`: the best program's id once `events[..=i]` have happened.
    best_after: Vec<Option<Arc<str>>>,
    /// Why the events are not the recorded ones, for the page to say.
    note: Option<&'static str>,
    /// The engine after the last event, so a followed run's next events are checked and carried
    /// on; `None` when the events were re-inserted from the file.
    database: Option<Database>,
    /// The lines of an operation not yet whole (its consequences unwritten), held for the next.
    pending: Vec<Event>,
}

impl Replay {
    /// `database.json`'s text with `history.ndjson`'s (`None` or blank: there is none). A history
    /// that starts at the run's creation must replay exactly (the file is then not read: the
    /// history holds all of it); otherwise the file must load, and its programs are re-inserted.
    pub fn open(database_json: &str, history: Option<&str>) -> Result<Replay> {
        let events = match history.filter(|h| !h.trim().is_empty()) {
            Some(history) => parse_history(history, 0)?,
            None => Vec::new(),
        };
        match events.first() {
            Some(Event::Created { .. }) => Replay::recorded(events),
            Some(_) => Ok(Replay::reinserted(&Database::from_json(database_json)?, NOT_FROM_CREATION)),
            None => Ok(Replay::reinserted(&Database::from_json(database_json)?, NO_HISTORY)),
        }
    }

    /// A run from its recorded events (the first is `created`), each re-run by the engine.
    pub fn recorded(mut events: Vec<Event>) -> Result<Replay> {
        let database = created(&events)?;
        let rest = events.split_off(1);
        let mut replay =
            Replay { events, best_after: vec![None], note: None, database: Some(database), pending: Vec::new() };
        replay.carry_on(rest)?;
        Ok(replay)
    }

    /// A followed run's new `history.ndjson` lines: re-run by the engine after the events so far
    /// and added to them. Returns how many events were added; on an error nothing is.
    pub fn append(&mut self, history: &str) -> Result<usize> {
        if self.database.is_none() {
            return Err(Error::input(
                "history",
                "cannot be followed: this run was re-inserted from database.json; open it again with its history",
            ));
        }
        let events = parse_history(history, self.events.len() + self.pending.len())?;
        let before = self.events.len();
        let mut next = std::mem::take(&mut self.pending);
        next.extend(events);
        self.carry_on(next)?;
        Ok(self.events.len() - before)
    }

    /// Re-runs `events` after the events so far and keeps them. The last operation is held back
    /// (in `pending`) when its consequences are not all there yet — a run read while it was
    /// being written — and tried again with the next lines. On an error nothing changes.
    fn carry_on(&mut self, events: Vec<Event>) -> Result<()> {
        let database = self.database.as_ref().expect("only a recorded replay carries on");
        let offset = self.events.len();
        // The engine changes as it re-runs; copies keep the replay whole when a line does not fit.
        let mut next = database.clone();
        let (best_after, complete) = match rerun(&mut next, &events, offset) {
            Ok(best_after) => (best_after, events.len()),
            Err(e) => {
                let Some(last) = events.iter().rposition(Event::is_input).filter(|&last| last > 0) else {
                    return Err(e);
                };
                next = database.clone();
                (rerun(&mut next, &events[..last], offset).map_err(|_| e)?, last)
            }
        };
        let mut events = events;
        self.pending = events.split_off(complete);
        self.database = Some(next);
        self.best_after.extend(best_after);
        self.events.extend(events);
        Ok(())
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The events from `from` on as one JSON array (the page parses it in one go).
    pub fn events_json(&self, from: usize) -> String {
        serde_json::to_string(&self.events[from.min(self.events.len())..]).expect("events serialize")
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The best program's id once the first `k` events have happened (`None` before any program).
    pub fn best_after(&self, k: usize) -> Option<&str> {
        let last = k.min(self.best_after.len()).checked_sub(1)?;
        self.best_after[last].as_deref()
    }

    /// The engine after the last event (`None` when the events were re-inserted from the file):
    /// what its `stats` say of the whole run.
    pub fn database(&self) -> Option<&Database> {
        self.database.as_ref()
    }

    /// Why the events are not the recorded ones (`None`: they are).
    pub fn note(&self) -> Option<&str> {
        self.note
    }

    /// Events that rebuild the file's final population: `created` with its seed and config, then
    /// each program as `added` in `iterationFound` order (time, then id, on ties), onto its home
    /// island, with the fitness the engine gives it; a program on several islands joins the others
    /// by `migrated`, and a copy-mode copy arrives as its original's migration.
    fn reinserted(database: &Database, note: &'static str) -> Replay {
        let mut islands_of: HashMap<&str, Vec<u32>> = HashMap::new();
        for island in 0..database.config().num_islands {
            for id in database.island_members(island) {
                islands_of.entry(id).or_default().push(island);
            }
        }
        let mut programs: Vec<&Program> = database.programs().collect();
        programs.sort_by(|a, b| {
            (a.iteration_found.cmp(&b.iteration_found))
                .then(a.timestamp.total_cmp(&b.timestamp))
                .then_with(|| a.id.cmp(&b.id))
        });
        let in_file = |id: &str| database.program(id).is_some();
        // Copies wait for their original, which may sort after them (a copy keeps its iteration).
        let mut copies: BTreeMap<&str, Vec<&Program>> = BTreeMap::new();
        let mut placed: HashSet<&str> = HashSet::new();
        let mut order = Vec::with_capacity(programs.len());
        let mut queue = Vec::new();
        for program in programs {
            match program.migrated_from.as_deref().filter(|original| in_file(original)) {
                Some(original) if !placed.contains(original) => copies.entry(original).or_default().push(program),
                _ => queue.push(program),
            }
            // A program placed releases the copies waiting for it (and theirs, in turn).
            while let Some(next) = queue.pop() {
                placed.insert(next.id.as_ref());
                order.push(next);
                queue.extend(copies.remove(next.id.as_ref()).unwrap_or_default().into_iter().rev());
            }
        }

        let mut replay = Replay {
            events: vec![Event::Created { seed: database.seed(), config: database.config().clone() }],
            best_after: vec![None],
            note: Some(note),
            database: None,
            pending: Vec::new(),
        };
        let mut best: Option<(&Program, f64)> = None;
        for program in order {
            let id = program.id.as_ref();
            let fitness = database.fitness(id).unwrap_or(0.0);
            let islands = islands_of.get(id).map(Vec::as_slice).unwrap_or_default();
            let home =
                if islands.is_empty() || islands.contains(&program.island) { program.island } else { islands[0] };
            match program.migrated_from.as_deref().filter(|original| in_file(original)) {
                Some(original) => replay.push(Event::Migrated {
                    id: original.to_string(),
                    from: database.program(original).map_or(home, |o| o.island),
                    to: home,
                    copy_id: Some(id.to_string()),
                }),
                None => {
                    if best.is_none_or(|(b, f)| is_better(fitness, program.timestamp, f, b.timestamp)) {
                        best = Some((program, fitness));
                    }
                    replay.best_after.push(best.map(|(b, _)| b.id.clone()));
                    replay.events.push(added(program, home, fitness));
                }
            }
            for &other in islands.iter().filter(|&&i| i != home) {
                replay.push(Event::Migrated { id: id.to_string(), from: home, to: other, copy_id: None });
            }
        }
        replay
    }

    /// An event that changes no best.
    fn push(&mut self, event: Event) {
        let best = self.best_after.last().cloned().flatten();
        self.best_after.push(best);
        self.events.push(event);
    }
}

/// The `added` event of a program as the file keeps it.
fn added(program: &Program, island: u32, fitness: f64) -> Event {
    Event::Added {
        seq: program.seq(),
        id: program.id.to_string(),
        island,
        status: program.status,
        fitness,
        cell: program.cell.clone(),
        request: AddRequest {
            id: Some(program.id.to_string()),
            code_path: program.code_path.to_string(),
            target_code: program.target_code.to_string(),
            parent_id: program.parent_id.clone(),
            metrics: program.metrics.clone(),
            changes: program.changes.to_string(),
            island: Some(island),
            status: program.status,
            reason: program.reason.clone(),
            operator: program.operator,
            plan_item: None,
            token: None,
            branch: program.branch.as_deref().map(String::from),
            commit: program.commit.as_deref().map(String::from),
            target: program.target.as_deref().map(String::from),
            decide: false,
            model: None,
            tokens_in: None,
            tokens_out: None,
            cost_usd: None,
            eval_seconds: None,
            origin: program.origin,
            parents: program.parents.clone(),
            instance_scores: program.instance_scores.clone(),
            embedding: program.embedding.as_deref().map(<[f64]>::to_vec),
        },
        now: program.timestamp,
        released: false,
    }
}

/// `history.ndjson`'s lines as events; `first` is the first line's event index, for messages.
fn parse_history(text: &str, first: usize) -> Result<Vec<Event>> {
    let mut events = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
        let event = serde_json::from_str(line).map_err(|e| {
            Error::input(
                format!("history.ndjson line {}", first + n + 1),
                format!("is not an event ({e}); the file is torn: remove that line"),
            )
        })?;
        events.push(event);
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, MigrationMode};
    use crate::simulation::{CLOCK_STEP, Landscape, Mutator, START_CLOCK, seed_request};

    /// A recorded run of the synthetic problem with migrations and evictions (copy mode, small
    /// islands): its events as history lines, the database at the end, and the best id after each
    /// operation, keyed by how many events had happened then.
    fn run(iterations: u64) -> (String, Database, Vec<(usize, Option<String>)>) {
        let config = Config {
            num_islands: 3,
            max_island_size: 6,
            migration_interval: 4,
            migration: MigrationMode::Copy,
            ..Config::default()
        };
        let landscape = Landscape { terms: 3, ruggedness: 0.4 };
        let mut db = Database::new(config, 9).unwrap();
        db.record_events(true);
        let mut events = db.take_events();
        let mut best = Vec::new();
        db.add(seed_request(&landscape), START_CLOCK).unwrap();
        events.extend(db.take_events());
        best.push((events.len(), db.best_id().map(String::from)));
        let mut mutator = Mutator::new(9);
        for i in 1..=iterations {
            let sample = db.sample();
            let request = mutator.candidate(&landscape, &sample, i).unwrap();
            db.add(request, START_CLOCK + CLOCK_STEP * i as f64).unwrap();
            events.extend(db.take_events());
            best.push((events.len(), db.best_id().map(String::from)));
        }
        let history = events.iter().map(|e| serde_json::to_string(e).unwrap() + "\n").collect();
        (history, db, best)
    }

    #[test]
    fn a_recorded_run_gives_the_engines_best_after_every_operation() {
        let (history, db, best) = run(60);
        let replay = Replay::open(&db.to_json(), Some(&history)).unwrap();
        assert_eq!(replay.note(), None);
        assert_eq!(replay.len(), history.lines().count());
        assert!(replay.events().iter().any(|e| matches!(e, Event::Migrated { copy_id: Some(_), .. })));
        assert!(replay.events().iter().any(|e| matches!(e, Event::Evicted { .. })));
        for (k, id) in &best {
            assert_eq!(replay.best_after(*k), id.as_deref(), "after {k} events");
        }
        assert_eq!(replay.best_after(0), None);
        assert_eq!(replay.best_after(usize::MAX), db.best_id());
    }

    #[test]
    fn a_followed_run_appends_its_new_lines_and_a_torn_line_changes_nothing() {
        let (history, db, best) = run(40);
        let lines: Vec<&str> = history.lines().collect();
        // Cut inside an operation: its consequences come with the next lines, as when a page reads
        // a run while it is being written.
        let half = best[best.len() / 2].0 - 1;
        let mut replay = Replay::open(&db.to_json(), Some(&(lines[..half].join("\n") + "\n"))).unwrap();
        let torn = lines[half..].join("\n") + "\n{\"event\":\"add";
        let err = replay.append(&torn).unwrap_err().to_string();
        assert!(err.contains("is not an event") && err.contains("remove that line"), "{err}");
        let held = replay.len();
        assert!(held < half, "the operation cut in two is held back");
        assert_eq!(replay.len(), held, "nothing of a torn append is kept");
        assert_eq!(replay.append(&(lines[half..].join("\n") + "\n")).unwrap(), lines.len() - held);
        for (k, id) in &best {
            assert_eq!(replay.best_after(*k), id.as_deref(), "after {k} events");
        }
        // A line that did not happen (another run's) is refused the same way.
        let foreign = lines[2].replace("\"now\":", "\"now\":1,\"x\":");
        assert!(replay.append(&foreign).is_err());
        assert_eq!(replay.len(), lines.len());
    }

    #[test]
    fn a_file_without_history_is_reinserted_with_the_engines_fitness_and_best() {
        let (_, db, _) = run(50);
        let mut replay = Replay::open(&db.to_json(), None).unwrap();
        assert!(replay.note().unwrap().contains("re-inserted"));
        let Event::Created { config, .. } = &replay.events()[0] else { panic!("starts with created") };
        assert_eq!(config, db.config());
        let mut added = 0;
        for event in replay.events() {
            match event {
                Event::Added { id, fitness, .. } => {
                    added += 1;
                    assert_eq!(Some(*fitness), db.fitness(id), "{id}: the engine's fitness");
                }
                Event::Migrated { copy_id: Some(copy), id, .. } => {
                    assert_eq!(db.program(copy).unwrap().migrated_from.as_deref(), Some(id.as_str()));
                }
                _ => {}
            }
        }
        let copies = replay.events().iter().filter(|e| matches!(e, Event::Migrated { copy_id: Some(_), .. })).count();
        assert!(copies > 0);
        assert_eq!(added + copies, db.len(), "every program of the file, copies as migrations");
        assert_eq!(replay.best_after(replay.len()), db.best_id());
        assert!(replay.append("{}").is_err(), "a re-inserted run cannot be followed");
    }

    #[test]
    fn the_seeds_own_file_is_reinserted() {
        let text = include_str!("../../../tests/fixtures/seed-written/database.json");
        let replay = Replay::open(text, Some("  \n")).unwrap();
        let db = Database::from_json(text).unwrap();
        assert!(replay.note().is_some());
        let added = replay.events().iter().filter(|e| matches!(e, Event::Added { .. })).count();
        assert_eq!(added, db.len());
        assert_eq!(replay.best_after(replay.len()), db.best_id());
        let torn = Replay::open(text, Some("{\"event\":\"created\"")).unwrap_err().to_string();
        assert!(torn.contains("history.ndjson line 1"), "{torn}");
    }
}
