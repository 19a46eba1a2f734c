//! Replays every conformance vector through the native core.

use evodb_conformance::{VECTOR_COUNT, load_vectors, replay, specs};
use evodb_core::json_text::{to_compact_js, to_pretty_js};

#[test]
fn every_vector_replays_identically_on_native() {
    let vectors = load_vectors();
    let mut ran = 0;
    for (path, vector) in &vectors {
        let expected = vector.expected.as_ref().unwrap_or_else(|| panic!("{}: no expected results", path.display()));
        let replayed = replay(vector);
        assert_eq!(replayed.expected.create_error, expected.create_error, "{}: create error", vector.name);
        let (got, want) = (replayed.expected.results.unwrap_or_default(), expected.results.clone().unwrap_or_default());
        assert_eq!(got.len(), want.len(), "{}: result count", vector.name);
        for (i, (got, want)) in got.iter().zip(&want).enumerate() {
            // Compared as JavaScript would print them: key order matters, 1 and 1.0 are one number.
            assert_eq!(to_compact_js(got), to_compact_js(want), "{}: op {i} ({})", vector.name, vector.ops[i]);
        }
        if let Some(database) = &expected.database {
            assert_eq!(
                replayed.database_text.as_deref(),
                Some(to_pretty_js(database).as_str()),
                "{}: database bytes",
                vector.name
            );
        }
        ran += 1;
    }
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
