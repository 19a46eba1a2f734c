//! Properties of the engine beyond the seed (issue 3): MAP-Elites eviction never drops a cell's
//! best or an archive member, recorded results never change, `seq` only grows, every sample's
//! notes keep within their bounds, and the events of any run replay to the same bytes.

use std::collections::BTreeMap;

use evodb_core::{AddRequest, Config, Database, Event, Metrics, NoteKind, NoteRequest, Status};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Add { score: u8, speed: u8, lines: u8, status: u8, parent: u8, dup: bool },
    Sample,
    Plan { n: u8, frozen: u8 },
    AddPlanned { pick: u8, score: u8 },
    Note { kind: u8, len: u8 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (any::<u8>(), any::<u8>(), 0..12u8, 0..10u8, any::<u8>(), any::<bool>())
            .prop_map(|(score, speed, lines, status, parent, dup)| Op::Add { score, speed, lines, status, parent, dup }),
        2 => Just(Op::Sample),
        1 => (1..4u8, 0..4u8).prop_map(|(n, frozen)| Op::Plan { n, frozen }),
        2 => (any::<u8>(), any::<u8>()).prop_map(|(pick, score)| Op::AddPlanned { pick, score }),
        1 => (0..3u8, 1..60u8).prop_map(|(kind, len)| Op::Note { kind, len }),
    ]
}

const CELLS: usize = 3 * 3; // 3 speed bins × 3 islands
const ARCHIVE: usize = 3;
const NOTES_PER_SAMPLE: usize = 3;
const NOTE_BYTES: usize = 80;

fn config() -> Config {
    Config::from_json(&format!(
        r#"{{"islands": [{{"name": "a"}}, {{"name": "b", "description": "bee"}}, {{"name": "c"}}], "maxIslandSize": {},
            "migrationInterval": 4, "archiveSize": {ARCHIVE}, "dedupe": true,
            "notes": {{"perSample": {NOTES_PER_SAMPLE}, "maxBytes": {NOTE_BYTES}}}, "operators": {{}}, "features": [
              {{"kind": "metric", "metric": "speed", "min": 0, "max": 1, "bins": 3}}, {{"kind": "island"}}]}}"#,
        // Room for every cell's best plus the archive, so a victim outside both always exists.
        CELLS + ARCHIVE + 1
    ))
    .unwrap()
}

fn request(i: usize, score: u8, speed: u8, lines: u8, parent: String, dup: bool) -> AddRequest {
    let body: String = (0..lines).map(|l| format!("  y{l} = {l}\n")).collect();
    let code = if dup { "def f():\n  return 0\n".to_string() } else { format!("def f():\n{body}  return {i}\n") };
    let metrics = Metrics::new([("score", f64::from(score) / 255.0), ("speed", f64::from(speed) / 255.0)]).unwrap();
    AddRequest { parent_id: parent, changes: format!("c{i}"), ..AddRequest::seed("/f.py", code, metrics) }
}

/// The best fitness of every cell of the live population.
fn cell_bests(db: &Database) -> BTreeMap<Vec<u32>, f64> {
    let mut bests = BTreeMap::new();
    for p in db.programs() {
        let f = db.fitness(&p.id).unwrap();
        let best = bests.entry(p.cell.clone().unwrap()).or_insert(f64::NEG_INFINITY);
        *best = f64::max(*best, f);
    }
    bests
}

fn top_fitnesses(db: &Database, k: usize) -> Vec<f64> {
    let mut all: Vec<f64> = db.programs().map(|p| db.fitness(&p.id).unwrap()).collect();
    all.sort_by(|a, b| b.total_cmp(a));
    all.truncate(k);
    all
}

