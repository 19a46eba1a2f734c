//! The component the `evodb` binary runs, built into it by `build.rs`: the component itself and
//! its machine code, precompiled for this architecture's baseline CPU with the runtime's engine
//! settings. Loading the machine code costs a copy and a few page-protection calls (compiling
//! cost ~0.4 s a process), so no call compiles anything, nothing is cached on disk, and the
//! binary carries no compiler.

use wasmtime::component::Component;

use crate::runtime::Host;

/// The `with-store` component.
pub const COMPONENT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/evodb-store.wasm"));
/// [`COMPONENT`] compiled by wasmtime at build time.
pub const MACHINE_CODE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/evodb-store.cwasm"));
/// SHA-256 of [`COMPONENT`], hex.
pub const COMPONENT_SHA256: &str = env!("EVODB_COMPONENT_SHA256");
/// The wasmtime version that compiled [`MACHINE_CODE`] and runs it.
pub const WASMTIME_VERSION: &str = env!("EVODB_WASMTIME_VERSION");

/// The component, from [`MACHINE_CODE`].
#[allow(unsafe_code)] // the one unsafe call in evodb: see SAFETY below
pub fn load(host: &Host) -> wasmtime::Result<Component> {
    // SAFETY: MACHINE_CODE is what `Engine::precompile_component` produced in build.rs, with this
    // wasmtime and `engine_config`; wasmtime checks the version, the settings and the CPU features
    // again before using it, and refuses code that does not fit.
    unsafe { Component::deserialize(host.engine(), MACHINE_CODE) }.map_err(|e| {
        e.context("the machine code built into evodb does not fit this machine; rebuild evodb here (cargo install --path host-cli)")
    })
}
