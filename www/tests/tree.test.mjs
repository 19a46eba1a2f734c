// The family tree in headless Chromium, served by the real `evodb view`: every program the run
// ever added is a node (pruned ones as ghosts), the best's lineage is the bold path, a click on
// a pruned ancestor opens it, the wheel zooms and 0 fits again. Screenshot:
// target/www-screenshots/tree-1440.png.
import test from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { browserSuite, data, demo, root, shots } from "./helpers.mjs";

const { Simulation } = createRequire(import.meta.url)(`${root}wasm/pkg/evodb.cjs`);

const { work, view, open } = browserSuite("tree");

const tree = (page) => page.evaluate(() => ({ ...document.querySelector("#tree").dataset }));

test("the family tree holds every program ever added, pruned ones as ghosts, and the best's lineage", async () => {
  const { dir, stats } = demo(`${work}/demo`, {
    seed: 3,
    steps: 150,
    config: { numIslands: 4, maxIslandSize: 15 },
    landscape: { terms: 4, ruggedness: 0.3 },
  });
  // The history, read here independently of the page: every added program and its parent.
  const parents = new Map();
  for (const line of readFileSync(`${dir}/history.ndjson`, "utf8").trim().split("\n")) {
    const event = JSON.parse(line);
    if (event.event === "added") parents.set(event.id, event.request.parentId ?? "0");
  }
  let lineage = 0;
  for (let id = stats.bestProgramId; id && id !== "0"; id = parents.get(id)) lineage += 1;

  const url = await view(dir);
  const { page, errors } = await open(url, { width: 1440, height: 1000 });
  let shown = await tree(page);
  assert.equal(Number(shown.nodes), parents.size, "one node per program ever added");
  assert.equal(Number(shown.missing), 0, "a run with its history misses no parent");
  assert.equal(Number(shown.pruned), parents.size - stats.programCount, "every pruned program is a ghost");
  assert.equal(Number(shown.bestPath), lineage, "the bold path is the best's whole lineage");
  assert.equal(shown.drawn, shown.nodes, "fitted, the whole tree is in view");
  await page.locator("#tree-figure").screenshot({ path: `${shots}/tree-1440.png` });

  // A pruned ancestor of the best: open it by permalink to learn where it is drawn, go back to
  // the best, then click there.
  const ancestor = [...(function* () {
    for (let id = parents.get(stats.bestProgramId); id && id !== "0"; id = parents.get(id)) yield id;
  })()].at(-1);
  await page.goto(`${url}#program=${encodeURIComponent(ancestor)}`);
  await page.waitForFunction((id) => document.body.dataset.selected === id, ancestor);
  shown = await tree(page);
  const at = { x: Number(shown.selectedX), y: Number(shown.selectedY) };
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => document.body.dataset.selected === document.body.dataset.bestId);
  await page.locator("#tree").click({ position: at });
  await page.waitForFunction((id) => document.body.dataset.selected === id, ancestor);
  assert.equal((await data(page)).selected, ancestor, "a click on a ghost opens that program");

  // The wheel zooms in about the pointer (fewer nodes in view); 0 fits the whole tree again.
  const box = await page.locator("#tree").boundingBox();
  await page.mouse.move(box.x + at.x, box.y + at.y);
  await page.mouse.wheel(0, -1200);
  await page.waitForFunction(() => Number(document.querySelector("#tree").dataset.drawn) < Number(document.querySelector("#tree").dataset.nodes));
  shown = await tree(page);
  assert.ok(Number(shown.scale) > 1, `zoomed in (scale ${shown.scale})`);
  await page.locator("#tree").press("0");
  await page.waitForFunction(() => document.querySelector("#tree").dataset.drawn === document.querySelector("#tree").dataset.nodes);
  await page.selectOption("#tree-colour", "island");
  assert.deepEqual(errors, []);
  console.log(`family tree: ${parents.size} nodes, ${shown.pruned} pruned, best lineage ${lineage} deep`);
});

test("a tree of thousands stays fitted as the run grows, fills the canvas's height, and never zooms onto nothing", async () => {
  // 4,000 programs kept (a wide, shallow tree: thousands of leaves, far past what one scale for
  // both axes could fit as more than a ribbon).
  const dir = `${work}/wide`;
  mkdirSync(dir, { recursive: true });
  const sim = new Simulation({ numIslands: 8, maxIslandSize: 4000 }, 9, { terms: 4, ruggedness: 0.3 });
  const events = sim.step(3999);
  writeFileSync(`${dir}/database.json`, sim.toJson());
  writeFileSync(`${dir}/history.ndjson`, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const best = sim.stats().bestProgramId;
  const url = await view(dir);
  const { page, errors } = await open(url, { width: 1440, height: 1000 });

  // Replayed from the start, the tree is laid out again as it grows and stays fitted.
  await page.locator("#position").fill("0");
  await page.locator("#speed").fill("100");
  await page.click("#play");
  await page.waitForFunction(() => document.body.dataset.replayFps !== undefined, null, { timeout: 120000 });
  // (The last layout follows the last frame once the run settles.)
  await page.waitForFunction(() => Number(document.querySelector("#tree").dataset.nodes) > 3900);
  await page.waitForFunction(() => document.querySelector("#tree").dataset.drawn === document.querySelector("#tree").dataset.nodes);
  let shown = await tree(page);
  assert.equal(shown.following, "true");
  const fitted = { scale: shown.scale, height: shown.treeHeight };
  const canvasHeight = await page.evaluate(() => document.querySelector("#tree").clientHeight);
  assert.ok(Number(shown.treeHeight) > canvasHeight / 2, `the fitted tree is ${shown.treeHeight} px high on a ${canvasHeight} px canvas`);
  await page.locator("#tree-figure").screenshot({ path: `${shots}/tree-wide.png` });

  // Zooming in about the canvas's centre, many times over, still shows programs.
  await page.locator("#tree").focus();
  for (let i = 0; i < 30; i++) await page.keyboard.press("+");
  shown = await tree(page);
  assert.ok(Number(shown.drawn) > 0, `zoomed to ${shown.scale}, ${shown.drawn} programs in view`);
  assert.equal(shown.following, "false", "a zoom stops following the run");

  // b centres the best: it is the program under the canvas's centre.
  await page.keyboard.press("b");
  const box = await page.locator("#tree").boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const title = await page.evaluate(() => document.querySelector("#tree").title);
  assert.ok(title.startsWith(best), `the centre shows ${title.split("\n")[0]}, not the best ${best}`);

  await page.locator("#tree").press("0");
  await page.waitForFunction(() => document.querySelector("#tree").dataset.drawn === document.querySelector("#tree").dataset.nodes);
  assert.deepEqual(errors, []);
  console.log(`wide tree: ${shown.nodes} nodes fitted ${fitted.scale}× wide and ${fitted.height} px high, ${canvasHeight} px canvas`);
});
