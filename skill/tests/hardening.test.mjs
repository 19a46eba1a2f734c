// The hostile review's cases that end in success, a repair or a signal rather than a refusal
// (those are in bad-input.test.mjs), each test named after the case, run on the Node drop-in and,
// where the native evodb is built, on it too with the same answers, warnings and stored bytes.
//
//   node --test skill/tests/hardening.test.mjs
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { CLI, addArgs, cli, env, haveNative, historyOf, native, seedArgs, snapshot, tempDir, warnings } from "./helpers.mjs";

const faces = haveNative ? [["node", cli], ["native", native]] : [["node", cli]];

const readJson = (db) => JSON.parse(fs.readFileSync(path.join(db, "database.json"), "utf8"));

/** Every line of the history parses, and the file ends on a whole line. */
function assertWholeLines(db, label) {
  const text = fs.readFileSync(path.join(db, "history.ndjson"), "utf8");
  assert.ok(text.endsWith("\n"), `${label}: the history ends on a whole line`);
  for (const [i, line] of text.slice(0, -1).split("\n").entries()) {
    assert.doesNotThrow(() => JSON.parse(line), `${label}: history line ${i + 1} is JSON`);
  }
}

test("history.ndjson ending in a torn line: the next add starts on a fresh line, says so, and validate reports the tear", (t) => {
  for (const [face, run] of faces) {
    const db = path.join(tempDir(t), "db");
    const parent = run(seedArgs(db)).json().id;
    const whole = historyOf(db).length;
    fs.appendFileSync(path.join(db, "history.ndjson"), '{"event":"added","seq":2,"id":'); // a writer killed mid-append

    const before = snapshot(db);
    const validate = run(["validate", db]);
    assert.equal(validate.code, 1, `${face}: ${JSON.stringify(validate)}`);
    assert.deepEqual(JSON.parse(validate.stdout).problems, [
      `history.ndjson line ${whole + 1} is torn or not JSON (an interrupted write?); the next write removes a torn last line`,
    ]);
    assert.deepEqual(snapshot(db), before, `${face}: validate repairs nothing`);

    const added = run(addArgs(db, parent, 1, 0.5));
    const id = added.json().id;
    assert.deepEqual(warnings(added), ["warning: history.ndjson ended in a torn line (30 bytes, from an interrupted write); removed it before appending"], face);
    assertWholeLines(db, face);
    assert.ok(historyOf(db).some((e) => e.event === "added" && e.id === id), `${face}: the acknowledged add is its own line`);
    assert.equal(historyOf(db).filter((e) => e.event === "added").length, 2, face);
    assert.deepEqual(run(["validate", db]).json(), { valid: true, programCount: 2, lastIteration: 2 }, face);
  }
});

test("a torn history with no newline at all is removed whole", (t) => {
  for (const [face, run] of faces) {
    const db = path.join(tempDir(t), "db");
    run(["create", db]).json();
    fs.writeFileSync(path.join(db, "history.ndjson"), '{"event":"cre');
    const seeded = run(seedArgs(db));
    seeded.json();
    assert.deepEqual(warnings(seeded), ["warning: history.ndjson ended in a torn line (13 bytes, from an interrupted write); removed it before appending"], face);
    assertWholeLines(db, face);
    assert.equal(historyOf(db)[0].event, "added", `${face}: the torn line is gone, the seed's events follow`);
  }
});

test("evodb validate on a directory with no database exits 3; a writer creating one says so, create and init do not", (t) => {
  for (const [face, run] of faces) {
    const dir = tempDir(t);
    const typo = path.join(dir, "evolve-outptu/database");
    const validate = run(["validate", typo]);
    assert.equal(validate.code, 3, face);
    assert.equal(validate.stdout, "");
    assert.equal(validate.stderr, `no database at \`${typo}\` (no database.json): nothing to validate; check the path\n`);
    assert.ok(!fs.existsSync(typo), `${face}: validate creates nothing`);

    for (const command of [seedArgs(typo), ["sample", path.join(dir, "s")], ["plan", path.join(dir, "p"), "1"], addArgs(path.join(dir, "a"), "0", 1, 0.5)]) {
      const r = run(command);
      r.json();
      assert.deepEqual(warnings(r).slice(0, 1), [`warning: no database at \`${command[1]}\`; creating a new one`], `${face} ${command[0]}`);
    }
    const again = run(seedArgs(typo));
    assert.ok(!again.stderr.includes("creating a new one"), `${face}: only the first write creates it`);
    for (const command of [["init", path.join(dir, "i")], ["create", path.join(dir, "c")]]) {
      const r = run(command);
      r.json();
      assert.equal(r.stderr, "", `${face} ${command[0]} is asked to create`);
    }
  }
});

