//! Replays every conformance vector through the native core.

use evodb_conformance::{Native, VECTOR_COUNT, embedded_vectors, load_vectors, replay_all, specs};
use evodb_core::json_text::to_compact_js;

#[test]
fn every_vector_replays_identically_on_native() {
    let vectors: Vec<_> = load_vectors().into_iter().map(|(_, vector)| vector).collect();
    let ran = replay_all(&mut Native, &vectors);
    println!("native: ran {ran} conformance vectors");
    assert_eq!(ran, VECTOR_COUNT, "expected {VECTOR_COUNT} vectors in tests/vectors");
}

#[test]
fn vector_files_hold_the_current_specs() {
    // A spec edited without re-blessing would leave the files testing something else.
    let files = load_vectors();
    let specs = specs::all();
    assert_eq!(files.len(), specs.len());
    for ((_, file), spec) in files.iter().zip(&specs) {
        let inputs = |v: &evodb_conformance::Vector| {
            to_compact_js(&(&v.name, v.seed, &v.ops, &v.config, &v.initial, &v.initial_text))
        };
        assert_eq!(inputs(file), inputs(spec), "{}: re-run bless", spec.name);
    }
}

#[test]
fn the_embedded_vectors_are_the_files() {
    let files: Vec<_> = load_vectors().into_iter().map(|(_, v)| to_compact_js(&v)).collect();
    let embedded: Vec<_> = embedded_vectors().iter().map(to_compact_js).collect();
    assert_eq!(files, embedded);
}
