// Defects of the first playground, each pinned: event 0 of an 8-island run shows its 8 islands
// (not a default setup), and every chart redraws at the new size when the window is resized; the
// simulation starts with the form's islands; scrubbing updates the status line; the fitness chart
// and cells are reachable by keyboard; the replay notice is readable in dark mode.
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

test("the simulation's first view shows the form's islands, not a default three", async () => {
  const { page, errors } = await open(`${await view()}?numIslands=5`);
  assert.equal(await page.evaluate(() => document.querySelector("#islands").dataset.islands), "5");
  assert.equal(await page.locator("#fitness-legend li:not(.overall)").count(), 5, "the legend names the five");
  assert.deepEqual(errors, []);
});

test("scrubbing a saved run updates the status line", async () => {
  const { dir } = demo(`${work}/scrub`, { seed: 6, steps: 30, config: {}, landscape: { terms: 3, ruggedness: 0 } });
  const { page, errors } = await open(await view(dir));
  await page.locator("#position").fill("5");
  await page.waitForFunction(() => document.body.dataset.position === "5");
  const text = await page.locator("#status").textContent();
  const live = (await page.evaluate(() => document.body.dataset.programs)) ?? "";
  assert.match(text, new RegExp(`event 5 of \\d+, ${live} live programs`), `the status line follows the timeline: ${text}`);
  assert.deepEqual(errors, []);
});

test("the fitness chart and the cells are reachable by keyboard; Enter on the chart opens the best", async () => {
  const { dir } = demo(`${work}/keys`, { seed: 8, steps: 40, config: {}, landscape: { terms: 3, ruggedness: 0 } });
  const { page, errors } = await open(await view(dir));
  const focusable = await page.evaluate(() => ["fitness", "heatmap"].map((id) => document.getElementById(id).tabIndex));
  assert.deepEqual(focusable, [0, 0]);
  await page.focus("#fitness");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.location.hash.startsWith("#program="));
  const shown = await page.evaluate(() => ({ ...document.body.dataset }));
  assert.equal(shown.selected, shown.bestId, "the chart's highest point is the best program");
  assert.deepEqual(errors, []);
});

test("in dark mode the replay's notice is readable", async () => {
  const { page, errors } = await open(await view());
  await page.emulateMedia({ colorScheme: "dark" });
  const colours = await page.evaluate(() => {
    const note = document.getElementById("replay-note");
    note.hidden = false;
    note.textContent = "a notice";
    const style = globalThis.getComputedStyle(note);
    return { ink: style.color, paper: style.backgroundColor };
  });
  /** Relative luminance of an `rgb(r, g, b)` colour. @param {string} rgb */
  const luminance = (rgb) => {
    const [r, g, b] = rgb.match(/\d+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [luminance(colours.ink), luminance(colours.paper)].sort((x, y) => y - x);
  const contrast = (a + 0.05) / (b + 0.05);
  assert.ok(contrast >= 4.5, `text and background contrast ${contrast.toFixed(2)} (${colours.ink} on ${colours.paper}) is at least 4.5`);
  assert.deepEqual(errors, []);
});
