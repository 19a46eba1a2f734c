//! The command-line rules the Node drop-in shares with `evodb`: `configFromFlags` (init's flags →
//! the config) and `checkSeed` (the PRNG seed's range). Both are the core's; this only
//! translates.

use evodb_core::{ConfigFlags, Database, FlagError};
use wasm_bindgen::prelude::*;

use crate::{error, stringify, to_js_error};

/// `configFromFlags(flags, program)`: the config JSON text `init`'s flags give, for
/// `new Database(JSON.parse(text), seed)` to validate. Throws an `EvodbError` whose `code` is
/// `usage` (a flag's form: exit 2) or `invalid-input` (a value that is not JSON: exit 1).
///
/// ```js
/// configFromFlags({ scalars: [["numIslands", "4"]], fitness: "primary:score" }, "db-cli.mjs");
/// // '{"numIslands":4,"fitness":{"kind":"primary","metric":"score"}}'
/// ```
#[wasm_bindgen(js_name = configFromFlags)]
pub fn config_from_flags(
    #[wasm_bindgen(unchecked_param_type = "ConfigFlags")] flags: JsValue,
    program: &str,
) -> Result<String, JsValue> {
    let flags: ConfigFlags = serde_json::from_str(&stringify(&flags)?)
        .map_err(|e| error("invalid-input", &format!("invalid input: the flags are not ConfigFlags ({e})")))?;
    evodb_core::config_from_flags(&flags, program).map_err(|e| match e {
        FlagError::Usage(message) => error("usage", &message),
        FlagError::BadInput(message) => error("invalid-input", &message),
    })
}

/// `checkSeed(seed)`: refuses a PRNG seed (decimal text, any size) above 2^53-1, the most a
/// database keeps exact in every face.
///
/// ```js
/// checkSeed("9007199254740993"); // throws EvodbError: invalid config: `seed` is 9007199254740993; …
/// ```
#[wasm_bindgen(js_name = checkSeed)]
pub fn check_seed(seed: &str) -> Result<(), JsValue> {
    let seed: u64 = seed.parse().map_err(|_| {
        error("invalid-config", &format!("invalid config: `seed` is {seed}; pass an integer from 0 to 2^53-1"))
    })?;
    Database::check_seed(seed).map_err(to_js_error)
}
