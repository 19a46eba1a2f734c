// skill/scripts/db-cli.mjs, the Node drop-in for the seed skill's db-cli.mjs: the seed's JSON
// shapes; the same answers, files and exit codes as the native `evodb` for the same steps; the
// seed-written fixture; 8 parallel processes × 50 adds; native and Node writers on one database;
// the lock's stale and timeout paths; kill -9. The catalogue of bad input is bad-input.test.mjs,
// the hostile review's repairs and faults hardening.test.mjs.
//
//   node --test skill/tests/
//
// The comparisons with the native CLI need target/release/evodb (EVODB_BIN overrides); without
// it they are skipped, and say so.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { CLI, EVODB, addArgs, cli, env, haveFlock, haveNative, historyOf, native, noNative, root, runAsync, seedArgs, snapshot, tempDir, warnings } from "./helpers.mjs";

const FIXTURE = path.resolve(root, "tests/fixtures/seed-written/database.json");
const engine = await import(pathToFileURL(path.join(root, "skill/scripts/evodb-wasm/evodb.js")).href);
engine.initSync({ module: fs.readFileSync(path.join(root, "skill/scripts/evodb-wasm/evodb_bg.wasm")) });
const { Database } = engine;

// --- the seed's shapes --------------------------------------------------------------------------

test("the seed's commands print the seed's JSON shapes", (t) => {
  const db = path.join(tempDir(t), "database");
  const created = cli(["create", db]).json();
  assert.deepEqual(Object.keys(created), ["isEmpty", "lastIteration", "programCount", "bestProgramId", "bestMetrics", "seedCodePath", "seedTargetCode"]);
  assert.equal(created.isEmpty, true);
  assert.deepEqual(cli(["sample", db]).json(), { parent: null, inspirations: [] });
  assert.equal(cli(["best", db]).json(), null);

  const seeded = cli(seedArgs(db)).json();
  assert.deepEqual(Object.keys(seeded), ["id", "metrics"]);
  assert.deepEqual(seeded.metrics, { score: 0.1, speed: 0.5 });
  let last;
  for (let i = 1; i <= 12; i++) {
    last = cli(addArgs(db, seeded.id, i, i / 20)).json();
    assert.deepEqual(Object.keys(last), ["id", "metrics", "bestProgramId", "bestMetrics", "lastIteration"]);
    assert.equal(last.lastIteration, i + 1);
  }
  const sample = cli(["sample", db]).json();
  assert.deepEqual(Object.keys(sample), ["parent", "inspirations"]);
  assert.deepEqual(Object.keys(sample.parent), ["id", "codePath", "targetCode", "metrics", "changes"]);
  assert.ok(sample.inspirations.length > 0 && sample.inspirations.length <= 5, JSON.stringify(sample));
  for (const inspiration of sample.inspirations) assert.deepEqual(Object.keys(inspiration), ["id", "metrics", "changes"]);
  assert.ok(sample.inspirations.every((i) => i.id !== sample.parent.id), "the parent is not its own inspiration");

  const best = cli(["best", db]).json();
  assert.deepEqual(Object.keys(best), ["id", "codePath", "targetCode", "metrics", "changes", "iterationFound"]);
  assert.equal(best.id, last.bestProgramId);
  assert.deepEqual(best.metrics, { score: 0.6, speed: 0.5 });
  assert.equal(best.iterationFound, 12);
  const info = cli(["info", db]).json();
  assert.deepEqual(info, {
    isEmpty: false, lastIteration: 13, programCount: 13, bestProgramId: best.id, bestMetrics: best.metrics,
    seedCodePath: "/candidates/iteration_0.py", seedTargetCode: "def f(x):\n    return 0\n",
  });

  // The file is the seed's format: its keys in its order, 2-space pretty-printed.
  const text = fs.readFileSync(path.join(db, "database.json"), "utf8");
  const file = JSON.parse(text);
  assert.deepEqual(Object.keys(file).slice(0, 13), [
    "numIslands", "maxIslandSize", "migrationInterval", "migrationRate", "explorationRatio", "programs", "islands",
    "currentIsland", "islandGenerations", "lastMigrationGeneration", "bestProgramId", "lastIteration", "evodb",
  ]);
  assert.equal(text, JSON.stringify(file, null, 2));
  assert.deepEqual(Object.keys(file.programs[best.id]).slice(0, 9), ["id", "codePath", "targetCode", "parentId", "generation", "iterationFound", "timestamp", "metrics", "changes"]);
  assert.ok(Math.abs(file.programs[best.id].timestamp - Date.now() / 1000) < 120, "timestamps are Date.now() / 1000");
  assert.ok(!fs.existsSync(path.join(db, "database.json.lock")), "the lock is released");
  assert.ok(!fs.existsSync(path.join(db, "database.json.tmp")), "no temp file is left");
});

