// The playground's speed and memory, measured in headless Chromium (a bench, not a test: it
// prints figures, one JSON line each, and asserts nothing). Run by bench/run; alone:
// `node www/bench/playground.mjs` (needs target/release/evodb and www/pkg/, and Debian's chromium).
//
// - runs of 2,000, 20,000 and 100,000 programs (`evodb view <dir>`): load (from the run's text
//   to the first drawing of the views at the top, median of 3), load of everything (the views
//   lower down and the file's check too, drawn once the first drawing is painted), where the
//   load's time goes (the engine's replay, the page's model, the first drawing, the rest),
//   frames per second while replaying from the start at 200 events a frame (over 8 s), the
//   JavaScript heap and the WebAssembly memory once loaded;
// - live: the simulation at top speed, 8 islands × 60 and 64 islands × 20 (four operators,
//   cells), frames per second and drawing cost per frame, as is and with the CPU slowed 4×
//   (DevTools' throttling).
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { framesPerSecond, launch, workDir } from "../tests/helpers.mjs";

const { Simulation } = createRequire(import.meta.url)("../../wasm/pkg/evodb.cjs");
const emit = (id, value, label) => console.log(JSON.stringify({ id, value: Number(value), label }));
const sizes = (process.env.PLAYGROUND_SIZES ?? "2000,20000,100000").split(",").map(Number);

/** A saved run of `n` programs (nothing pruned), written for `evodb view`. @param {number} n */
function savedRun(n) {
  const dir = `${workDir("bench")}/run-${n}`;
  mkdirSync(dir, { recursive: true });
  const sim = new Simulation({ numIslands: 4, maxIslandSize: n }, 5, { terms: 4, ruggedness: 0.3 });
  const events = sim.step(n - 1);
  writeFileSync(`${dir}/database.json`, sim.toJson());
  writeFileSync(`${dir}/history.ndjson`, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const programs = sim.stats().programCount;
  sim.free();
  return { dir, programs, events: events.length };
}

const chromium = await launch(["--enable-precise-memory-info"]);
try {
  for (const n of sizes) {
    const run = savedRun(n);
    const url = await chromium.view(run.dir);
    const loads = [];
    /** @type {{all: number, parts: string}[]} */
    const wholes = [];
    for (let i = 0; i < 3; i += 1) {
      const { page } = await chromium.open(url, { width: 1440, height: 1000 });
      const shown = await page.evaluate(() => ({ ...document.body.dataset }));
      loads.push(Number(shown.loadMs));
      wholes.push({ all: Number(shown.loadAllMs), parts: shown.loadParts ?? "" });
      if (i < 2) {
        await page.close();
        continue;
      }
      // The page reports its wasm memory once a second.
      await page.waitForFunction(() => document.body.dataset.wasmBytes !== undefined, null, { timeout: 5000 });
      const memory = await page.evaluate(() => ({
        wasm: Number(document.body.dataset.wasmBytes),
        heap: /** @type {any} */ (performance).memory?.usedJSHeapSize ?? NaN,
      }));
      emit(`playground.wasm_mb.${n}`, (memory.wasm / 2 ** 20).toFixed(1), `WebAssembly memory with the ${run.programs}-program run open, MiB`);
      emit(`playground.heap_mb.${n}`, (memory.heap / 2 ** 20).toFixed(1), `JavaScript heap with the ${run.programs}-program run open, MiB`);
      await page.locator("#position").fill("0");
      await page.evaluate(() => {
        const speed = /** @type {HTMLInputElement} */ (document.querySelector("#speed"));
        speed.value = speed.max;
        speed.dispatchEvent(new Event("input"));
      });
      await page.click("#play");
      await page.waitForTimeout(1000);
      emit(`playground.replay_fps.${n}`, (await framesPerSecond(page, 8000)).toFixed(1),
        `replaying the ${run.programs}-program run (${run.events} events) from the start at 200 events a frame, frames/s`);
      await page.close();
    }
    loads.sort((a, b) => a - b);
    emit(`playground.load_ms.${n}`, loads[1], `load of the ${run.programs}-program run (${run.events} events) to its first drawing, median of 3, ms`);
    wholes.sort((a, b) => a.all - b.all);
    emit(`playground.load_all_ms.${n}`, wholes[1].all,
      `load of the ${run.programs}-program run with every view drawn, median of 3, ms (that load: ${wholes[1].parts})`);
  }

  for (const [islands, size] of [[8, 60], [64, 20]]) {
    for (const throttle of [1, 4]) {
      const live = await chromium.open(
        `${await chromium.view()}?numIslands=${islands}&maxIslandSize=${size}&operators=true&features=island-lines`,
        { width: 1440, height: 1000 },
      );
      const cdp = await live.page.context().newCDPSession(live.page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle });
      await live.page.evaluate(() => {
        const speed = /** @type {HTMLInputElement} */ (document.querySelector("#speed"));
        speed.value = speed.max;
      });
      await live.page.click("#play");
      await live.page.waitForTimeout(2000);
      const added = () => live.page.evaluate(() => Number(document.body.dataset.added));
      const before = await added();
      const figures = {
        fps: await framesPerSecond(live.page, 8000),
        drawMs: Number(await live.page.evaluate(() => document.body.dataset.drawMs)),
        // A slow machine steps less per frame rather than drawing fewer frames: how many.
        perSecond: ((await added()) - before) / 8,
      };
      const what = `live simulation at top speed, ${islands} islands × ${size}${throttle === 1 ? "" : `, CPU slowed ${throttle}×`}`;
      emit(`playground.live_fps.i${islands}.x${throttle}`, figures.fps.toFixed(1), `${what}, frames/s`);
      emit(`playground.live_draw_ms.i${islands}.x${throttle}`, figures.drawMs.toFixed(2), `${what}: drawing one frame, ms`);
      emit(`playground.live_steps.i${islands}.x${throttle}`, figures.perSecond.toFixed(0), `${what}: candidates a second`);
      await live.page.close();
    }
  }
} finally {
  await chromium.close();
}
