// skill/scripts/db-cli.mjs, the Node drop-in for the seed skill's db-cli.mjs: the seed's JSON
// shapes; the same answers, files and exit codes as the native `evodb` for the same steps; the
// seed-written fixture; 8 parallel processes × 50 adds; native and Node writers on one database;
// the lock's stale and timeout paths; kill -9; and a catalogue of bad input, each refused by name
// with the database directory byte-identical.
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
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const CLI = path.join(root, "skill/scripts/db-cli.mjs");
const EVODB = process.env.EVODB_BIN ?? path.join(root, "target/release/evodb");
const FIXTURE = path.resolve(root, "tests/fixtures/seed-written/database.json");
const haveNative = fs.existsSync(EVODB);
if (!haveNative && process.env.EVODB_REQUIRE_NATIVE) throw new Error(`tests/run.sh builds ${EVODB}, but it is missing`);
const noNative = !haveNative && `native evodb not built at ${EVODB}`;
const haveFlock = spawnSync("flock", ["--version"]).status === 0;
const engine = await import(pathToFileURL(path.join(root, "skill/scripts/evodb-wasm/evodb.js")).href);
engine.initSync({ module: fs.readFileSync(path.join(root, "skill/scripts/evodb-wasm/evodb_bg.wasm")) });
const { Database } = engine;

const env = { ...process.env };
delete env.EVODB_LOCK_TIMEOUT_MS;
delete env.EVODB_NO_FLOCK;

function result(status, stdout, stderr) {
  return {
    code: status,
    stdout,
    stderr,
    json() {
      assert.equal(this.code, 0, `expected success: ${JSON.stringify(this)}`);
      return JSON.parse(this.stdout);
    },
  };
}

/** `node db-cli.mjs …args`, synchronously. */
function cli(args, extraEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...env, ...extraEnv } });
  return result(r.status, r.stdout, r.stderr);
}

/** The native `evodb …args`. */
function native(args) {
  const r = spawnSync(EVODB, args, { encoding: "utf8", env });
  return result(r.status, r.stdout, r.stderr);
}

function runAsync(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve(result(code, stdout, stderr)));
  });
}

function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "evodb-skill-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Every file in `dir` with its bytes. */
function snapshot(dir) {
  const files = {};
  if (!fs.existsSync(dir)) return files;
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (fs.statSync(file).isFile()) files[name] = fs.readFileSync(file).toString("base64");
  }
  return files;
}

