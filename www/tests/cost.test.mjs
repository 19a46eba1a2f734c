// Operators and cost in headless Chromium served by the real `evodb view`: a run whose adds
// report their operator, model and price shows, per operator × model × island, exactly the rows
// `evodb stats` reports (the engine's counts, not the page's), and the run's total spend.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { browserSuite, evodb, shots } from "./helpers.mjs";

const { work, view, open } = browserSuite("cost");

test("the operators-and-cost table is the engine's stats.attribution, with the run's spend", async () => {
  mkdirSync(work, { recursive: true });
  const dir = `${work}/priced`;
  execFileSync(evodb, ["init", dir, "--numIslands", "2", "--operators", "default"]);
  const file = `${work}/f.py`;
  writeFileSync(file, "def f():\n    return 0\n");
  const seed = JSON.parse(execFileSync(evodb, ["seed", dir, "--codePath", "f.py", "--targetCodeFile", file, "--metrics", '{"score": 0.5}']).toString()).id;
  const priced = [
    ["exploitation", "small", 0.02, 0.6],
    ["exploitation", "small", 0.01, 0.4],
    ["exploration", "large", 0.08, 0.7],
    ["crossover", "large", 0.05, 0.55],
  ];
  priced.forEach(([operator, model, cost, score], i) => {
    writeFileSync(file, `def f():\n    return ${i + 1}\n`);
    execFileSync(evodb, ["add", dir, "--codePath", "f.py", "--targetCodeFile", file, "--parentId", seed, "--changes", `v${i}`,
      "--metrics", JSON.stringify({ score }), "--operator", operator, "--model", model, "--costUsd", String(cost)]);
  });
  const stats = JSON.parse(execFileSync(evodb, ["stats", dir]).toString());
  const { page, errors } = await open(await view(dir), { width: 1440, height: 1000 });
  await page.waitForFunction((n) => document.querySelector("#attribution").dataset.rows === String(n), stats.attribution.length);
  const shown = await page.evaluate(() => ({
    cost: Number(document.querySelector("#attribution").dataset.costUsd),
    rows: [...document.querySelectorAll("#attribution tbody tr")].map((tr) => [...tr.cells].map((td) => td.textContent)),
  }));
  assert.equal(shown.cost, stats.cost.costUsd);
  const expected = stats.attribution
    .map((row) => [row.operator ?? "—", row.model ?? "—", String(row.island ?? "—"), String(row.candidates), String(row.improvements)])
    .sort();
  assert.deepEqual(shown.rows.map((cells) => [cells[0], cells[1], cells[2], cells[3], cells[5]]).sort(), expected);
  await page.locator("#attribution-figure").screenshot({ path: `${shots}/cost.png` });
  assert.deepEqual(errors, []);
});