test("flags take equals signs and files; an unknown parent is a warning, as in the seed", (t) => {
  const dir = tempDir(t);
  const db = path.join(dir, "db");
  const code = path.join(dir, "candidate.py");
  fs.writeFileSync(code, "def f(x):\n    # it's \"quoted\" $(not run)\n    return x\n");
  const changes = path.join(dir, "changes.txt");
  fs.writeFileSync(changes, "--starts with dashes\nand spans lines");
  const seeded = cli(["seed", db, "--codePath=/c/0.py", `--targetCodeFile=${code}`, '--metrics={"score":0.5}']).json();
  const added = cli(["add", db, "--codePath", "/c/1.py", "--targetCodeFile", code, "--parentId", seeded.id, "--metrics", '{"score":0.75}', "--changesFile", changes]).json();
  const best = cli(["best", db]).json();
  assert.equal(best.id, added.id);
  assert.equal(best.targetCode, fs.readFileSync(code, "utf8"));
  assert.equal(best.changes, "--starts with dashes\nand spans lines");

  const orphan = cli(addArgs(db, "no-such-program", 2, 0.2));
  assert.equal(orphan.code, 0, orphan.stderr);
  assert.match(orphan.stderr, /^warning: parent id `no-such-program` is not in the database/);
  assert.deepEqual(Object.keys(orphan.json()), ["id", "metrics", "bestProgramId", "bestMetrics", "lastIteration"]);
  const file = JSON.parse(fs.readFileSync(path.join(db, "database.json"), "utf8"));
  assert.equal(file.programs[orphan.json().id].generation, 0);

  const help = cli(["--help"]);
  assert.equal(help.code, 0);
  for (const command of ["create", "info", "seed", "add", "sample", "best", "init", "stats", "validate", "export", "lineage", "history", "plan", "should-stop"]) {
    assert.ok(help.stdout.includes(command), `--help lacks ${command}`);
    const sub = cli([command, "--help"]);
    assert.equal(sub.code, 0, `${command} --help`);
    assert.match(sub.stdout, /Usage: node db-cli\.mjs/);
  }
  assert.match(help.stdout, /Exit codes:/);
});

// --- the same steps as the native CLI ---------------------------------------------------------

/** Timestamps and `now` are the only clock-dependent values: zeroed before comparing. */
function withoutClock(value) {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === "timestamp" || key === "now" ? 0 : v)));
}

