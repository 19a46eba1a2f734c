#!/usr/bin/env bash
# Every test of the project — the README's test command. Installs what it needs first when it
# is missing: Debian's chromium + chromium-driver (as root), Python venvs (wasmtime, pytest, the evodb
# package's wheel and its test requirements),
# and (through wasm/build.sh) the wasm32 targets, the pinned wasm-bindgen CLI and the npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Suites that compare with the native evodb fail, instead of skipping, when it is missing.
export EVODB_REQUIRE_NATIVE=1

# --- the documentation's links (a second; Node only) -------------------------------------------
node tests/links.mjs

# --- what the suites need -----------------------------------------------------------------
# (wasm/build.sh installs the wasm32 targets, the wasm-bindgen CLI and the npm packages.)
if ! command -v chromedriver >/dev/null || ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  else
    echo "tests/run.sh: the browser suite needs chromium and chromedriver: sudo apt-get install chromium chromium-driver" >&2
    exit 1
  fi
fi
# PostgreSQL's server binaries (initdb, pg_ctl): host-cli/tests/cli_stores.rs starts a throwaway
# cluster of its own; EVODB_REQUIRE_POSTGRES makes a missing server a failure, not a skip.
# The fleet suite also runs a run through Debian's pgbouncer in transaction mode.
if { ! command -v initdb >/dev/null && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } \
  || { ! command -v pgbouncer >/dev/null && [ ! -x /usr/sbin/pgbouncer ]; }; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql pgbouncer >/dev/null
  else
    echo "tests/run.sh: the PostgreSQL suite needs the server and pgbouncer: sudo apt-get install postgresql pgbouncer" >&2
    exit 1
  fi
