// @ts-check
// The database directory on disk and the engine that reads it: database.json read and checked,
// replaced atomically (a new temp file with an unpredictable name, fsync, rename) under the lock,
// history.ndjson appended with each operation's events (a torn tail removed first; a failed append
// puts database.json back, so a failed write stores nothing); database.json and history.ndjson
// must be regular files, never links (one could lead out of the directory), as with the native
// evodb; and evodb's WebAssembly engine, loaded
// from ../evodb-wasm/ (the npm package's `web` build, committed with the skill, so a plain copy of
// skill/ runs on Node). Every load is under limits.mjs's memory cap and time budget.

import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { EXIT, Failure, badInput } from "./args.mjs";
import { HISTORY_FILE, repairTornTail } from "./history.mjs";
import { kindAt, openRegular } from "./input.mjs";
import { checkMemory, checkTime, setEngineBytes, startClock } from "./limits.mjs";
import { acquireLock, randomHex, releaseLock } from "./lock.mjs";

/** @import * as evodb from "../evodb-wasm/evodb.js" */

export const DATABASE_FILE = "database.json";
/**
 * A commit's temp file is this, a dash and random hex: created new, never a name planted before
 * (older versions wrote database.json.tmp itself, which is cleaned up like any stale temp file).
 */
const TEMP_PREFIX = "database.json.tmp";
/** The database.json a commit replaces, kept (a hard link) until the history append succeeded. */
const PREVIOUS_FILE = "database.json.prev";
export { HISTORY_FILE };

/** The exit-5 Failure for `action` on `file`. @typedef {(action: string, file: string, e: {message: string}) => Failure} IoFailure */

// --- files --------------------------------------------------------------------------------------

/**
 * database.json's text, or null when the directory or the file does not exist. Opened without
 * blocking (a FIFO there would hang the read) and checked against the memory cap before it is read.
 * @param {string} dir
 * @returns {string | null}
 */
export function readDatabaseText(dir) {
  const file = path.join(dir, DATABASE_FILE);
  let opened;
  try {
    opened = openRegular(file, { noFollow: true });
  } catch (e) {
    if (e.code === "ENOENT") {
      checkMemory(0); // an empty database still needs the engine
      return null;
    }
    if (e.code === "ENOTDIR") throw notADirectory(dir);
    throw new Failure(EXIT.io, `cannot read \`${file}\`: ${e.message}; check the path and its permissions`);
  }
  if (opened.kind) {
    throw new Failure(EXIT.io, `cannot read \`${file}\`: it is ${opened.kind}, not a regular file; move it away (database.json must be a file)`);
  }
  let bytes;
  try {
    checkMemory(opened.stat.size);
    bytes = fs.readFileSync(opened.fd);
  } catch (e) {
    if (e instanceof Failure) throw e;
    throw new Failure(EXIT.io, `cannot read \`${file}\`: ${e.message}; check the path and its permissions`);
  } finally {
    fs.closeSync(opened.fd);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw badInput(`corrupt database: \`${file}\` is not UTF-8 text; restore it from a backup`);
  }
}

/** @param {string} dir */
function notADirectory(dir) {
  return new Failure(EXIT.io, `\`${dir}\` is not a directory; pass the database directory (the one holding database.json)`);
}

/**
 * True when `dir` is a directory, false when it does not exist; anything else throws (exit 5).
 * @param {string} dir
 */
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

/**
 * The refusal of a file of the database directory that is something else (evodb's words).
 * @param {string} file
 * @param {string} name
 * @param {string} kind
 * @param {string} [action]
 */
export function notAFile(file, name, kind, action = "read") {
  return new Failure(EXIT.io, `cannot ${action} \`${file}\`: it is ${kind}, not a regular file; move it away (${name} must be a file)`);
}

/**
 * database.json and history.ndjson must be regular files where they exist, checked before
 * anything is read or written, as evodb checks them: a link could lead out of the directory, a
 * FIFO would block.
 * @param {string} dir
 */