fn run(ops: &[Op]) -> (Database, Vec<Event>) {
    let mut db = Database::new(config(), 11).unwrap();
    db.record_events(true);
    let mut pending: Vec<String> = Vec::new();
    let mut recorded: BTreeMap<String, (Metrics, u64)> = BTreeMap::new();
    let mut last_seq = 0;
    for (i, op) in ops.iter().enumerate() {
        let before_cells = cell_bests(&db);
        let before_top = top_fitnesses(&db, ARCHIVE);
        let now = i as f64;
        let outcome = match op {
            Op::Add { score, speed, lines, status, parent, dup } => {
                let ids: Vec<String> = db.programs().map(|p| p.id.to_string()).collect();
                let parent = if ids.is_empty() { "0".into() } else { ids[*parent as usize % ids.len()].clone() };
                let mut req = request(i, *score, *speed, *lines, parent, *dup);
                req.status = match status {
                    0..=5 => Status::Accepted,
                    6..=8 => Status::Rejected,
                    _ => Status::Error,
                };
                if req.status == Status::Error {
                    req.reason = Some("timeout".into());
                }
                Some(db.add(req, now).unwrap())
            }
            Op::Sample => {
                let sample = db.sample();
                // By relevance — lessons, then the parent's notes, then the rest — newest first
                // within each, within both bounds, each one of the run's.
                let bytes: usize = sample.notes.iter().map(|n| n.text.len()).sum();
                assert!(sample.notes.len() <= NOTES_PER_SAMPLE && bytes <= NOTE_BYTES, "{:?}", sample.notes);
                let parent = sample.parent.as_ref().map(|p| p.id.to_string());
                let rank = |n: &evodb_core::Note| match (n.kind, &n.program_id) {
                    (evodb_core::NoteKind::Lesson, _) => 0,
                    (_, Some(about)) if Some(about) == parent.as_ref() => 1,
                    _ => 2,
                };
                let order: Vec<(u8, std::cmp::Reverse<u64>)> =
                    sample.notes.iter().map(|n| (rank(n), std::cmp::Reverse(n.seq))).collect();
                assert!(order.windows(2).all(|w| w[0] < w[1]), "by relevance, newest first: {:?}", sample.notes);
                let kept = db.notes(None, None, None);
                assert!(sample.notes.iter().all(|n| kept.contains(n)));
                assert_eq!(!sample.notes.is_empty(), kept.iter().any(|n| n.text.len() <= NOTE_BYTES));
                assert_eq!(sample.island_name.as_deref(), sample.island.map(|i| ["a", "b", "c"][i as usize]));
                None
            }
            Op::Note { kind, len } => {
                let kind = [NoteKind::Lesson, NoteKind::Failure, NoteKind::Idea][*kind as usize];
                let text = format!("{i}{}", "n".repeat(usize::from(*len)));
                let note = db.note(NoteRequest { kind, text, target: None, program_id: None }).unwrap();
                assert_eq!(db.notes(None, None, Some(1)), [note]);
                None
            }
            Op::Plan { n, frozen } => {
                let frozen: Vec<u32> = (*frozen < 3).then_some(u32::from(*frozen)).into_iter().collect();
                let plan = db.plan(u32::from(*n), &frozen, &[]).unwrap();
                pending.extend(plan.items.into_iter().map(|item| item.name));
                None
            }
            Op::AddPlanned { pick, score } => match pending.is_empty() {
                true => None,
                false => {
                    let name = pending.remove(*pick as usize % pending.len());
                    let mut req = request(i, *score, *score, 3, "0".into(), false);
                    req.plan_item = Some(name.clone());
                    let out = db.add(req, now).unwrap();
                    let island = name.split('/').nth(1).unwrap().trim_start_matches("island-").parse::<u32>().unwrap();
                    assert_eq!(db.program(&out.id).map_or(island, |p| p.island), island, "{name} landed elsewhere");
                    Some(out)
                }
            },
        };
        // A cell's best is never evicted: no cell loses ground and none disappears.
        let after_cells = cell_bests(&db);
        for (cell, best) in &before_cells {
            let now_best = after_cells.get(cell).copied();
            assert!(now_best.is_some_and(|b| b >= *best), "cell {cell:?} lost its best {best} (now {now_best:?})");
        }
        // Archive members are never evicted: the k best fitnesses never fall.
        let after_top = top_fitnesses(&db, ARCHIVE);
        for (before, after) in before_top.iter().zip(&after_top) {
            assert!(after >= before, "the archive lost a member: {before_top:?} → {after_top:?}");
        }
        // Recorded results never change; seq only grows.
        if let Some(out) = outcome
            && !out.cached
            && out.status != Status::Error
            && let Some(p) = db.program(&out.id)
        {
            assert!(p.seq() > last_seq, "seq {} after {last_seq}", p.seq());
            last_seq = p.seq();
            recorded.insert(p.id.to_string(), (p.metrics.clone(), p.seq()));
        }
        for p in db.programs().filter(|p| p.migrated_from.is_none()) {
            if let Some((metrics, seq)) = recorded.get(&*p.id) {
                assert_eq!((&p.metrics, p.seq()), (metrics, *seq), "{} changed its recorded result", p.id);
            }
        }
    }
    let events = db.take_events();
    (db, events)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn map_elites_runs_keep_their_invariants_and_replay_exactly(ops in prop::collection::vec(op(), 1..120)) {
        let (db, events) = run(&ops);
        // Replaying the events — also after a trip through history.ndjson text — rebuilds the run.
        let ndjson: String = events.iter().map(|e| serde_json::to_string(e).unwrap() + "\n").collect();
        let parsed: Vec<Event> = ndjson.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let replayed = Database::replay(&parsed).unwrap();
        prop_assert_eq!(replayed.to_json(), db.to_json());
        prop_assert!(Database::validate_json(&db.to_json()).is_empty());
        let reloaded = Database::from_json(&db.to_json()).unwrap();
        prop_assert_eq!(reloaded.to_json(), db.to_json());
    }
}

#[test]
fn a_tampered_event_log_is_refused_naming_the_event() {
    let ops: Vec<Op> = (0..60u8)
        .map(|i| Op::Add {
            score: i.wrapping_mul(7),
            speed: i.wrapping_mul(13),
            lines: i % 5,
            status: 0,
            parent: i,
            dup: false,
        })
        .collect();
    let (_, mut events) = run(&ops);
    let at = events.iter().position(|e| matches!(e, Event::Evicted { .. })).expect("60 adds onto islands of 13 evict");
    if let Event::Evicted { deleted, .. } = &mut events[at] {
        *deleted = !*deleted;
    }
    let err = Database::replay(&events).unwrap_err().to_string();
    assert!(err.contains(&format!("events[{at}]")), "{err}");
    assert!(Database::replay(&events[1..]).is_err(), "a log must start with `created`");
}
