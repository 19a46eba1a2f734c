//! evodb as a WebAssembly component: the `evodb:population` WIT worlds over `evodb-core`.
//! Thin translation only — typed WIT records in and out, every rule lives in the core.
//!
//! - default build: the `pure` world, componentized with no imports;
//! - `--features store`: the `with-store` world, whose `store` interface loads and saves the
//!   database through the host's `files` import (two named files, no WASI).
//!
//! Both build for `wasm32-unknown-unknown`: nothing here needs an operating system.

// wit-bindgen generates the canonical-ABI glue (exported `unsafe extern` functions) into this
// crate; the hand-written modules hold no unsafe code.
#![allow(unsafe_code)]

#[cfg(not(feature = "store"))]
wit_bindgen::generate!({ world: "pure", path: "../../wit" });
#[cfg(feature = "store")]
wit_bindgen::generate!({ world: "with-store", path: "../../wit" });

mod convert;
mod database;
#[cfg(feature = "store")]
mod store;

struct Component;

export!(Component);
