// What failed and why, and every program findable, in headless Chromium served by the real
// `evodb view`: a candidate added with `--status error` opens like any program (code, diff
// against its parent, reason, operator, the island it was meant for, `#program=<id>`), its event
// line is a button, errors and rejections are counted in all, per island and per operator; a
// rejection's reason is in the panel; the table of all programs filters, searches, sorts ties as
// the engine does, prints numbers as the engine does and exports CSV; 20,000 rows are in the
// table with only those in view in the page; the event list keeps every line and filters by kind;
// the fitness chart keeps the start of a long run and names every island in its legend; the best's
// lineage lists each step's gain with a diff, and each island says when it last improved.
// Screenshots: target/www-screenshots/failures-*.png.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { browserSuite, data, demo, evodb, shots } from "./helpers.mjs";

const { work, view, open } = browserSuite("failures");

/** `evodb add` of `code` to `dir` with `flags`; returns its id. */
function add(dir, code, flags) {
  const file = `${work}/cand.py`;
  writeFileSync(file, code);
  return JSON.parse(execFileSync(evodb, ["add", dir, "--codePath", "f.py", "--targetCodeFile", file, ...flags]).toString()).id;
}

/** A run with two accepted programs of equal fitness, a rejection and two failed evaluations. */
/** @param {string} dir */
function failingRun(dir) {
  mkdirSync(work, { recursive: true });
  const seedFile = `${work}/seed.py`;
  writeFileSync(seedFile, "def f():\n    return 1\n");
  const seed = JSON.parse(
    execFileSync(evodb, ["seed", dir, "--codePath", "f.py", "--targetCodeFile", seedFile, "--metrics", '{"score": 0.5, "size": 0.5}']).toString(),
  ).id;
  const tieFirst = add(dir, "def f():\n    return 2\n", ["--metrics", '{"score": 1, "size": 1}', "--parentId", seed, "--changes", "two", "--operator", "exploration"]);
  const tieLater = add(dir, "def f():\n    return 3\n", ["--metrics", '{"score": -38, "size": 40}', "--parentId", seed, "--changes", "three", "--operator", "exploitation"]);
  const failed = add(dir, "def f():\n    return undefined_name\n", [
    "--metrics", "{}", "--parentId", tieFirst, "--changes", "use a helper", "--operator", "exploitation",
    "--status", "error", "--reason", "NameError: name 'undefined_name' is not defined",
  ]);
  const failedToo = add(dir, "def f(:\n", ["--metrics", "{}", "--parentId", seed, "--changes", "syntax", "--status", "error", "--reason", "SyntaxError: invalid syntax"]);
  const rejected = add(dir, "def f():\n    return 0\n", [
    "--metrics", '{"score": 0.25, "size": 0.25}', "--parentId", seed, "--changes", "zero", "--operator", "exploration",
    "--status", "rejected", "--reason", "fitness 0.25 is below its parent's 0.5",
  ]);
  return { dir, seed, tieFirst, tieLater, failed, failedToo, rejected };
}

const panel = (page) =>
  page.evaluate(() => ({
    title: document.querySelector("#program h3")?.textContent ?? null,
    badges: [...document.querySelectorAll("#program .badge")].map((b) => b.textContent),
    reason: document.querySelector("#program .reason")?.textContent ?? null,
    facts: Object.fromEntries([...document.querySelectorAll("#program .facts dt")].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])),
    text: document.querySelector("#program")?.textContent ?? "",
  }));

/** Scrolls the table into view (out of sight it is not kept up to date) and waits for it. */
async function showTable(page) {
  await page.locator("#programs-table").scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector("#programs-table").dataset.total !== undefined);
}

const table = (page) =>
  page.evaluate(() => {
    const t = /** @type {HTMLElement} */ (document.querySelector("#programs-table"));
    const head = [...t.querySelectorAll(".ptable-head button")].map((b) => b.dataset.sort);
    const rows = [...t.querySelectorAll(".ptable-row")]
      .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
      .map((r) => ({ id: r.dataset.id, cells: Object.fromEntries([...r.children].map((c, i) => [head[i], c.textContent])) }));
    return { ...t.dataset, rows };
  });

