//! Records the native core's results into `tests/vectors/NN-name.json`, and the same vectors as
//! WIT calls into `tests/wit-calls.json`.
//!
//! `cargo run -p evodb-conformance --bin bless` — run it after an intended behaviour change,
//! review the diff of `tests/vectors/`, and commit both.

use evodb_conformance::wit_calls::{WIT_CALLS_FILE, wit_calls};
use evodb_conformance::{VECTOR_COUNT, load_vectors, replay, specs, vectors_dir};
use evodb_core::json_text::to_pretty_js;

fn main() {
    let dir = vectors_dir();
    std::fs::create_dir_all(&dir).expect("create tests/vectors");
    for old in std::fs::read_dir(&dir).expect("read tests/vectors") {
        let path = old.expect("entry").path();
        if path.extension().is_some_and(|ext| ext == "json") {
            std::fs::remove_file(path).expect("remove old vector");
        }
    }
    let specs = specs::all();
    assert_eq!(specs.len(), VECTOR_COUNT, "update VECTOR_COUNT with the number of specs");
    for (i, mut vector) in specs.into_iter().enumerate() {
        vector.expected = Some(replay(&vector).expected);
        let path = dir.join(format!("{:02}-{}.json", i + 1, vector.name));
        std::fs::write(&path, to_pretty_js(&vector) + "\n").expect("write vector");
        println!("{}", path.display());
    }
    // The same vectors as WIT calls, for the jco and wasmtime-py runners: from the files as
    // written, so numbers are as every runner reads them (`1.0` is `1`).
    let vectors: Vec<_> = load_vectors().into_iter().map(|(_, vector)| vector).collect();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(WIT_CALLS_FILE);
    std::fs::write(&path, to_pretty_js(&wit_calls(&vectors)) + "\n").expect("write the WIT calls");
    println!("{}", path.display());
}
