// The playground in headless Chromium (Debian's, driven by playwright-core), served by the real
// `evodb view`: the live simulation matches `evodb demo` (the same core run through the component),
// a replayed history reaches the saved file, a seed-format file without history loads, a 10,000-
// program run loads and replays (figures printed), and no page logs an error. Screenshots go to
// target/www-screenshots/.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { data, demo as runDemo, launch, root, shots, workDir } from "./helpers.mjs";

const work = workDir("playground");
const seedFixture = `${root}tests/fixtures/seed-written/database.json`;
const { Simulation } = createRequire(import.meta.url)(`${root}wasm/pkg/evodb.cjs`);

// A run with cells, operators and copy migration, so every view has something to show.
const settings = {
  seed: 11,
  numIslands: 4,
  maxIslandSize: 25,
  migrationInterval: 8,
  migrationRate: 0.2,
  explorationRatio: 0.3,
  migration: "copy",
  operators: true,
  exploitation: 0.5,
  exploration: 0.3,
  crossover: 0.15,
  migrationWeight: 0.05,
  features: "island-lines",
  terms: 4,
  ruggedness: 0.3,
};
const config = {
  numIslands: 4,
  maxIslandSize: 25,
  migrationInterval: 8,
  migrationRate: 0.2,
  explorationRatio: 0.3,
  migration: "copy",
  operators: { exploitation: 0.5, exploration: 0.3, crossover: 0.15, migration: 0.05 },
  features: [{ kind: "island" }, { kind: "codeLines", thresholds: [5, 6, 7] }],
};
const landscape = { terms: 4, ruggedness: 0.3 };
const STEPS = 150;

let chromium;
let view;
let open;

before(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  chromium = await launch();
  ({ view, open } = chromium);
});

after(async () => {
  await chromium?.close();
});

const demo = (out, steps) => runDemo(out, { seed: settings.seed, steps, config, landscape });

test("the live simulation shows what `evodb demo` computes for the same seed and settings", async () => {
  const { stats } = demo(`${work}/demo`, STEPS);
  const query = new URLSearchParams({ ...settings, steps: STEPS }).toString();
  const { page, errors } = await open(`${await view()}?${query}`);
  const shown = await data(page);
  assert.equal(Number(shown.programs), stats.programCount, "live programs");
  assert.equal(Number(shown.best), stats.bestFitness, "best fitness");
  assert.equal(Number(shown.added), STEPS + 1, "programs added (seed + steps)");
  // `s` steps once more: one more program added.
  await page.keyboard.press("s");
  await page.waitForFunction((n) => document.body.dataset.added === String(n), STEPS + 2);
  await page.screenshot({ path: `${shots}/simulate.png`, fullPage: true });
  assert.deepEqual(errors, []);
  console.log(`playground live simulation: ${shown.programs} programs, best ${shown.best} — same as evodb demo`);
});

test("a replayed history reaches the saved file, and scrubbing back rebuilds earlier states", async () => {
  const dir = `${work}/demo/database`;
  const file = JSON.parse(readFileSync(`${dir}/database.json`, "utf8"));
  const lines = readFileSync(`${dir}/history.ndjson`, "utf8").trim().split("\n").length;
  const { page, errors } = await open(await view(dir));
  let shown = await data(page);
  assert.equal(Number(shown.programs), Object.keys(file.programs).length);
  assert.equal(shown.replayMatches, "true");
  assert.equal(Number(shown.events), lines);
  assert.equal(Number(shown.position), lines);
  await page.screenshot({ path: `${shots}/replay.png`, fullPage: true });
  await page.locator("#position").fill("40");
  await page.waitForFunction(() => document.body.dataset.position === "40");
  shown = await data(page);
  assert.equal(Number(shown.position), 40);
  assert.ok(Number(shown.programs) < Object.keys(file.programs).length);
  assert.deepEqual(errors, []);
  console.log(`playground replay: ${lines} events of evodb demo's history.ndjson → ${shown.programs} programs at event 40`);
});

test("a database written by the seed's own CLI (no history) loads, by URL and by the file picker", async (t) => {
  if (!existsSync(seedFixture)) return t.skip(`the seed fixture is not at ${seedFixture}`);
  const dir = `${work}/seed`;
  mkdirSync(dir, { recursive: true });
  copyFileSync(seedFixture, `${dir}/database.json`);
  const expected = Object.keys(JSON.parse(readFileSync(seedFixture, "utf8")).programs).length;
  const byUrl = await open(await view(dir));
  let shown = await data(byUrl.page);
  assert.equal(Number(shown.programs), expected);
  assert.equal(shown.replayNote, "true");
  assert.match(await byUrl.page.textContent("#replay-note"), /pruned/);
  await byUrl.page.screenshot({ path: `${shots}/seed-format.png`, fullPage: true });

  const picked = await open(await view());
  await picked.page.setInputFiles("#file-input", seedFixture);
  await picked.page.waitForFunction(() => document.body.dataset.replayNote === "true");
  shown = await data(picked.page);
  assert.equal(Number(shown.programs), expected);
  assert.deepEqual([...byUrl.errors, ...picked.errors], []);
});

test("a 10,000-program run loads and replays in Chromium (figures printed)", async () => {
  const dir = `${work}/large`;
  mkdirSync(dir, { recursive: true });
  const sim = new Simulation({ numIslands: 4, maxIslandSize: 10000 }, 5, landscape);
  const events = sim.step(9999);
  writeFileSync(`${dir}/database.json`, sim.toJson());
  writeFileSync(`${dir}/history.ndjson`, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const programs = sim.stats().programCount;
  assert.equal(programs, 10000);
  const { page, errors } = await open(await view(dir));
  let shown = await data(page);
  assert.equal(Number(shown.programs), programs);
  const loadMs = Number(shown.loadMs);
  // Replay from the start at 100 events a frame; the page times the frames itself.
  await page.locator("#position").fill("0");
  await page.locator("#speed").fill("100");
  await page.click("#play");
  await page.waitForFunction(() => document.body.dataset.replayFps !== undefined, null, { timeout: 120000 });
  shown = await data(page);
  assert.equal(Number(shown.programs), programs);
  assert.equal(Number(shown.position), events.length);
  assert.deepEqual(errors, []);
  console.log(
    `playground speed: loaded ${programs} programs (${events.length} events) in ${loadMs.toFixed(0)} ms (goal ≤ 1000); ` +
      `replayed them at ${shown.replayFps} frames/s over ${shown.replayFrames} frames (goal ≥ 30)`,
  );
});
