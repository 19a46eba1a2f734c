//! Every conformance vector through the wasm-bindgen face, in headless Chromium.
#![cfg(target_arch = "wasm32")]

mod common;

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn every_vector_replays_identically_in_chromium() {
    common::replay_every_vector("chromium");
}
