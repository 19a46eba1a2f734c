//! The wasm-bindgen face of evodb: a `Database` class with camelCase methods, plain JS objects in
//! and out, and errors thrown as `EvodbError` (an `Error` with a machine-readable `code`).
//! Thin translation only: every rule lives in `evodb-core`. Inputs cross the boundary as JSON
//! text (`JSON.stringify`, then the core's parser, whose errors name the field); results are
//! built as plain JS objects straight from the core's serde shapes (serde-wasm-bindgen, in its
//! JSON-compatible mode: `null` for `None`, maps as objects), so their keys, order and `null`s
//! are exactly what the core's JSON text holds, without writing and re-parsing that text.
//!
//! Typed: the core's `typescript` feature derives a TypeScript declaration for each of its JSON
//! types (tsify, from the serde attributes), and each export names them with
//! `unchecked_param_type`/`unchecked_return_type`, so the `.d.ts` says `add(request: AddRequest,
//! now: number): AddOutcome`. The declarations reach the `.d.ts` through custom sections that the
//! wasm-release profile's LTO keeps; wasm/tests/package.test.mjs compiles against them with
//! `tsc --strict`, so a missing or misnamed one fails there.

mod convert;
mod database;
mod flags;
mod policy;
mod replay;
mod signatures;
mod simulation;
pub use database::Database;
pub use flags::{add_request_from_flags, check_add_flags, check_seed, config_from_flags};
pub use policy::policy_check;
pub use replay::Replay;
pub use signatures::CodeSignatures;
pub use simulation::Simulation;