test("a failed candidate opens like any program; failures are counted, listed and filtered to", async () => {
  const run = failingRun(`${work}/run-${Math.random().toString(36).slice(2, 8)}`);
  const url = await view(run.dir);
  const { page, errors } = await open(url, { width: 1440, height: 1000 });

  // The errored candidate by its permalink: code, reason, operator, island, diff against its parent.
  await page.goto(`${url}#program=${run.failed}`);
  await page.waitForFunction((id) => document.body.dataset.selected === id, run.failed);
  let shown = await panel(page);
  assert.equal(shown.title, run.failed, "an errored candidate is a program of the run");
  assert.ok(shown.badges.includes("error"), `its status badge says error (${shown.badges})`);
  assert.equal(shown.reason, "Evaluation failed: NameError: name 'undefined_name' is not defined");
  assert.equal(shown.facts.operator, "exploitation");
  assert.ok(shown.facts["meant for island"] !== undefined, "it names the island it was meant for");
  assert.match(shown.text, /return undefined_name/, "its code is shown");
  await page.click("#program [data-mode=parent]");
  await page.waitForSelector("#program pre.diff");
  const diff = await page.evaluate(() => [...document.querySelectorAll("#program pre.diff .line-add, #program pre.diff .line-del")].map((l) => l.textContent.trim()));
  assert.deepEqual(diff, ["-    return 2", "+    return undefined_name"], "its diff against its parent");
  await page.screenshot({ path: `${shots}/failures-error-panel.png`, fullPage: true });

  // The rejection's reason is in its panel.
  await page.goto(`${url}#program=${run.rejected}`);
  await page.waitForFunction((id) => document.body.dataset.selected === id, run.rejected);
  shown = await panel(page);
  assert.equal(shown.reason, "Rejected: fitness 0.25 is below its parent's 0.5");

  // Its event line is a button that opens it; the kind filter lists the failures alone.
  await page.selectOption("#events-kind", "error");
  const lines = await page.locator("#events li").evaluateAll((items) => items.map((li) => ({ text: li.textContent, id: li.querySelector("button")?.dataset.id })));
  assert.deepEqual(lines.map((l) => l.id).sort(), [run.failed, run.failedToo].sort(), "both failures are listed, each a button");
  await page.click(`#events button[data-id="${run.failedToo}"]`);
  await page.waitForFunction((id) => document.body.dataset.selected === id, run.failedToo);
  assert.equal((await panel(page)).reason, "Evaluation failed: SyntaxError: invalid syntax");

  // Counted: in all, per island and per operator.
  await showTable(page);
  const tally = await page.evaluate(() => {
    const box = /** @type {HTMLElement} */ (document.querySelector("#failures"));
    const rows = Object.fromEntries(
      [...box.querySelectorAll("tbody tr")].map((tr) => [tr.dataset.tally, [...tr.children].slice(1, 4).map((c) => Number(c.textContent))]),
    );
    return { errors: box.dataset.errors, rejected: box.dataset.rejected, rows };
  });
  assert.equal(tally.errors, "2");
  assert.equal(tally.rejected, "1");
  assert.deepEqual(tally.rows.all, [6, 1, 2], "6 candidates, 1 rejected, 2 errors");
  assert.deepEqual(tally.rows["operator exploitation"], [2, 0, 1]);
  assert.deepEqual(tally.rows["operator —"], [2, 0, 1], "the seed and a failure name no operator");
  assert.deepEqual(tally.rows["operator exploration"], [2, 1, 0]);
  const perIsland = Object.entries(tally.rows).filter(([k]) => k.startsWith("island") || k === "no island");
  assert.equal(perIsland.reduce((n, [, [, , e]]) => n + e, 0), 2, "the errors per island add up");

  // A count is a filter: the table shows the errors alone.
  await page.click('#failures tr[data-tally="all"] button[data-filter^="error"]');
  await page.waitForFunction(() => document.querySelector("#programs-table").dataset.rows === "2");
  const failedRows = await table(page);
  assert.deepEqual(failedRows.rows.map((r) => r.id).sort(), [run.failed, run.failedToo].sort());
  assert.ok(failedRows.rows.every((r) => r.cells.state === "error" && r.cells.fitness === "—"));
  await page.locator("#table-figure").screenshot({ path: `${shots}/failures-table-errors.png` });
  assert.deepEqual(errors, []);
});

