// Replays every conformance vector through the pure component (`wasm/dist/evodb-pure.wasm`)
// transpiled by jco: typed WIT records in, the seed CLI's JSON shapes rebuilt from them out.
// The pure world has no imports, so no WASI shim is involved; JS does any file IO.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { replayAll } from "./conformance.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const component = `${root}wasm/dist/evodb-pure.wasm`;
const outDir = `${root}target/jco`;

async function loadComponent() {
  assert.ok(existsSync(component), `${component} is missing: run wasm/build.sh first`);
  execFileSync(`${root}node_modules/.bin/jco`, ["transpile", component, "-o", outDir, "--name", "evodb-pure", "--quiet"]);
  const { population } = await import(`${outDir}/evodb-pure.js`);
  return population.Database;
}

const metrics = (list) => Object.fromEntries(list);
const orNull = (v) => (v === undefined ? null : v);

const shapes = {
  add: (o) => ({
    id: o.id, metrics: metrics(o.metrics), bestProgramId: o.bestProgramId, bestMetrics: metrics(o.bestMetrics),
    lastIteration: Number(o.lastIteration), ...(o.warnings.length ? { warnings: o.warnings } : {}),
  }),
  sample: (s) => ({
    parent: s.parent === undefined ? null : {
      id: s.parent.id, codePath: s.parent.codePath, targetCode: s.parent.targetCode,
      metrics: metrics(s.parent.metrics), changes: s.parent.changes,
    },
    inspirations: s.inspirations.map((i) => ({ id: i.id, metrics: metrics(i.metrics), changes: i.changes })),
  }),
  best: (b) => b === undefined ? null : {
    id: b.id, codePath: b.codePath, targetCode: b.targetCode, metrics: metrics(b.metrics), changes: b.changes,
    iterationFound: Number(b.iterationFound),
  },
  info: (i) => ({
    isEmpty: i.isEmpty, lastIteration: Number(i.lastIteration), programCount: i.programCount,
    bestProgramId: orNull(i.bestProgramId), bestMetrics: i.bestMetrics === undefined ? null : metrics(i.bestMetrics),
    seedCodePath: orNull(i.seedCodePath), seedTargetCode: orNull(i.seedTargetCode),
  }),
  stats: (s) => ({
    programCount: s.programCount, evaluations: Number(s.evaluations), bestProgramId: orNull(s.bestProgramId),
    bestFitness: orNull(s.bestFitness), meanFitness: orNull(s.meanFitness), baselineFitness: orNull(s.baselineFitness),
    improvement: orNull(s.improvement),
    islands: s.islands.map((i) => ({
      island: i.island, size: i.size, bestProgramId: orNull(i.bestProgramId), bestFitness: orNull(i.bestFitness),
      meanFitness: orNull(i.meanFitness),
    })),
  }),
};

const request = (r) => ({
  id: r.id, codePath: r.codePath, targetCode: r.targetCode, parentId: r.parentId,
  metrics: Object.entries(r.metrics), changes: r.changes, island: r.island,
});

// jco throws a ComponentError whose payload is the WIT `error` variant: `{tag, val}`.
function code(e) {
  assert.ok(e.payload?.tag, `expected a WIT error, got ${e}`);
  assert.equal(typeof e.payload.val, "string");
  return e.payload.tag;
}

function apply(Database, db, op) {
  switch (op.op) {
    case "add": return [db, shapes.add(db.add(request(op.request), op.now))];
    case "sample": return [db, shapes.sample(db.sample())];
    case "best": return [db, shapes.best(db.best())];
    case "info": return [db, shapes.info(db.info())];
    case "stats": return [db, shapes.stats(db.stats())];
    case "reload": return [Database.fromJson(db.toJson()), null];
    case "snapshot": return [db, JSON.parse(db.toJson())];
    default: throw new Error(`unknown op ${op.op}`);
  }
}

test("every vector replays identically through the component under jco", async () => {
  const Database = await loadComponent();
  const create = (vector) => {
    if (vector.initial) return Database.fromJson(JSON.stringify(vector.initial, null, 2));
    if (vector.initialText !== undefined) return Database.fromJson(vector.initialText);
    return Database.create(JSON.stringify(vector.config ?? {}), BigInt(vector.seed));
  };
  replayAll({ create, apply: (db, op) => apply(Database, db, op), code, toJson: (db) => db.toJson() },
    "component (jco)");
});
