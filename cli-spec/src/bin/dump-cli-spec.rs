//! Prints the command-line table as JSON (`cargo run -p evodb-cli-spec --bin dump-cli-spec`);
//! wasm/build.sh writes it to the npm package and the skill's `evodb-wasm/cli.json`.

use std::io::Write;

fn main() {
    let _ = std::io::stdout().write_all(evodb_cli_spec::to_json().as_bytes());
}
