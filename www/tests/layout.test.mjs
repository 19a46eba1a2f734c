// Defects of the first playground, each pinned: event 0 of an 8-island run shows its 8 islands
// (not a default setup), and every chart redraws at the new size when the window is resized.
import test from "node:test";
import assert from "node:assert/strict";
import { browserSuite, demo } from "./helpers.mjs";

const { work, view, open } = browserSuite("layout");

test("event 0 of an 8-island run shows its 8 islands", async () => {
  const { dir } = demo(`${work}/eight`, { seed: 2, steps: 40, config: { numIslands: 8 }, landscape: { terms: 3, ruggedness: 0 } });
  const { page, errors } = await open(await view(dir));
  const islands = () => page.evaluate(() => document.querySelector("#islands").dataset.islands);
  assert.equal(await islands(), "8");
  for (const position of ["0", "1"]) {
    await page.locator("#position").fill(position);
    await page.waitForFunction((p) => document.body.dataset.position === p, position);
    assert.equal(await islands(), "8", `at event ${position} the run's own 8 islands show`);
  }
  assert.deepEqual(errors, []);
});

test("every chart redraws at its new size when the window is resized", async () => {
  const { dir } = demo(`${work}/resize`, { seed: 4, steps: 40, config: {}, landscape: { terms: 3, ruggedness: 0 } });
  const { page, errors } = await open(await view(dir), { width: 1440, height: 1000 });
  const sizes = () =>
    page.evaluate(() =>
      [...document.querySelectorAll("canvas")].map((c) => ({
        id: c.id,
        backing: c.width,
        shown: Math.round(c.clientWidth * (globalThis.devicePixelRatio || 1)),
      })),
    );
  const wide = await sizes();
  await page.setViewportSize({ width: 800, height: 1000 });
  await page.waitForFunction(() =>
    [...document.querySelectorAll("canvas")].every((c) => c.width === Math.round(c.clientWidth * (globalThis.devicePixelRatio || 1))),
  );
  const narrow = await sizes();
  for (const [i, canvas] of narrow.entries()) {
    assert.notEqual(canvas.backing, wide[i].backing, `#${canvas.id} was drawn again at the new width`);
    assert.equal(canvas.backing, canvas.shown, `#${canvas.id} fills its box`);
  }
  assert.deepEqual(errors, []);
});
