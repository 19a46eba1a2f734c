// An idea run in headless Chromium, served by the real `evodb view` (issue 39, item 6): an idea
// opens as a card — title, summary, facets, its eight scores as bars — with the ideas it was
// refined or merged from as buttons; its comparison with its parent goes field by field, not
// line by line; the fitness chart carries the run's best score. Screenshot:
// target/www-screenshots/ideas-card.png and ideas-compare.png.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { browserSuite, evodb, shots } from "./helpers.mjs";

const { work, view, open } = browserSuite("ideas");

const CRITERIA = ["feasibility", "speed_to_value", "differentiation", "market_size", "distribution", "moats", "risk", "clarity"];

/** @param {string} title */
function idea(title) {
  return JSON.stringify({
    title,
    summary: `${title}, for solo developers.`,
    facets: {
      audience: "solo developers", jtbd: "ship faster", differentiator: `${title} is tiny`,
      monetization: "subscription", distribution: "word of mouth", risks: "incumbents copy it",
    },
  });
}

/** The eight scores, each `base` but clarity (`base` − 2) and feasibility (`base` + 1, at most 10). */
function scores(base) {
  return JSON.stringify(Object.fromEntries(CRITERIA.map((c) => [c, c === "clarity" ? base - 2 : c === "feasibility" ? Math.min(10, base + 1) : base])));
}

/** @param {string[]} args */
const run = (args) => JSON.parse(execFileSync(evodb, args).toString());

/** A two-round idea run: three generated ideas, one refined, one merged from two. */
function ideaRun(dir) {
  mkdirSync(work, { recursive: true });
  run(["ideas", dir, "--rounds", "3", "--population", "3", "--elite", "2"]);
  const ids = run(["plan", dir, "1"]).items.map((/** @type {any} */ item, /** @type {number} */ i) =>
    run(["add-idea", dir, "--idea", idea(`Idea ${i}`), "--scores", scores(5 + i), "--planItem", item.name]).id);
  const refineItem = run(["plan", dir, "1"]).items[0];
  const refined = run(["add-idea", dir, "--idea", idea("Idea 2, sharper"), "--scores", scores(8), "--parents", ids[2], "--planItem", refineItem.name]).id;
  const merged = run(["add-idea", dir, "--idea", idea("Idea 1 + 2"), "--scores", scores(6), "--parents", `${ids[1]},${ids[2]}`]).id;
  return { dir, ids, refined, merged };
}

test("an idea opens as a card with its scores, its origins and a field-by-field comparison", async () => {
  const r = ideaRun(`${work}/run-${Math.random().toString(36).slice(2, 8)}`);
  const url = await view(r.dir);
  const { page, errors } = await open(url, { width: 1440, height: 1000 });

  // The refined idea: its card, its eight bars in proportion, where it came from.
  await page.goto(`${url}#program=${r.refined}`);
  await page.waitForFunction((id) => document.body.dataset.selected === id, r.refined);
  await page.waitForSelector("#program .idea-card");
  const card = await page.evaluate(() => {
    const root = /** @type {HTMLElement} */ (document.querySelector("#program .idea-card"));
    return {
      title: root.querySelector("h4")?.textContent,
      summary: root.querySelector(".idea-summary")?.textContent,
      facets: Object.fromEntries([...root.querySelectorAll(".idea-facets dt")].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])),
      bars: Object.fromEntries(
        [...root.querySelectorAll(".idea-scores li")].map((li) => [
          /** @type {HTMLElement} */ (li).dataset.criterion,
          { score: li.querySelector(".idea-score")?.textContent, width: /** @type {HTMLElement} */ (li.querySelector(".idea-bar-fill")).style.width },
        ]),
      ),
      origin: root.querySelector(".idea-origin")?.textContent,
      from: [...root.querySelectorAll(".idea-origin button")].map((b) => /** @type {HTMLElement} */ (b).dataset.id),
      code: document.querySelector("#program pre.code") !== null,
    };
  });
  assert.equal(card.title, "Idea 2, sharper");
  assert.equal(card.summary, "Idea 2, sharper, for solo developers.");
  assert.equal(card.facets.differentiator, "Idea 2, sharper is tiny");
  assert.deepEqual(Object.keys(card.bars), CRITERIA, "eight bars, in the critic's order");
  assert.deepEqual(card.bars.clarity, { score: "6", width: "60%" });
  assert.deepEqual(card.bars.feasibility, { score: "9", width: "90%" });
  assert.equal(card.origin, "Refined from “Idea 2”.");
  assert.deepEqual(card.from, [r.ids[2]]);
  assert.equal(card.code, false, "an idea shows no code pane of JSON");
  await page.locator("#program").screenshot({ path: `${shots}/ideas-card.png` });

  // Compared with its parent field by field: what changed is marked, the rest is not.
  await page.click("#program [data-mode=parent]");
  await page.waitForSelector("#program .idea-compare");
  const compared = await page.evaluate(() => {
    const table = /** @type {HTMLElement} */ (document.querySelector("#program .idea-compare"));
    const rows = Object.fromEntries(
      [...table.querySelectorAll("tr[data-field]")].map((tr) => [/** @type {HTMLElement} */ (tr).dataset.field, { changed: tr.classList.contains("changed"), cells: [...tr.children].slice(1).map((td) => td.textContent) }]),
    );
    return { changed: table.dataset.changed, rows };
  });
  assert.deepEqual(compared.rows.title, { changed: true, cells: ["Idea 2", "Idea 2, sharper"] });
  assert.deepEqual(compared.rows.audience, { changed: false, cells: ["solo developers", "solo developers"] });
  assert.deepEqual(compared.rows.clarity, { changed: true, cells: ["5", "6"] });
  // title, summary, differentiator and the eight criteria (7 → 8, clarity 5 → 6, feasibility 8 → 9).
  assert.equal(compared.changed, "11");
  await page.locator("#program").screenshot({ path: `${shots}/ideas-compare.png` });

  // The merged idea names both parents; a click on one opens it.
  await page.goto(`${url}#program=${r.merged}`);
  await page.waitForFunction((id) => document.body.dataset.selected === id, r.merged);
  await page.click("#program [data-mode=code]");
  await page.waitForSelector("#program .idea-origin");
  assert.equal(await page.locator("#program .idea-origin").textContent(), "Merged from “Idea 1” and “Idea 2”.");
  await page.click(`#program .idea-origin button[data-id="${r.ids[1]}"]`);
  await page.waitForFunction((id) => document.body.dataset.selected === id, r.ids[1]);
  assert.equal(await page.locator("#program .idea-card h4").textContent(), "Idea 1");
  await page.screenshot({ path: `${shots}/ideas-run.png`, fullPage: true });
  assert.deepEqual(errors, []);
});