test("the same steps give the same answers, files and exit codes as native evodb", { skip: noNative }, (t) => {
  const dir = tempDir(t);
  const dbs = { node: path.join(dir, "node"), native: path.join(dir, "native") };
  const runners = { node: cli, native };
  let steps = 0;
  /** Runs one step on both; stdout, warnings and exit code must agree. Returns node's result. */
  const both = (args, { clockFree = false } = {}) => {
    const runs = {};
    for (const face of ["node", "native"]) runs[face] = runners[face](args.map((a) => (a === "{db}" ? dbs[face] : a)));
    const label = `${args.join(" ")}\nnode: ${JSON.stringify(runs.node)}\nnative: ${JSON.stringify(runs.native)}`;
    assert.equal(runs.node.code, runs.native.code, `exit code of ${label}`);
    if (clockFree) assert.deepEqual(withoutClock(JSON.parse(runs.node.stdout)), withoutClock(JSON.parse(runs.native.stdout)), label);
    else assert.equal(runs.node.stdout, runs.native.stdout, `stdout of ${label}`);
    assert.deepEqual(warnings(runs.node), warnings(runs.native), `warnings of ${label}`);
    steps++;
    return runs.node;
  };

  both(["create", "{db}"]);
  both(["sample", "{db}"]);
  both(["best", "{db}"]);
  let parent = both(seedArgs("{db}")).json().id;
  for (let i = 1; i <= 30; i++) {
    // Distinct scores: equal fitness is ranked by timestamp, which differs between the two runs.
    const parentId = i % 7 === 0 ? "pruned-long-ago" : parent;
    both(addArgs("{db}", parentId, i, ((i * 37) % 101) / 100));
    if (i % 3 === 0) parent = both(["sample", "{db}"]).json().parent.id;
  }
  for (const command of ["best", "info", "stats", "should-stop", "validate"]) both([command, "{db}"]);
  const plan = both(["plan", "{db}", "3", "--boosted", "1"]).json();
  assert.equal(plan.items.length, 3);
  both([...addArgs("{db}", plan.items[0].parentIds[0], 31, 0.991), "--planItem", plan.items[0].name]);
  both([...addArgs("{db}", parent, 32, 0.05), "--status", "rejected", "--reason", "slower", "--operator", "exploration"]);
  both([...addArgs("{db}", parent, 33, 0.5), "--status", "error", "--reason", "did not compile"]);
  both([...addArgs("{db}", parent, 34, 0.42), "--id", "my-own-id", "--island", "2"]);
  both(["lineage", "{db}", cli(["best", dbs.node]).json().id]);
  both(["lineage", "{db}", "nobody"]);
  for (const format of ["mermaid", "tree", "markdown"]) both(["export", "{db}", "--format", format]);
  both(["export", "{db}", "--format", "json"], { clockFree: true });
  for (const command of ["best", "info", "stats", "should-stop", "validate"]) both([command, "{db}"]);
  // Bad input: the same exit codes, and (checked below) the same files.
  both(addArgs("{db}", parent, 35, "NaN"));
  both(["add", "{db}", "--codePath", "x"]);
  both(["lineage", "{db}"]);
  both(["frobnicate", "{db}"]);

  const file = (face, name) => fs.readFileSync(path.join(dbs[face], name), "utf8");
  assert.deepEqual(withoutClock(JSON.parse(file("node", "database.json"))), withoutClock(JSON.parse(file("native", "database.json"))));
  const history = (face) => withoutClock(historyOf(dbs[face]));
  assert.deepEqual(history("node"), history("native"));
  assert.equal(history("node").filter((e) => e.event === "added").length, 34, "seed + 33 adds");
  assert.equal(history("node").filter((e) => e.event === "status" && e.status === "error").length, 1, "the error candidate");
  // Each reads what the other wrote.
  const info = cli(["info", dbs.node]).json();
  assert.equal(info.lastIteration, 34, "an error candidate joins no island and takes no iteration");
  const valid = { valid: true, programCount: info.programCount, lastIteration: 34 };
  assert.deepEqual(native(["validate", dbs.node]).json(), valid);
  assert.deepEqual(cli(["validate", dbs.native]).json(), valid);
  assert.equal(steps, 69);
  console.log(`native comparison: ${steps} steps, same stdout, warnings and exit codes; same database and history`);
});

test("init takes the config as flags or a file, like native evodb", { skip: noNative }, (t) => {
  const dir = tempDir(t);
  const config = path.join(dir, "config.json");
  fs.writeFileSync(config, JSON.stringify({ numIslands: 5, migrationRate: 0.2, stopping: { patience: 7 } }));
  const flags = [
    "--seed", "42", "--config", config, "--capacity", "12", "--migration", "copy", "--placement", "parentIsland",
    "--fitness", "weighted:score=1,speed=0.5", "--direction", "speed=min", "--operators", "default", "--dedupe",
    "--features", '[{"kind":"island"},{"kind":"codeLines","thresholds":[40,100]}]', "--maxEvaluations", "100", "--scoreThreshold", "0.99",
  ];
  const a = path.join(dir, "node");
  const b = path.join(dir, "native");
  const mine = cli(["init", a, ...flags]);
  const theirs = native(["init", b, ...flags]);
  assert.equal(mine.stdout, theirs.stdout);
  assert.equal(fs.readFileSync(path.join(a, "database.json"), "utf8"), fs.readFileSync(path.join(b, "database.json"), "utf8"));
  assert.equal(fs.readFileSync(path.join(a, "history.ndjson"), "utf8"), fs.readFileSync(path.join(b, "history.ndjson"), "utf8"));
  const stored = JSON.parse(fs.readFileSync(path.join(a, "database.json"), "utf8"));
  assert.equal(stored.numIslands, 5);
  assert.equal(stored.maxIslandSize, 12);
  assert.equal(stored.evodb.seed, 42);
  assert.deepEqual(stored.evodb.config.stopping, { maxEvaluations: 100, scoreThreshold: 0.99, patience: 7 });
  assert.deepEqual(stored.evodb.config.directions, { speed: "min" });
  // A seed and a sample on both stay identical (the same PRNG from the same seed).
  for (const [run, db] of [[cli, a], [native, b]]) run(seedArgs(db)).json();
  assert.equal(cli(["sample", a]).stdout, native(["sample", b]).stdout);
  assert.equal(cli(["plan", a, "4"]).stdout, native(["plan", b, "4"]).stdout);
});

