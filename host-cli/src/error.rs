//! What can go wrong around a component call, beyond the database's own errors.

use std::time::Duration;

use crate::bindings::population;

#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The database refused the operation (bad input, corrupt file, IO inside the sandbox).
    #[error("{}", database_message(.0))]
    Database(population::Error),
    #[error(
        "database operation exceeded its time budget ({} ms); a very large database may need more: pass --timeBudgetMs",
        .0.as_millis()
    )]
    TimeBudget(Duration),
    #[error(
        "database operation exceeded its memory cap ({} MiB); a very large database may need more: pass --memoryLimitMb",
        .0 >> 20
    )]
    MemoryCap(usize),
    /// The engine could not reserve the sandbox's virtual address space: a `ulimit -v` below what
    /// wasmtime reserves for a 32-bit linear memory and its guard (4 GiB of address space, not of
    /// RAM). Reserving less would make every memory access of the engine bounds-checked.
    #[error(
        "the database engine could not reserve its sandbox's address space ({0}): evodb reserves about 4 GiB of \
         virtual memory (address space, not RAM); raise the address-space limit to at least 5 GiB (ulimit -v \
         5242880) or lift it (ulimit -v unlimited)"
    )]
    AddressSpace(String),
    /// The component trapped for another reason: a bug in evodb, never the caller's input.
    #[error("the database component failed ({0}); this is a bug in evodb, please report it")]
    Trap(String),
    /// The host could not set up the call (directory, lock, engine).
    #[error("{0}")]
    Io(String),
    /// The operation's time budget ran out outside the component (a PostgreSQL statement or a
    /// wait for the run's lock); nothing was saved.
    #[error("{0}")]
    Deadline(String),
}

fn database_message(err: &population::Error) -> &str {
    use population::Error as E;
    match err {
        E::InvalidConfig(m) | E::InvalidInput(m) | E::DuplicateId(m) | E::CorruptDatabase(m) | E::Io(m) => m,
    }
}
