// Building blocks of the bad-input catalogue's cases: an add with one flag changed, and edits of
// the copied database (its bytes, its JSON, files that are not files).
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { addArgs } from "./helpers.mjs";

/**
 * A valid `add` on {db} with `flag` changed: a value replaces the flag's, null leaves the flag
 * out, `--targetCodeFile`/`--changesFile` replace their text flag, `{db}` the database path, and
 * any other flag is appended.
 */
export function addWith(flag, value) {
  const args = addArgs("{db}", "{parent}", 7, 0.5);
  if (flag === undefined) return args;
  if (flag === "{db}") return args.map((a) => (a === "{db}" ? value : a));
  const text = flag.endsWith("File") ? flag.slice(0, -4) : null;
  if (text && args.includes(text)) {
    const at = args.indexOf(text);
    args.splice(at, 2);
    return [...args, flag, value];
  }
  const at = args.indexOf(flag);
  if (at === -1) return [...args, flag, value];
  if (value === null) args.splice(at, 2);
  else args[at + 1] = value;
  return args;
}

const databaseFile = (db) => path.join(db, "database.json");

export const writeDb = (bytes) => (db) => fs.writeFileSync(databaseFile(db), bytes);

export const appendDb = (bytes) => (db) => fs.appendFileSync(databaseFile(db), bytes);

/** A number JSON cannot carry exactly in JavaScript (e.g. 2^64-1), written as its digits. */
export const big = (digits) => `@@raw:${digits}@@`;

/** Rewrites database.json after `edit(json)` changed it; `big(…)` values are written as digits. */
export const editDb = (edit) => (db) => {
  const json = JSON.parse(fs.readFileSync(databaseFile(db), "utf8"));
  edit(json);
  fs.writeFileSync(databaseFile(db), JSON.stringify(json, null, 2).replace(/"@@raw:(-?\d+)@@"/g, "$1"));
};

/** Edits history.ndjson's bytes. */
export const appendHistory = (bytes) => (db) => fs.appendFileSync(path.join(db, "history.ndjson"), bytes);

export function mkfifo(file) {
  const r = spawnSync("mkfifo", [file]);
  if (r.status !== 0) throw new Error(`mkfifo ${file}: ${r.stderr}`);
}

/** A UNIX socket file, bound by a short-lived process that leaves it behind. */
export function socket(file) {
  const bind = `require("net").createServer().listen(${JSON.stringify(file)}, () => process.exit(0))`;
  const r = spawnSync(process.execPath, ["-e", bind]);
  if (r.status !== 0 || !fs.statSync(file).isSocket()) throw new Error(`cannot bind a socket at ${file}: ${r.stderr}`);
}

/** Replaces `name` in the database directory with a FIFO. */
export const fifoIn = (name) => (db) => {
  fs.rmSync(path.join(db, name), { force: true });
  mkfifo(path.join(db, name));
};

/** Replaces `name` in the database directory with an empty directory. */
export const directoryIn = (name) => (db) => {
  fs.rmSync(path.join(db, name), { force: true });
  fs.mkdirSync(path.join(db, name));
};

/** A file beside the database directory (in `{dir}`). */
export const besideDb = (name, bytes) => (db) => fs.writeFileSync(path.join(db, "..", name), bytes);
