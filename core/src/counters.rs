//! The one rule for the database's counters (`lastIteration`, island generations,
//! `lastMigrationGeneration`, a program's `generation`, `iterationFound` and `seq`): integers up to
//! 2^53 − 1, JavaScript's `Number.MAX_SAFE_INTEGER`. Every face then reads and prints the same
//! number (a Node reader would round 2^53 + 1 to 2^53), and no counter wraps: a file holding a
//! larger one is refused on load, and an add that would pass the limit is refused before anything
//! changes.

use crate::error::{Error, Result};

/// The largest counter value: 2^53 − 1.
pub const MAX_COUNTER: u64 = (1 << 53) - 1;

/// A stored counter, checked on load.
pub(crate) fn check_stored(field: &str, value: u64) -> Result<()> {
    match value <= MAX_COUNTER {
        true => Ok(()),
        false => Err(Error::corrupt(format!(
            "`{field}` is {value}, above 2^53 − 1 ({MAX_COUNTER}), the largest counter evodb keeps exact on every face"
        ))),
    }
}

/// `value + 1`, or the error that the counter named by `field()` would overflow (named lazily:
/// this runs on every add).
pub(crate) fn next<F: std::fmt::Display>(field: impl FnOnce() -> F, value: u64) -> Result<u64> {
    match value < MAX_COUNTER {
        true => Ok(value + 1),
        false => Err(Error::input(
            field().to_string(),
            format!("is {value} and would overflow past 2^53 − 1; this run cannot grow further — start a new database"),
        )),
    }
}
