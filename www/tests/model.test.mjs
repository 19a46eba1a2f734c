// The page's model without a browser: a `remeasured` event (evodb remeasure) changes the program's
// fitness where the views read it — the program, its island's mean and best, the log.
import test from "node:test";
import assert from "node:assert/strict";
import { Model } from "../js/model.js";

const added = (seq, id, island, fitness) => ({
  event: "added",
  seq,
  id,
  island,
  status: "accepted",
  fitness,
  now: seq,
  request: { codePath: "f.py", targetCode: id, parentId: "0", metrics: { score: fitness }, changes: "" },
});

test("a remeasured program's fitness moves its island's mean and best, and the log says so", () => {
  const model = new Model();
  for (const event of [
    { event: "created", seed: 1, config: { numIslands: 1 } },
    added(1, "steady", 0, 0.5),
    added(2, "lucky", 0, 0.7),
  ]) {
    model.apply(/** @type {any} */ (event));
  }
  assert.equal(model.islandStats[0].best?.id, "lucky");
  model.apply(/** @type {any} */ ({ event: "remeasured", id: "lucky", metrics: { score: 0.2 }, fitness: 0.45, measurements: 2 }));
  assert.equal(model.programs.get("lucky")?.fitness, 0.45);
  assert.equal(model.islandStats[0].best?.id, "steady");
  assert.ok(Math.abs(model.islandStats[0].sum - 0.95) < 1e-12, String(model.islandStats[0].sum));
  assert.match(model.log.at(-1)?.text ?? "", /measured again \(2 measurements\): fitness 0\.7.* → 0\.45/);
});

test("64 islands get 64 colours, none repeated", async () => {
  const { islandColor } = await import("../js/views/color.js");
  const colours = Array.from({ length: 64 }, (_, i) => islandColor(i));
  assert.equal(new Set(colours).size, 64);
  assert.equal(islandColor(3), "#d62728", "the first ten are the categorical palette");
});

test("diversity counts the live programs' distinct code and cells, and a long run's series starts at its start", async () => {
  const { createRequire } = await import("node:module");
  const { Simulation } = createRequire(import.meta.url)("../../wasm/pkg/evodb.cjs");
  const sim = new Simulation(
    { numIslands: 3, maxIslandSize: 30, features: [{ kind: "island" }, { kind: "codeLines", thresholds: [3, 6, 9] }] },
    4,
    { terms: 3, ruggedness: 0.2 },
  );
  const model = new Model();
  for (const event of sim.step(6000)) model.apply(event);
  // Worked out independently, from the database the engine saved.
  const saved = JSON.parse(sim.toJson());
  const live = Object.values(saved.programs);
  const { diversity } = model;
  assert.equal(diversity.live, live.length);
  assert.equal(diversity.codes.size, new Set(live.map((p) => p.targetCode)).size);
  assert.equal(diversity.cells.size, new Set(live.filter((p) => p.cell).map((p) => p.cell.join(","))).size);
  assert.ok(diversity.cells.size > 1 && diversity.codes.size > 1, "the run fills cells and varies its code");
  assert.ok(diversity.series.length <= 4096, `${diversity.series.length} points`);
  assert.equal(diversity.series[0].x, 0, "thinning keeps the first point");
});

test("leases: expiry by the run's clock, a heartbeat moves it, a reissue counts its attempt, an answer settles it", async () => {
  const { Leases } = await import("../js/leases.js");
  const leases = new Leases();
  leases.planned({ items: ["a", "b", "c"], now: 100, leaseSeconds: 10 });
  leases.heartbeat({ item: "a", now: 105 });
  leases.answer("c", "answered");
  leases.tick(112);
  assert.deepEqual(leases.open().map((l) => [l.item, l.state, l.attempt]), [["a", "live", 1], ["b", "expired", 1]]);
  leases.planned({ items: ["b"], now: 120 });
  leases.answer("a", "held");
  assert.deepEqual(leases.open().map((l) => [l.item, l.state, l.attempt, l.expires]), [["a", "held", 1, 115], ["b", "live", 2, 130]]);
});
