//! The `with-store` world's Rust bindings (wasmtime's `bindgen!` over `wit/`), and the two
//! exported interfaces by their short names.

wasmtime::component::bindgen!({ world: "with-store", path: "../wit" });

pub use exports::evodb::population::{population, store};
