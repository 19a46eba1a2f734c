// The first surfaces, rechecked (issue 35): the database directory's own files when they are not
// what they should be — links out of the directory, FIFOs, directories — a disk filling up in the
// middle of a commit, and paths that are not UTF-8. Each case runs on the Node drop-in and, where
// the native evodb is built, on it too, and checks the exit code (the same on both unless the case
// says why not), the message, that no file outside the database directory changed, that nothing of
// a secret file outside reaches the output, that a refusal leaves the database byte-identical, and
// that nothing hangs (each run has a deadline) or exits 70 ("a bug in evodb").
//
//   node --test skill/tests/hostile_dropin.test.mjs
//
// The disk-full cases run the CLI under `ulimit -f` with SIGXFSZ ignored: a write past the limit
// fails with EFBIG as one on a full disk fails with ENOSPC, and needs no privileges.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { CLI, EVODB, addArgs, cli, env, haveFlock, haveNative, historyOf, native, seedArgs, tempDir } from "./helpers.mjs";
import { mkfifo } from "./bad-input-setup.mjs";

const SECRET = "SECRET-4b1e-do-not-print";
const HANG_MS = 30_000;

/** Every entry under `dir` (links as their targets, never followed; FIFOs and sockets by kind). */
function tree(dir) {
  /** @type {Record<string, string>} */
  const entries = {};
  if (!fs.existsSync(dir)) return entries;
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    const stat = fs.lstatSync(file);
    if (stat.isSymbolicLink()) entries[name] = `-> ${fs.readlinkSync(file)}`;
    else if (stat.isDirectory()) for (const [inner, what] of Object.entries(tree(file))) entries[`${name}/${inner}`] = what;
    else if (stat.isFile()) entries[name] = fs.readFileSync(file).toString("base64");
    else entries[name] = "(special)";
  }
  return entries;
}

/** The database directory as a refusal must leave it (the writers' lock files may appear). */
function dbTree(db) {
  const entries = tree(db);
  for (const name of [".evodb.lock", "database.json.lock"]) if (entries[name] === "") delete entries[name];
  return entries;
}

/** A scratch directory: `db` (seeded, unless `fresh`), `outside` with the victim files. */
function scratch(t, { fresh = false } = {}) {
  const dir = tempDir(t);
  const outside = path.join(dir, "outside");
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, "victim.txt"), `${SECRET}\n`);
  const db = path.join(dir, "db");
  let parent = null;
  if (!fresh) parent = cli(seedArgs(db)).json().id;
  return { dir, db, outside, parent };
}

const at = (s, name) => path.join(s.db, name);
const replace = (file, make) => {
  fs.rmSync(file, { force: true });
  make(file);
};
const linkTo = (target) => (file) => fs.symlinkSync(target, file);
const fifo = (file) => mkfifo(file);
const directory = (file) => fs.mkdirSync(file);