test("the table: every program, ties ranked as the engine ranks, numbers as it prints them, search, click and CSV", async () => {
  const run = failingRun(`${work}/run-${Math.random().toString(36).slice(2, 8)}`);
  const url = await view(run.dir);
  const { page, errors } = await open(url, { width: 1440, height: 1000 });
  const shown = await data(page);
  assert.equal(shown.bestId, run.tieLater, "the engine's best is the later of two equal programs");

  // Top programs: the engine's best first, and numbers printed as the engine prints them.
  const top = await page.locator("#top button").evaluateAll((b) => b.map((x) => ({ id: x.dataset.id, text: x.textContent })));
  assert.equal(top[0].id, run.tieLater, "the later tie is first in Top programs");
  assert.equal(top[1].id, run.tieFirst);
  assert.match(top[0].text, / · 1 · /, "a fitness of 1 prints as 1, not 1.000");

  await showTable(page);
  const all = await table(page);
  assert.equal(all.total, "6", "every program: live, rejected and failed");
  assert.deepEqual(all.rows.slice(0, 2).map((r) => r.id), [run.tieLater, run.tieFirst], "sorted by fitness, ties to the later");
  assert.equal(all.rows[0].cells.fitness, "1");
  assert.equal(all.rows[0].cells["metric:size"], "40", "an integer metric prints as an integer");
  assert.equal(all.rows.at(-1).cells.state, "error", "programs without fitness sort last");

  // Sorting by a metric; the search finds code and reasons.
  await page.click('#programs-table [data-sort="metric:score"]');
  await page.waitForFunction(() => document.querySelector('#programs-table [aria-sort="descending"]')?.dataset.sort === "metric:score");
  let sorted = (await table(page)).rows;
  assert.deepEqual(sorted.map((r) => r.cells["metric:score"]), ["1", "0.5", "0.25", "-38", "—", "—"], "sorted by score, missing last");
  await page.click('#programs-table [data-sort="metric:score"]');
  await page.waitForFunction(() => document.querySelector('#programs-table [aria-sort="ascending"]')?.dataset.sort === "metric:score");
  sorted = (await table(page)).rows;
  assert.deepEqual(sorted.map((r) => r.cells["metric:score"]), ["-38", "0.25", "0.5", "1", "—", "—"], "and the other way");
  await page.fill("#table-search", "undefined_name");
  await page.waitForFunction(() => document.querySelector("#programs-table").dataset.rows === "1");
  assert.equal((await table(page)).rows[0].id, run.failed);
  await page.fill("#table-search", "below its parent");
  await page.waitForFunction(() => document.querySelector("#programs-table").dataset.rows === "1");
  const found = (await table(page)).rows[0];
  assert.equal(found.id, run.rejected);
  await page.click(`#programs-table .ptable-row[data-id="${run.rejected}"]`);
  await page.waitForFunction((id) => document.body.dataset.selected === id, run.rejected);

  // CSV of the rows shown.
  await page.fill("#table-search", "");
  await page.waitForFunction(() => document.querySelector("#programs-table").dataset.rows === "6");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#table-csv")]);
  const csvPath = `${work}/programs.csv`;
  await download.saveAs(csvPath);
  const csv = readFileSync(csvPath, "utf8").trim().split("\n");
  assert.equal(csv.length, 7, "a header and six rows");
  assert.match(csv[0], /^candidate,id,status,state,fitness,score,size,island/);
  assert.ok(csv[1].includes(run.tieLater) && csv[1].includes(",1,-38,40,"), `the best row: ${csv[1]}`);
  assert.ok(csv.some((l) => l.includes(run.failed) && l.includes("NameError: name 'undefined_name' is not defined")), "a failure's reason is in its row");
  await page.screenshot({ path: `${shots}/failures-table.png`, fullPage: true });
  assert.deepEqual(errors, []);
});

