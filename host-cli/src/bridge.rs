//! WIT records ↔ the core's types, by the code `evodb_core::bridge!` generates from the core's one
//! field list; and one line of JSON, numbers written as JavaScript writes them. The CLI prints
//! the core's types, so its output has the seed CLI's JSON shapes.

use evodb_core::api::{IntoCore, IntoFace};
use evodb_core::json_text::to_compact_js;
use serde::Serialize;

use crate::bindings::population as wit;

evodb_core::bridge!();

pub fn json(value: &impl Serialize) -> String {
    to_compact_js(value)
}

/// A record from the component as the core's value. The component checked every value with the
/// core's own rules before returning it, so this cannot fail.
pub fn core<W: IntoCore<C>, C>(value: W) -> C {
    value.into_core().expect("the component returns values the core accepts")
}

/// A core value (a request) as the component's record.
pub fn wit<C: IntoFace<W>, W>(value: C) -> W {
    value.into_face()
}