fi
export EVODB_REQUIRE_POSTGRES=1
# The `evodb import` suites make their fixtures with OpenEvolve's and ShinkaEvolve's own code.
tests/import/venv.sh >/dev/null
venv=wasm/tests/python/.venv
if [ ! -x "$venv/bin/pytest" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r wasm/tests/python/requirements.txt
fi

# --- native ---------------------------------------------------------------------------------
# Core unit, rule, seed-file, resume and property tests; doc examples.
cargo test --workspace --exclude evodb-conformance --exclude evodb-host 2>&1 | tee -a "$log"
# Conformance vectors through the native core (each runner prints how many it ran).
cargo test -p evodb-conformance -- --nocapture 2>&1 | tee -a "$log"

# --- every WebAssembly face replays the same vectors ----------------------------------------
wasm/build.sh
# wasm-bindgen in Node and in headless Chromium (wasm-bindgen-test).
cargo test -p evodb-wasm --target wasm32-unknown-unknown -- --nocapture 2>&1 | tee -a "$log"
# The component under wasmtime (pure world, with-store world, the store interface). Release, so
# wasmtime is compiled once for these tests and the evodb binary alike. The PostgreSQL suites are
# `#[ignore = "needs PostgreSQL …"]` (plain `cargo test` lists them as ignored); they run here.
cargo test --release -p evodb-host -- --nocapture --include-ignored 2>&1 | tee -a "$log"
# The npm package and the component under jco, from node:test.
node --test wasm/tests/ 2>&1 | tee -a "$log"
# The playground in headless Chromium, served by `evodb view` (screenshots: target/www-screenshots/).
node --test www/tests/ 2>&1 | tee -a "$log"
# The skill: the Node drop-in db-cli.mjs (seed shapes, 8 × 50 parallel adds, bad input) and the
# scripted end-to-end loop through `evodb` and `evodb trial`.
node --test skill/tests/ 2>&1 | tee -a "$log"
# `evodb mcp` under the official MCP TypeScript SDK's client: tools/list, evodb's tools, and two
# generations of evo-anything's evo_step on a scratch git repository; the Claude Code plugin.
# The plugin is validated by the Claude Code CLI from npm (pinned; it works offline once fetched).
EVODB_CLAUDE_BIN="npx -y @anthropic-ai/claude-code@2.1.197" node --test tests/mcp/ 2>&1 | tee -a "$log"
# The Python package (python/): its wheel, carrying the pure component wasm/build.sh made above,
# installed into a fresh venv; its tests (the evodb CLI's own interop included, and a whole
# OpenEvolve run on evodb), the conformance vectors through its public API, mypy --strict over the
# package, its tests and the example using every method, then that example.
rm -rf python/.venv target/python-wheel target/python-example
python3 -m venv python/.venv
python/.venv/bin/pip install -q --disable-pip-version-check -r python/requirements-test.txt
python/.venv/bin/pip wheel -q --disable-pip-version-check --no-deps ./python -w target/python-wheel
python/.venv/bin/pip install -q --disable-pip-version-check target/python-wheel/evodb-*.whl
EVODB_BIN="$PWD/target/release/evodb" python/.venv/bin/pytest -q -s -p no:cacheprovider python/tests wasm/tests/python 2>&1 | tee -a "$log"
(cd python && .venv/bin/mypy --strict src/evodb examples/every_method.py tests bench)
python/.venv/bin/python python/examples/every_method.py target/python-example/database >/dev/null
target/release/evodb validate --history target/python-example/database
# The sdist carries the component too: built here, installed into another fresh venv (pip builds
# its wheel away from this repository), it runs the same example to a database evodb validates.
rm -rf target/python-sdist
(cd python && .venv/bin/python -m hatchling build -t sdist -d ../target/python-sdist >/dev/null)
python3 -m venv target/python-sdist/venv
target/python-sdist/venv/bin/pip install -q --disable-pip-version-check target/python-sdist/evodb-*.tar.gz
target/python-sdist/venv/bin/python python/examples/every_method.py target/python-sdist/database >/dev/null
target/release/evodb validate --history target/python-sdist/database
echo "python sdist: built, installed into a fresh venv, example ran, database valid"

# --- the main job still runs end to end -----------------------------------------------------
rm -rf target/demo-smoke
target/release/evodb demo --iterations 5 --out target/demo-smoke >/dev/null
target/release/evodb validate target/demo-smoke/database
echo "demo smoke run: ok"

# --- `cargo install --path host-cli` gives a working, self-contained evodb -------------------
# (--locked: the versions this repository tested; the shared target directory reuses the build.)
rm -rf target/install-smoke
CARGO_TARGET_DIR="$PWD/target" cargo install -q --locked --path host-cli --root target/install-smoke
installed=target/install-smoke/bin/evodb
bytes=$(stat -c %s "$installed")
echo "installed evodb: $bytes bytes; $("$installed" --version)"
[ "$bytes" -le $((25 * 1024 * 1024)) ] || { echo "the installed evodb is over 25 MiB" >&2; exit 1; }
smoke=$(mktemp -d)
(cd "$smoke" && HOME="$smoke" "$OLDPWD/$installed" seed db --codePath f.py --targetCode x --metrics '{"s":1}' >/dev/null \
  && HOME="$smoke" "$OLDPWD/$installed" skill install skill >/dev/null)
[ "$(ls -A "$smoke")" = "$(printf 'db\nskill')" ] || { echo "evodb wrote outside its database and skill directories: $(ls "$smoke")" >&2; exit 1; }
rm -rf "$smoke"
echo "install smoke run: ok"

# One closing line over every suite above (cargo's "test result:" lines, node's "# pass/# fail",
# pytest's "N passed").
awk '/^test result:/ { passed += $4; failed += $6; ignored += $8 }
     /^# pass / { passed += $3 } /^# fail / { failed += $3 }
     /^[0-9]+ (passed|failed)/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /^passed/) passed += $i; else if ($(i+1) ~ /^failed/) failed += $i }
     /^# skipped / { ignored += $3 }
     END { printf "all suites: %d passed, %d failed, %d ignored or skipped\n", passed, failed, ignored }' "$log"