/** `bash -c` running `command…` under `ulimit -f kib` with SIGXFSZ ignored. */
function underFileLimit(kib, command, args) {
  const r = spawnSync("bash", ["-c", `trap '' XFSZ; ulimit -f ${kib}; exec "$0" "$@"`, ...command, ...args], { encoding: "utf8", env, timeout: HANG_MS });
  assert.ok(r.error?.code !== "ETIMEDOUT", `${command.join(" ")} hung`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const faces = [
  ["node", { run: cli, command: [process.execPath, CLI] }],
  ...(haveNative ? [["native", { run: native, command: [EVODB] }]] : []),
];

/**
 * The cases. `setup(s)` prepares the scratch and returns the arguments; `code` is the exit code on
 * both faces (`nativeCode` where native differs, with `why`); `stderr` the message (a regex; on
 * success, checked against stdout with `stdout`); `faces` limits the faces a case applies to.
 */
const CASES = [
  // --- links out of the database directory ---
  { name: "a linked history.ndjson, on add", setup: (s) => (replace(at(s, "history.ndjson"), linkTo(path.join(s.outside, "victim.txt"))), addArgs(s.db, s.parent, 1, 0.5)), code: 5, stderr: /history\.ndjson`: it is a symbolic link, not a regular file; move it away \(history\.ndjson must be a file\)/ },
  { name: "a linked history.ndjson, on seed", setup: (s) => (replace(at(s, "history.ndjson"), linkTo(path.join(s.outside, "victim.txt"))), seedArgs(s.db)), code: 5, stderr: /history\.ndjson`: it is a symbolic link/ },
  { name: "a linked history.ndjson, on sample", setup: (s) => (replace(at(s, "history.ndjson"), linkTo(path.join(s.outside, "victim.txt"))), ["sample", s.db]), code: 5, stderr: /history\.ndjson`: it is a symbolic link/ },
  { name: "a linked history.ndjson, on info", setup: (s) => (replace(at(s, "history.ndjson"), linkTo(path.join(s.outside, "victim.txt"))), ["info", s.db]), code: 5, stderr: /history\.ndjson`: it is a symbolic link/ },
  { name: "a linked history.ndjson, on history", setup: (s) => (replace(at(s, "history.ndjson"), linkTo(path.join(s.outside, "victim.txt"))), ["history", s.db]), code: 5, stderr: /history\.ndjson`: it is a symbolic link/ },
  { name: "a linked history.ndjson, on validate", setup: (s) => (replace(at(s, "history.ndjson"), linkTo(path.join(s.outside, "victim.txt"))), ["validate", s.db]), code: 5, stderr: /history\.ndjson`: it is a symbolic link/ },
  { name: "a dangling linked history.ndjson, on add", setup: (s) => (replace(at(s, "history.ndjson"), linkTo(path.join(s.outside, "made-by-evodb"))), addArgs(s.db, s.parent, 1, 0.5)), code: 5, stderr: /history\.ndjson`: it is a symbolic link/ },
  { name: "a linked database.json, on add", setup: (s) => (fs.copyFileSync(at(s, "database.json"), path.join(s.outside, "db.json")), replace(at(s, "database.json"), linkTo(path.join(s.outside, "db.json"))), addArgs(s.db, s.parent, 1, 0.5)), code: 5, stderr: /database\.json`: it is a symbolic link, not a regular file; move it away \(database\.json must be a file\)/ },
  { name: "a linked database.json, on info", setup: (s) => (fs.copyFileSync(at(s, "database.json"), path.join(s.outside, "db.json")), replace(at(s, "database.json"), linkTo(path.join(s.outside, "db.json"))), ["info", s.db]), code: 5, stderr: /database\.json`: it is a symbolic link/ },
  { name: "a linked database.json.tmp, on add", setup: (s) => (linkTo(path.join(s.outside, "victim.txt"))(at(s, "database.json.tmp")), addArgs(s.db, s.parent, 1, 0.5)), code: 0, stdout: /"lastIteration":2/ },
  { name: "a dangling linked database.json.tmp, on add", setup: (s) => (linkTo(path.join(s.outside, "made-by-evodb"))(at(s, "database.json.tmp")), addArgs(s.db, s.parent, 1, 0.5)), code: 0, stdout: /"lastIteration":2/ },
  { name: "a linked database.json.prev, on add", setup: (s) => (linkTo(path.join(s.outside, "victim.txt"))(at(s, "database.json.prev")), addArgs(s.db, s.parent, 1, 0.5)), code: 0, stdout: /"lastIteration":2/ },
  { name: "a linked .evodb.lock", faces: ["native", ...(haveFlock ? ["node"] : [])], setup: (s) => (replace(at(s, ".evodb.lock"), linkTo(path.join(s.outside, "victim.txt"))), addArgs(s.db, s.parent, 1, 0.5)), code: 5, stderr: /\.evodb\.lock`: it is a symbolic link, not a regular file; move it away \(\.evodb\.lock must be a file\)/ },
  { name: "a dangling linked .evodb.lock", faces: ["native", ...(haveFlock ? ["node"] : [])], setup: (s) => (replace(at(s, ".evodb.lock"), linkTo(path.join(s.outside, "made-by-evodb"))), addArgs(s.db, s.parent, 1, 0.5)), code: 5, stderr: /\.evodb\.lock`: it is a symbolic link/ },
  { name: "a linked database.json.lock", setup: (s) => (linkTo(path.join(s.outside, "victim.txt"))(at(s, "database.json.lock")), addArgs(s.db, s.parent, 1, 0.5)), code: 5, nativeCode: 0, why: "native evodb does not use the drop-in's lock file", stderr: /database\.json\.lock`: it is a symbolic link, not a regular file; move it away \(database\.json\.lock must be a file\)/, stdout: /"lastIteration":2/ },
  // --- FIFOs, which would block a read or an open ---
  { name: "a FIFO at database.json.tmp, on add", setup: (s) => (fifo(at(s, "database.json.tmp")), addArgs(s.db, s.parent, 1, 0.5)), code: 0, stdout: /"lastIteration":2/ },
  { name: "a FIFO at .evodb.lock", faces: ["native", ...(haveFlock ? ["node"] : [])], setup: (s) => (replace(at(s, ".evodb.lock"), fifo), addArgs(s.db, s.parent, 1, 0.5)), code: 5, stderr: /\.evodb\.lock`: it is a FIFO, not a regular file; move it away \(\.evodb\.lock must be a file\)/ },
  { name: "a FIFO at .evodb.lock, on sample", faces: ["native", ...(haveFlock ? ["node"] : [])], setup: (s) => (replace(at(s, ".evodb.lock"), fifo), ["sample", s.db]), code: 5, stderr: /\.evodb\.lock`: it is a FIFO/ },
  { name: "a FIFO at database.json.lock", setup: (s) => (fifo(at(s, "database.json.lock")), addArgs(s.db, s.parent, 1, 0.5)), code: 5, nativeCode: 0, why: "native evodb does not use the drop-in's lock file", stderr: /database\.json\.lock`: it is a FIFO, not a regular file/, stdout: /"lastIteration":2/ },
  { name: "a FIFO at history.ndjson, on info", setup: (s) => (replace(at(s, "history.ndjson"), fifo), ["info", s.db]), code: 5, stderr: /history\.ndjson`: it is a FIFO, not a regular file/ },
  { name: "a FIFO at database.json, on validate", setup: (s) => (replace(at(s, "database.json"), fifo), ["validate", s.db]), code: 5, stderr: /database\.json`: it is a FIFO, not a regular file/ },
  // --- directories in place of files ---
  { name: "a directory at database.json.tmp, on add", setup: (s) => (directory(at(s, "database.json.tmp")), addArgs(s.db, s.parent, 1, 0.5)), code: 0, stdout: /"lastIteration":2/ },
  { name: "a directory at database.json.lock", setup: (s) => (directory(at(s, "database.json.lock")), addArgs(s.db, s.parent, 1, 0.5)), code: 5, nativeCode: 0, why: "native evodb does not use the drop-in's lock file", stderr: /database\.json\.lock`: it is a directory, not a regular file/, stdout: /"lastIteration":2/ },
  { name: "a directory at .evodb.lock", faces: ["native", ...(haveFlock ? ["node"] : [])], setup: (s) => (replace(at(s, ".evodb.lock"), directory), addArgs(s.db, s.parent, 1, 0.5)), code: 5, stderr: /\.evodb\.lock`: it is a directory, not a regular file/ },
  { name: "a directory at history.ndjson, on info", setup: (s) => (replace(at(s, "history.ndjson"), directory), ["info", s.db]), code: 5, stderr: /history\.ndjson`: it is a directory, not a regular file/ },
  {
    name: "a directory as the guard of a stale drop-in lock",
    faces: ["node"],
    setup: (s) => {
      fs.writeFileSync(at(s, "database.json.lock"), JSON.stringify({ pid: 2 ** 30, host: os.hostname(), since: "then" }));
      directory(at(s, "database.json.lock.break"));
      return addArgs(s.db, s.parent, 1, 0.5);
    },
    code: 5,
    stderr: /database\.json\.lock\.break`: it is a directory, not a regular file/,
  },
  // --- leftovers of writers killed mid-commit ---
  { name: "a stale temp file of a killed writer", setup: (s) => (fs.writeFileSync(at(s, "database.json.tmp-0123456789abcdef"), "{"), addArgs(s.db, s.parent, 1, 0.5)), code: 0, stdout: /"lastIteration":2/, gone: ["database.json.tmp-0123456789abcdef"] },
  { name: "a stale database.json.tmp of an older evodb", setup: (s) => (fs.writeFileSync(at(s, "database.json.tmp"), "{"), addArgs(s.db, s.parent, 1, 0.5)), code: 0, stdout: /"lastIteration":2/, gone: ["database.json.tmp"] },
];

/** One case on one face, in its own scratch directory. */
function check(t, c, face, { run }) {
  const s = scratch(t);
  const args = c.setup(s);
  const outside = tree(s.outside);
  const before = dbTree(s.db);
  const r = run(args);
  const code = face === "native" && c.nativeCode !== undefined ? c.nativeCode : c.code;
  const label = `${c.name} (${face}): ${JSON.stringify({ code: r.code, stdout: r.stdout.slice(0, 300), stderr: r.stderr.slice(0, 600) })}`;
  assert.equal(r.code, code, `exit code of ${label}`);
  if (code === 0) assert.match(r.stdout, c.stdout, `stdout of ${label}`);
  else assert.match(r.stderr, c.stderr, `stderr of ${label}`);
  assert.ok(!r.stderr.includes("this is a bug in evodb"), label);
  assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), `the secret leaked: ${label}`);
  assert.equal((r.stderr.match(/`/g) ?? []).length % 2, 0, `unbalanced backticks: ${label}`);
  assert.deepEqual(tree(s.outside), outside, `a file outside the database directory changed: ${label}`);
  if (code !== 0) assert.deepEqual(dbTree(s.db), before, `a refusal changed the database directory: ${label}`);
  else assert.deepEqual(run(["validate", s.db]).json().valid, true, label);
  const temps = fs.readdirSync(s.db).filter((name) => /^database\.json\.tmp-/.test(name));
  assert.deepEqual(temps, [], `temp files left: ${label}`);
  for (const name of c.gone ?? []) assert.ok(!fs.existsSync(at(s, name)), `${name} is cleaned up: ${label}`);
}

