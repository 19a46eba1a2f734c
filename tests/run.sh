#!/usr/bin/env bash
# Every test of the project — the README's test command. Installs what it needs first
# (the wasm32 target and the pinned wasm-bindgen CLI) when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
if ! wasm-bindgen --version 2>/dev/null | grep -q ' 0\.2\.130'; then
  # No --locked: the CLI's lockfile names a yanked crate (see shared TOOLCHAIN notes).
  cargo install wasm-bindgen-cli --version =0.2.130
fi

# Core unit, rule, seed-file, resume and property tests; doc examples.
cargo test --workspace --exclude evodb-conformance 2>&1 | tee -a "$log"
# Conformance vectors through the native core (prints how many it ran).
cargo test -p evodb-conformance -- --nocapture 2>&1 | tee -a "$log"
# The same vectors through the wasm-bindgen package in Node.
wasm/build.sh
node --test wasm/tests/ 2>&1 | tee -a "$log"
# The main job still runs end to end.
cargo run --release -q -p evodb-core --example demo -- --iterations 5 --out target/demo-smoke >/dev/null
test -s target/demo-smoke/database/database.json
echo "demo smoke run: ok"

# One closing line over every suite above (cargo's "test result:" lines, node's "# pass/# fail").
awk '/^test result:/ { passed += $4; failed += $6 }
     /^# pass / { passed += $3 } /^# fail / { failed += $3 }
     END { printf "all suites: %d passed, %d failed\n", passed, failed }' "$log"
