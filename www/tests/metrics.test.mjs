// Metric against metric, in headless Chromium served by the real `evodb view`: a kernel run with
// `accuracy` (higher is better) and `latency` (lower is better, `--direction latency=min`) shows
// every program as a point, and the front the page rings is exactly the live programs no other
// live program beats on both, worked out here by brute force; a click on a front point opens that
// program; the cells mode draws the same front. Screenshot: target/www-screenshots/metrics.png.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { paretoFront } from "../js/views/metrics.js";
import { browserSuite, data, evodb, shots } from "./helpers.mjs";

const { work, view, open } = browserSuite("metrics");

/** What one kernel program scored. @typedef {{id: string, accuracy: number, latency: number}} Scored */

/**
 * A kernel run of 60 programs with `accuracy` (max) and `latency` (min), all live (2 islands of
 * 40), and its front worked out by brute force.
 * @param {string} name
 * @param {number} state the metrics' pseudo-random seed
 */
function kernelRun(name, state) {
  mkdirSync(work, { recursive: true });
  const dir = `${work}/${name}`;
  execFileSync(evodb, ["init", dir, "--numIslands", "2", "--maxIslandSize", "40", "--fitness", "primary:accuracy", "--direction", "latency=min"]);
  const file = `${work}/k.py`;
  /** @type {Scored[]} */
  const programs = [];
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 60; i++) {
    writeFileSync(file, `def kernel():\n    return ${i}\n`);
    const metrics = { accuracy: Math.round(next() * 1000) / 1000, latency: Math.round(next() * 100) / 10 };
    const flags = ["--codePath", "k.py", "--targetCodeFile", file, "--metrics", JSON.stringify(metrics), "--changes", `v${i}`];
    const command = i === 0 ? ["seed", dir, ...flags] : ["add", dir, ...flags, "--parentId", programs[0].id];
    programs.push({ id: JSON.parse(execFileSync(evodb, command).toString()).id, ...metrics });
  }
  const beats = (b, a) => b.accuracy >= a.accuracy && b.latency <= a.latency && (b.accuracy > a.accuracy || b.latency < a.latency);
  const expected = programs.filter((a) => !programs.some((b) => beats(b, a))).map((p) => p.id).sort();
  return { dir, programs, expected };
}

test("paretoFront keeps exactly the points nothing beats on both coordinates", () => {
  const points = [];
  let state = 7;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 400; i++) points.push({ x: Math.round(next() * 50), y: Math.round(next() * 50), i });
  const dominated = (a, b) => b.x >= a.x && b.y >= a.y && (b.x > a.x || b.y > a.y);
  const expected = points.filter((a) => !points.some((b) => dominated(a, b)));
  // Equal points are one front member each time they occur, by the sweep's order: compare the set of coordinates.
  const key = (p) => `${p.x},${p.y}`;
  assert.deepEqual(new Set(paretoFront(points).map(key)), new Set(expected.map(key)));
});

test("the front of two metrics, one minimised, is the one brute force finds, and a click opens its program", async () => {
  const { dir, programs, expected } = kernelRun("kernel", 3);
  const { page, errors } = await open(await view(dir), { width: 1440, height: 1000 });
  await page.locator("#metrics").scrollIntoViewIfNeeded();
  await page.selectOption("#metrics-x", "accuracy");
  await page.selectOption("#metrics-y", "latency");
  const shown = () => page.evaluate(() => ({ ...document.querySelector("#metrics").dataset }));
  // (The view draws once on screen.)
  await page.waitForFunction(() => document.querySelector("#metrics").dataset.axes === "accuracy latency");
  let seen = await shown();
  assert.equal(Number(seen.points), programs.length, "every program is a point");
  assert.deepEqual(seen.frontIds.split(" ").sort(), expected, "the ringed front is the brute-force front");
  await page.locator("#metrics-figure").screenshot({ path: `${shots}/metrics.png` });

  // A click where the page drew a front point opens that program.
  const target = expected[0];
  const point = JSON.parse(seen.frontAt).find((p) => p.id === target);
  await page.locator("#metrics").click({ position: { x: point.x, y: point.y } });
  await page.waitForFunction((id) => document.body.dataset.selected === id, target);

  // One metric over time: x is the candidate number, and the ringed line is accuracy's running best.
  await page.selectOption("#metrics-x", "\u0000candidate");
  await page.selectOption("#metrics-y", "accuracy");
  await page.waitForFunction(() => document.querySelector("#metrics").dataset.axes.endsWith(" accuracy"));
  const records = [];
  for (const p of programs) if (records.length === 0 || p.accuracy > records.at(-1).accuracy) records.push(p);
  assert.deepEqual((await shown()).frontIds.split(" "), records.map((p) => p.id), "the running best, in order");
  await page.selectOption("#metrics-x", "accuracy");
  await page.selectOption("#metrics-y", "latency");
  await page.selectOption("#metrics-mode", "cells");
  await page.waitForFunction(() => document.querySelector("#metrics").dataset.mode === "cells");
  seen = await shown();
  assert.deepEqual(seen.frontIds.split(" ").sort(), expected, "the cells draw the same front");
  // The diversity chart counts the same run: 60 live programs, 60 distinct code texts.
  await page.locator("#diversity").scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector("#diversity").dataset.live === "60");
  const diversity = await page.evaluate(() => ({ ...document.querySelector("#diversity").dataset }));
  assert.deepEqual([diversity.live, diversity.unique], ["60", "60"]);
  await page.locator("#diversity-figure").screenshot({ path: `${shots}/diversity.png` });
  assert.deepEqual(errors, []);
  assert.equal((await data(page)).selected, target);
  console.log(`metric against metric: ${programs.length} programs, front of ${expected.length}`);
});

test("another run compared: its best so far over this one's, its front over this front", async () => {
  const mine = kernelRun("mine", 5);
  const theirs = kernelRun("theirs", 8);
  const { page, errors } = await open(await view(mine.dir), { width: 1440, height: 1000 });
  await page.setInputFiles("#compare-input", [`${theirs.dir}/database.json`, `${theirs.dir}/history.ndjson`]);
  await page.waitForFunction(() => document.body.dataset.compared === "60");
  // The fitness is accuracy: the compared run's best so far ends at its highest accuracy.
  const best = Math.max(...theirs.programs.map((p) => p.accuracy));
  await page.waitForFunction((b) => Number(document.querySelector("#fitness").dataset.comparedBest) === b, best);
  await page.locator("#metrics").scrollIntoViewIfNeeded();
  await page.selectOption("#metrics-x", "accuracy");
  await page.selectOption("#metrics-y", "latency");
  await page.waitForFunction((n) => document.querySelector("#metrics").dataset.comparedFront === String(n), theirs.expected.length);
  assert.match(await page.textContent("#compare-note"), /Compared with database\.json \+ history\.ndjson: best/);
  await page.locator("#fitness").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/compare.png` });
  assert.deepEqual(errors, []);
});
