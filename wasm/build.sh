#!/usr/bin/env bash
# Builds the wasm-bindgen npm package into wasm/pkg/ (node/ and web/ builds + package.json)
# and prints the size of the wasm module.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build -q -p evodb-wasm --target wasm32-unknown-unknown --profile wasm-release
module=target/wasm32-unknown-unknown/wasm-release/evodb_wasm.wasm
rm -rf wasm/pkg
wasm-bindgen "$module" --remove-name-section --remove-producers-section --target nodejs --out-dir wasm/pkg/node --out-name evodb
wasm-bindgen "$module" --remove-name-section --remove-producers-section --target web --out-dir wasm/pkg/web --out-name evodb
cp wasm/package.json.in wasm/pkg/package.json
echo "{\"artifact\":\"wasm/pkg/node/evodb_bg.wasm\",\"bytes\":$(stat -c %s wasm/pkg/node/evodb_bg.wasm),\"target_bytes\":256000}"
