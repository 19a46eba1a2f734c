//! Crossing the boundary: JS values in as the core's JSON text, results out as plain objects,
//! and the one error conversion (`EvodbError` with the core's `code`).

use evodb_core::Config;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A config object, or the defaults when it is `undefined`/`null`.
pub(crate) fn config_from(config: &JsValue) -> Result<Config, JsValue> {
    if config.is_undefined() || config.is_null() {
        return Ok(Config::default());
    }
    Config::from_json(&stringify(config)?).map_err(to_js_error)
}

pub(crate) fn seed_from(seed: Option<f64>) -> Result<u64, JsValue> {
    match seed {
        None => Ok(0),
        Some(s) if s >= 0.0 && s.fract() == 0.0 => {
            // The range is the core's rule (`Database::check_seed`), as every face's.
            evodb_core::Database::check_seed(s as u64).map_err(to_js_error)?;
            Ok(s as u64)
        }
        Some(s) => Err(error("invalid-config", &format!("invalid config: `seed` is {s}; pass a non-negative integer"))),
    }
}

pub(crate) fn stringify(value: &JsValue) -> Result<String, JsValue> {
    js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()).ok_or_else(|| {
        error("invalid-input", "invalid input: the value cannot be written as JSON; pass a plain object")
    })
}

/// A result as a plain object. Serializing to objects directly skips JSON text, which cost as
/// much as the engine's own work (writing it here, `JSON.parse` in JS).
pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(Into::into)
}

/// The one error conversion: an `Error` named `EvodbError` with the core's `code`.
pub(crate) fn to_js_error(err: evodb_core::Error) -> JsValue {
    error(err.code(), &err.to_string())
}

pub(crate) fn error(code: &str, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    err.set_name("EvodbError");
    js_sys::Reflect::set(&err, &"code".into(), &code.into()).expect("an Error accepts properties");
    err.into()
}
