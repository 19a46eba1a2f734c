// One engine: the page shows the core's answers, not a second engine's. A tie for best goes to
// the later program and a rejected program can be best (as `evodb best` says); a file without
// its history is re-inserted with the file's fitness rule (`primary`, not a plain mean), so the
// page's best and its fitness are `evodb stats`'s; a run followed live keeps agreeing.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { unlinkSync } from "node:fs";
import { browserSuite, data, evodb } from "./helpers.mjs";

const { work, view, open } = browserSuite("engine");

const cli = (...args) => JSON.parse(execFileSync(evodb, args, { stdio: ["ignore", "pipe", "ignore"] }).toString());
const add = (db, parent, code, metrics, ...more) =>
  cli("add", db, "--codePath", "f.py", "--targetCode", code, "--metrics", JSON.stringify(metrics), "--parentId", parent,
    "--changes", code, ...more).id;

/** The page's best after event `k` (scrubbing the timeline there). */
async function bestAt(page, k) {
  await page.evaluate((to) => {
    const position = /** @type {HTMLInputElement} */ (document.querySelector("#position"));
    position.value = String(to);
    position.dispatchEvent(new Event("input"));
  }, k);
  await page.waitForFunction((to) => document.body.dataset.position === String(to), k);
  return (await data(page)).bestId;
}

test("ties and rejected programs: the page's best is the engine's at every point of the run", async () => {
  const db = `${work}/ties`;
  cli("seed", db, "--codePath", "f.py", "--targetCode", "v0", "--metrics", '{"s": 0.5}');
  const seed = cli("best", db).id;
  const first = add(db, seed, "v1", { s: 0.8 });
  const later = add(db, seed, "v2", { s: 0.8 });
  assert.equal(cli("best", db).id, later, "the engine breaks a tie for the later program");
  const rejected = add(db, seed, "v3", { s: 0.9 }, "--status", "rejected", "--reason", "fails a test");
  assert.equal(cli("best", db).id, rejected, "the engine's best may be a rejected program");

  const url = await view(db);
  const { page, errors } = await open(url);
  const events = Number((await data(page)).events);
  assert.equal((await data(page)).bestId, rejected);
  // Each add is one `added` event (the archive's change follows it): walk back through them.
  const history = execFileSync(evodb, ["history", db]).toString().trim().split("\n").map((l) => JSON.parse(l));
  const at = (id) => history.findIndex((e) => e.event === "added" && e.id === id) + 1;
  assert.equal(await bestAt(page, at(first)), first);
  assert.equal(await bestAt(page, at(later)), later, "a tie goes to the later program, as in the engine");
  assert.equal(await bestAt(page, at(rejected)), rejected);
  assert.equal(await bestAt(page, events), rejected);
  assert.deepEqual(errors, []);
});

test("a file without its history is re-inserted with the file's own fitness rule", async () => {
  const db = `${work}/primary`;
  cli("init", db, "--fitness", "primary:s", "--numIslands", "2");
  cli("seed", db, "--codePath", "f.py", "--targetCode", "v0", "--metrics", '{"s": 0.2, "t": 0.9}');
  const seed = cli("best", db).id;
  // By the mean of s and t the first would win; by `s` alone the second does.
  add(db, seed, "v1", { s: 0.3, t: 1.0 });
  const second = add(db, seed, "v2", { s: 0.6, t: 0.0 });
  unlinkSync(`${db}/history.ndjson`);
  const stats = cli("stats", db);
  assert.equal(stats.bestProgramId, second);

  const url = await view(db);
  const { page, errors } = await open(url);
  const shown = await data(page);
  assert.equal(shown.replayNote, "true", "the page says the programs are re-inserted");
  assert.equal(shown.bestId, second, "the page's best is the engine's under `primary:s`");
  assert.equal(Number(shown.best), stats.bestFitness, "and its fitness is the engine's");
  assert.deepEqual(errors, []);
});
