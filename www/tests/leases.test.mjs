// Leases in headless Chromium served by the real `evodb view`: a run planned under leases, one
// item answered, one kept alive by a heartbeat, one left to expire and handed out again shows
// the same open items, attempts and states as `evodb leases` at the run's latest time.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { browserSuite, evodb, shots } from "./helpers.mjs";

const { work, view, open } = browserSuite("leases");
const run = (...args) => JSON.parse(execFileSync(evodb, args).toString());

test("the leases view lists what evodb leases lists at the run's latest time", async () => {
  mkdirSync(work, { recursive: true });
  const dir = `${work}/leased`;
  execFileSync(evodb, ["init", dir, "--numIslands", "3"]);
  const file = `${work}/f.py`;
  writeFileSync(file, "def f():\n    return 0\n");
  run("seed", dir, "--codePath", "f.py", "--targetCodeFile", file, "--metrics", '{"score": 0.5}');
  // Leases reckoned from well after the seed's own time, so the run's clock is the plan's.
  const t = Math.floor(Date.now() / 1000) + 10000;
  const plan = run("plan", dir, "3", "--leaseSeconds", "60", "--now", String(t));
  const [first, second, third] = plan.items;
  writeFileSync(file, "def f():\n    return 1\n");
  run("add", dir, "--codePath", "f.py", "--targetCodeFile", file, "--metrics", '{"score": 0.6}', "--changes", "one",
    "--parentId", first.parentIds[0], "--planItem", first.name, "--token", first.lease.token);
  run("heartbeat", dir, "--item", second.name, "--token", second.lease.token, "--now", String(t + 50));
  const again = run("plan", dir, "1", "--now", String(t + 100));
  assert.equal(again.items[0].name, third.name, "the expired item is handed out again");
  const expected = run("leases", dir, "--now", String(t + 100));

  const { page, errors } = await open(await view(dir), { width: 1440, height: 1000 });
  await page.locator("#leases").scrollIntoViewIfNeeded();
  await page.waitForFunction((n) => document.querySelector("#leases").dataset.leases === String(n), expected.length);
  const rows = await page.evaluate(() =>
    [...document.querySelectorAll("#leases tbody tr")].map((tr) => [...tr.cells].slice(0, 3).map((td) => td.textContent)),
  );
  assert.deepEqual(rows, expected.map((lease) => [lease.item, String(lease.attempt), lease.state]));
  assert.deepEqual(rows.map((r) => r[0]).sort(), [second.name, third.name].sort());
  assert.equal(rows.find((r) => r[0] === third.name)[1], "2", "a reissue counts its attempt");
  await page.locator("#leases-figure").screenshot({ path: `${shots}/leases.png` });
  assert.deepEqual(errors, []);
});
