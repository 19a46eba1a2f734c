// Replays every conformance vector through the npm package, imported by name the way a Node
// skill script uses it (the workspace's package.json installs `evodb` from wasm/pkg).
import test from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { Database } from "evodb";

const EXPECTED_VECTORS = 34;
const dir = new URL("../../tests/vectors/", import.meta.url);

function create(vector) {
  if (vector.initial) return Database.fromJson(JSON.stringify(vector.initial, null, 2));
  if (vector.initialText !== undefined) return Database.fromJson(vector.initialText);
  return new Database(vector.config ?? {}, vector.seed);
}

function apply(db, op) {
  switch (op.op) {
    case "add": return [db, db.add(op.request, op.now)];
    case "sample": return [db, db.sample()];
    case "best": return [db, db.best()];
    case "info": return [db, db.info()];
    case "stats": return [db, db.stats()];
    case "reload": return [Database.fromJson(db.toJson()), null];
    case "snapshot": return [db, JSON.parse(db.toJson())];
    default: throw new Error(`unknown op ${op.op}`);
  }
}

test("every vector replays identically through the npm package", () => {
  let ran = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const vector = JSON.parse(readFileSync(new URL(file, dir), "utf8"));
    const { expected } = vector;
    let db;
    try {
      db = create(vector);
    } catch (e) {
      assert.equal(e.name, "EvodbError", `${vector.name}: ${e}`);
      assert.equal(e.code, expected.createError, vector.name);
      ran++;
      continue;
    }
    assert.equal(expected.createError, undefined, `${vector.name}: expected a create error`);
    vector.ops.forEach((op, i) => {
      let result;
      try {
        let value;
        [db, value] = apply(db, op);
        result = { ok: value };
      } catch (e) {
        assert.equal(e.name, "EvodbError", `${vector.name} op ${i}: ${e}`);
        result = { error: e.code };
      }
      assert.equal(JSON.stringify(result), JSON.stringify(expected.results[i]), `${vector.name} op ${i}`);
    });
    assert.equal(db.toJson(), JSON.stringify(expected.database, null, 2), `${vector.name}: database bytes`);
    db.free();
    ran++;
  }
  console.log(`npm package (node:test): ran ${ran} conformance vectors`);
  assert.equal(ran, EXPECTED_VECTORS);
});

test("errors are EvodbError with a machine-readable code", () => {
  assert.throws(() => new Database({ numIslands: 0 }), (e) => e.name === "EvodbError" && e.code === "invalid-config" && /numIslands/.test(e.message));
  assert.throws(() => new Database({}, -1), (e) => e.code === "invalid-config");
  const db = new Database();
  assert.throws(() => db.add({ codePath: "a", targetCode: "b", metrics: { s: "high" } }, 1), (e) => e.code === "invalid-input" && /metrics\.s/.test(e.message));
  assert.throws(() => Database.fromJson("{"), (e) => e.code === "corrupt-database");
  assert.equal(db.best(), null);
});