export function checkFiles(dir) {
  for (const name of [DATABASE_FILE, HISTORY_FILE]) {
    const file = path.join(dir, name);
    const kind = kindAt(file);
    if (kind) throw notAFile(file, name, kind);
  }
}

/**
 * Whether `dir` names a directory (through a link, as the user may name it).
 * @param {string} dir
 */
export function isDirectory(dir) {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether `dir` holds a database.json (of any kind: a broken one is still one to validate).
 * @param {string} dir
 */
export function hasDatabase(dir) {
  return fs.existsSync(path.join(dir, DATABASE_FILE));
}

// --- the engine ---------------------------------------------------------------------------------

/** The engine's Database class, once loadEngine() has run. @type {typeof evodb.Database} */
export let Database;
/** The command-line rules shared with evodb (init's config from its flags, the seed's range). @type {typeof evodb.configFromFlags} */
export let configFromFlags;
/** @type {typeof evodb.checkSeed} */
export let checkSeed;
/** `seed`'s and `add`'s flags → the add request (the missing-flag check first). @type {typeof evodb.checkAddFlags} */
export let checkAddFlags;
/** @type {typeof evodb.addRequestFromFlags} */
export let addRequestFromFlags;
/** `--embedding`'s JSON text → its numbers. @type {typeof evodb.embeddingFromFlag} */
export let embeddingFromFlag;

export async function loadEngine() {
  // One call runs a few of the engine's functions a few times: V8's baseline compiler (Liftoff),
  // each function compiled on its first call, is all it needs. Optimizing hot functions again
  // (dynamic tier-up) cost ~25 ms of CPU a call for nothing (bench/run measures it). Validating
  // a function only when it first runs, not the whole 1.5 MB module up front, saves ~6 ms more
  // (the module is evodb's own build, committed beside this file). V8 reads these when the
  // module compiles; they only touch WebAssembly.
  v8.setFlagsFromString("--liftoff-only");
  v8.setFlagsFromString("--wasm-lazy-compilation");
  v8.setFlagsFromString("--wasm-lazy-validation");
  try {
    const glue = await import("../evodb-wasm/evodb.js");
    const exports = glue.initSync({ module: fs.readFileSync(new URL("../evodb-wasm/evodb_bg.wasm", import.meta.url)) });
    setEngineBytes(exports.memory?.buffer.byteLength ?? 0);
    ({ Database, configFromFlags, checkSeed, checkAddFlags, addRequestFromFlags, embeddingFromFlag } = glue);
  } catch (e) {
    const where = new URL("../evodb-wasm/", import.meta.url).pathname;
    throw new Failure(
      EXIT.internal,
      `cannot load evodb's WebAssembly engine from \`${where}\` (${e.message}); copy the whole skill folder, scripts/evodb-wasm/ included, or reinstall it with \`evodb skill install <dir>\``,
    );
  }
}

/**
 * An engine error (EvodbError with a `code`) → bad input (exit 1); anything else is ours (70).
 * @param {any} e what was thrown
 * @returns {Failure}
 */
export function engineFailure(e) {
  if (e instanceof Failure) return e;
  if (e && e.name === "EvodbError") return e.code === "usage" ? new Failure(EXIT.usage, e.message) : badInput(e.message);
  return new Failure(EXIT.internal, `the database engine failed (${e?.stack ?? e}); this is a bug in evodb, please report it`);
}

/**
 * `f()`, with what it throws as a Failure.
 * @template T
 * @param {() => T} f
 * @returns {T}
 */
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

/**
 * database.json's text as a database. With `dir`: a file without its `evodb` section whose
 * history says evodb made the run (another tool rewrote it) is said on stderr, naming what was
 * lost, as evodb says it.
 * @param {string} text database.json's
 * @param {string} [dir]
 */
export function load(text, dir) {
  const db = engine(() => Database.fromJson(text));
  if (dir !== undefined && db.lacksEvodbSection()) {
    // Only then is the history read: a file evodb wrote always has the section.
    db.noticeLostSection(readHistoryText(dir));
    for (const warning of db.loadWarnings()) process.stderr.write(`warning: ${warning}\n`);
  }
  return db;
}

/**
 * history.ndjson's text; "" when it is missing or not a regular file (validate reports that).
 * @param {string} dir
 */
function readHistoryText(dir) {
  let opened;
  try {
    opened = openRegular(path.join(dir, HISTORY_FILE), { noFollow: true });
  } catch {
    return "";
  }
  if (opened.kind) return "";
  try {
    return fs.readFileSync(opened.fd, "utf8");
  } finally {
    fs.closeSync(opened.fd);
  }
}

/**
 * A reader's `op(db)` on the stored database (readers take no lock: writers replace database.json
 * atomically, so a reader sees the old or the new file), timed from the read on.
 * @template T
 * @param {string} dir
 * @param {(db: evodb.Database) => T} op
 * @returns {T}
 */
export function read(dir, op) {
  if (isDirectory(dir)) checkFiles(dir);
  startClock();
  const text = readDatabaseText(dir);
  const db = text === null ? fresh() : load(text, dir);
  try {
    checkTime();
    const value = engine(() => op(db));
    checkTime();
    return value;
  } finally {
    db.free();
  }
}

/**
 * Writers other than create and init start a database where there is none, as the seed does.
 * @param {string} dir
 */
const creating = (dir) => `no database at \`${dir}\`; creating a new one`;

/**
 * A writer's read-modify-write under the lock. `op(db, isNew)` returns `{value, save, replace?}`
 * (`replace`: a database to store instead of `db`); when it throws nothing is written. Returns
 * `{value, warnings}`; with `announce`, a database created here is one of the warnings (the user
 * probably meant an existing one: a typo in the path). A missing directory is only created once a
 * dry run on a fresh database succeeded, so bad input never leaves a directory behind.
 * @template T
 * @param {string} dir
 * @param {(db: evodb.Database, isNew: boolean) => {value: T, save: boolean, replace?: evodb.Database}} op
 * @param {{announce?: boolean}} [options]
 * @returns {Promise<{value: T, warnings: string[]}>}
 */
export async function write(dir, op, { announce = false } = {}) {
  if (!checkDirectory(dir)) {
    startClock();
    checkMemory(0);
    const dry = fresh();
    dry.recordEvents(true);
    engine(() => op(dry, true));
    dry.free();
    checkTime();
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new Failure(EXIT.io, `cannot create the database directory \`${dir}\`: ${e.message}; check the path and its permissions`);
    }
  }
  await acquireLock(dir);
  try {
    checkFiles(dir);
    const repaired = repairTornTail(dir); // as evodb: first thing under the lock, said at once
    if (repaired) process.stderr.write(`warning: ${repaired}\n`);
    startClock();
    const text = readDatabaseText(dir);
    const db = text === null ? fresh() : load(text, dir);
    db.recordEvents(true); // from `created` on for a new database
    checkTime();
    const { value, save: changed, replace } = engine(() => op(db, text === null));
    checkTime(); // over budget: nothing saved
    if (changed) save(dir, replace ?? db);
    return { value, warnings: announce && text === null ? [creating(dir)] : [] };
  } finally {
    releaseLock();
  }
}