test("a second seed and metric names unlike the stored ones are warnings on stderr; stdout keeps the seed's shape", (t) => {
  const seen = {};
  for (const [face, run] of faces) {
    const db = tempDir(t);
    const parent = run(seedArgs(db)).json().id;
    const again = run(seedArgs(db));
    assert.deepEqual(Object.keys(again.json()), ["id", "metrics"], face);
    const args = addArgs(db, parent, 1, 0.5);
    args[args.indexOf("--metrics") + 1] = '{"accuracy": 0.5}';
    const renamed = run(args);
    assert.deepEqual(Object.keys(renamed.json()), ["id", "metrics", "bestProgramId", "bestMetrics", "lastIteration"], face);
    seen[face] = { stdout: [again.stdout, renamed.stdout], warnings: [...warnings(again), ...warnings(renamed)] };
  }
  assert.deepEqual(seen.node.warnings, [
    "warning: the database already holds 1 program and this is a second initial program (`seed`); to continue the run, add candidates with --parentId from `sample`",
    "warning: metrics name [accuracy] but the stored programs use [score, speed]; score every candidate with the same metrics, or fitness compares unlike things",
  ]);
  if (haveNative) assert.deepEqual(seen.node, seen.native, "the same stdout and warnings as native evodb");
});

test("--changesFile loses its final newline, --targetCodeFile keeps its bytes, and - reads standard input", (t) => {
  const stored = {};
  for (const [face, run] of faces) {
    const dir = tempDir(t);
    const db = path.join(dir, "db");
    const parent = run(seedArgs(db)).json().id;
    const changes = path.join(dir, "changes.txt");
    const code = path.join(dir, "code.py");
    fs.writeFileSync(changes, "hash map instead of nested loops\r\n");
    fs.writeFileSync(code, "\ufeffdef f():\r\n    return 1\n\n");
    const fromFiles = run(["add", db, "--codePath", "c.py", "--targetCodeFile", code, "--changesFile", changes, "--parentId", parent, "--metrics", '{"score": 0.5, "speed": 0.5}']).json();
    const fromStdin = run(["add", db, "--codePath", "c.py", "--targetCodeFile", "-", "--changes", "two lines\n", "--parentId", parent, "--metrics", '{"score": 0.6, "speed": 0.5}'], { input: "def f():\n    return 42\n" }).json();
    const changesFromStdin = run(["add", db, "--codePath", "c.py", "--targetCode", "x = 3", "--changesFile", "-", "--parentId", parent, "--metrics", '{"score": 0.7, "speed": 0.5}'], { input: "from standard input\n\n" }).json();
    const programs = readJson(db).programs;
    assert.equal(programs[fromFiles.id].changes, "hash map instead of nested loops", `${face}: one CRLF removed`);
    assert.equal(programs[fromFiles.id].targetCode, "\ufeffdef f():\r\n    return 1\n\n", `${face}: code keeps every byte`);
    assert.equal(programs[fromStdin.id].targetCode, "def f():\n    return 42\n", face);
    assert.equal(programs[fromStdin.id].changes, "two lines\n", `${face}: --changes text is kept as given`);
    assert.equal(programs[changesFromStdin.id].changes, "from standard input\n", `${face}: only one newline removed`);
    stored[face] = [fromFiles, fromStdin, changesFromStdin].map((p) => [programs[p.id].targetCode, programs[p.id].changes]);
  }
  if (haveNative) assert.deepEqual(stored.node, stored.native, "the same stored text as native evodb");
});

test("init --config - reads the config from standard input", (t) => {
  for (const [face, run] of faces) {
    const db = path.join(tempDir(t), "db");
    run(["init", db, "--config", "-"], { input: '{"numIslands": 2}\n' }).json();
    assert.equal(readJson(db).numIslands, 2, face);
  }
});

test("--targetCode with invalid UTF-8 is refused; a real U+FFFD character is text like any other", (t) => {
  for (const [face, run] of faces) {
    const db = tempDir(t);
    const parent = run(seedArgs(db)).json().id;
    const args = addArgs(db, parent, 1, 0.5);
    args[args.indexOf("--targetCode") + 1] = "replacement = '\ufffd'\n";
    const added = run(args).json();
    assert.equal(readJson(db).programs[added.id].targetCode, "replacement = '\ufffd'\n", face);
  }
});

test("--memoryLimitMb 4 on an 8 MiB database exits 4 on both CLIs; a cap it fits under works", (t) => {
  for (const [face, run] of faces) {
    const db = tempDir(t);
    const parent = run(seedArgs(db)).json().id;
    const file = readJson(db);
    file.programs[parent].changes = "x".repeat(8 << 20);
    fs.writeFileSync(path.join(db, "database.json"), JSON.stringify(file, null, 2));
    const capped = run(["info", db, "--memoryLimitMb", "4"]);
    assert.equal(capped.code, 4, `${face}: ${capped.stderr}`);
    assert.match(capped.stderr, /^database operation exceeded its memory cap \(4 MiB\)/);
    assert.equal(run(["info", db, "--memoryLimitMb", "64"]).json().programCount, 1, face);
    assert.equal(run(addArgs(db, parent, 1, 0.5).concat(["--memoryLimitMb", "64"])).json().lastIteration, 2, face);
  }
});

