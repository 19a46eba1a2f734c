//! The evodb host: runs the evodb component under wasmtime. An instance of the `with-store`
//! world can read and commit the two files of one database directory through the host's `files`
//! import, and reach nothing else: no WASI, so no file system, environment, clock or network. Every call runs under a time budget (epoch interruption) and a memory
//! cap, and writers hold an exclusive lock on the directory around their read-modify-write.
//!
//! The `evodb` binary (`src/bin/evodb/`) is built on these pieces:
//! - [`Host`]: engine, linker, limits; [`Host::call`] turns traps into [`HostError`]s;
//! - [`embedded`]: the component and its machine code, both built into the binary;
//! - [`DatabaseDir`]: the database directory, resolved, created and locked.
//!
//! `evodb trial`, `apply` and git mode need no component: they are the `evodb-trial` crate.

pub mod bindings;
pub mod bridge;
mod directory;
pub mod embedded;
mod engine_config;
mod error;
pub mod history;
pub mod postgres;
mod runtime;
pub mod storage;
mod watchdog;

pub use bindings::{population, store};
pub use directory::{Access, DATABASE_FILE, DatabaseDir, DirectoryFiles};
pub use error::HostError;
/// The rule every file evodb opens follows (`evodb-safe-files`), for the binary's readers.
pub use evodb_safe_files::{describe_file_type, open_regular};
pub use runtime::{Host, Limits, State};
pub use storage::{Files, FilesError, History, NoFiles, Position};