test("the catalogue's case names are unique", () => {
  const names = CASES.map((c) => c.name);
  assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), []);
});

test("a database directory's files that are not what they should be are refused by name on both CLIs, and nothing outside changes", async (t) => {
  let runs = 0;
  for (const c of CASES) {
    await t.test(c.name, (subtest) => {
      for (const [face, how] of faces) {
        if (c.faces && !c.faces.includes(face)) continue;
        check(subtest, c, face, how);
        runs++;
      }
    });
  }
  console.log(`hostile drop-in: ${CASES.length} cases, ${runs} runs (node${haveNative ? " and native" : ""})`);
});

// --- a disk filling up in the middle of a commit ---

/** A seeded database whose history dwarfs its database.json: a limit between them fails the append alone. */
function longHistory(t) {
  const s = scratch(t);
  const line = JSON.stringify({ event: "note", kind: "lesson", text: "x".repeat(1000) }) + "\n";
  fs.appendFileSync(at(s, "history.ndjson"), line.repeat(200));
  const databaseSize = fs.statSync(at(s, "database.json")).size;
  const historySize = fs.statSync(at(s, "history.ndjson")).size;
  assert.ok(databaseSize * 4 < historySize, `${databaseSize} vs ${historySize}`);
  return { ...s, limit: Math.floor(historySize / 1024) };
}

