//! A fuzz target run as a property test, so CI runs it for a bounded time on every change
//! (`PROPTEST_CASES=20000 cargo test -p evodb-core --test fuzz_load --release` runs it longer):
//! `Database::from_json` over mutated database files (bytes flipped, cut, spliced, numbers and
//! keys replaced), then random operations on whatever loads. Whatever the input:
//! - nothing panics, in the loader, in `validate_json`, or in any operation;
//! - a file that loads saves to text that loads again to the same text (no silent change);
//! - evodb adds no problem: every problem `validate_json` finds in what it writes was already in
//!   what it loaded (the loader refuses broken structure but, like the seed's, carries on past
//!   what `validate` reports, e.g. a generation that is not its parent's + 1);
//! - a refused operation leaves the database byte-identical;
//! - a snapshot caught up with the history lines written after it (`Database::catch_up`, what a
//!   PostgreSQL run's load does) is the database those lines came from, byte for byte.
//!
//! Regressions proptest finds are kept in `proptest-regressions/fuzz_load.txt` and replayed first.

use std::collections::BTreeSet;

use evodb_core::{AddRequest, Config, Database, Metrics};
use proptest::prelude::*;

/// A small run with cells, operators, dedupe and copy migration: every optional key present.
fn base_file() -> String {
    let config = Config::from_json(
        r#"{"numIslands": 3, "maxIslandSize": 4, "migrationInterval": 2, "migration": "copy", "dedupe": true,
            "operators": {}, "archiveSize": 2,
            "features": [{"kind": "metric", "metric": "score", "min": 0, "max": 1, "bins": 3}, {"kind": "island"}]}"#,
    )
    .unwrap();
    let mut db = Database::new(config, 5).unwrap();
    let seed = db.add(AddRequest::seed("f.py", "def f(): 0", Metrics::new([("score", 0.1)]).unwrap()), 1.0).unwrap();
    for i in 0..14u32 {
        let parent = db.sample().parent.map_or(seed.id.clone(), |p| p.id.to_string());
        let request = AddRequest {
            parent_id: parent,
            changes: format!("change {i}"),
            ..AddRequest::seed(
                format!("c{i}.py"),
                format!("def f(): {i}"),
                Metrics::new([("score", f64::from(i % 7) / 7.0)]).unwrap(),
            )
        };
        db.add(request, 2.0 + f64::from(i)).unwrap();
    }
    db.plan(2, &[], &[]).unwrap();
    db.to_json()
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip { at: usize, bit: u8 },
    Cut { at: usize },
    Insert { at: usize, text: String },
    Replace { at: usize, len: usize, text: String },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let token = prop_oneof![
        Just("0".to_string()),
        Just("-1".to_string()),
        Just("9007199254740993".to_string()),
        Just("18446744073709551615".to_string()),
        Just("1e309".to_string()),
        Just("null".to_string()),
        Just("\"\"".to_string()),
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("\u{0}".to_string()),
        Just("\"numIslands\"".to_string()),
        "[ -~]{0,8}",
    ];
    prop_oneof![
        (any::<usize>(), 0..8u8).prop_map(|(at, bit)| Mutation::Flip { at, bit }),
        any::<usize>().prop_map(|at| Mutation::Cut { at }),
        (any::<usize>(), token.clone()).prop_map(|(at, text)| Mutation::Insert { at, text }),
        (any::<usize>(), 1..12usize, token).prop_map(|(at, len, text)| Mutation::Replace { at, len, text }),
    ]
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for m in mutations {
        let n = bytes.len().max(1);
        match m {
            Mutation::Flip { at, bit } => {
                if !bytes.is_empty() {
                    bytes[at % n] ^= 1 << bit;
                }
            }
            Mutation::Cut { at } => bytes.truncate(at % n),
            Mutation::Insert { at, text } => {
                let at = at % (bytes.len() + 1);
                bytes.splice(at..at, text.bytes());
            }
            Mutation::Replace { at, len, text } => {
                let at = at % (bytes.len() + 1);
                let end = (at + len).min(bytes.len());
                bytes.splice(at..end, text.bytes());
            }
        }
    }
    // The loader takes text; invalid UTF-8 is refused before it by every face.
    String::from_utf8_lossy(&bytes).into_owned()
}

