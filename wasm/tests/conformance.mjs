// The one JavaScript driver for the conformance vectors (the JS twin of `evodb_conformance::Face`).
// A face is `{ create(vector), apply(db, op) -> [db, value], toJson(db), code(error), free?(db) }`;
// `create` and `apply` throw the face's own error type, `code` turns it into the core's code.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

/** How many vectors `tests/vectors/` holds; every runner asserts it ran exactly this many. */
export const EXPECTED_VECTORS = 92;
const dir = new URL("../../tests/vectors/", import.meta.url);

/** Replays every vector through `face`, asserting each result and the database bytes. */
export function replayAll(face, label) {
  let ran = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const vector = JSON.parse(readFileSync(new URL(file, dir), "utf8"));
    replay(face, vector);
    ran++;
  }
  console.log(`${label}: ran ${ran} conformance vectors`);
  assert.equal(ran, EXPECTED_VECTORS);
}

function replay(face, vector) {
  const { expected } = vector;
  let db;
  try {
    db = face.create(vector);
  } catch (e) {
    assert.equal(face.code(e), expected.createError, `${vector.name}: ${e}`);
    return;
  }
  assert.equal(expected.createError, undefined, `${vector.name}: expected a create error`);
  vector.ops.forEach((op, i) => {
    let result;
    try {
      let value;
      [db, value] = face.apply(db, op);
      result = { ok: value };
    } catch (e) {
      result = { error: face.code(e) };
    }
    // Compared as JavaScript prints them: key order matters, 1 and 1.0 are one number.
    assert.equal(JSON.stringify(result), JSON.stringify(expected.results[i]), `${vector.name} op ${i}`);
  });
  assert.equal(face.toJson(db), JSON.stringify(expected.database, null, 2), `${vector.name}: database bytes`);
  face.free?.(db);
}
