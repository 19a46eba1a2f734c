// The live simulation at top speed for 60 s, in headless Chromium: its memory stays flat (it
// keeps no events, and forgets pruned programs no live one descends from) and what a frame
// rebuilds stays the same size, while the timeline can still go back to any step. Prints frames
// per second and drawing cost early and late; no timed assertion (www/bench/ measures speed).
import test from "node:test";
import assert from "node:assert/strict";
import { browserSuite, framesPerSecond } from "./helpers.mjs";

const { view, open } = browserSuite(undefined, ["--js-flags=--expose-gc", "--enable-precise-memory-info"]);

/** The page's JS heap after a full collection, its wasm memory, and how far the run is. */
const measure = (page) =>
  page.evaluate(() => {
    globalThis.gc();
    const body = document.body.dataset;
    return {
      heap: performance.memory.usedJSHeapSize,
      wasm: Number(body.wasmBytes),
      events: Number(body.events),
      known: Number(body.known),
      programs: Number(body.programs),
      drawMs: Number(body.drawMs),
      // What a frame rebuilds: the event list and the program panel.
      nodes: document.querySelectorAll("#events *, #program *").length,
    };
  });

test("a 60 s live run at top speed keeps its memory flat, and can still be scrubbed back", async () => {
  const url = await view();
  const { page, errors } = await open(`${url}?numIslands=8&maxIslandSize=60&operators=true`, { width: 1440, height: 1000 });
  await page.evaluate(() => {
    const speed = /** @type {HTMLInputElement} */ (document.querySelector("#speed"));
    speed.value = speed.max;
  });
  await page.click("#play");
  // The heap after a full collection, sampled every 2.5 s: it saw-tooths as pruned programs are
  // forgotten in batches, so each half of the run is judged by its highest sample.
  const heapPeak = async (seconds) => {
    let peak = 0;
    for (let waited = 0; waited < seconds; waited += 2.5) {
      await page.waitForTimeout(2500);
      peak = Math.max(peak, (await measure(page)).heap);
    }
    return peak;
  };
  await page.waitForTimeout(5000);
  const earlyPeak = await heapPeak(10);
  // Playing, the program panel keeps following the best (the first playground showed the
  // empty initial program forever).
  const following = await page.evaluate(() => [document.querySelector("#program h3")?.textContent, document.body.dataset.bestId]);
  assert.equal(following[0], following[1], "the panel shows the current best while the run plays");
  const early = await measure(page);
  const earlyFps = await framesPerSecond(page, 2000);
  const latePeak = await heapPeak(40);
  const late = await measure(page);
  const lateFps = await framesPerSecond(page, 2000);
  console.log(
    `live run at top speed: ${early.events} events at 15 s, ${late.events} at 60 s; ` +
      `JS heap at most ${(earlyPeak / 2 ** 20).toFixed(1)} MB in 5–15 s, ${(latePeak / 2 ** 20).toFixed(1)} MB in 20–60 s, ` +
      `wasm ${(early.wasm / 2 ** 20).toFixed(1)} → ${(late.wasm / 2 ** 20).toFixed(1)} MB, ` +
      `known programs ${early.known} → ${late.known} (live ${late.programs}), ${earlyFps.toFixed(0)} → ${lateFps.toFixed(0)} fps, ` +
      `drawing ${early.drawMs} → ${late.drawMs} ms a frame, ${early.nodes} → ${late.nodes} elements in the event list and panel`,
  );
  assert.ok(late.events > 2 * early.events, "the run went on (more than twice the events at 60 s)");
  assert.ok(latePeak < earlyPeak * 1.5 + 4 * 2 ** 20, `the JS heap stays flat (peaks ${earlyPeak} → ${latePeak} bytes)`);
  assert.ok(late.wasm <= early.wasm * 1.3 + 4 * 2 ** 20, `the wasm memory stays flat (${early.wasm} → ${late.wasm} bytes)`);
  assert.ok(late.known < 2048 + 3 * late.programs, `pruned programs are forgotten (${late.known} known, ${late.programs} live)`);
  // A frame's work does not grow with the run: the views it rebuilds stay the same size.
  assert.ok(late.nodes <= early.nodes * 1.5 + 50, `the event list and panel stay bounded (${early.nodes} → ${late.nodes} elements)`);

  // Back to step 100: the simulation is run again to there; forward again reaches the same end.
  await page.click("#play");
  const end = Number(await page.evaluate(() => document.body.dataset.events));
  const bestAtEnd = await page.evaluate(() => document.body.dataset.bestId);
  const scrub = (to) =>
    page.evaluate((k) => {
      const position = /** @type {HTMLInputElement} */ (document.querySelector("#position"));
      position.value = String(k);
      position.dispatchEvent(new Event("input"));
    }, to);
  await scrub(100);
  await page.waitForFunction(() => document.body.dataset.position === "100");
  await scrub(end);
  await page.waitForFunction((k) => document.body.dataset.position === String(k), end);
  assert.equal(await page.evaluate(() => document.body.dataset.bestId), bestAtEnd, "the same run, replayed, ends with the same best");
  assert.deepEqual(errors, []);
});
