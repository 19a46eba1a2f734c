// `db.nearDuplicates()` and `CodeSignatures` through the npm package (imported by name, as a Node
// script uses it): the core's near-duplicate rule, the same answer from a Database and from
// signatures of the same programs, and a threshold out of range refused by name.
import test from "node:test";
import assert from "node:assert/strict";
import { CodeSignatures, Database } from "evodb";

const SUM = "def f(items):\n    total = 0\n    for x in items:\n        total += x * x\n    return total\n";
const programs = [
  { id: "a", parentId: "0", targetCode: SUM },
  { id: "b", parentId: "a", targetCode: "class Cache:\n    def __init__(self):\n        self.store = {}\n" },
  { id: "c", parentId: "a", targetCode: `# the same sum\n${SUM}\n` },
  { id: "d", parentId: "a", targetCode: SUM.replace("x * x", "x * x * 2") },
];

function database(config) {
  const db = new Database(config, 5);
  programs.forEach((p, i) => db.add({ ...p, codePath: "/f.py", metrics: { score: i / 10 }, changes: p.id }, i + 1));
  return db;
}

test("a database lists each live near-duplicate with the closest earlier program", () => {
  const db = database({ nearDuplicate: 0.5 });
  const near = db.nearDuplicates();
  assert.deepEqual(near.map(({ id, of }) => [id, of]), [["c", "a"], ["d", "a"]]);
  assert.equal(near[0].similarity, 1); // only a comment differs
  assert.ok(near[1].similarity >= 0.5 && near[1].similarity < 1, JSON.stringify(near));
  assert.deepEqual(Object.keys(near[0]), ["id", "of", "similarity"]);
  // The default threshold (0.9) keeps the copy and drops the edit.
  const strict = database({});
  assert.deepEqual(strict.nearDuplicates().map(({ id, of }) => [id, of]), [["c", "a"]]);
  db.free();
  strict.free();
});

test("signatures give what the database gives, for any set of live ids", () => {
  const db = database({ nearDuplicate: 0.5 });
  const signatures = new CodeSignatures();
  for (const p of programs) signatures.add(p.id, p.targetCode, "/f.py", null);
  assert.equal(signatures.size, 4);
  assert.deepEqual(signatures.nearDuplicates(["a", "b", "c", "d"], 0.5), db.nearDuplicates());
  // Without a: c and d are compared with each other only.
  assert.deepEqual(signatures.nearDuplicates(["b", "c", "d"], 0.5).map(({ id, of }) => [id, of]), [["d", "c"]]);
  // A migration copy is the same candidate, not a near-duplicate of what it copies.
  signatures.add("a-copy", SUM, "/f.py", "a");
  assert.deepEqual(signatures.nearDuplicates(["a", "a-copy"], null), []);
  signatures.remove("a");
  assert.equal(signatures.has("a"), false);
  assert.throws(() => signatures.nearDuplicates(["c"], 1.5), (err) => err.code === "invalid-input" && /`threshold` is 1.5/.test(err.message));
  signatures.free();
  db.free();
});
