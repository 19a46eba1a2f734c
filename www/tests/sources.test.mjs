// Opening a saved run without a browser: a history that starts at the run's creation is replayed
// without copying database.json into the engine (it does not read it then), and the page gets
// exactly the events and bests it would get with the file; any other history still gets the file.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { initSync, Replay, Simulation } from "../pkg/evodb.js";
import { programsInFile, savedRun, startsAtCreation } from "../js/sources.js";

initSync({ module: readFileSync(new URL("../pkg/evodb_bg.wasm", import.meta.url)) });

/** A recorded run with migrations and evictions: its database.json and history.ndjson texts. */
function recorded() {
  const sim = new Simulation({ numIslands: 3, maxIslandSize: 8, migrationInterval: 5 }, 3, { terms: 3, ruggedness: 0.3 });
  const events = sim.step(80);
  const run = { database: sim.toJson(), history: events.map((e) => JSON.stringify(e)).join("\n") + "\n" };
  sim.free();
  return run;
}

/** What a replay gives the page: its events and the best after each. @param {Replay} replay */
function shown(replay) {
  const events = JSON.parse(replay.eventsJson(0));
  return { events, best: events.map((_, k) => replay.bestAfter(k + 1)), note: replay.note ?? null };
}

test("a history from the run's creation opens as with its file, though the file is not handed over", () => {
  const { database, history } = recorded();
  const withFile = Replay.open(database, history);
  const run = savedRun(database, "\n" + history);
  assert.equal(run.note, null);
  const expected = shown(withFile);
  assert.ok(expected.events.some((e) => e.event === "evicted"), "the run has evictions");
  assert.deepEqual(shown(run.replay), expected);
  withFile.free();
  run.replay.free();
});

test("a history that does not start at the creation re-inserts the file's programs", () => {
  const { database, history } = recorded();
  const rest = history.split("\n").slice(1).join("\n");
  const withFile = Replay.open(database, rest);
  const run = savedRun(database, rest);
  assert.match(run.note ?? "", /re-inserted/);
  assert.deepEqual(shown(run.replay), shown(withFile));
  assert.ok(run.events.filter((e) => e.event === "added").length > 10, "the file's programs are there");
  withFile.free();
  run.replay.free();
});

test("a history that does not replay names the file's problem when the file is broken", () => {
  const { history } = recorded();
  const torn = history + '{"event":"add';
  assert.throws(() => savedRun("{", torn), /database\.json does not load/);
});

test("startsAtCreation reads the first line that is not blank, as the engine does", () => {
  assert.equal(startsAtCreation(null), false);
  assert.equal(startsAtCreation(""), false);
  assert.equal(startsAtCreation('\n  \r\n{"event":"created","seed":1}\r\n{"event":"added"}'), true);
  assert.equal(startsAtCreation('{"event":"added"}\n{"event":"created"}'), false);
  assert.equal(startsAtCreation('{"event":"crea'), false);
  assert.equal(startsAtCreation("[1]\n"), false);
});

test("a file that does not parse opens with its history, and the count says what is wrong", () => {
  const { database, history } = recorded();
  const run = savedRun(database.slice(0, 100), history);
  assert.equal(run.note, null, "the history from the creation is all the engine needs");
  run.replay.free();
  assert.equal(programsInFile(database), Object.keys(JSON.parse(database).programs).length);
  const broken = programsInFile(database.slice(0, 100));
  assert.equal(typeof broken, "object");
  assert.match(/** @type {{problem: string}} */ (broken).problem, /^does not parse \(/);
  assert.equal(programsInFile("null"), 0);
});