test("a pareto run: init --selection pareto, best --front and stats.pareto, like native evodb", (t) => {
  const dir = tempDir(t);
  const kernel = (db, i, parent, speed, accuracy) => [
    "add", db, "--codePath", `/k/${i}.py`, "--targetCode", `v${i}`, "--parentId", parent,
    "--metrics", JSON.stringify({ speed, accuracy }), "--changes", `k${i}`,
  ];
  const steps = (run, db) => {
    run(["init", db, "--selection", "pareto", "--objectives", "speed,accuracy", "--numIslands", "1"]).json();
    const seed = run(["seed", db, "--codePath", "/k/0.py", "--targetCode", "v0", "--metrics", '{"speed": 1, "accuracy": 0.99}']).json();
    run(kernel(db, 1, seed.id, 2.4, 0.9)).json();
    run(kernel(db, 2, seed.id, 1.8, 0.85)).json();
    return seed.id;
  };
  const a = path.join(dir, "node");
  const seed = steps(cli, a);
  const front = cli(["best", a, "--front"]).json();
  assert.equal(front.length, 2, JSON.stringify(front));
  assert.ok(front.some((p) => p.id === seed) && front.every((p) => p.metrics.accuracy !== 0.85), "the dominated kernel is off the front");
  const stats = cli(["stats", a]).json();
  assert.deepEqual([stats.pareto.objectives, stats.pareto.frontSize], [["speed", "accuracy"], 2]);
  // An add without an objective is refused, naming it, and changes nothing.
  const before = fs.readFileSync(path.join(a, "database.json"), "utf8");
  const refused = cli(["add", a, "--codePath", "/k/9.py", "--targetCode", "v9", "--parentId", seed, "--metrics", '{"speed": 3}', "--changes", "k9"]);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /accuracy/);
  assert.equal(fs.readFileSync(path.join(a, "database.json"), "utf8"), before);
  if (!noNative) {
    const b = path.join(dir, "native");
    steps(native, b);
    assert.equal(native(["best", b, "--front"]).stdout, cli(["best", a, "--front"]).stdout);
    assert.equal(native(["stats", b]).stdout, cli(["stats", a]).stdout);
  }
});

// --- the seed-written fixture ---------------------------------------------------------------------

