#!/usr/bin/env bash
# Every test of the project — the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Core unit, rule, seed-file, resume and property tests; doc examples.
cargo test --workspace --exclude evodb-conformance 2>&1 | tee -a "$log"
# Conformance vectors through the native core (prints how many it ran).
cargo test -p evodb-conformance -- --nocapture 2>&1 | tee -a "$log"
# The main job still runs end to end.
cargo run --release -q -p evodb-core --example demo -- --iterations 5 --out target/demo-smoke >/dev/null
test -s target/demo-smoke/database/database.json
echo "demo smoke run: ok"

# One closing line over every suite above.
awk '/^test result:/ { passed += $4; failed += $6 } END { printf "all suites: %d passed, %d failed\n", passed, failed }' "$log"
