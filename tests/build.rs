//! Compiles the vector files into the library (`embedded_vectors`), for runners that have no
//! file system — wasm-bindgen tests in Node and in a browser.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/vectors exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    paths.sort();
    let mut code = String::from("[\n");
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy();
        writeln!(code, "    ({name:?}, include_str!({:?})),", path.display().to_string()).unwrap();
    }
    code.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("embedded_vectors.rs");
    std::fs::write(out, code).expect("write embedded_vectors.rs");
}