/**
 * history.ndjson opened to append, without blocking or following a link: a FIFO there would block
 * the open until a reader came (or refuse it, ENXIO, without one), a link would append outside the
 * directory, and anything but a regular file is refused.
 * @param {string} historyPath
 * @param {IoFailure} io
 */
function openHistory(historyPath, io) {
  const { O_WRONLY, O_APPEND, O_CREAT, O_NONBLOCK, O_NOFOLLOW } = fs.constants;
  let fd;
  try {
    fd = fs.openSync(historyPath, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_NOFOLLOW, 0o666);
  } catch (e) {
    const kind = kindAt(historyPath);
    if (kind) throw notAFile(historyPath, HISTORY_FILE, kind, "open");
    throw io("open", historyPath, e);
  }
  const stat = fs.fstatSync(fd);
  if (stat.isFile()) return fd;
  fs.closeSync(fd);
  throw io("open", historyPath, { message: "it is not a regular file; move it away (the history must be a file)" });
}

/**
 * Temp files of writers killed mid-commit (only a regular file or a link is removed: unlinking
 * a link never touches what it points to).
 * @param {string} dir
 */
function removeStaleTemps(dir) {
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const stat = fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false });
    if (stat && (stat.isFile() || stat.isSymbolicLink())) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/**
 * The database.json a commit replaces, kept as a hard link until the history append succeeded
 * (the native store's way): `put back` undoes the commit. Where no link can be made, it cannot.
 * @param {string} dir
 */
