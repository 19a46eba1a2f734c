#!/usr/bin/env bash
# Builds evodb's WebAssembly faces and prints their sizes:
#   wasm/pkg/                   the npm package: one evodb_bg.wasm, Node glue (CommonJS) + web glue (ESM),
#                               and cli.json (the command-line table, from cli-spec/)
#   skill/scripts/evodb-wasm/  the `web` build (evodb.js, evodb.d.ts, evodb_bg.wasm), committed once: the skill
#                               runs on plain Node straight from git, and the playground's www/pkg is a symlink
#                               to it. It also holds cli.json, which the skill's db-cli.mjs parses by.
#                               CI rebuilds it and fails if it differs from what is committed.
#   wasm/dist/evodb-pure.wasm   the component of the import-free `pure` world (wasm32-unknown-unknown,
#                               componentized by `jco new`)
#   wasm/dist/evodb-store.wasm  the component of the `with-store` world (imports only the host's
#                               `files`); the evodb binary builds the same from host-cli/build.rs
# Installs what it needs when missing: the wasm32 targets, the pinned wasm-bindgen CLI, and the
# workspace's npm packages (jco, binaryen's wasm-opt).
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
if ! wasm-bindgen --version 2>/dev/null | grep -q ' 0\.2\.130'; then
  # No --locked: the CLI's lockfile names a yanked crate (cargo install reports it).
  cargo install wasm-bindgen-cli --version =0.2.130
fi
bin=node_modules/.bin
# `npm install`, not `npm ci`: npm 11 rejects jco's lock file over optional platform packages.
[ -x "$bin/jco" ] && [ -x "$bin/wasm-opt" ] || npm install --no-audit --no-fund
# Rust 1.95's wasm32 targets emit these post-MVP features; wasm-opt must accept them.
features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals
  --enable-multivalue --enable-reference-types)
optimize() { "$bin/wasm-opt" -Oz "${features[@]}" "$1" -o "$1"; }

# Panic locations name crates by their path under CARGO_HOME: remap it, so the committed web build
# is byte-identical whoever builds it (workspace paths are already relative).
cargo_home=${CARGO_HOME:-$HOME/.cargo}
# Exports that take or return only numbers: without reference types and multi-value returns,
# wasm-bindgen passes JS objects through its own table and results through memory. V8 calls such
# exports through one generic wrapper; an `externref` parameter or a two-value result instead
# makes it compile a wrapper per signature with its optimizing compiler on every load, ~10 ms of
# CPU in each Node drop-in call (bench/run's `cli` part measures it). The standard library's
# objects still declare both features, so the module's `target_features` section is stripped
# before wasm-bindgen reads it, to match what evodb-wasm was compiled for.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--remap-path-prefix=$cargo_home=/cargo -C target-feature=-reference-types,-multivalue" \
  cargo build -q -p evodb-wasm --target wasm32-unknown-unknown --profile wasm-release
module=target/evodb-wasm-mvp-abi.wasm
"$bin/wasm-opt" --strip-target-features "${features[@]}" \
  target/wasm32-unknown-unknown/wasm-release/evodb_wasm.wasm -o "$module"
rm -rf wasm/pkg wasm/dist target/wasm-bindgen
for target in nodejs web; do
  out=target/wasm-bindgen/${target%js}
  wasm-bindgen "$module" --remove-name-section --remove-producers-section --target "$target" --out-dir "$out" \
    --out-name evodb
  optimize "$out/evodb_bg.wasm"
done
# The npm package ships one evodb_bg.wasm: wasm-bindgen emits the same module for both targets, and
# each glue loads it from beside itself (evodb.cjs reads it, evodb.js fetches it).
cmp -s target/wasm-bindgen/node/evodb_bg.wasm target/wasm-bindgen/web/evodb_bg.wasm ||
  { echo "wasm/build.sh: the nodejs and web builds' evodb_bg.wasm differ; the package can ship only one" >&2; exit 1; }
mkdir -p wasm/pkg
cp target/wasm-bindgen/web/{evodb.js,evodb.d.ts,evodb_bg.wasm} wasm/pkg/
sed 's|@ts-self-types="./evodb.d.ts"|@ts-self-types="./evodb.d.cts"|' target/wasm-bindgen/node/evodb.js > wasm/pkg/evodb.cjs
cp target/wasm-bindgen/node/evodb.d.ts wasm/pkg/evodb.d.cts
cp wasm/README.npm.md wasm/pkg/README.md
cp LICENSE-MIT LICENSE-APACHE wasm/pkg/
cp wasm/package.json.in wasm/pkg/package.json
# The committed web build, once: the skill's (Node loads it with initSync, so the skill needs no
# build); www/pkg is a symlink to it. The skill's package.json makes evodb.js an ES module under
# any enclosing package; evodb.d.ts types the glue for `npm run lint`'s tsc.
web=skill/scripts/evodb-wasm
rm -rf "$web"
mkdir -p "$web"
cp target/wasm-bindgen/web/{evodb.js,evodb.d.ts,evodb_bg.wasm} "$web/"
printf '{\n  "type": "module"\n}\n' > skill/scripts/evodb-wasm/package.json
# The command line both CLIs parse: the native evodb builds its parser from cli-spec/, the Node
# drop-in (and anyone using the package) from this JSON dump of it.
cargo run -q -p evodb-cli-spec --bin dump-cli-spec > wasm/pkg/cli.json
cp wasm/pkg/cli.json skill/scripts/evodb-wasm/cli.json

mkdir -p wasm/dist
cargo build -q -p evodb-component --target wasm32-unknown-unknown --profile wasm-release
cp target/wasm32-unknown-unknown/wasm-release/evodb_component.wasm target/evodb-pure-core.wasm
optimize target/evodb-pure-core.wasm
"$bin/jco" new target/evodb-pure-core.wasm -o wasm/dist/evodb-pure.wasm
# The store component is what the evodb binary embeds: built for speed (profile wasm-store).
cargo build -q -p evodb-component --features store --target wasm32-unknown-unknown --profile wasm-store
"$bin/jco" new target/wasm32-unknown-unknown/wasm-store/evodb_component.wasm -o wasm/dist/evodb-store.wasm

size() { printf '{"artifact":"%s","bytes":%d,"target_bytes":%d}\n' "$1" "$(stat -c %s "$1")" "$2"; }
size skill/scripts/evodb-wasm/evodb_bg.wasm 256000
size wasm/dist/evodb-pure.wasm 409600
size wasm/dist/evodb-store.wasm 409600
