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
  return population;
}

const metrics = (list) => Object.fromEntries(list);
const orNull = (v) => (v === undefined ? null : v);
// Optional fields are left out of the core's JSON when absent (or at their default).
const some = (key, v, absent = undefined) => (v === absent ? {} : { [key]: v });
const parent = (p) => p === undefined ? null : {
  id: p.id, codePath: p.codePath, targetCode: p.targetCode, metrics: metrics(p.metrics), changes: p.changes,
};

const shapes = {
  add: (o) => ({
    id: o.id, metrics: metrics(o.metrics), bestProgramId: orNull(o.bestProgramId),
    bestMetrics: o.bestMetrics === undefined ? null : metrics(o.bestMetrics),
    lastIteration: Number(o.lastIteration), ...(o.warnings.length ? { warnings: o.warnings } : {}),
    ...some("status", o.status, "accepted"), ...some("cached", o.cached, false),
    ...some("cell", o.cell === undefined ? undefined : Array.from(o.cell)),
  }),
  sample: (s) => ({
    parent: parent(s.parent),
    inspirations: s.inspirations.map((i) => ({ id: i.id, metrics: metrics(i.metrics), changes: i.changes })),
    ...some("operator", s.operator), ...some("island", s.island),
    ...some("secondParent", s.secondParent === undefined ? undefined : parent(s.secondParent)),
    ...some("donorIsland", s.donorIsland), ...some("forcedBy", s.forcedBy),
  }),
  plan: (p) => ({
    generation: Number(p.generation),
    items: p.items.map((i) => ({
      name: i.name, operator: i.operator, island: i.island, parentIds: i.parentIds,
      ...some("donorIsland", i.donorIsland), ...some("forcedBy", i.forcedBy),
    })),
  }),
  stop: (v) => ({
    stop: v.stop, reason: orNull(v.reason), evaluations: Number(v.evaluations), rounds: Number(v.rounds),
    stagnation: Number(v.stagnation), bestFitness: orNull(v.bestFitness),
  }),
  lineage: (l) => l === undefined ? null : {
    id: l.id, ancestors: l.ancestors, missingAncestor: orNull(l.missingAncestor), descendants: l.descendants,
  },
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
    archive: s.archive, stagnation: Number(s.stagnation), rounds: Number(s.rounds), recentStatuses: s.recentStatuses,
    ...some("cells", s.cells === undefined ? undefined : {
      filled: s.cells.filled, total: Number(s.cells.total), coverage: s.cells.coverage, qdScore: s.cells.qdScore,
      qdOffset: s.cells.qdOffset,
    }),
  }),
};

const request = (r) => ({
  id: r.id, codePath: r.codePath, targetCode: r.targetCode, parentId: r.parentId,
  metrics: Object.entries(r.metrics), changes: r.changes, island: r.island,
  status: r.status, reason: r.reason, operator: r.operator, planItem: r.planItem,
});

const exportFunctions = { tree: "lineageTree", mermaid: "lineageMermaid", markdown: "populationMarkdown" };

// jco throws a ComponentError whose payload is the WIT `error` variant: `{tag, val}`.
function code(e) {
  assert.ok(e.payload?.tag, `expected a WIT error, got ${e}`);
  assert.equal(typeof e.payload.val, "string");
  return e.payload.tag;
}

function apply(population, db, op) {
  const { Database } = population;
  switch (op.op) {
    case "add": return [db, shapes.add(db.add(request(op.request), op.now))];
    case "sample": return [db, shapes.sample(db.sample())];
    case "best": return [db, shapes.best(db.best())];
    case "info": return [db, shapes.info(db.info())];
    case "stats": return [db, shapes.stats(db.stats())];
    case "shouldStop": return [db, shapes.stop(db.shouldStop())];
    case "plan": return [db, shapes.plan(db.plan(op.n, op.frozen, op.boosted))];
    case "lineage": return [db, shapes.lineage(db.lineage(op.id))];
    case "export": return [db, db[exportFunctions[op.format]]()];
    case "events": return [db, db.takeEvents().map((line) => JSON.parse(line))];
    case "validate": return [db, population.validate(op.text)];
    case "policy": {
      const verdict = population.policyCheck(op.changed, op.target, op.protected ?? undefined);
      return [db, { pass: verdict.pass, reason: orNull(verdict.reason) }];
    }
    case "reload": return [recording(Database.fromJson(db.toJson())), null];
    case "snapshot": return [db, JSON.parse(db.toJson())];
    default: throw new Error(`unknown op ${op.op}`);
  }
}

// Every database a runner opens records its events (the `events` op drains them).
function recording(db) {
  db.recordEvents(true);
  return db;
}

test("every vector replays identically through the component under jco", async () => {
  const population = await loadComponent();
  const { Database } = population;
  const create = (vector) => {
    if (vector.initial) return recording(Database.fromJson(JSON.stringify(vector.initial, null, 2)));
    if (vector.initialText !== undefined) return recording(Database.fromJson(vector.initialText));
    return recording(Database.create(JSON.stringify(vector.config ?? {}), BigInt(vector.seed)));
  };
  replayAll({ create, apply: (db, op) => apply(population, db, op), code, toJson: (db) => db.toJson() },
    "component (jco)");
});
