//! The WIT and the core agree: every record and enum of the core's field list
//! (`evodb_core::face_shapes!`) is in `wit/population.wit` with the same fields or cases in the
//! same order, and the generated WIT calls file is current.

use std::path::Path;

use evodb_conformance::wit_calls::{WIT_CALLS_FILE, shapes, wit_calls};
use evodb_conformance::{VECTOR_COUNT, load_vectors};
use evodb_core::json_text::to_pretty_js;
use wit_parser::{Resolve, TypeDefKind};

/// Record and enum names of the `population` interface with their fields or cases.
fn wit_shapes() -> Vec<(String, Vec<String>)> {
    let mut resolve = Resolve::default();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../wit");
    resolve.push_dir(&dir).expect("wit/ parses");
    let (_, interface) = resolve
        .interfaces
        .iter()
        .find(|(_, i)| i.name.as_deref() == Some("population"))
        .expect("the population interface");
    interface
        .types
        .iter()
        .filter_map(|(name, id)| match &resolve.types[*id].kind {
            TypeDefKind::Record(r) => Some((name.clone(), r.fields.iter().map(|f| f.name.clone()).collect())),
            TypeDefKind::Enum(e) => Some((name.clone(), e.cases.iter().map(|c| c.name.clone()).collect())),
            _ => None,
        })
        .collect()
}

#[test]
fn every_wit_record_and_enum_is_the_cores() {
    let mut core = shapes();
    let mut wit = wit_shapes();
    assert!(wit.len() >= 18, "found {} records and enums in the WIT", wit.len());
    core.sort();
    wit.sort();
    let core_names: Vec<&String> = core.iter().map(|(n, _)| n).collect();
    let wit_names: Vec<&String> = wit.iter().map(|(n, _)| n).collect();
    assert_eq!(core_names, wit_names, "records and enums: the core's field list vs wit/population.wit");
    for ((name, core_fields), (_, wit_fields)) in core.iter().zip(&wit) {
        assert_eq!(core_fields, wit_fields, "`{name}`: the core's fields vs the WIT's, in order");
    }
}

#[test]
fn the_wit_calls_file_is_current() {
    let vectors: Vec<_> = load_vectors().into_iter().map(|(_, v)| v).collect();
    assert_eq!(vectors.len(), VECTOR_COUNT);
    let generated = to_pretty_js(&wit_calls(&vectors)) + "\n";
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(WIT_CALLS_FILE);
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    if stored != generated {
        let _ = std::fs::write(std::env::temp_dir().join("wit-calls.generated.json"), &generated);
    }
    assert!(stored == generated, "{} is stale: run `cargo run -p evodb-conformance --bin bless`", path.display());
    let file: serde_json::Value = serde_json::from_str(&stored).unwrap();
    assert_eq!(file["vectorCount"], VECTOR_COUNT);
}
