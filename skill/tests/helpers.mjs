// What the skill's test files share: the two CLIs (the Node drop-in and the native evodb, run
// synchronously with a time limit so a hang fails the test instead of stalling it), scratch
// directories, snapshots of a directory's bytes, and the seed's add arguments.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "../..");
export const CLI = path.join(root, "skill/scripts/db-cli.mjs");
export const EVODB = process.env.EVODB_BIN ?? path.join(root, "target/release/evodb");
export const haveNative = fs.existsSync(EVODB);
if (!haveNative && process.env.EVODB_REQUIRE_NATIVE) throw new Error(`tests/run.sh builds ${EVODB}, but it is missing`);
export const noNative = !haveNative && `native evodb not built at ${EVODB}`;
export const haveFlock = spawnSync("flock", ["--version"]).status === 0;

export const env = { ...process.env };
delete env.EVODB_LOCK_TIMEOUT_MS;
delete env.EVODB_NO_FLOCK;

/** No single CLI call in these tests takes this long; one that does is hung. */
const HANG_MS = 30_000;

export function result(status, stdout, stderr, signal = null) {
  return {
    code: status,
    signal,
    stdout,
    stderr,
    json() {
      assert.equal(this.code, 0, `expected success: ${JSON.stringify(this)}`);
      return JSON.parse(this.stdout);
    },
  };
}

function finished(r, what) {
  if (r.error?.code === "ETIMEDOUT") assert.fail(`${what} hung (no exit within ${HANG_MS} ms)`);
  return result(r.status, r.stdout, r.stderr, r.signal);
}

/** `node db-cli.mjs …args`, synchronously; `input` is its standard input (empty by default). */
export function cli(args, { env: extraEnv = {}, input = "" } = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...env, ...extraEnv }, input, timeout: HANG_MS });
  return finished(r, `db-cli.mjs ${args.join(" ").slice(0, 200)}`);
}

/** The native `evodb …args`. */
export function native(args, { input = "" } = {}) {
  const r = spawnSync(EVODB, args, { encoding: "utf8", env, input, timeout: HANG_MS });
  return finished(r, `evodb ${args.join(" ").slice(0, 200)}`);
}

export function runAsync(command, args) {
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

export function tempDir(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "evodb-skill-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Every regular file in `dir` with its size and SHA-256 (a readable diff when one changes). */
export function snapshot(dir) {
  const files = {};
  if (!fs.existsSync(dir)) return files;
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (!fs.lstatSync(file).isFile()) continue;
    const bytes = fs.readFileSync(file);
    files[name] = `${bytes.length} bytes, sha256 ${createHash("sha256").update(bytes).digest("hex")}`;
  }
  return files;
}

export function historyOf(dir) {
  const file = path.join(dir, "history.ndjson");
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

export function seedArgs(db) {
  return ["seed", db, "--codePath", "/candidates/iteration_0.py", "--targetCode", "def f(x):\n    return 0\n", "--metrics", '{"score": 0.1, "speed": 0.5}'];
}

export function addArgs(db, parent, i, score) {
  return [
    "add", db,
    "--codePath", `/candidates/iteration_${i}.py`,
    "--targetCode", `def f(x):\n    return ${i}\n`,
    "--parentId", parent,
    "--metrics", `{"score": ${score}, "speed": 0.5}`,
    "--changes", `change ${i}`,
  ];
}

/** The lines of a warning on stderr, for comparing the two CLIs. */
export const warnings = (r) => r.stderr.split("\n").filter((line) => line.startsWith("warning:"));
