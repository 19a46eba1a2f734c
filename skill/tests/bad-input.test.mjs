// The catalogue of bad input for the Node drop-in (skill/scripts/db-cli.mjs), each case run on it
// and on the native evodb: the exit code (the same on both, unless a case says why not), a
// message on stderr that names the problem, the database directory byte-identical afterwards,
// nothing created beside it, and never a hang. The native CLI's own catalogue is
// host-cli/tests/cli_bad_input.rs; this one holds its cases and more that a Node process meets
// (lossily decoded argv, blocking reads, lone surrogates in JSON).
//
//   node --test skill/tests/bad-input.test.mjs
//
// A case is {name, setup?, args, code, stderr, input?, nativeCode?, nativeStderr?, skipNative?}:
// `setup(db)` prepares the copy of the template database (its directory's parent is `{dir}`);
// `{db}`, `{dir}` and `{parent}` in args are filled in; `{xFF}` is a raw byte (passed through bash,
// as Node cannot spawn with non-UTF-8 arguments); `input` is standard input; `stderr` a regex the
// Node message must match (and the native one, unless `nativeStderr` says otherwise).
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { CLI, EVODB, addArgs, cli, env, haveNative, native, seedArgs, snapshot, tempDir } from "./helpers.mjs";
import { HOSTILE_CASES, PARSE_CASES } from "./bad-input-cases.mjs";
import { addWith, editDb, writeDb } from "./bad-input-setup.mjs";

