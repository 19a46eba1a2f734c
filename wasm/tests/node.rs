//! Every conformance vector through the wasm-bindgen face, in Node.
#![cfg(target_arch = "wasm32")]

mod common;

use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn every_vector_replays_identically_in_node() {
    common::replay_every_vector("node");
}
