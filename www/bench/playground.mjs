// The playground's speed, measured in headless Chromium (a bench, not a test: it prints figures,
// one JSON line each, and asserts nothing). Run by bench/run; alone: `node www/bench/playground.mjs`
// (needs target/release/evodb and www/pkg/, and Debian's chromium).
//
// - load: a 10,000-program run (`evodb view <dir>`), from navigation to the first drawing;
// - replay: that run played from the start at 100 events a frame, frames per second;
// - live: the simulation at top speed (8 islands × 60, four operators, cells) for 10 s, frames
//   per second and drawing cost per frame, as is and with the CPU slowed 4× (DevTools' throttling).
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { framesPerSecond, launch, workDir } from "../tests/helpers.mjs";

const { Simulation } = createRequire(import.meta.url)("../../wasm/pkg/evodb.cjs");
const emit = (id, value, label) => console.log(JSON.stringify({ id, value: Number(value), label }));

const dir = `${workDir("bench")}/large`;
mkdirSync(dir, { recursive: true });
const sim = new Simulation({ numIslands: 4, maxIslandSize: 10000 }, 5, { terms: 4, ruggedness: 0.3 });
const events = sim.step(9999);
writeFileSync(`${dir}/database.json`, sim.toJson());
writeFileSync(`${dir}/history.ndjson`, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
const programs = sim.stats().programCount;
sim.free();

const chromium = await launch();
try {
  const url = await chromium.view(dir);
  const loads = [];
  for (let i = 0; i < 3; i += 1) {
    const { page } = await chromium.open(url, { width: 1440, height: 1000 });
    loads.push(Number(await page.evaluate(() => document.body.dataset.loadMs)));
    if (i < 2) await page.close();
    else {
      await page.locator("#position").fill("0");
      await page.locator("#speed").fill("100");
      await page.click("#play");
      await page.waitForFunction(() => document.body.dataset.replayFps !== undefined, null, { timeout: 120000 });
      emit("playground.replay_fps", await page.evaluate(() => document.body.dataset.replayFps),
        `replay of ${events.length} events at 100 a frame, frames/s`);
    }
  }
  loads.sort((a, b) => a - b);
  emit("playground.load_ms", loads[1], `load of a ${programs}-program run (${events.length} events), median of 3, ms`);

  for (const throttle of [1, 4]) {
    const live = await chromium.open(`${await chromium.view()}?numIslands=8&maxIslandSize=60&operators=true&features=island-lines`,
      { width: 1440, height: 1000 });
    const cdp = await live.page.context().newCDPSession(live.page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle });
    await live.page.evaluate(() => {
      const speed = /** @type {HTMLInputElement} */ (document.querySelector("#speed"));
      speed.value = speed.max;
    });
    await live.page.click("#play");
    await live.page.waitForTimeout(2000);
    const figures = {
      fps: await framesPerSecond(live.page, 8000),
      drawMs: Number(await live.page.evaluate(() => document.body.dataset.drawMs)),
    };
    const slowed = throttle === 1 ? "" : `, CPU slowed ${throttle}×`;
    emit(`playground.live_fps.x${throttle}`, figures.fps.toFixed(1), `live simulation at top speed${slowed}, frames/s`);
    emit(`playground.live_draw_ms.x${throttle}`, figures.drawMs.toFixed(2), `drawing one frame of it${slowed}, ms`);
    await live.page.close();
  }
} finally {
  await chromium.close();
}
