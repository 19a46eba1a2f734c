#!/usr/bin/env bash
# Builds evodb's WebAssembly faces and prints their sizes:
#   wasm/pkg/               the npm package (wasm-bindgen, `nodejs` + `web` builds, package.json)
#   wasm/dist/evodb-pure.wasm   the component of the import-free `pure` world (wasm32-unknown-unknown,
#                               componentized by `jco new`)
#   wasm/dist/evodb-store.wasm  the component of the `with-store` world (wasm32-wasip2)
# Installs what it needs when missing: the wasm32 targets, the pinned wasm-bindgen CLI, and the
# workspace's npm packages (jco, binaryen's wasm-opt).
set -euo pipefail
cd "$(dirname "$0")/.."
for target in wasm32-unknown-unknown wasm32-wasip2; do
  rustup target list --installed | grep -qx "$target" || rustup target add "$target"
done
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

cargo build -q -p evodb-wasm --target wasm32-unknown-unknown --profile wasm-release
module=target/wasm32-unknown-unknown/wasm-release/evodb_wasm.wasm
rm -rf wasm/pkg wasm/dist
for target in nodejs web; do
  out=wasm/pkg/${target%js}
  wasm-bindgen "$module" --remove-name-section --remove-producers-section --target "$target" --out-dir "$out" \
    --out-name evodb
  optimize "$out/evodb_bg.wasm"
done
cp wasm/package.json.in wasm/pkg/package.json
# The skill folder carries its own copy of the Node build, so it works wherever it is copied
# (skill/scripts/lib/store.mjs imports ../evodb-wasm/evodb.js). wasm-bindgen's Node build is CommonJS:
# its own package.json keeps it so under any enclosing "type": "module".
rm -rf skill/scripts/evodb-wasm
mkdir -p skill/scripts/evodb-wasm
cp wasm/pkg/node/* skill/scripts/evodb-wasm/
printf '{\n  "type": "commonjs"\n}\n' > skill/scripts/evodb-wasm/package.json

mkdir -p wasm/dist
cargo build -q -p evodb-component --target wasm32-unknown-unknown --profile wasm-release
cp target/wasm32-unknown-unknown/wasm-release/evodb_component.wasm target/evodb-pure-core.wasm
optimize target/evodb-pure-core.wasm
"$bin/jco" new target/evodb-pure-core.wasm -o wasm/dist/evodb-pure.wasm
# The store component is what the evodb binary embeds: built for speed (profile wasm-store).
cargo build -q -p evodb-component --features store --target wasm32-wasip2 --profile wasm-store
cp target/wasm32-wasip2/wasm-store/evodb_component.wasm wasm/dist/evodb-store.wasm

size() { printf '{"artifact":"%s","bytes":%d,"target_bytes":%d}\n' "$1" "$(stat -c %s "$1")" "$2"; }
size wasm/pkg/node/evodb_bg.wasm 256000
size wasm/dist/evodb-pure.wasm 409600
size wasm/dist/evodb-store.wasm 409600
