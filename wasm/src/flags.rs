//! The command-line rules the Node drop-in shares with `evodb`: `configFromFlags` (init's flags →
//! the config), `checkAddFlags` and `addRequestFromFlags` (`seed`'s and `add`'s flags → the add
//! request), `embeddingFromFlag` (`--embedding`'s text) and `checkSeed` (the PRNG seed's range). All are the core's; this only translates.

use evodb_core::{AddCommand, AddFlags, ConfigFlags, Database, FlagError};
use wasm_bindgen::prelude::*;

use crate::convert::{error, stringify, to_js, to_js_error};

fn flag_error(err: FlagError) -> JsValue {
    match err {
        FlagError::Usage(message) => error("usage", &message),
        FlagError::BadInput(message) => error("invalid-input", &message),
    }
}

fn add_command(command: &str) -> Result<AddCommand, JsValue> {
    match command {
        "seed" => Ok(AddCommand::Seed),
        "add" => Ok(AddCommand::Add),
        other => Err(error("invalid-input", &format!("invalid input: `{other}` is not `seed` or `add`"))),
    }
}

/// `checkAddFlags(command, given)`: refuses the first flag `seed` or `add` requires that `given`
/// (the flag names on the command line) lacks, in the seed's order, before any file is read.
/// Throws an `EvodbError` with `code` `usage` and the seed's message.
///
/// ```js
/// checkAddFlags("add", ["codePath", "targetCodeFile", "metrics"]);
/// // throws EvodbError: Missing required flag: --parentId
/// ```
#[wasm_bindgen(js_name = checkAddFlags)]
pub fn check_add_flags(command: &str, given: Vec<String>) -> Result<(), JsValue> {
    let given: Vec<&str> = given.iter().map(String::as_str).collect();
    add_command(command)?.check_required(&given).map_err(flag_error)
}

/// `addRequestFromFlags(command, flags)`: the add request `seed`'s or `add`'s flags give (files
/// already read), checked with the engine's own rules; throws an `EvodbError` (`usage` for a
/// missing flag, `invalid-input` naming the field otherwise).
///
/// ```js
/// addRequestFromFlags("seed", { codePath: "a.py", targetCode: "x = 1", metrics: '{"score": 1}' });
/// // { codePath: "a.py", targetCode: "x = 1", parentId: "0", metrics: { score: 1 }, changes: "initial implementation" }
/// ```
#[wasm_bindgen(js_name = addRequestFromFlags, unchecked_return_type = "AddRequest")]
pub fn add_request_from_flags(
    command: &str,
    #[wasm_bindgen(unchecked_param_type = "AddFlags")] flags: JsValue,
) -> Result<JsValue, JsValue> {
    let flags: AddFlags = serde_json::from_str(&stringify(&flags)?)
        .map_err(|e| error("invalid-input", &format!("invalid input: the flags are not AddFlags ({e})")))?;
    to_js(&evodb_core::add_request_from_flags(add_command(command)?, &flags).map_err(flag_error)?)
}

/// `embeddingFromFlag(text)`: `--embedding`'s JSON text as the list of numbers it gives; throws
/// an `EvodbError` (`invalid-input`) for text that is no such list.
///
/// ```js
/// embeddingFromFlag("[0.5, -1]"); // [0.5, -1]
/// ```
#[wasm_bindgen(js_name = embeddingFromFlag)]
pub fn embedding_from_flag(text: &str) -> Result<Vec<f64>, JsValue> {
    evodb_core::embedding_from_flag(text).map_err(flag_error)
}

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
    evodb_core::config_from_flags(&flags, program).map_err(flag_error)
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