function historyOf(dir) {
  const file = path.join(dir, "history.ndjson");
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

function seedArgs(db) {
  return ["seed", db, "--codePath", "/candidates/iteration_0.py", "--targetCode", "def f(x):\n    return 0\n", "--metrics", '{"score": 0.1, "speed": 0.5}'];
}

function addArgs(db, parent, i, score) {
  return [
    "add", db,
    "--codePath", `/candidates/iteration_${i}.py`,
    "--targetCode", `def f(x):\n    return ${i}\n`,
    "--parentId", parent,
    "--metrics", `{"score": ${score}, "speed": 0.5}`,
    "--changes", `change ${i}`,
  ];
}

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
    const warnings = (r) => r.stderr.split("\n").filter((l) => l.startsWith("warning:"));
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
  const blocked = cli(addArgs(db, seedId, 2, 0.6), { EVODB_LOCK_TIMEOUT_MS: "400" });
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

test("kill -9 at random moments never tears the file, and the next writer carries on", async (t) => {
  const KILLS = 12;
  const db = tempDir(t);
  const seedId = cli(seedArgs(db)).json().id;
  const padding = "# padding to make each program larger\n".repeat(40);
  let completed = 1;
  let interrupted = 0;
  for (let round = 0; round < KILLS; round++) {
    const args = addArgs(db, seedId, round, (round % 10) / 10);
    args[5] += padding;
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
    await new Promise((resolve) => setTimeout(resolve, 40 + ((round * 37) % 13) * 20)); // 40–280 ms: start-up to done
    child.kill("SIGKILL");
    const { code } = await exited;
    if (code === 0) completed++;
    else interrupted++;
    const onDisk = JSON.parse(fs.readFileSync(path.join(db, "database.json"), "utf8")).lastIteration;
    assert.ok(onDisk === completed || (code !== 0 && onDisk === completed + 1), `round ${round}: ${completed} completed, the file holds ${onDisk}`);
    completed = onDisk;
    assert.equal(cli(["validate", db]).json().valid, true, `round ${round}`);
    const logged = historyOf(db).filter((e) => e.event === "added").length;
    assert.ok(logged <= onDisk, `round ${round}: ${logged} adds logged, ${onDisk} in the file`);
  }
  // Any lock a killed writer left is stale: the next add breaks it.
  assert.equal(cli(addArgs(db, seedId, 100, 0.9)).json().lastIteration, completed + 1);
  assert.ok(interrupted >= KILLS / 3, `too few kills hit a running add (${interrupted})`);
  console.log(`kill -9: ${KILLS} kills, ${interrupted} interrupted a run, the file always parsed and validated`);
});

// --- bad input ------------------------------------------------------------------------------------

/** `add` with every seed flag valid except `flag`, which gets `value` (or is left out). */
function addWith(flag, value) {
  const args = addArgs("{db}", "{parent}", 7, 0.5);
  const at = args.indexOf(flag);
  if (value === undefined) args.splice(at, 2);
  else args[at + 1] = value;
  return args;
}

const writeDb = (bytes) => (db) => fs.writeFileSync(path.join(db, "database.json"), bytes);

const CASES = [
  // the database file
  { name: "torn database.json", setup: writeDb('{"numIslands": 3, "programs": {'), args: ["info", "{db}"], code: 1, message: "corrupt database" },
  { name: "malformed database.json on add", setup: writeDb("{not json"), args: addWith("--changes", "c"), code: 1, message: "corrupt database" },
  { name: "empty database.json on sample", setup: writeDb(""), args: ["sample", "{db}"], code: 1, message: "corrupt database" },
  { name: "database.json is an array", setup: writeDb("[1, 2, 3]"), args: ["best", "{db}"], code: 1, message: "corrupt database" },
  { name: "database.json with a wrong type", setup: writeDb('{"numIslands": "three"}'), args: ["info", "{db}"], code: 1, message: "numIslands" },
  { name: "database.json not UTF-8", setup: writeDb(Buffer.from('{"numIslands": 3, "x": "\xff\xfe"}', "latin1")), args: ["info", "{db}"], code: 1, message: "not UTF-8" },
  { name: "torn database.json on validate", setup: writeDb('{"numIslands": 3, "programs": {'), args: ["validate", "{db}"], code: 1, message: "the file ends early" },
  { name: "torn database.json on plan", setup: writeDb('{"numIslands": 3'), args: ["plan", "{db}", "2"], code: 1, message: "corrupt database" },
  // metrics
  { name: "NaN metric", args: addWith("--metrics", '{"score": NaN}'), code: 1, message: "--metrics is not valid JSON" },
  { name: "Infinity metric", args: addWith("--metrics", '{"score": Infinity}'), code: 1, message: "--metrics is not valid JSON" },
  { name: "-Infinity metric", args: addWith("--metrics", '{"score": -Infinity}'), code: 1, message: "--metrics is not valid JSON" },
  { name: "overflowing metric", args: addWith("--metrics", '{"score": 1e999}'), code: 1, message: "out of range" },
  { name: "metrics not an object", args: addWith("--metrics", "[0.5, 0.7]"), code: 1, message: "`metrics`" },
  { name: "metrics a number", args: addWith("--metrics", "0.5"), code: 1, message: "`metrics`" },
  { name: "metric a string", args: addWith("--metrics", '{"score": "high"}'), code: 1, message: "`metrics.score`" },
  { name: "metric null", args: addWith("--metrics", '{"score": null}'), code: 1, message: "metric `score` is null" },
  { name: "metrics truncated", args: addWith("--metrics", '{"score": 0.'), code: 1, message: "--metrics is not valid JSON" },
  { name: "seed with NaN", args: ["seed", "{db}", "--codePath", "a.py", "--targetCode", "x", "--metrics", '{"s": NaN}'], code: 1, message: "pass an object of finite numbers" },
  // flags and commands
  { name: "missing --codePath", args: addWith("--codePath"), code: 2, message: "Missing required flag: --codePath" },
  { name: "missing --targetCode", args: addWith("--targetCode"), code: 2, message: "Missing required flag: --targetCode" },
  { name: "missing --parentId", args: addWith("--parentId"), code: 2, message: "Missing required flag: --parentId" },
  { name: "missing --metrics", args: addWith("--metrics"), code: 2, message: "Missing required flag: --metrics" },
  { name: "missing --changes", args: addWith("--changes"), code: 2, message: "Missing required flag: --changes" },
  { name: "unknown command", args: ["frobnicate", "{db}"], code: 2, message: "frobnicate" },
  { name: "unknown flag", args: ["info", "{db}", "--colour", "red"], code: 2, message: "--colour" },
  { name: "unknown add flag", args: [...addWith("--changes", "c"), "--parent", "x"], code: 2, message: "--parent" },
  { name: "missing dbPath", args: ["info"], code: 2, message: "<dbPath>" },
  { name: "flag without a value", args: [...addWith("--changes", "c").slice(0, -2), "--changes"], code: 2, message: "--changes" },
  { name: "negative island", args: [...addWith("--changes", "c"), "--island", "-1"], code: 2, message: "-1" },
  { name: "unknown export format", args: ["export", "{db}", "--format", "yaml"], code: 2, message: "yaml" },
  { name: "plan of -1", args: ["plan", "{db}", "-1"], code: 2, message: "-1" },
  { name: "code and code file", args: [...addWith("--changes", "c"), "--targetCodeFile", "{dir}/x.py"], code: 2, message: "cannot be used with" },
  // code, text and the engine's checks
  { name: "empty code", args: addWith("--targetCode", ""), code: 1, message: "`targetCode` is empty" },
  { name: "blank code", args: addWith("--targetCode", " \n\t "), code: 1, message: "`targetCode` is empty" },
  { name: "empty code path", args: addWith("--codePath", ""), code: 1, message: "`codePath` is empty" },
  { name: "code file missing", args: [...addWith("--targetCode"), "--targetCodeFile", "{dir}/nowhere.py"], code: 3, message: "does not exist" },
  { name: "changes file missing", args: [...addWith("--changes"), "--changesFile", "{dir}/nowhere.txt"], code: 3, message: "does not exist" },
  { name: "code file not UTF-8", setup: (db) => fs.writeFileSync(path.join(db, "../latin1.py"), Buffer.from([0x63, 0x61, 0x66, 0xe9])), args: [...addWith("--targetCode"), "--targetCodeFile", "{dir}/latin1.py"], code: 1, message: "is not UTF-8 text" },
  { name: "id in use", args: [...addWith("--changes", "c"), "--id", "{parent}"], code: 1, message: "duplicate id" },
  { name: "island out of range", args: [...addWith("--changes", "c"), "--island", "9"], code: 1, message: "`island`" },
  { name: "unknown status", args: [...addWith("--changes", "c"), "--status", "weird"], code: 1, message: "`status`" },
  { name: "error status without a reason", args: [...addWith("--changes", "c"), "--status", "error"], code: 1, message: "`reason` is required" },
  { name: "unknown plan item", args: [...addWith("--changes", "c"), "--planItem", "gen-9/island-0/exploitation-0"], code: 1, message: "gen-9" },
  { name: "plan of 0", args: ["plan", "{db}", "0"], code: 1, message: "`n` is 0" },
  { name: "unknown lineage id", args: ["lineage", "{db}", "nobody"], code: 3, message: "no live program has id `nobody`" },
  // init and config
  { name: "init over a database", args: ["init", "{db}"], code: 1, message: "already holds a database" },
  { name: "zero islands", args: ["init", "{db}", "--numIslands", "0"], code: 1, message: "`numIslands`" },
  { name: "islands not a number", args: ["init", "{db}", "--islands", "three"], code: 1, message: "`numIslands`" },
  { name: "migration rate over 1", args: ["init", "{db}", "--migrationRate", "1.5"], code: 1, message: "`migrationRate`" },
  { name: "unknown placement", args: ["init", "{db}", "--placement", "nearest"], code: 1, message: "`placement`" },
  { name: "seed beyond 2^53", args: ["init", "{db}", "--seed", "9007199254740993"], code: 1, message: "`seed`" },
  { name: "bad fitness rule", args: ["init", "{db}", "--fitness", "median"], code: 2, message: "--fitness" },
  { name: "bad direction", args: ["init", "{db}", "--direction", "latency"], code: 2, message: "--direction" },
  { name: "config file with a wrong type", setup: (db) => fs.writeFileSync(path.join(db, "../config.json"), '{"maxIslandSize": "big"}'), args: ["init", "{db}", "--config", "{dir}/config.json"], code: 1, message: "`maxIslandSize`" },
  { name: "config file with an unknown key", setup: (db) => fs.writeFileSync(path.join(db, "../config.json"), '{"numIsland": 4}'), args: ["init", "{db}", "--config", "{dir}/config.json"], code: 1, message: "numIsland" },
  { name: "config file not JSON", setup: (db) => fs.writeFileSync(path.join(db, "../config.json"), "numIslands = 4"), args: ["init", "{db}", "--config", "{dir}/config.json"], code: 1, message: "is not valid JSON" },
  { name: "config file missing", args: ["init", "{dir}/fresh", "--config", "{dir}/nowhere.json"], code: 3, message: "does not exist" },
  // the directory
  { name: "database path is a file", setup: (db) => fs.writeFileSync(path.join(db, "../plain-file"), "x"), args: [...addWith("--changes", "c").map((a) => (a === "{db}" ? "{dir}/plain-file" : a))], code: 5, message: "is not a directory" },
  { name: "database path under a file", setup: (db) => fs.writeFileSync(path.join(db, "../plain-file"), "x"), args: [...addWith("--changes", "c").map((a) => (a === "{db}" ? "{dir}/plain-file/db" : a))], code: 5, message: "cannot create" },
  { name: "bad add on a missing directory", args: addWith("--metrics", '{"score": NaN}').map((a) => (a === "{db}" ? "{dir}/not-yet" : a)), code: 1, message: "--metrics is not valid JSON" },
  { name: "bad init on a missing directory", args: ["init", "{dir}/not-yet", "--numIslands", "0"], code: 1, message: "`numIslands`" },
];

test("bad input is refused by name, with evodb's exit code, and changes nothing", (t) => {
  const template = path.join(tempDir(t), "db");
  const parent = cli(seedArgs(template)).json().id;
  for (let i = 1; i <= 3; i++) cli(addArgs(template, parent, i, 0.2 * i)).json();
  cli(["plan", template, "2"]).json();
  const faces = haveNative ? [["node", cli], ["native", native]] : [["node", cli]];
  let checked = 0;
  for (const c of CASES) {
    for (const [face, run] of faces) {
      const scratch = tempDir(t);
      const db = path.join(scratch, "db");
      fs.cpSync(template, db, { recursive: true });
      c.setup?.(db);
      const before = snapshot(db);
      const args = c.args.map((a) => a.replaceAll("{db}", db).replaceAll("{dir}", scratch).replaceAll("{parent}", parent));
      const r = run(args);
      const label = `${c.name} (${face}): ${JSON.stringify(r)}`;
      assert.equal(r.code, c.code, `exit code of ${label}`);
      if (face === "node") {
        assert.ok(r.stderr.includes(c.message), `stderr should name ${JSON.stringify(c.message)}: ${label}`);
        assert.equal(r.stderr.trim().split("\n").length >= 1, true);
      }
      assert.deepEqual(snapshot(db), before, `the database directory changed: ${label}`);
      assert.ok(!fs.existsSync(path.join(scratch, "not-yet")), `a directory was created: ${label}`);
      assert.ok(!fs.existsSync(path.join(scratch, "fresh")), `a directory was created: ${label}`);
      checked++;
    }
  }
  console.log(`bad input: ${CASES.length} cases, each refused with its exit code (${checked} runs, node${haveNative ? " and native" : ""}), files byte-identical`);
  assert.ok(CASES.length >= 50, `the catalogue holds ${CASES.length} cases`);
});