test("a database written by the seed's own CLI loads, answers and stays the seed's format", (t) => {
  const db = tempDir(t);
  const text = fs.readFileSync(FIXTURE, "utf8");
  fs.writeFileSync(path.join(db, "database.json"), text);
  const before = snapshot(db);
  const info = cli(["info", db]).json();
  assert.deepEqual(Object.keys(info), ["isEmpty", "lastIteration", "programCount", "bestProgramId", "bestMetrics", "seedCodePath", "seedTargetCode"]);
  assert.equal(info.isEmpty, false);
  assert.equal(info.lastIteration, 46);
  assert.equal(info.programCount, 46);
  assert.equal(info.bestProgramId, "cf1a5563-1908-477d-a505-2aa45acb4866");
  assert.equal(info.seedCodePath, "/proj/src/score.js");
  const seedFile = JSON.parse(text);
  assert.equal(info.bestProgramId, seedFile.bestProgramId);
  assert.equal(cli(["best", db]).json().id, seedFile.bestProgramId);
  assert.equal(cli(["stats", db]).json().programCount, 46);
  assert.equal(cli(["validate", db]).json().valid, true);
  // Readers change nothing; the export is the seed's file byte for byte plus evodb's keys.
  const exported = cli(["export", db]).stdout;
  const stripped = JSON.parse(exported);
  assert.ok(stripped.evodb, "evodb's state is one added key");
  delete stripped.evodb;
  for (const program of Object.values(stripped.programs)) delete program.island;
  assert.equal(JSON.stringify(stripped, null, 2), text.trimEnd());
  assert.deepEqual(snapshot(db), before);
  if (haveNative) {
    for (const command of ["info", "best", "stats", "validate", "export", "should-stop"]) {
      assert.equal(cli([command, db]).stdout, native([command, db]).stdout, command);
    }
  }

  const sample = cli(["sample", db]).json();
  assert.ok(sample.parent && seedFile.programs[sample.parent.id], "the parent is one of the seed's programs");
  const added = cli(addArgs(db, sample.parent.id, 99, 0.99)).json();
  assert.equal(added.lastIteration, 47);
  const written = JSON.parse(fs.readFileSync(path.join(db, "database.json"), "utf8"));
  const kind = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  for (const [key, value] of Object.entries(seedFile)) assert.equal(kind(written[key]), kind(value), `seed key ${key} keeps its type`);
  for (const key of ["id", "codePath", "targetCode", "parentId", "generation", "iterationFound", "timestamp", "metrics", "changes"]) {
    assert.notEqual(written.programs[added.id][key], undefined, `a new program carries the seed's ${key}`);
  }
  assert.deepEqual(historyOf(db).map((e) => e.event).filter((e) => e === "sampled" || e === "added"), ["sampled", "added"]);
});

// Issue 37: a database.json another tool rewrote without its `evodb` section is loud (once, on
// stderr, naming what was lost) and `validate --history` says the history and the file disagree;
// a seed file without a history stays silent (above).
test("a database that lost its evodb section warns once and validate --history disagrees", (t) => {
  const db = tempDir(t);
  cli(["init", db, "--islands", "2", "--patience", "4"]).json();
  const seeded = cli(seedArgs(db)).json();
  cli(["note", db, "--kind", "lesson", "--text", "sets beat lists"]).json();
  const remeasured = cli(["remeasure", db, "--id", seeded.id, "--metrics", '{"score": 0.5, "speed": 0.5}']).json();
  assert.equal(remeasured.measurements, 2);
  assert.equal(cli(["validate", db, "--history"]).json().valid, true, "the history replays the re-measurement");

  const file = JSON.parse(fs.readFileSync(path.join(db, "database.json"), "utf8"));
  delete file.evodb;
  fs.writeFileSync(path.join(db, "database.json"), JSON.stringify(file, null, 2));
  const info = cli(["info", db]);
  assert.equal(info.code, 0, info.stderr);
  const said = warnings(info);
  assert.equal(said.length, 1, info.stderr);
  for (const lost of ["no `evodb` section", "stopping rules (patience)", "1 note"]) assert.ok(said[0].includes(lost), `${lost}: ${said[0]}`);
  const checked = cli(["validate", db, "--history"]);
  assert.equal(checked.code, 1, checked.stderr);
  assert.match(JSON.parse(checked.stdout).problems[0], /no `evodb` section/);
  if (haveNative) assert.equal(native(["validate", db, "--history"]).stdout, checked.stdout);
});

// --- parallel writers ---------------------------------------------------------------------------