#[derive(Clone, Debug)]
enum Op {
    Add { parent: u8, score: i8, name: u8 },
    Sample,
    Plan { n: u8 },
    Stats,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any::<u8>(), any::<i8>(), 0..3u8).prop_map(|(parent, score, name)| Op::Add { parent, score, name }),
        2 => Just(Op::Sample),
        1 => (0..5u8).prop_map(|n| Op::Plan { n }),
        1 => Just(Op::Stats),
    ]
}

fn run(db: &mut Database, ops: &[Op]) {
    for (i, op) in ops.iter().enumerate() {
        match op {
            Op::Add { parent, score, name } => {
                let ids: Vec<String> = db.programs().map(|p| p.id.to_string()).collect();
                let parent = if ids.is_empty() { "0".to_string() } else { ids[*parent as usize % ids.len()].clone() };
                let metric = ["score", "speed", ""][*name as usize];
                let request = AddRequest {
                    parent_id: parent,
                    changes: format!("op {i}"),
                    ..AddRequest::seed(
                        "x.py",
                        format!("code {i} {score}"),
                        Metrics::new([(metric, f64::from(*score) / 100.0)]).unwrap(),
                    )
                };
                let before = db.to_json();
                if db.add(request, 100.0 + i as f64).is_err() {
                    assert_eq!(db.to_json(), before, "a refused add changed the database");
                }
            }
            Op::Sample => {
                db.sample();
            }
            Op::Plan { n } => {
                let before = db.to_json();
                if db.plan(u32::from(*n), &[], &[]).is_err() {
                    assert_eq!(db.to_json(), before, "a refused plan changed the database");
                }
            }
            Op::Stats => {
                db.stats();
            }
        }
    }
}

/// A problem without its ids and numbers: an operation may carry an inconsistency it loaded
/// onto another program (a stale `bestProgramId` stays stale), which is not a new problem.
fn kind(problem: &str) -> String {
    let mut kind = String::new();
    for (i, part) in problem.split('`').enumerate() {
        kind.push_str(if i % 2 == 1 { "`…`" } else { part });
    }
    kind.chars().map(|c| if c.is_ascii_digit() { '#' } else { c }).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn mutated_files_load_or_are_refused_and_what_loads_behaves(
        mutations in prop::collection::vec(mutation(), 1..4),
        ops in prop::collection::vec(op(), 0..12),
    ) {
        let text = mutate(&base_file(), &mutations);
        let before: BTreeSet<String> = Database::validate_json(&text).iter().map(|p| kind(p)).collect();
        let new_problems = |written: &str| -> Vec<String> {
            Database::validate_json(written).into_iter().filter(|p| !before.contains(&kind(p))).collect()
        };
        if let Ok(mut db) = Database::from_json(&text) {
            let saved = db.to_json();
            let added = new_problems(&saved);
            prop_assert!(added.is_empty(), "evodb wrote problems the input did not have: {added:?}");
            let again = Database::from_json(&saved).expect("a saved file loads");
            prop_assert_eq!(again.to_json(), saved.clone(), "save → load → save changed the text");
            run(&mut db, &ops);
            let after = db.to_json();
            let added = new_problems(&after);
            prop_assert!(added.is_empty(), "the ops added problems: {added:?}");
            prop_assert_eq!(Database::from_json(&after).expect("the file after the ops loads").to_json(), after);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// A store that keeps a snapshot re-runs the lines written after it (`catch_up`): whatever the
    /// operations before and after the snapshot, that rebuilds the database byte for byte.
    #[test]
    fn a_snapshot_caught_up_with_the_lines_after_it_is_the_database(
        ops in prop::collection::vec(op(), 0..24),
        split in 0usize..24,
    ) {
        let (before, after) = ops.split_at(split.min(ops.len()));
        let mut db = Database::from_json(&base_file()).unwrap();
        run(&mut db, before);
        let snapshot = db.to_json();
        let mut live = Database::from_json(&snapshot).unwrap();
        live.record_events(true);
        run(&mut live, after);
        let lines: String = live.take_events().iter().map(|e| evodb_core::json_text::to_compact_js(e) + "\n").collect();
        let mut again = Database::from_json(&snapshot).unwrap();
        again.catch_up(&lines).expect("the lines re-run");
        prop_assert_eq!(again.to_json(), live.to_json());
    }
}
