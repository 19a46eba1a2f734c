//! Core ↔ WIT: every record and enum converted by the code `evodb_core::bridge!` generates from
//! the core's one field list, and the one error conversion.

use evodb_core::api::{IntoCore, IntoFace};

use crate::exports::evodb::population::population as wit;

evodb_core::bridge!();

/// Exhaustive, so a new core error cannot silently arrive as another case.
pub(crate) fn error(err: evodb_core::Error) -> wit::Error {
    use evodb_core::Error as E;
    let message = err.to_string();
    match err {
        E::InvalidConfig { .. } => wit::Error::InvalidConfig(message),
        E::InvalidInput { .. } => wit::Error::InvalidInput(message),
        E::DuplicateId(_) => wit::Error::DuplicateId(message),
        E::CorruptDatabase { .. } => wit::Error::CorruptDatabase(message),
    }
}

/// A core value as its WIT record.
pub(crate) fn out<C: IntoFace<W>, W>(value: C) -> W {
    value.into_face()
}

/// A WIT record as the core's value; fails with the core's own message (e.g. a NaN metric).
pub(crate) fn into<W: IntoCore<C>, C>(value: W) -> Result<C, wit::Error> {
    value.into_core().map_err(error)
}