/** The cases the native catalogue and the earlier Node one share: files, metrics, flags, config. */
const BASIC_CASES = [
  // --- the database file ---
  { name: "torn database.json", setup: writeDb('{"numIslands": 3, "programs": {'), args: ["info", "{db}"], code: 1, stderr: /corrupt database/ },
  { name: "malformed database.json on add", setup: writeDb("{not json"), args: addWith(), code: 1, stderr: /corrupt database/ },
  { name: "empty database.json on sample", setup: writeDb(""), args: ["sample", "{db}"], code: 1, stderr: /corrupt database/ },
  { name: "database.json is an array", setup: writeDb("[1, 2, 3]"), args: ["best", "{db}"], code: 1, stderr: /corrupt database/ },
  { name: "database.json with a wrong type", setup: writeDb('{"numIslands": "three"}'), args: ["info", "{db}"], code: 1, stderr: /numIslands/ },
  { name: "database.json with a mislabelled program", setup: editDb((v) => (v.programs[v.bestProgramId].id = "ghost")), args: ["stats", "{db}"], code: 1, stderr: /ghost/ },
  { name: "database.json not UTF-8", setup: writeDb(Buffer.from('{"numIslands": 3, "x": "\xff\xfe"}', "latin1")), args: ["info", "{db}"], code: 1, stderr: /not UTF-8/ },
  { name: "torn database.json on validate", setup: writeDb('{"numIslands": 3, "programs": {'), args: ["validate", "{db}"], code: 1, stderr: /the file ends early/ },
  { name: "torn database.json on plan", setup: writeDb('{"numIslands": 3'), args: ["plan", "{db}", "2"], code: 1, stderr: /corrupt database/ },
  // --- metrics ---
  { name: "NaN metric", args: addWith("--metrics", '{"score": NaN}'), code: 1, stderr: /--metrics is not valid JSON/ },
  { name: "Infinity metric", args: addWith("--metrics", '{"score": Infinity}'), code: 1, stderr: /--metrics is not valid JSON/ },
  { name: "-Infinity metric", args: addWith("--metrics", '{"score": -Infinity}'), code: 1, stderr: /--metrics is not valid JSON/ },
  { name: "overflowing metric", args: addWith("--metrics", '{"score": 1e999}'), code: 1, stderr: /out of range/ },
  { name: "metrics not an object", args: addWith("--metrics", "[0.5, 0.7]"), code: 1, stderr: /`metrics`/ },
  { name: "metrics a number", args: addWith("--metrics", "0.5"), code: 1, stderr: /`metrics`/ },
  { name: "metric a string", args: addWith("--metrics", '{"score": "high"}'), code: 1, stderr: /`metrics\.score`/ },
  { name: "metric null", args: addWith("--metrics", '{"score": null}'), code: 1, stderr: /metric `score` is null/ },
  { name: "metrics truncated", args: addWith("--metrics", '{"score": 0.'), code: 1, stderr: /--metrics is not valid JSON/ },
  { name: "seed with NaN", args: ["seed", "{db}", "--codePath", "a.py", "--targetCode", "x", "--metrics", '{"s": NaN}'], code: 1, stderr: /pass an object of finite numbers/ },
  // --- flags and commands ---
  { name: "missing --codePath", args: addWith("--codePath", null), code: 2, stderr: /Missing required flag: --codePath/ },
  { name: "missing --targetCode", args: addWith("--targetCode", null), code: 2, stderr: /Missing required flag: --targetCode/ },
  { name: "missing --parentId", args: addWith("--parentId", null), code: 2, stderr: /Missing required flag: --parentId/ },
  { name: "missing --metrics", args: addWith("--metrics", null), code: 2, stderr: /Missing required flag: --metrics/ },
  { name: "missing --changes", args: addWith("--changes", null), code: 2, stderr: /Missing required flag: --changes/ },
  { name: "unknown command", args: ["frobnicate", "{db}"], code: 2, stderr: /'frobnicate'/ },
  { name: "unknown flag", args: ["info", "{db}", "--colour", "red"], code: 2, stderr: /unexpected argument '--colour'/ },
  { name: "unknown add flag", args: [...addWith(), "--parent", "x"], code: 2, stderr: /--parent\b/ },
  { name: "missing dbPath", args: ["info"], code: 2, stderr: /<dbPath>/ },
  { name: "a PostgreSQL store", args: ["info", "--store", "postgres://u:pw@h/d", "--run", "r"], code: 2, stderr: /native evodb/, skipNative: true },
  { name: "a PostgreSQL URL", args: ["info", "postgres://u@h/d"], code: 2, stderr: /native evodb/, skipNative: true },
  { name: "a PostgreSQL URL in capitals", args: ["info", "POSTGRES://u:pw-7d1c@h/d"], code: 2, stderr: /native evodb/, nativeStderr: /holds many runs/ },
  { name: "a mistyped PostgreSQL scheme", args: ["create", "postgress://u:pw-7d1c@h/d"], code: 2, stderr: /postgres:\/\/ or postgresql:\/\// },
  { name: "another database's URL", args: ["create", "mysql://u:pw-7d1c@h/d"], code: 2, stderr: /postgres:\/\/ or postgresql:\/\// },
  { name: "a PostgreSQL scheme without //", args: ["create", "postgres:/u:pw-7d1c@h/d"], code: 2, stderr: /postgres/ },
  { name: "git mode", args: [...addWith(), "--branch", "evo/x", "--target", "f.py"], code: 2, stderr: /git mode \(--branch, --target\) needs the native evodb/, skipNative: true },
  { name: "flag without a value", args: [...addWith().slice(0, -2), "--changes"], code: 2, stderr: /--changes/ },
  { name: "negative island", args: [...addWith(), "--island", "-1"], code: 2, stderr: /'-1'/ },
  { name: "unknown export format", args: ["export", "{db}", "--format", "yaml"], code: 2, stderr: /invalid value 'yaml'.*\[?possible values: json, mermaid, tree, markdown/s },
  { name: "plan of -1", args: ["plan", "{db}", "-1"], code: 2, stderr: /-1/ },
  { name: "code and code file", args: [...addWith(), "--targetCodeFile", "{dir}/x.py"], code: 2, stderr: /cannot be used with/ },
  { name: "bad time budget", args: ["info", "{db}", "--timeBudgetMs", "soon"], code: 2, stderr: /invalid value 'soon'/ },
  // --- code, text and the engine's checks ---
  { name: "empty code", args: addWith("--targetCode", ""), code: 1, stderr: /`targetCode` is empty/ },
  { name: "blank code", args: addWith("--targetCode", " \n\t "), code: 1, stderr: /`targetCode` is empty/ },
  { name: "empty code path", args: addWith("--codePath", ""), code: 1, stderr: /`codePath` is empty/ },
  { name: "10 MB code", setup: (db) => fs.writeFileSync(path.join(db, "../big.py"), "x".repeat(10 << 20)), args: addWith("--targetCodeFile", "{dir}/big.py"), code: 1, stderr: /over the 1048576-byte limit/ },
  { name: "code file missing", args: addWith("--targetCodeFile", "{dir}/nowhere.py"), code: 3, stderr: /does not exist/ },
  { name: "changes file missing", args: addWith("--changesFile", "{dir}/nowhere.txt"), code: 3, stderr: /does not exist/ },
  { name: "code file not UTF-8", setup: (db) => fs.writeFileSync(path.join(db, "../latin1.py"), Buffer.from("caf\xe9 = 1\n", "latin1")), args: addWith("--targetCodeFile", "{dir}/latin1.py"), code: 1, stderr: /is not UTF-8 text/ },
  { name: "id in use", args: [...addWith(), "--id", "{parent}"], code: 1, stderr: /duplicate id/ },
  { name: "island out of range", args: [...addWith(), "--island", "9"], code: 1, stderr: /`island`/ },
  { name: "error status without a reason", args: [...addWith(), "--status", "error"], code: 1, stderr: /`reason` is required/ },
  { name: "unknown plan item", args: [...addWith(), "--planItem", "gen-9/island-0/exploitation-0"], code: 1, stderr: /gen-9/ },
  { name: "plan of 0", args: ["plan", "{db}", "0"], code: 1, stderr: /`n` is 0/ },
  { name: "unknown lineage id", args: ["lineage", "{db}", "nobody"], code: 3, stderr: /no live program has id `nobody`/ },
  // --- init and config ---
  { name: "init over a database", args: ["init", "{db}"], code: 1, stderr: /already holds a database/ },
  { name: "zero islands", args: ["init", "{db}", "--numIslands", "0"], code: 1, stderr: /`numIslands`/ },
  { name: "islands not a number", args: ["init", "{db}", "--islands", "three"], code: 1, stderr: /`numIslands`/ },
  { name: "absurd capacity", args: ["init", "{db}", "--capacity", "99999999999"], code: 1, stderr: /`maxIslandSize`/ },
  { name: "migration rate over 1", args: ["init", "{db}", "--migrationRate", "1.5"], code: 1, stderr: /`migrationRate`/ },
  { name: "unknown placement", args: ["init", "{db}", "--placement", "nearest"], code: 1, stderr: /`placement`/ },
  { name: "seed beyond 2^53", args: ["init", "{db}", "--seed", "9007199254740993"], code: 1, stderr: /`seed`/ },
  { name: "bad fitness rule", args: ["init", "{db}", "--fitness", "median"], code: 2, stderr: /--fitness/ },
  { name: "bad direction", args: ["init", "{db}", "--direction", "latency"], code: 2, stderr: /--direction/ },
  { name: "config file with a wrong type", setup: (db) => fs.writeFileSync(path.join(db, "../config.json"), '{"maxIslandSize": "big"}'), args: ["init", "{db}", "--config", "{dir}/config.json"], code: 1, stderr: /`maxIslandSize`/ },
  { name: "config file with an unknown key", setup: (db) => fs.writeFileSync(path.join(db, "../config.json"), '{"numIsland": 4}'), args: ["init", "{db}", "--config", "{dir}/config.json"], code: 1, stderr: /numIsland/ },
  { name: "config file not JSON", setup: (db) => fs.writeFileSync(path.join(db, "../config.json"), "numIslands = 4"), args: ["init", "{db}", "--config", "{dir}/config.json"], code: 1, stderr: /is not valid JSON/ },
  { name: "config file missing", args: ["init", "{dir}/new", "--config", "{dir}/nowhere.json"], code: 3, stderr: /does not exist/ },
  // --- the directory ---
  { name: "database path is a file", setup: (db) => fs.writeFileSync(path.join(db, "../plain-file"), "x"), args: addWith("{db}", "{dir}/plain-file"), code: 5, stderr: /is not a directory/ },
  { name: "database path under a file", setup: (db) => fs.writeFileSync(path.join(db, "../plain-file"), "x"), args: addWith("{db}", "{dir}/plain-file/db"), code: 5, stderr: /cannot create/ },
  { name: "bad add on a missing directory", args: addWith("--metrics", '{"score": NaN}').map((a) => (a === "{db}" ? "{dir}/new" : a)), code: 1, stderr: /--metrics is not valid JSON/ },
  { name: "bad init on a missing directory", args: ["init", "{dir}/new", "--numIslands", "0"], code: 1, stderr: /`numIslands`/ },
];

export const CASES = [...BASIC_CASES, ...HOSTILE_CASES, ...PARSE_CASES];

/** `'…'` for bash, with `{xFF}` tokens as raw bytes ($'\xff'). */
function bashWord(arg) {
  return arg
    .split(/(\{x[0-9A-Fa-f]{2}\})/)
    .map((part) => (/^\{x[0-9A-Fa-f]{2}\}$/.test(part) ? `$'\\x${part.slice(2, 4)}'` : `'${part.replaceAll("'", "'\\''")}'`))
    .join("");
}

/** Runs one face; arguments with raw bytes go through bash, which can pass them on. */
function runFace(face, args, input) {
  if (!args.some((a) => /\{x[0-9A-Fa-f]{2}\}/.test(a))) return face === "node" ? cli(args, { input }) : native(args, { input });
  const command = face === "node" ? [process.execPath, CLI] : [EVODB];
  const script = `exec ${[...command, ...args].map(bashWord).join(" ")}`;
  const r = spawnSync("bash", ["-c", script], { encoding: "utf8", env, input, timeout: 30_000 });
  assert.ok(r.error?.code !== "ETIMEDOUT", `${face} ${args.join(" ")} hung`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The template every case starts from: a seed, three adds and a pending plan of two items. */
function template(t) {
  const db = path.join(tempDir(t), "db");
  const parent = cli(seedArgs(db)).json().id;
  for (let i = 1; i <= 3; i++) cli(addArgs(db, parent, i, 0.2 * i)).json();
  cli(["plan", db, "2"]).json();
  return { db, parent };
}

/** One case on one face, in a fresh copy of the template. */
function check(t, c, face, { db: templateDb, parent }) {
  const scratch = tempDir(t);
  const db = path.join(scratch, "db");
  fs.cpSync(templateDb, db, { recursive: true });
  c.setup?.(db);
  const before = snapshot(db);
  const fill = (a) => a.replaceAll("{db}", db).replaceAll("{dir}", scratch).replaceAll("{parent}", parent);
  const r = runFace(face, c.args.map(fill), c.input ?? "");
  const label = `${c.name} (${face}): ${JSON.stringify({ code: r.code, stdout: r.stdout.slice(0, 300), stderr: r.stderr.slice(0, 600) })}`;
  const code = face === "native" ? (c.nativeCode ?? c.code) : c.code;
  assert.equal(r.code, code, `exit code of ${label}`);
  const pattern = face === "native" && c.nativeStderr !== undefined ? c.nativeStderr : c.stderr;
  assert.match(r.stderr, pattern, `stderr of ${label}`);
  assert.ok(!r.stderr.includes("`/db/") && !r.stderr.includes("`/db`"), `the message names the sandbox's path: ${label}`);
  assert.ok(!`${r.stdout}${r.stderr}`.includes("pw-7d1c"), `a password was echoed: ${label}`);
  assert.deepEqual(snapshot(db), before, `the database directory changed: ${label}`);
  for (const name of ["new", "fresh"]) assert.ok(!fs.existsSync(path.join(scratch, name)), `a directory was created: ${label}`);
  assert.ok(!fs.existsSync(path.join(scratch, "plain-file", "db")));
}

test("the catalogue's case names are unique", () => {
  const names = CASES.map((c) => c.name);
  assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), []);
});

test("bad input is refused by name, with evodb's exit code, and changes nothing", async (t) => {
  const base = template(t);
  let runs = 0;
  const skipped = [];
  for (const c of CASES) {
    await t.test(c.name, (subtest) => {
      check(subtest, c, "node", base);
      runs++;
      if (!haveNative) return;
      if (c.skipNative) {
        skipped.push(`${c.name}: ${c.skipNative}`);
        return;
      }
      check(subtest, c, "native", base);
      runs++;
    });
  }
  console.log(`bad input: ${CASES.length} cases, each refused with its exit code and message, files byte-identical (${runs} runs, node${haveNative ? " and native" : ""})`);
  if (skipped.length) console.log(`not run on native evodb:\n  ${skipped.join("\n  ")}`);
  assert.ok(CASES.length >= 100, `the catalogue holds ${CASES.length} cases`);
});
