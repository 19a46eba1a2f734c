//! The conformance vectors through the `population` export of the `with-store` component under
//! wasmtime, as the `evodb` binary runs it. (The `pure` world's component is replayed by the jco
//! and wasmtime-py runners in `wasm/tests/`.)

use crate::common;

use common::{Wasmtime, load};
use evodb_conformance::{VECTOR_COUNT, embedded_vectors, replay_all};
use evodb_host::Host;

#[test]
fn every_vector_replays_identically_through_the_store_component() {
    let host = Host::new().unwrap();
    let component = load(&host);
    let ran = replay_all(&mut Wasmtime::new(&host, &component), &embedded_vectors());
    println!("component (wasmtime, with-store world): ran {ran} conformance vectors");
    assert_eq!(ran, VECTOR_COUNT);
}