test("a disk filling up at the history append stores nothing; a retry with the same --id adds once", (t) => {
  for (const [face, { run, command }] of faces) {
    const s = longHistory(t);
    const before = tree(s.db);
    const args = [...addArgs(s.db, s.parent, 1, 0.5), "--id", "retried"];
    const full = underFileLimit(s.limit, command, args);
    assert.equal(full.code, 5, `${face}: ${JSON.stringify(full)}`);
    assert.match(full.stderr, /cannot append to `.*history\.ndjson`: .*; nothing was stored \(database\.json was put back as it was\); free some space/, face);
    assert.deepEqual(tree(s.db), before, `${face}: a failed append stores nothing`);
    const retried = run(args).json();
    assert.equal(retried.id, "retried", face);
    assert.equal(retried.lastIteration, 2, face);
    assert.equal(historyOf(s.db).filter((e) => e.event === "added" && e.id === "retried").length, 1, `${face}: one added event`);
    assert.equal(run(["validate", s.db]).json().valid, true, face);
  }
});

test("a failed append that cannot be undone says the operation may have been stored, and the retry is answered", (t) => {
  for (const [face, { run, command }] of faces) {
    const s = longHistory(t);
    fs.mkdirSync(at(s, "database.json.prev/x"), { recursive: true }); // no link can be kept there
    const args = [...addArgs(s.db, s.parent, 1, 0.5), "--id", "retried"];
    const full = underFileLimit(s.limit, command, args);
    assert.equal(full.code, 5, `${face}: ${JSON.stringify(full)}`);
    assert.match(full.stderr, /may or may not have been stored: check with `.*info` before running it again \(an add retried with the same --id is answered, not added twice\)/, face);
    const retried = run(args).json();
    assert.equal(retried.id, "retried", face);
    const stored = JSON.parse(fs.readFileSync(at(s, "database.json"), "utf8"));
    assert.equal(Object.keys(stored.programs).length, 2, `${face}: added once`);
    assert.equal(stored.lastIteration, 2, face);
  }
});

