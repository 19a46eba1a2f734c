// Near-duplicates marked where a researcher looks, in headless Chromium served by the real
// `evodb view`: in a run with two near-identical programs (one constant changed) and one unlike
// them, the table marks the later one `≈ #1 (similarity)` — the engine's `nearDuplicates` rule at
// the run's `nearDuplicate` — and its "near-duplicates" filter shows both; the program panel says
// "Near-duplicate of #1, similarity …" with #1 a link that opens it, and the first says which
// program is its near-duplicate; scrubbing back to before the copy was added drops the mark.
// Screenshot: target/www-screenshots/near-duplicates.png.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { browserSuite, data, evodb, shots } from "./helpers.mjs";

const { CodeSignatures } = createRequire(import.meta.url)("../../wasm/pkg/evodb.cjs");
const { work, view, open } = browserSuite("nearduplicates");

const ORIGINAL = `def schedule(jobs, machines):
    """Longest processing time first: each job to the least loaded machine."""
    loads = [0.0] * machines
    plan = [[] for _ in range(machines)]
    for job, length in sorted(enumerate(jobs), key=lambda item: -item[1]):
        target = min(range(machines), key=lambda m: loads[m])
        loads[target] += length
        plan[target].append(job)
    spread = max(loads) - min(loads)
    return plan, spread
`;
// One constant changed: alike, not equal.
const NEAR = ORIGINAL.replace("[0.0] * machines", "[0.5] * machines");
const OTHER = `class Cache:
    def __init__(self, size):
        self.size = size
        self.items = {}

    def get(self, key):
        return self.items.get(key)
`;

/** `evodb add` of `code` to `dir` with `flags`; returns its id. */
function add(dir, code, flags) {
  const file = `${work}/cand.py`;
  writeFileSync(file, code);
  return JSON.parse(execFileSync(evodb, ["add", dir, "--codePath", "sched.py", "--targetCodeFile", file, ...flags]).toString()).id;
}

const table = (page) =>
  page.evaluate(() => {
    const t = /** @type {HTMLElement} */ (document.querySelector("#programs-table"));
    const head = [...t.querySelectorAll(".ptable-head button")].map((b) => b.dataset.sort);
    const rows = [...t.querySelectorAll(".ptable-row")].map((r) => ({
      id: r.dataset.id,
      cells: Object.fromEntries([...r.children].map((c, i) => [head[i], c.textContent])),
    }));
    return { ...t.dataset, rows };
  });

test("two near-identical programs: the table marks and filters them, the panel links them, scrubbing follows", async () => {
  const dir = `${work}/run`;
  mkdirSync(work, { recursive: true });
  writeFileSync(`${work}/seed.py`, ORIGINAL);
  const original = JSON.parse(
    execFileSync(evodb, ["seed", dir, "--codePath", "sched.py", "--targetCodeFile", `${work}/seed.py`, "--metrics", '{"score": 0.5}']).toString(),
  ).id;
  const near = add(dir, NEAR, ["--metrics", '{"score": 0.6}', "--parentId", original, "--changes", "start loads at a half"]);
  const other = add(dir, OTHER, ["--metrics", '{"score": 0.4}', "--parentId", original, "--changes", "a cache instead"]);
  // The similarity the engine gives the pair: the number the page must show.
  const signatures = new CodeSignatures();
  signatures.add("a", ORIGINAL, "sched.py", null);
  signatures.add("b", NEAR, "sched.py", null);
  const [{ similarity }] = signatures.nearDuplicates(["a", "b"], null);
  signatures.free();
  assert.ok(similarity >= 0.9 && similarity < 1, `one constant changed is a near-duplicate, not a copy: ${similarity}`);
  const shown = String(Number(similarity.toPrecision(12)));

  const url = await view(dir);
  const { page, errors } = await open(url, { width: 1440, height: 1000 });
  await page.locator("#programs-table").scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector("#programs-table").dataset.nearDuplicates === "1");
  const all = await table(page);
  assert.equal(all.total, "3");
  const byId = Object.fromEntries(all.rows.map((r) => [r.id, r.cells]));
  assert.equal(byId[near].near, `≈ #1 (${shown})`, "the later program is marked with the earlier one's number");
  assert.equal(byId[original].near, "", "the earlier one is not a near-duplicate of anything");
  assert.equal(byId[other].near, "");

  // The filter: the near-duplicates and what they are near.
  await page.selectOption("#table-status", "near");
  await page.waitForFunction(() => document.querySelector("#programs-table").dataset.rows === "2");
  assert.deepEqual((await table(page)).rows.map((r) => r.id).sort(), [near, original].sort());
  await page.locator("#table-figure").screenshot({ path: `${shots}/near-duplicates-table.png` });

  // The panel: which program it is near, as a link that opens it.
  await page.click(`#programs-table .ptable-row[data-id="${near}"]`);
  await page.waitForFunction((id) => document.body.dataset.selected === id, near);
  const line = await page.locator("#program .near-of").textContent();
  assert.equal(line, `≈ Near-duplicate of #1, similarity ${shown}`);
  await page.locator("#program-figure").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/near-duplicates.png` });
  await page.click("#program .near-of button");
  await page.waitForFunction((id) => document.body.dataset.selected === id, original);
  assert.equal(await page.locator("#program .near-copies").textContent(), "≈ Its near-duplicate: #2");
  assert.equal(await page.locator("#program .near-of").count(), 0);

  // Scrubbing: before the near-duplicate was added there is none; with it, there is.
  const events = readFileSync(`${dir}/history.ndjson`, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const at = events.findIndex((e) => e.event === "added" && e.id === near);
  assert.ok(at > 0, "the history holds the near-duplicate's add");
  await page.selectOption("#table-status", "");
  for (const [position, count] of [[at, "0"], [at + 1, "1"]]) {
    await page.locator("#position").fill(String(position));
    await page.waitForFunction((p) => document.body.dataset.position === p, String(position));
    await page.locator("#programs-table").scrollIntoViewIfNeeded();
    await page.waitForFunction((n) => document.querySelector("#programs-table").dataset.nearDuplicates === n, count);
  }
  assert.equal((await data(page)).position, String(at + 1));
  assert.deepEqual(errors, []);
});
