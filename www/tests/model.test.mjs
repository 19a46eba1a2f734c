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
