//! The wasmtime settings of every engine that runs the component. `build.rs` includes this file
//! too: machine code precompiled at build time loads only into an engine configured the same way.

/// Epoch interruption bounds each call's wall time ([`crate::Limits`]); everything else is
/// wasmtime's default.
pub fn engine_config() -> wasmtime::Config {
    let mut config = wasmtime::Config::new();
    config.epoch_interruption(true);
    config
}