test("8 parallel processes × 50 adds lose nothing, and the history replays to the file", async (t) => {
  const WORKERS = 8;
  const ADDS = 50;
  const db = tempDir(t);
  const seedId = cli(seedArgs(db)).json().id;
  const started = Date.now();
  const workers = Array.from({ length: WORKERS }, async (_, w) => {
    for (let i = 0; i < ADDS; i++) {
      const args = addArgs(db, seedId, w * 1000 + i, 0.3);
      args[args.length - 1] = `worker ${w} add ${i}`;
      const run = await runAsync(process.execPath, [CLI, ...args]);
      assert.equal(run.code, 0, `worker ${w} add ${i}: ${run.stderr}`);
    }
  });
  await Promise.all(workers);
  const seconds = (Date.now() - started) / 1000;
  const total = WORKERS * ADDS;

  const text = fs.readFileSync(path.join(db, "database.json"), "utf8");
  const file = JSON.parse(text);
  assert.equal(file.lastIteration, total + 1, "lastIteration = adds + the seed");
  assert.equal(cli(["stats", db]).json().evaluations, total + 1, "every add was evaluated once");
  const history = historyOf(db);
  const added = history.filter((e) => e.event === "added");
  assert.equal(added.length, total + 1, "one `added` event per add, the seed's included");
  const changes = new Set(added.map((e) => e.request.changes));
  for (let w = 0; w < WORKERS; w++) for (let i = 0; i < ADDS; i++) assert.ok(changes.has(`worker ${w} add ${i}`), `worker ${w} add ${i} is logged`);
  assert.equal(changes.size, total + 1);
  assert.deepEqual(cli(["validate", db]).json(), { valid: true, programCount: Object.keys(file.programs).length, lastIteration: total + 1 });
  const replayed = Database.replay(history);
  assert.equal(replayed.toJson(), text, "history.ndjson replays to database.json byte for byte");
  assert.deepEqual(fs.readdirSync(db).sort(), [".evodb.lock", "database.json", "history.ndjson"].filter((f) => haveFlock || f !== ".evodb.lock"));
  console.log(`parallel adds: ${WORKERS} workers x ${ADDS} adds in ${seconds.toFixed(1)} s, lastIteration ${total + 1}, history replays`);
});

test("native evodb and db-cli.mjs writers share one database without losing an add", { skip: noNative || (!haveFlock && "flock(1) missing") }, async (t) => {
  const PER_FACE = 3;
  const ADDS = 20;
  const db = tempDir(t);
  const seedId = native(seedArgs(db)).json().id;
  const worker = (face, w) => async () => {
    for (let i = 0; i < ADDS; i++) {
      const args = addArgs(db, seedId, i, 0.4);
      args[args.length - 1] = `${face} ${w} add ${i}`;
      const run = face === "node" ? await runAsync(process.execPath, [CLI, ...args]) : await runAsync(EVODB, args);
      assert.equal(run.code, 0, `${face} ${w} add ${i}: ${run.stderr}`);
    }
  };
  const all = [];
  for (let w = 0; w < PER_FACE; w++) all.push(worker("node", w)(), worker("native", w)());
  await Promise.all(all);
  const total = 2 * PER_FACE * ADDS;
  assert.equal(JSON.parse(fs.readFileSync(path.join(db, "database.json"), "utf8")).lastIteration, total + 1);
  const changes = historyOf(db).filter((e) => e.event === "added").map((e) => e.request.changes);
  assert.equal(new Set(changes).size, total + 1);
  assert.equal(changes.length, total + 1);
  assert.equal(native(["validate", db]).json().valid, true);
  assert.equal(Database.replay(historyOf(db)).toJson(), fs.readFileSync(path.join(db, "database.json"), "utf8"));
});

// --- the lock -----------------------------------------------------------------------------------

test("a lock left by a dead process is broken; a live one times out with exit 5 and changes nothing", (t) => {
  const db = tempDir(t);
  const seedId = cli(seedArgs(db)).json().id;
  const lock = path.join(db, "database.json.lock");
  const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  fs.writeFileSync(lock, JSON.stringify({ pid: Number(dead.stdout), host: os.hostname(), since: "then" }));
  assert.equal(cli(addArgs(db, seedId, 1, 0.5)).json().lastIteration, 2);
  assert.ok(!fs.existsSync(lock), "the stale lock is gone and ours released");

  fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), since: "now" }));
  const before = snapshot(db);
  const started = Date.now();
  const blocked = cli(addArgs(db, seedId, 2, 0.6), { env: { EVODB_LOCK_TIMEOUT_MS: "400" } });
  assert.equal(blocked.code, 5, JSON.stringify(blocked));
  assert.match(blocked.stderr, /cannot lock `.*database\.json\.lock`.*timed out after 400 ms; if no db-cli\.mjs process is using the database, remove that file/);
  assert.ok(Date.now() - started >= 400);
  assert.deepEqual(snapshot(db), before, "a timed-out writer changes nothing");
  assert.equal(cli(["info", db]).json().lastIteration, 2, "readers take no lock");
  fs.rmSync(lock);
  assert.equal(cli(addArgs(db, seedId, 2, 0.6)).json().lastIteration, 3);
});