test("a disk filling up while database.json is written stores nothing and leaves no temp file", (t) => {
  for (const [face, { command }] of faces) {
    const s = scratch(t);
    const code = path.join(s.dir, "big.py");
    fs.writeFileSync(code, "x = 1\n".repeat(50_000));
    const args = addArgs(s.db, s.parent, 1, 0.5);
    args.splice(args.indexOf("--targetCode"), 2, "--targetCodeFile", code);
    const before = tree(s.db);
    const full = underFileLimit(100, command, args);
    assert.equal(full.code, 5, `${face}: ${JSON.stringify(full)}`);
    assert.match(full.stderr, /cannot write `.*database\.json\.tmp-[0-9a-f]{16}`/, face);
    assert.deepEqual(tree(s.db), before, `${face}: nothing stored, no temp file`);
  }
});

// --- paths that are not UTF-8 ---

/** `'…'` for bash, with `{xE9}` tokens as raw bytes. */
const word = (a) => a.split(/(\{x[0-9A-F]{2}\})/).map((p) => (/^\{x..\}$/.test(p) ? `$'\\x${p.slice(2, 4)}'` : `'${p.replaceAll("'", "'\\''")}'`)).join("");

/** Runs `command… args` through bash (in `cwd`, when given) so that `{xE9}` is the raw byte. */
function rawBytes(command, args, cwd = ".") {
  const r = spawnSync("bash", ["-c", `cd ${word(cwd)} && exec ${[...command, ...args].map(word).join(" ")}`], { encoding: "utf8", env, timeout: HANG_MS });
  assert.ok(r.error?.code !== "ETIMEDOUT", `${command.join(" ")} hung`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The names in `dir`, as raw bytes in hex (a mangled name shows as EF BF BD). */
const rawNames = (dir) => fs.readdirSync(Buffer.from(dir), { encoding: "buffer" }).map((b) => b.toString("hex")).sort();

test("a database path with a byte that is not UTF-8 is refused by the drop-in and lands nowhere else", (t) => {
  const dir = tempDir(t);
  for (const args of [
    ["seed", "{dir}/caf{xE9}", "--codePath", "a.py", "--targetCode", "x", "--metrics", '{"s": 1}'],
    ["create", "{dir}/a{xFF}{xFE}/db"],
    ["seed", "--codePath", "a.py", "--targetCode", "x", "--metrics", '{"s": 1}', "--", "{dir}/caf{xE9}"],
  ]) {
    const filled = args.map((a) => a.replaceAll("{dir}", dir));
    const r = rawBytes([process.execPath, CLI], filled);
    assert.equal(r.code, 2, JSON.stringify(r));
    assert.match(r.stderr, /^argument \d+ \(`.*`\) is not valid UTF-8; pass it as UTF-8 \(this Node CLI cannot name a non-UTF-8 path; the native evodb can\)/, JSON.stringify(r));
    assert.deepEqual(rawNames(dir), [], `nothing was created, mangled or not: ${JSON.stringify(r)}`);
  }
  if (!haveNative) return;
  // The native evodb takes the bytes as they are.
  const r = rawBytes([EVODB], ["seed", `${dir}/caf{xE9}`, "--codePath", "a.py", "--targetCode", "x", "--metrics", '{"s": 1}']);
  assert.equal(r.code, 0, JSON.stringify(r));
  assert.deepEqual(rawNames(dir), [Buffer.from("caf\xe9", "latin1").toString("hex")]);
});

test("a relative database path under a working directory that is not UTF-8 lands where it names", (t) => {
  const dir = tempDir(t);
  const cwd = Buffer.concat([Buffer.from(dir), Buffer.from("/d\xe9", "latin1")]);
  fs.mkdirSync(cwd);
  const r = rawBytes([process.execPath, CLI], ["seed", "db", "--codePath", "a.py", "--targetCode", "x", "--metrics", '{"s": 1}'], `${dir}/d{xE9}`);
  assert.equal(r.code, 0, JSON.stringify(r));
  assert.deepEqual(rawNames(dir), [Buffer.from("d\xe9", "latin1").toString("hex")], "no mangled twin of the directory");
  assert.ok(fs.existsSync(Buffer.concat([cwd, Buffer.from("/db/database.json")])));
});
