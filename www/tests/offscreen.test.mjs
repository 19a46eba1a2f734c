// What a frame draws, in headless Chromium: while a run plays, views out of sight wait (the
// event list far down the page keeps what it showed), a view scrolled into sight is drawn again,
// and at rest every view is drawn, in sight or not. A saved run opens with every view drawn by
// the time the page says it is ready, and says how long its first drawing and the rest took; a
// database.json that does not parse beside a whole history still opens, and the page says so.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { browserSuite, data, demo } from "./helpers.mjs";

const { work, view, open } = browserSuite("offscreen");

test("playing, views out of sight wait; in sight or at rest they are drawn", async () => {
  const { dir } = demo(`${work}/run`, { seed: 3, steps: 300, config: {}, landscape: { terms: 3, ruggedness: 0.2 } });
  const { page, errors } = await open(await view(dir), { width: 1440, height: 1000 });
  const shown = await data(page);
  // Opened: every view drawn, the lower ones too, and the load's parts named.
  assert.ok(Number(shown.loadAllMs) >= Number(shown.loadMs), `${shown.loadAllMs} ms for all, ${shown.loadMs} for the first drawing`);
  assert.match(shown.loadParts ?? "", /^engine \d+, model \d+, first drawing \d+, the rest \d+$/);
  assert.equal(shown.replayMatches, "true");
  const lines = () => page.evaluate(() => Number(document.querySelector("#events").dataset.lines));
  assert.ok((await lines()) > 100, "the event list far down the page was drawn at the end of the run");

  await page.locator("#position").fill("0");
  await page.waitForFunction(() => document.body.dataset.position === "0");
  const linesAtStart = await lines();
  assert.ok(linesAtStart <= 2, `at event 0 the list is drawn too, out of sight (${linesAtStart} lines)`);
  await page.locator("#speed").fill("1");
  await page.evaluate(() => globalThis.scrollTo(0, 0));
  await page.click("#play");
  await page.waitForFunction(() => Number(document.body.dataset.position) > 40);
  assert.equal(await lines(), linesAtStart, "out of sight, the event list waits while the run plays");

  await page.locator("#events-scroll").scrollIntoViewIfNeeded();
  await page.waitForFunction((n) => Number(document.querySelector("#events").dataset.lines) > n, linesAtStart);
  assert.equal(await page.evaluate(() => document.body.dataset.replayFps), undefined, "still playing");

  // Out of sight again: the list waits again; paused (at rest), it is drawn though out of sight.
  await page.evaluate(() => globalThis.scrollTo(0, 0));
  await page.waitForTimeout(100);
  const linesBefore = await lines();
  const position = Number((await data(page)).position);
  await page.waitForFunction((p) => Number(document.body.dataset.position) > p + 20, position);
  assert.equal(await lines(), linesBefore, "out of sight again, the list waits again");
  await page.click("#play");
  await page.waitForFunction((n) => Number(document.querySelector("#events").dataset.lines) > n, linesBefore);
  const paused = await data(page);
  assert.ok(Number(paused.position) < Number(paused.events), "paused before the end");
  assert.deepEqual(errors, []);
});

test("a run whose file does not parse opens from its history, and the status line says so", async () => {
  const { dir } = demo(`${work}/torn`, { seed: 4, steps: 30, config: {}, landscape: { terms: 3, ruggedness: 0.2 } });
  const file = `${dir}/database.json`;
  writeFileSync(file, readFileSync(file, "utf8").slice(0, 200));
  const { page, errors } = await open(await view(dir));
  const shown = await data(page);
  assert.equal(shown.replayMatches, "false");
  assert.ok(Number(shown.programs) > 0, "the history's programs are shown");
  assert.match((await page.textContent("#status")) ?? "", /the file does not parse \(.+\); the history and the file disagree/);
  assert.deepEqual(errors, []);
});
