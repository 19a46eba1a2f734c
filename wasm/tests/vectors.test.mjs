// Replays every conformance vector through the npm package, imported by name the way a Node
// skill script uses it (the workspace's package.json installs `evodb` from wasm/pkg).
import test from "node:test";
import assert from "node:assert/strict";
import { Database, policyCheck } from "evodb";
import { replayAll } from "./conformance.mjs";

function open(vector) {
  if (vector.initial) return Database.fromJson(JSON.stringify(vector.initial, null, 2));
  if (vector.initialText !== undefined) return Database.fromJson(vector.initialText);
  return new Database(vector.config ?? {}, vector.seed);
}

// Every database a runner opens records its events (the `events` op drains them).
function create(vector) {
  const db = open(vector);
  db.recordEvents(true);
  return db;
}

const exports = {
  tree: (db) => db.lineageTree(),
  mermaid: (db) => db.lineageMermaid(),
  markdown: (db) => db.populationMarkdown(),
  evoidea: (db) => db.evoideaExport(),
};

function apply(db, op) {
  switch (op.op) {
    case "add": return [db, db.add(op.request, op.now)];
    case "sample": return [db, db.sample(op.target ?? undefined)];
    case "sampleAt": return [db, db.sampleAt(op.target ?? undefined, op.now)];
    case "best": return [db, db.best(op.target ?? undefined)];
    case "info": return [db, db.info()];
    case "stats": return [db, db.stats()];
    case "shouldStop": return [db, db.shouldStop(op.target ?? undefined)];
    case "plan": return [db, db.plan(op.n, op.frozen, op.boosted)];
    case "planAt": return [db, db.planAt(op.n, op.frozen, op.boosted, op.now, op.leaseSeconds ?? undefined)];
    case "heartbeat": return [db, db.heartbeat(op.item, op.token, op.now, op.leaseSeconds ?? undefined)];
    case "leases": return [db, db.leases(op.now)];
    case "lineage": return [db, db.lineage(op.id)];
    case "export": return [db, exports[op.format](db)];
    case "events": return [db, db.takeEvents()];
    case "validate": return [db, Database.validate(op.text)];
    case "note": return [db, db.note(op.request)];
    case "remeasure": return [db, db.remeasure(op.request)];
    case "admit": return [db, op.embedding ? db.admitEmbedding(op.code, op.codePath, op.embedding) : db.admit(op.code, op.codePath)];
    case "notes": return [db, db.notes(op.target ?? null, op.kind ?? null, op.limit ?? null)];
    case "policy": return [db, policyCheck(op.changed, op.target, op.protected ?? undefined)];
    case "reload": {
      const again = Database.fromJson(db.toJson());
      again.recordEvents(true);
      return [again, null];
    }
    case "snapshot": return [db, JSON.parse(db.toJson())];
    default: throw new Error(`unknown op ${op.op}`);
  }
}

test("every vector replays identically through the npm package", () => {
  const code = (e) => {
    assert.equal(e.name, "EvodbError", String(e));
    return e.code;
  };
  replayAll({ create, apply, code, toJson: (db) => db.toJson(), free: (db) => db.free() }, "npm package (node:test)");
});

test("errors are EvodbError with a machine-readable code", () => {
  assert.throws(() => new Database({ numIslands: 0 }), (e) => e.name === "EvodbError" && e.code === "invalid-config" && /numIslands/.test(e.message));
  assert.throws(() => new Database({}, -1), (e) => e.code === "invalid-config");
  const db = new Database();
  assert.throws(() => db.add({ codePath: "a", targetCode: "b", metrics: { s: "high" } }, 1), (e) => e.code === "invalid-input" && /metrics\.s/.test(e.message));
  assert.throws(() => Database.fromJson("{"), (e) => e.code === "corrupt-database");
  assert.equal(db.best(), null);
});

test("lineage and the Mermaid tree follow parent links", () => {
  const db = new Database({}, 4);
  const add = (parentId, score) =>
    db.add({ codePath: "/c.py", targetCode: `v${score}`, parentId, metrics: { score }, changes: "c" }, 1).id;
  const root = add("0", 0.1);
  const child = add(root, 0.5);
  const grandchild = add(child, 0.9);
  assert.deepEqual(db.lineage(grandchild), { id: grandchild, ancestors: [child, root], missingAncestor: null, descendants: [] });
  assert.deepEqual(db.lineage(root).descendants, [child, grandchild]);
  assert.equal(db.lineage("nobody"), null);
  const tree = db.lineageMermaid().split("\n");
  assert.equal(tree[0], "graph TD");
  assert.ok(tree.includes("  n0 --> n1") && tree.includes("  class n2 best"), tree.join("\n"));
  db.free();
});
