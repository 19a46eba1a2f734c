//! The conformance vectors through the component under wasmtime: the `pure` world's component
//! and the `population` export of the `with-store` component.

mod common;

use common::{Wasmtime, load};
use evodb_conformance::{VECTOR_COUNT, embedded_vectors, replay_all};
use evodb_host::Host;

#[test]
fn every_vector_replays_identically_through_the_pure_component() {
    let host = Host::new().unwrap();
    let component = load(&host, "evodb-pure.wasm");
    let ran = replay_all(&mut Wasmtime::new(&host, &component), &embedded_vectors());
    println!("component (wasmtime, pure world): ran {ran} conformance vectors");
    assert_eq!(ran, VECTOR_COUNT);
}

#[test]
fn every_vector_replays_identically_through_the_store_component() {
    let host = Host::new().unwrap();
    let component = load(&host, "evodb-store.wasm");
    let ran = replay_all(&mut Wasmtime::new(&host, &component), &embedded_vectors());
    println!("component (wasmtime, with-store world): ran {ran} conformance vectors");
    assert_eq!(ran, VECTOR_COUNT);
}

#[test]
fn the_pure_component_imports_nothing() {
    let host = Host::new().unwrap();
    let component = load(&host, "evodb-pure.wasm");
    let imports: Vec<String> =
        component.component_type().imports(host.engine()).map(|(name, _)| name.to_string()).collect();
    assert!(imports.is_empty(), "the pure world must have no imports, found {imports:?}");
}
