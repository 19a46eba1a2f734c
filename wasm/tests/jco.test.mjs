// Replays every conformance vector through the pure component (`wasm/dist/evodb-pure.wasm`)
// transpiled by jco. The calls come from `tests/wit-calls.json` (written by the vector tool),
// arguments and results already in WIT's shape, so this runner has no per-type code: it maps
// WIT names to jco's (kebab-case → camelCase), lowers `null` to `undefined`, and lifts results
// back to plain JSON (BigInt → number, typed arrays → arrays, camelCase → kebab-case keys).
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { EXPECTED_VECTORS } from "./conformance.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const component = `${root}wasm/dist/evodb-pure.wasm`;
const outDir = `${root}target/jco`;

async function loadComponent() {
  assert.ok(existsSync(component), `${component} is missing: run wasm/build.sh first`);
  execFileSync(`${root}node_modules/.bin/jco`, ["transpile", component, "-o", outDir, "--name", "evodb-pure", "--quiet"]);
  const { population } = await import(`${outDir}/evodb-pure.js`);
  return population;
}

const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A WIT-shaped JSON argument as jco takes it. */
function lower(value) {
  if (value === null) return undefined;
  if (Array.isArray(value)) return value.map(lower);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), lower(v)]));
  return value;
}

/** A jco result as WIT-shaped JSON. */
function lift(value) {
  if (value === undefined || value === null) return null;
  if (typeof value === "bigint") return Number(value);
  if (ArrayBuffer.isView(value)) return Array.from(/** @type {any} */ (value));
  if (Array.isArray(value)) return value.map(lift);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [kebab(k), lift(v)]));
  return value;
}

/**
 * Calls `name` (`[static]database.create`, `[method]database.add`, `validate`, …) the way jco
 * exposes it. The `create` seed is a u64: jco takes it as a BigInt.
 */
function invoke(population, db, name, args) {
  const [kind, rest] = name.startsWith("[") ? name.slice(1).split("]") : ["free", name];
  const jsArgs = args.map(lower);
  if (kind === "free") return population[camel(rest)](...jsArgs);
  const method = camel(rest.split(".")[1]);
  if (kind === "static") {
    if (method === "create") jsArgs[1] = BigInt(jsArgs[1]);
    return population.Database[method](...jsArgs);
  }
  return db[method](...jsArgs);
}

// jco throws a ComponentError whose payload is the WIT `error` variant: `{tag, val}`.
function code(e) {
  assert.ok(e.payload?.tag, `expected a WIT error, got ${e}`);
  assert.equal(typeof e.payload.val, "string");
  return e.payload.tag;
}

test("every vector replays identically through the component under jco", async () => {
  const population = await loadComponent();
  const file = JSON.parse(readFileSync(`${root}tests/wit-calls.json`, "utf8"));
  assert.equal(file.vectorCount, EXPECTED_VECTORS);
  let ran = 0;
  for (const vector of file.vectors) {
    let db;
    vector.calls.forEach((call, i) => {
      const where = `${vector.name} call ${i} (${call.call})`;
      let result;
      try {
        result = invoke(population, db, call.call, call.args);
      } catch (e) {
        assert.equal(code(e), call.err, `${where}: ${e}`);
        return;
      }
      assert.equal(call.err, undefined, `${where}: expected the error ${call.err}`);
      if (call.ok === "$database") db = result;
      else assert.deepStrictEqual(lift(result), call.ok, where);
    });
    ran++;
  }
  console.log(`component (jco): ran ${ran} conformance vectors`);
  assert.equal(ran, EXPECTED_VECTORS);
});
