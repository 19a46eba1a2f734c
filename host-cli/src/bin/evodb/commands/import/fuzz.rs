//! The import readers as fuzz targets, run as property tests (`PROPTEST_CASES=20000 cargo test
//! --release -p evodb-host --bin evodb import::fuzz` runs them longer): whatever a source holds —
//! any JSON as an OpenEvolve program or metrics map, any value of any SQLite type in any column of
//! ShinkaEvolve's `programs`, any parent graph — nothing panics, from reading through the checks
//! to the replay by the engine itself, and what the checks let through the engine accepts or
//! refuses with an error (the import's exit 1), never a crash.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use proptest::prelude::*;
use rusqlite::types::Value as Sql;
use serde_json::{Map, Value};

use super::source::Reading;
use super::{SourceRun, json as py_json, lineage_order, openevolve, prepare, shinka};

/// Text that reaches the corners: empty, blank, long, non-ASCII, Python's non-finite tokens,
/// quotes and backslashes, path-like ids.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(" \n\t".to_string()),
        Just("NaN".to_string()),
        Just("-Infinity".to_string()),
        Just("../../etc/passwd".to_string()),
        Just("a`b".to_string()),
        "[a-c]{1,3}",
        "\\PC{0,20}",
        (1usize..400).prop_map(|n| "m".repeat(n)),
    ]
}

/// Any JSON value, numbers of every magnitude included.
fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from), // NaN and ±inf become null
        prop_oneof![Just(1e308), Just(-1e308), Just(5e-324), Just(0.0), Just(-0.0)].prop_map(Value::from),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((text(), inner), 0..8).prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

/// A metrics map: many names (past evodb's 1,000 at times), long names, values of any kind.
fn metrics_map() -> impl Strategy<Value = Value> {
    prop_oneof![
        json(),
        prop::collection::vec((text(), json()), 0..20).prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        (990usize..1010).prop_map(|n| Value::Object((0..n).map(|i| (format!("m{i}"), Value::from(i))).collect())),
    ]
}

/// An OpenEvolve program file's JSON: the known fields, each of any value (or missing), and
/// whatever else.
fn program_json(ids: usize) -> impl Strategy<Value = Value> {
    let id = (0..ids).prop_map(|i| Value::String(format!("p{i}")));
    (
        prop_oneof![4 => id.clone(), 1 => json()],
        prop_oneof![4 => text().prop_map(Value::String), 1 => json()],
        prop_oneof![2 => Just(Value::Null), 3 => id, 1 => json()],
        metrics_map(),
        json(),
        json(),
        json(),
    )
        .prop_map(|(id, code, parent, metrics, iteration, timestamp, metadata)| {
            let mut program = Map::new();
            for (key, value) in [
                ("id", id),
                ("code", code),
                ("parent_id", parent),
                ("metrics", metrics),
                ("iteration_found", iteration),
                ("timestamp", timestamp),
                ("metadata", metadata),
            ] {
                program.insert(key.into(), value);
            }
            Value::Object(program)
        })
}

/// Reads, checks and replays a run in the engine itself: errors are fine, panics are not.
fn import(source: SourceRun) {
    let Ok((config, requests)) = prepare(&source, Path::new("run")) else { return };
    let config = evodb_core::Config::from_json(&config.to_string()).expect("prepare checked the config");
    let mut db = evodb_core::Database::new(config, 0).expect("a checked config makes a database");
    db.record_events(true);
    for (request, clock, _) in requests {
        assert!(clock.is_finite(), "a clock the engine would refuse as `now`");
        let _ = db.add(request, clock);
    }
    assert!(evodb_core::Database::validate_json(&db.to_json()).len() < usize::MAX);
}

/// Any SQLite value: every storage class.
fn cell() -> impl Strategy<Value = Sql> {
    prop_oneof![
        Just(Sql::Null),
        any::<i64>().prop_map(Sql::Integer),
        any::<f64>().prop_map(Sql::Real),
        text().prop_map(Sql::Text),
        json().prop_map(|v| Sql::Text(v.to_string())),
        prop::collection::vec(any::<u8>(), 0..16).prop_map(Sql::Blob),
        text().prop_map(|t| Sql::Blob(t.into_bytes())),
    ]
}

const SHINKA_COLUMNS: [&str; 13] = [
    "id",
    "code",
    "language",
    "parent_id",
    "generation",
    "timestamp",
    "combined_score",
    "public_metrics",
    "private_metrics",
    "text_feedback",
    "correct",
    "metadata",
    "island_idx",
];

/// 256 cases a target, or `PROPTEST_CASES`.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|cases| cases.parse().ok()).unwrap_or(256);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn python_json_parses_any_text_without_panicking(text in "\\PC{0,64}", value in json()) {
        let _ = py_json::parse(&text);
        // Python's bare non-finite numbers, wherever a value may stand, read as null.
        let python = value.to_string().replace("null", "NaN");
        prop_assert!(py_json::parse(&python).is_ok(), "{python}");
    }

    #[test]
    fn any_metrics_map_splits_into_finite_numbers_and_bounded_text(map in metrics_map(), prefix in text()) {
        let (numbers, other) = py_json::metrics(Some(&map), &prefix);
        prop_assert!(numbers.iter().all(|(_, v)| v.is_finite()));
        prop_assert!(other.iter().all(|line| line.len() <= prefix.len() + 400 + 2_100), "a described metric is cut");
    }

    #[test]
    fn any_openevolve_programs_import_or_are_refused(programs in prop::collection::vec(program_json(6), 1..8), islands in 1u32..80) {
        let island_of = HashMap::from([("p0".to_string(), 1), ("p1".to_string(), i64::MAX)]);
        let mut read = Vec::new();
        for value in &programs {
            if let Ok(program) = openevolve::program(value, Path::new("programs/x.json"), &island_of, islands) {
                prop_assert!(program.island < islands && program.timestamp.is_finite());
                read.push(program);
            }
        }
        let source = SourceRun {
            tool: "openevolve",
            islands,
            programs: read,
            fitness: serde_json::json!({"kind": "mean"}),
            migration_interval: 50,
            archive_size: 0,
            warnings: Vec::new(),
        };
        prop_assert_eq!(lineage_order(&source.programs).len(), source.programs.len());
        import(source);
    }

    #[test]
    fn any_shinka_rows_import_or_are_refused(rows in prop::collection::vec(prop::collection::vec(cell(), 13), 1..8)) {
        let connection = rusqlite::Connection::open_in_memory().unwrap();
        // No declared types: every value keeps the storage class it was given.
        connection.execute_batch(&format!("CREATE TABLE programs ({});", SHINKA_COLUMNS.join(", "))).unwrap();
        for row in &rows {
            let marks = vec!["?"; SHINKA_COLUMNS.len()].join(", ");
            connection
                .execute(&format!("INSERT INTO programs VALUES ({marks})"), rusqlite::params_from_iter(row.iter()))
                .unwrap();
        }
        let reading = Reading::with(Duration::from_secs(60), 1 << 30);
        if let Ok(source) = shinka::read_from(&connection, Path::new("run.sqlite"), &reading) {
            prop_assert!(source.programs.iter().all(|p| p.island < source.islands && p.timestamp.is_finite()));
            import(source);
        }
    }
}
