// Per-instance coverage in headless Chromium served by the real `evodb view`: a run whose adds
// carry --instanceScores shows one square per instance with exactly the best score and leader
// `evodb stats` reports (the engine's, not the page's), and its instance front; clicking an
// instance's square opens the program that leads it.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { browserSuite, evodb, shots } from "./helpers.mjs";

const { work, view, open } = browserSuite("instances");

test("per-instance coverage is the engine's stats.instances, and a square opens its leader", async () => {
  mkdirSync(work, { recursive: true });
  const dir = `${work}/tested`;
  execFileSync(evodb, ["init", dir, "--numIslands", "1", "--maxIslandSize", "3", "--selection", "instances"]);
  const file = `${work}/f.py`;
  /** @param {number[]} tests */
  const scores = (tests) => JSON.stringify(Object.fromEntries(tests.map((s, i) => [`test_${i}`, s])));
  /** @param {number[]} tests */
  const mean = (tests) => JSON.stringify({ score: tests.reduce((a, b) => a + b, 0) / tests.length });
  writeFileSync(file, "def f():\n    return 0\n");
  const seedTests = [1, 1, 0, 0];
  const seed = JSON.parse(execFileSync(evodb, ["seed", dir, "--codePath", "f.py", "--targetCodeFile", file,
    "--metrics", mean(seedTests), "--instanceScores", scores(seedTests)]).toString()).id;
  [["specialist", [0, 0, 0, 1]], ["middling", [0.5, 0.5, 0, 0.5]], ["better", [1, 1, 1, 0]]].forEach(([id, tests], i) => {
    writeFileSync(file, `def f():\n    return ${i + 1}\n`);
    execFileSync(evodb, ["add", dir, "--codePath", "f.py", "--targetCodeFile", file, "--parentId", seed, "--changes", `v${i}`,
      "--id", String(id), "--metrics", mean(/** @type {number[]} */ (tests)), "--instanceScores", scores(/** @type {number[]} */ (tests))]);
  });
  const stats = JSON.parse(execFileSync(evodb, ["stats", dir]).toString());
  assert.deepEqual(stats.instances.front, ["better", "specialist"]);
  const { page, errors } = await open(await view(dir), { width: 1440, height: 1000 });
  await page.waitForFunction((n) => document.querySelector("#instances").dataset.instances === String(n), stats.instances.instanceCount);
  const shown = await page.evaluate(() => ({
    squares: [...document.querySelectorAll("#instances .instance")].map((b) => [b.dataset.instance, Number(b.dataset.best), b.title]),
    front: [...document.querySelectorAll("#instances .instance-front button")].map((b) => b.title),
  }));
  assert.deepEqual(shown.squares.map(([instance, best]) => [instance, best]), stats.instances.coverage.map((row) => [row.instance, row.best]));
  shown.squares.forEach(([, , title], i) => assert.match(String(title), new RegExp(`by ${stats.instances.coverage[i].leader} `)));
  assert.deepEqual(shown.front, stats.instances.front);
  await page.locator('#instances .instance[data-instance="test_3"]').click();
  await page.waitForFunction(() => document.location.hash === "#program=specialist");
  await page.locator("#instances-figure").screenshot({ path: `${shots}/instances.png` });
  assert.deepEqual(errors, []);
});
