// The database directory on disk and the engine that reads it: database.json read and checked,
// replaced atomically (database.json.tmp, fsync, rename) under the lock, history.ndjson appended
// with each operation's events; and evodb's WebAssembly engine, loaded from ../evodb-wasm/ (the
// npm package's `web` build, committed with the skill, so a plain copy of skill/ runs on Node).

import fs from "node:fs";
import path from "node:path";
import { EXIT, Failure, badInput } from "./args.mjs";
import { acquireLock, releaseLock } from "./lock.mjs";

export const DATABASE_FILE = "database.json";
const TEMP_FILE = "database.json.tmp";
export const HISTORY_FILE = "history.ndjson";

// --- files --------------------------------------------------------------------------------------

/** database.json's text, or null when the directory or the file does not exist. */
export function readDatabaseText(dir) {
  const file = path.join(dir, DATABASE_FILE);
  let bytes;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    if (e.code === "ENOENT") return null;
    if (e.code === "ENOTDIR") throw notADirectory(dir);
    throw new Failure(EXIT.io, `cannot read \`${file}\`: ${e.message}; check the path and its permissions`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badInput(`corrupt database: \`${file}\` is not UTF-8 text; restore it from a backup`);
  }
}

function notADirectory(dir) {
  return new Failure(EXIT.io, `\`${dir}\` is not a directory; pass the database directory (the one holding database.json)`);
}

export function checkDirectory(dir) {
  let stat;
  try {
    stat = fs.statSync(dir);
  } catch (e) {
    if (e.code === "ENOENT") return false;
    if (e.code === "ENOTDIR") throw new Failure(EXIT.io, `cannot create the database directory \`${dir}\`: a part of the path is a file; pass a directory path`);
    throw new Failure(EXIT.io, `cannot read \`${dir}\`: ${e.message}; check the path and its permissions`);
  }
  if (!stat.isDirectory()) throw notADirectory(dir);
  return true;
}

// --- the engine ---------------------------------------------------------------------------------

export let Database;

export async function loadEngine() {
  try {
    const engine = await import("../evodb-wasm/evodb.js");
    engine.initSync({ module: fs.readFileSync(new URL("../evodb-wasm/evodb_bg.wasm", import.meta.url)) });
    ({ Database } = engine);
  } catch (e) {
    const where = new URL("../evodb-wasm/", import.meta.url).pathname;
    throw new Failure(
      EXIT.internal,
      `cannot load evodb's WebAssembly engine from \`${where}\` (${e.message}); copy the whole skill folder, scripts/evodb-wasm/ included, or reinstall it with \`evodb skill install <dir>\``,
    );
  }
}

/** An engine error (EvodbError with a `code`) → bad input (exit 1); anything else is ours (70). */
export function engineFailure(e) {
  if (e instanceof Failure) return e;
  if (e && e.name === "EvodbError") return badInput(e.message);
  return new Failure(EXIT.internal, `the database engine failed (${e?.stack ?? e}); this is a bug in evodb, please report it`);
}

export function engine(f) {
  try {
    return f();
  } catch (e) {
    throw engineFailure(e);
  }
}

/** A directory without database.json holds a fresh database with the seed's defaults (PRNG seed 0, as evodb). */
export function fresh() {
  return new Database({}, 0);
}

export function load(text) {
  return engine(() => Database.fromJson(text));
}

/** Readers take no lock: writers replace database.json atomically, so a reader sees the old or the new file. */
export function read(dir) {
  const text = readDatabaseText(dir);
  return text === null ? fresh() : load(text);
}

/**
 * A writer's read-modify-write under the lock. `op(db, isNew)` returns `{value, save, replace?}`
 * (`replace`: a database to store instead of `db`); when it throws nothing is written. A missing directory is only created once a dry run on a fresh database
 * succeeded, so bad input never leaves a directory behind.
 */
export async function write(dir, op) {
  if (!checkDirectory(dir)) {
    const dry = fresh();
    dry.recordEvents(true);
    engine(() => op(dry, true));
    dry.free();
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new Failure(EXIT.io, `cannot create the database directory \`${dir}\`: ${e.message}; check the path and its permissions`);
    }
  }
  await acquireLock(dir);
  try {
    const text = readDatabaseText(dir);
    const db = text === null ? fresh() : load(text);
    db.recordEvents(true); // from `created` on for a new database
    const { value, save: changed, replace } = engine(() => op(db, text === null));
    if (changed) save(dir, replace ?? db);
    return value;
  } finally {
    releaseLock();
  }
}

/**
 * database.json.tmp, fsync, rename over database.json; then the operation's events appended to
 * history.ndjson in one write (whole lines only). The history is opened first, so an unwritable
 * history fails before anything changed — the native store's order.
 */
function save(dir, db) {
  const historyPath = path.join(dir, HISTORY_FILE);
  const tempPath = path.join(dir, TEMP_FILE);
  const target = path.join(dir, DATABASE_FILE);
  const io = (action, file, e) =>
    new Failure(EXIT.io, `cannot ${action} \`${file}\`: ${e.message}; check that the directory exists and is writable`);
  let history;
  try {
    history = fs.openSync(historyPath, "a");
  } catch (e) {
    throw io("open", historyPath, e);
  }
  try {
    const json = db.toJson();
    const lines = engine(() => db.takeEvents()).map((event) => JSON.stringify(event) + "\n").join("");
    try {
      const fd = fs.openSync(tempPath, "w");
      try {
        fs.writeFileSync(fd, json);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch (e) {
      fs.rmSync(tempPath, { force: true });
      throw io("write", tempPath, e);
    }
    try {
      fs.renameSync(tempPath, target);
    } catch (e) {
      fs.rmSync(tempPath, { force: true });
      throw io("replace", target, e);
    }
    if (lines) {
      try {
        // One write for the operation's lines (under the lock, so a short write's rest follows it).
        const bytes = Buffer.from(lines);
        for (let at = 0; at < bytes.length; ) at += fs.writeSync(history, bytes, at);
      } catch (e) {
        throw io("append to", historyPath, e);
      }
    }
  } finally {
    fs.closeSync(history);
  }
}