test("20,000 programs in the table with only the rows in view in the page; the event list keeps every line", async () => {
  const query = new URLSearchParams({ numIslands: 8, maxIslandSize: 10000, features: "none", steps: 20000 });
  const { page, errors } = await open(`${await view()}?${query}`, { width: 1440, height: 1000 });
  await showTable(page);
  await page.waitForFunction(() => Number(document.querySelector("#programs-table").dataset.total) > 20000);
  // The fitness chart: its curves start where the run started, and its legend names all 8 islands.
  const chart = await page.evaluate(() => ({
    firstX: Number(document.querySelector("#fitness").dataset.firstX),
    legend: [...document.querySelectorAll("#fitness-legend li:not(.overall)")].map((li) => li.textContent),
  }));
  assert.ok(chart.firstX <= 10, `the fitness curves start at the run's start (first point at ${chart.firstX})`);
  assert.deepEqual(chart.legend, Array.from({ length: 8 }, (_, i) => `island ${i}`));
  let shown = await table(page);
  assert.ok(Number(shown.rendered) < 60, `only the rows in view are in the page (${shown.rendered})`);
  assert.equal(shown.rows[0].id, (await data(page)).bestId, "the first row is the engine's best");
  const started = Date.now();
  await page.locator("#programs-table").evaluate((t) => (t.scrollTop = t.scrollHeight));
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll("#programs-table .ptable-row")].map((r) => Number(r.dataset.index));
    return Math.max(...rows) === Number(document.querySelector("#programs-table").dataset.rows) - 1;
  });
  shown = await table(page);
  assert.ok(Number(shown.rendered) < 60);
  await page.locator("#table-figure").screenshot({ path: `${shots}/failures-table-20000-end.png` });
  console.log(`table: ${shown.total} programs, ${shown.rendered} rows in the page, scrolled to the last in ${Date.now() - started} ms`);
  assert.deepEqual(errors, []);

  // A saved run's event list: more than 100 lines, and the first one reachable.
  const { dir } = demo(`${work}/demo`, {
    seed: 3,
    steps: 150,
    config: { numIslands: 3, maxIslandSize: 20 },
    landscape: { terms: 4, ruggedness: 0.3 },
  });
  const saved = await open(await view(dir), { width: 1440, height: 1000 });
  const lines = Number(await saved.page.locator("#events").getAttribute("data-lines"));
  assert.ok(lines > 300, `every line is kept (${lines})`);
  await saved.page.locator("#events-scroll").evaluate((s) => (s.scrollTop = s.scrollHeight));
  await saved.page.waitForFunction(() => [...document.querySelectorAll("#events li")].some((li) => li.textContent.startsWith("1. run created")));
  await saved.page.selectOption("#events-kind", "evicted");
  const evicted = await saved.page.locator("#events li").evaluateAll((items) => items.map((li) => li.className));
  assert.ok(evicted.length > 0 && evicted.every((c) => c === "event-evicted"), "the filter shows one kind");
  assert.deepEqual(saved.errors, []);
});

test("how the best got there: its lineage with each step's gain, a one-click diff, when each island last improved, the best so far", async () => {
  const run = failingRun(`${work}/path-${Math.random().toString(36).slice(2, 8)}`);
  const url = await view(run.dir);
  const { page, errors } = await open(url, { width: 1440, height: 1000 });
  const path = await page.evaluate(() =>
    [...document.querySelectorAll("#best-path li")].map((li) => ({
      id: li.querySelector(".step-open")?.dataset.id,
      fitness: li.querySelector(".step-fitness")?.textContent,
      gain: li.querySelector(".step-gain")?.textContent,
      how: li.querySelector(".step-how")?.textContent,
      diff: li.querySelector(".step-diff")?.dataset.diff ?? null,
    })),
  );
  assert.deepEqual(path, [
    { id: run.seed, fitness: "0.5", gain: "root", how: "— · island 0", diff: null },
    { id: run.tieLater, fitness: "1", gain: "+0.5", how: "exploitation · island 2", diff: run.tieLater },
  ]);
  await page.click(`#best-path [data-diff="${run.tieLater}"]`);
  await page.waitForFunction((id) => document.body.dataset.selected === id, run.tieLater);
  await page.waitForSelector("#program pre.diff");
  const islands = await page.locator("#island-progress li").evaluateAll((items) => items.map((li) => li.dataset.ago));
  // Added in order: the seed (island 0), two programs (islands 1 and 2), a worse rejection (island 0).
  assert.deepEqual(islands, ["3", "2", "1"], "programs added since each island last improved");
  // The fitness chart's best-so-far line: the seed's 0.5, then 1 (the later tie is no record).
  const chart = await page.locator("#fitness").evaluate((c) => ({ ...c.dataset }));
  assert.equal(chart.records, "2");
  assert.equal(chart.bestSoFar, "1");
  await page.locator("#best-path-figure").screenshot({ path: `${shots}/failures-best-path.png` });
  assert.deepEqual(errors, []);
});