function keepPrevious(dir) {
  const link = path.join(dir, PREVIOUS_FILE);
  const target = path.join(dir, DATABASE_FILE);
  try {
    fs.unlinkSync(link); // left by a writer killed mid-commit; a link is removed, never followed
  } catch {}
  let existed = true;
  let kept = true;
  try {
    fs.linkSync(target, link);
  } catch (e) {
    if (e.code === "ENOENT") existed = false;
    else kept = false;
  }
  return {
    forget() {
      if (kept && existed) fs.rmSync(link, { force: true });
    },
    /** Whether the previous database.json is back in place. */
    putBack() {
      if (!kept) return false;
      try {
        if (existed) fs.renameSync(link, target);
        else fs.unlinkSync(target);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/**
 * A new temp file (unpredictable name, O_EXCL, never through a link), fsync, rename over
 * database.json; then the operation's events appended to history.ndjson in one write (whole lines
 * only). The history is opened first, so an unwritable history fails before anything changed — the
 * native store's order — and an append that fails (a full disk) cuts the history back and puts the
 * previous database.json back, so nothing is stored; where that cannot be done, the message says
 * the operation may have been stored.
 * @param {string} dir
 * @param {evodb.Database} db
 */
function save(dir, db) {
  const historyPath = path.join(dir, HISTORY_FILE);
  const target = path.join(dir, DATABASE_FILE);
  /** @type {IoFailure} */
  const io = (action, file, e) =>
    new Failure(EXIT.io, `cannot ${action} \`${file}\`: ${e.message}; check that the directory exists and is writable`);
  const history = openHistory(historyPath, io);
  try {
    const historyLength = fs.fstatSync(history).size; // under the lock: nobody else appends
    const json = db.toJson();
    const lines = engine(() => db.takeEvents()).map((event) => JSON.stringify(event) + "\n").join("");
    removeStaleTemps(dir);
    const tempPath = path.join(dir, `${TEMP_PREFIX}-${randomHex(8)}`);
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
    try {
      const fd = fs.openSync(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
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
    const previous = keepPrevious(dir);
    try {
      fs.renameSync(tempPath, target);
    } catch (e) {
      previous.forget();
      fs.rmSync(tempPath, { force: true });
      throw io("replace", target, e);
    }
    if (lines) {
      try {
        // One write for the operation's lines (under the lock, so a short write's rest follows it).
        const bytes = Buffer.from(lines);
        for (let at = 0; at < bytes.length; ) at += fs.writeSync(history, bytes, at);
      } catch (e) {
        let putBack = false;
        try {
          fs.ftruncateSync(history, historyLength);
          putBack = previous.putBack();
        } catch {}
        throw new Failure(
          EXIT.io,
          putBack
            ? `cannot append to \`${historyPath}\`: ${e.message}; nothing was stored (database.json was put back as it was); free some space or check that the directory is writable, then run the command again`
            : `cannot append to \`${historyPath}\`: ${e.message}; database.json was saved but its history lines were not, so the operation may or may not have been stored: check with \`${"node db-cli.mjs"} info\` before running it again (an add retried with the same --id is answered, not added twice)`,
        );
      }
    }
    previous.forget();
  } finally {
    fs.closeSync(history);
  }
}