test("db-cli.mjs waits for the native CLI's flock on .evodb.lock", { skip: !haveFlock && "flock(1) missing" }, async (t) => {
  const db = tempDir(t);
  const seedId = cli(seedArgs(db)).json().id;
  // A stand-in for a native evodb in the middle of a write: it holds the flock until its stdin closes.
  const holder = spawn("flock", ["-x", path.join(db, ".evodb.lock"), "-c", "echo held; exec cat"], { stdio: ["pipe", "pipe", "ignore"] });
  t.after(() => holder.stdin.destroy());
  await new Promise((resolve) => holder.stdout.once("data", resolve));
  const before = snapshot(db);
  const blocked = await new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...addArgs(db, seedId, 1, 0.5)], { env: { ...env, EVODB_LOCK_TIMEOUT_MS: "500" } });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stderr }));
  });
  assert.equal(blocked.code, 5, JSON.stringify(blocked));
  assert.match(blocked.stderr, /cannot lock `.*\.evodb\.lock`: timed out after 500 ms; a native evodb process holds it/);
  assert.deepEqual(snapshot(db), before, "a writer that could not lock changes nothing");
  // Released while a writer waits: the writer goes ahead.
  const waiting = runAsync(process.execPath, [CLI, ...addArgs(db, seedId, 2, 0.6)]);
  await new Promise((resolve) => setTimeout(resolve, 600));
  assert.equal(JSON.parse(fs.readFileSync(path.join(db, "database.json"), "utf8")).lastIteration, 1, "still waiting");
  holder.stdin.end();
  assert.equal((await waiting).json().lastIteration, 2);
});

/** The history's events, without a torn last line. */
function wholeLines(db) {
  const text = fs.readFileSync(path.join(db, "history.ndjson"), "utf8");
  return text.slice(0, text.lastIndexOf("\n") + 1).split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

test("kill -9 at random moments never tears the file, and the next writer carries on", async (t) => {
  const KILLS = 12;
  const db = tempDir(t);
  const seedId = cli(seedArgs(db)).json().id;
  const padding = "# padding to make each program larger\n".repeat(40);
  // How long one whole add takes on this machine: the kills are spread over that span (start-up
  // to done), so enough of them land inside a run however fast or loaded the machine is.
  const started = performance.now();
  cli(addArgs(db, seedId, 1000, 0.5)).json();
  const span = performance.now() - started;
  let completed = 2;
  let interrupted = 0;
  let round = 0;
  for (; round < KILLS || (interrupted < KILLS / 3 && round < 4 * KILLS); round++) {
    const args = addArgs(db, seedId, round, (round % 10) / 10);
    args[5] += padding;
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
    await new Promise((resolve) => setTimeout(resolve, span * (0.1 + ((round * 37) % 13) / 12)));
    child.kill("SIGKILL");
    const { code } = await exited;
    if (code === 0) completed++;
    else interrupted++;
    const onDisk = JSON.parse(fs.readFileSync(path.join(db, "database.json"), "utf8")).lastIteration;
    assert.ok(onDisk === completed || (code !== 0 && onDisk === completed + 1), `round ${round}: ${completed} completed, the file holds ${onDisk}`);
    completed = onDisk;
    // A kill inside the history append can leave a torn last line: validate names it, the next writer removes it.
    const validate = cli(["validate", db]);
    const problems = validate.code === 0 ? [] : JSON.parse(validate.stdout).problems;
    assert.ok(problems.every((p) => p.endsWith("the next write removes a torn last line")), `round ${round}: ${JSON.stringify(validate)}`);
    const logged = wholeLines(db).filter((e) => e.event === "added").length;
    assert.ok(logged <= onDisk, `round ${round}: ${logged} adds logged, ${onDisk} in the file`);
  }
  // Any lock a killed writer left is stale: the next add breaks it.
  assert.equal(cli(addArgs(db, seedId, 100, 0.9)).json().lastIteration, completed + 1);
  assert.ok(interrupted >= KILLS / 3, `too few kills hit a running add (${interrupted} of ${round})`);
  console.log(`kill -9: ${round} kills over a ${span.toFixed(0)} ms add, ${interrupted} interrupted a run, the file always parsed and validated`);
});