// --- signals and blocking reads (the Node drop-in; evodb's are in host-cli/tests) ---

/** Starts db-cli.mjs with its standard input held open; resolves {code, signal, stderr, ms} on exit. */
function startHeld(args, extraEnv = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...env, ...extraEnv }, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stderr })));
  return { child, exited };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("SIGTERM and SIGINT end a drop-in waiting on standard input at once (exit 143 and 130)", async (t) => {
  const db = tempDir(t);
  const parent = cli(seedArgs(db)).json().id;
  const before = snapshot(db);
  for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]]) {
    const args = addArgs(db, parent, 1, 0.5);
    args.splice(args.indexOf("--targetCode"), 2, "--targetCodeFile", "-");
    const { child, exited } = startHeld(args);
    await sleep(700); // well into the read
    const sent = Date.now();
    child.kill(signal);
    const done = await Promise.race([exited, sleep(5000).then(() => null)]);
    if (!done) child.kill("SIGKILL");
    assert.ok(done, `${signal}: the drop-in did not exit within 5 s`);
    assert.equal(done.code, code, `${signal}: ${JSON.stringify(done)}`);
    assert.ok(Date.now() - sent < 2000, `${signal} took ${Date.now() - sent} ms`);
  }
  assert.deepEqual(snapshot(db), before, "an interrupted add changes nothing");
});

test("SIGTERM ends a writer waiting for the lock at once, and leaves the holder's lock alone", async (t) => {
  const db = tempDir(t);
  const parent = cli(seedArgs(db)).json().id;
  const lock = path.join(db, "database.json.lock");
  const holder = JSON.stringify({ pid: process.pid, host: (await import("node:os")).hostname(), since: "now" });
  fs.writeFileSync(lock, holder);
  const before = snapshot(db);
  const { child, exited } = startHeld(addArgs(db, parent, 1, 0.5), { EVODB_NO_FLOCK: "1" });
  child.stdin.end();
  await sleep(700);
  child.kill("SIGTERM");
  const done = await Promise.race([exited, sleep(5000).then(() => null)]);
  if (!done) child.kill("SIGKILL");
  assert.ok(done, "the waiting writer did not exit within 5 s");
  assert.equal(done.code, 143, JSON.stringify(done));
  assert.equal(fs.readFileSync(lock, "utf8"), holder, "the holder's lock is untouched");
  assert.deepEqual(snapshot(db), before);
});

test("a *File flag reading - from a closed standard input reads nothing and does not wait", (t) => {
  const db = tempDir(t);
  const parent = cli(seedArgs(db)).json().id;
  const args = addArgs(db, parent, 1, 0.5);
  args.splice(args.indexOf("--changes"), 2, "--changesFile", "-");
  const started = Date.now();
  const r = cli(args, { input: "" }); // the pipe closes at once
  assert.equal(r.json().lastIteration, 2);
  assert.ok(Date.now() - started < 10_000);
  assert.equal(readJson(db).programs[r.json().id].changes, "");
});

// --- faults: killed writers never cost an acknowledged add ---

test("kill -9 mid-add, then a torn history tail: the next writers lose nothing acknowledged", async (t) => {
  const db = tempDir(t);
  const parent = cli(seedArgs(db)).json().id;
  const acknowledged = [];
  const padding = "# padding to make each event larger\n".repeat(2000);
  for (let round = 0; round < 8; round++) {
    const args = addArgs(db, parent, round, (round % 10) / 10);
    args[args.indexOf("--targetCode") + 1] += padding;
    args[args.length - 1] = `killed round ${round}`;
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
    await sleep(60 + ((round * 53) % 11) * 25);
    child.kill("SIGKILL");
    if ((await exited) === 0) acknowledged.push(`killed round ${round}`);
    if (round % 2 === 0) fs.appendFileSync(path.join(db, "history.ndjson"), '{"event":"added","request":{"changes":"never acknow'); // a torn append
    const next = addArgs(db, parent, 100 + round, 0.05);
    next[next.length - 1] = `after round ${round}`;
    cli(next).json();
    acknowledged.push(`after round ${round}`);
    assertWholeLines(db, `round ${round}`);
  }
  assert.equal(cli(["validate", db]).json().valid, true);
  const file = readJson(db);
  const inFile = new Set(Object.values(file.programs).map((p) => p.changes));
  const logged = new Set(historyOf(db).filter((e) => e.event === "added").map((e) => e.request.changes));
  for (const changes of acknowledged) {
    assert.ok(inFile.has(changes), `${changes} is in database.json`);
    assert.ok(logged.has(changes), `${changes} is in history.ndjson`);
  }
  assert.ok(![...logged].some((c) => c.startsWith("never acknow")), "no torn line survives");
});
