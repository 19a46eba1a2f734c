// A run imported from OpenEvolve renders: the fixture is made by OpenEvolve's own
// ProgramDatabase (tests/import/openevolve_run.py, in the venv tests/import/venv.sh makes),
// `evodb import openevolve` turns it into an evodb run, and `evodb view` shows it — every
// program, OpenEvolve's best, the parents it pruned as placeholders in the family tree, a
// migrant's panel with its lineage. Screenshot:
// target/www-screenshots/import-openevolve-1440.png.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { browserSuite, data, evodb, root, shots } from "./helpers.mjs";

const { work, view, open } = browserSuite("import");

test("an OpenEvolve run imported with `evodb import openevolve` renders, best program and migrants included", async () => {
  const python = execFileSync("bash", [`${root}tests/import/venv.sh`]).toString().trim();
  execFileSync(python, [`${root}tests/import/openevolve_run.py`, `${work}/oe`, "60"], { stdio: "ignore" });
  const expected = JSON.parse(readFileSync(`${work}/oe/expected.json`, "utf8"));
  const imported = JSON.parse(execFileSync(evodb, ["import", "openevolve", `${work}/oe`, `${work}/db`], { stdio: ["ignore", "pipe", "ignore"] }).toString());
  assert.equal(imported.imported, expected.programs);

  const url = await view(`${work}/db`);
  const { page, errors } = await open(url, { width: 1440, height: 1000 });
  const shown = await data(page);
  assert.equal(shown.programs, String(expected.programs), "every imported program is live in the replay");
  assert.equal(shown.replayMatches, "true", "the replayed history agrees with database.json");
  assert.equal(shown.bestId, expected.best, "the page's best is OpenEvolve's best");
  const islands = await page.evaluate(() => ({ ...document.querySelector("#islands").dataset }));
  assert.equal(islands.drawn, String(expected.programs), "every program is drawn on its island");

  // Parents OpenEvolve pruned before the checkpoint are dashed placeholders in the family tree.
  const ids = new Set(Object.keys(expected.parent_of));
  const missing = new Set(Object.values(expected.parent_of).filter((p) => p && !ids.has(p)));
  const tree = await page.evaluate(() => ({ ...document.querySelector("#tree").dataset }));
  assert.equal(Number(tree.nodes), expected.programs + missing.size, "every program and every missing parent is a node");
  assert.equal(Number(tree.missing), missing.size);

  const migrant = expected.migrants[0];
  await page.goto(`${url}#program=${encodeURIComponent(migrant)}`);
  await page.waitForFunction((id) => document.body.dataset.selected === id, migrant);
  const panel = await page.evaluate(() => document.querySelector("#program").textContent);
  assert.match(panel, /migrant copy of/, "the migrant's panel says what it copies");
  await page.screenshot({ path: `${shots}/import-openevolve-1440.png`, fullPage: true });
  assert.deepEqual(errors, []);
  console.log(`imported OpenEvolve run: ${expected.programs} programs on ${imported.islands} islands, best ${expected.best}`);
});
