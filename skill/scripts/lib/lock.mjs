// @ts-check
// The writers' lock on a database directory: database.json.lock, created with O_EXCL and holding
// its owner's pid (stale locks are broken), plus the native `evodb` CLI's flock on .evodb.lock,
// taken through flock(1) where it exists. Released on exit and on SIGINT, SIGTERM and SIGHUP.
// Both lock files must be regular files: one that is a FIFO, a directory or a link is refused
// (exit 5, evodb's words) before anything waits on it or follows it.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EXIT, Failure } from "./args.mjs";
import { kindAt, kindOf, readSmallFile } from "./input.mjs";

/** The lock among db-cli.mjs processes: created with O_EXCL, holds its owner's pid. */
const LOCK_FILE = "database.json.lock";
/** The native `evodb` CLI's lock (an flock); taken too, through flock(1), where it exists. */
const NATIVE_LOCK_FILE = ".evodb.lock";
/** A lock older than this is stale whatever its pid says (pids get reused); an add takes < 1 s. */
const STALE_LOCK_MS = 10 * 60 * 1000;
/** How long to wait for the lock before giving up (exit 5); EVODB_LOCK_TIMEOUT_MS overrides. */
const LOCK_TIMEOUT_MS = Number(process.env.EVODB_LOCK_TIMEOUT_MS) || 120_000;

/** flock(1) holding the native lock, with its stdin and stdout piped. @typedef {import("node:child_process").ChildProcessByStdio<import("node:stream").Writable, import("node:stream").Readable, null>} FlockChild */

/**
 * `bytes` random bytes as hex, for names and tokens that must not collide, not secrets: the temp
 * file is created with O_EXCL | O_NOFOLLOW and the lock token also holds pid, host and time.
 * Math.random, not node:crypto: loading crypto cost every writer ~5 ms of CPU.
 * @param {number} bytes
 */
export function randomHex(bytes) {
  let hex = "";
  for (let i = 0; i < bytes; i++) hex += Math.floor(Math.random() * 256).toString(16).padStart(2, "0");
  return hex;
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {number} pid */
function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/**
 * Whether the lock file is stale (its owner died, or it is very old); if so, removes it. The
 * removal happens under a second O_EXCL file and only if the lock still holds what was judged
 * stale, so two waiters can never both break it and one delete the other's fresh lock.
 * @param {string} lockPath
 */
function breakIfStale(lockPath) {
  const stat = fs.lstatSync(lockPath, { throwIfNoEntry: false });
  if (!stat) return true; // released meanwhile: try again at once
  if (!stat.isFile()) throw notALockFile(lockPath, LOCK_FILE, kindOf(stat));
  const text = readSmallFile(lockPath);
  if (text === null) return true; // released or replaced meanwhile: look again
  const age = Date.now() - stat.mtimeMs;
  let owner = null;
  try {
    owner = JSON.parse(text);
  } catch {
    // An owner between creating and writing it, or a crash in that instant.
  }
  const stale =
    age > STALE_LOCK_MS ||
    (owner === null ? age > 2000 : owner.host === os.hostname() && Number.isInteger(owner.pid) && !processAlive(owner.pid));
  if (!stale) return false;
  const guard = `${lockPath}.break`;
  try {
    fs.writeFileSync(guard, String(process.pid), { flag: "wx" });
  } catch (e) {
    if (e.code !== "EEXIST") throw e;
    const guardStat = fs.lstatSync(guard, { throwIfNoEntry: false });
    if (guardStat && !guardStat.isFile()) throw notALockFile(guard, `${LOCK_FILE}.break`, kindOf(guardStat));
    try {
      if (guardStat && Date.now() - guardStat.mtimeMs > 10_000) fs.unlinkSync(guard); // its breaker died
    } catch {}
    return false;
  }
  try {
    const again = readSmallFile(lockPath);
    if (again === null) return true;
    if (again === text) fs.unlinkSync(lockPath);
    return true;
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

/**
 * A lock file that is something else (evodb's words).
 * @param {string} file
 * @param {string} name
 * @param {string} kind
 */
function notALockFile(file, name, kind) {
  return new Failure(EXIT.io, `cannot lock \`${file}\`: it is ${kind}, not a regular file; move it away (${name} must be a file)`);
}

/**
 * The native lock file opened (created when missing) without blocking or following a link, so a
 * FIFO, directory or link there is refused before flock(1) would wait on it or follow it; null
 * when it cannot be opened at all (flock(1) could not either).
 * @param {string} lockPath
 * @returns {number | null}
 */
function openNativeLock(lockPath) {
  const { O_RDONLY, O_CREAT, O_NONBLOCK, O_NOFOLLOW } = fs.constants;
  let fd;
  try {
    fd = fs.openSync(lockPath, O_RDONLY | O_CREAT | O_NONBLOCK | O_NOFOLLOW, 0o666);
  } catch {
    const kind = kindAt(lockPath);
    if (kind) throw notALockFile(lockPath, NATIVE_LOCK_FILE, kind);
    return null;
  }
  const stat = fs.fstatSync(fd);
  if (stat.isFile()) return fd;
  fs.closeSync(fd);
  throw notALockFile(lockPath, NATIVE_LOCK_FILE, kindOf(stat));
}

/**
 * Takes the native CLI's flock on `<dir>/.evodb.lock` through flock(1): `flock -x FILE cat` starts
 * `cat` once the lock is held, and `cat` echoing our line says so. The lock lives as long as that
 * `cat`, which ends when our end of its stdin closes — on release, or when this process dies in
 * any way. Resolves null where flock(1) is missing (e.g. macOS): then only db-cli.mjs processes
 * exclude each other.
 * @param {string} dir
 * @param {number} deadline Date.now() by which to give up
 * @param {typeof import("node:child_process").spawn} spawn
 * @returns {Promise<FlockChild | null>}
 */
function takeNativeLock(dir, deadline, spawn) {
  if (process.env.EVODB_NO_FLOCK) return Promise.resolve(null);
  const lockPath = path.join(dir, NATIVE_LOCK_FILE);
  let fd;
  try {
    fd = openNativeLock(lockPath);
  } catch (e) {
    return Promise.reject(e);
  }
  return new Promise((resolve, reject) => {
    /** @type {FlockChild} */
    let child;
    try {
      // flock(1) locks the file this process checked (its fd 3), not whatever the name holds now.
      const checked = fd !== null && fs.existsSync("/proc/self/fd");
      const third = /** @type {number | "ignore"} */ (checked ? fd : "ignore");
      const options = { stdio: /** @type {import("node:child_process").StdioOptions} */ (["pipe", "pipe", "ignore", third]) };
      child = /** @type {FlockChild} */ (spawn("flock", ["-x", checked ? "/proc/self/fd/3" : lockPath, "cat"], options));
    } catch {
      resolve(null);
      return;
    } finally {
      if (fd !== null) fs.closeSync(fd);
    }
    let settled = false;
    /**
     * @param {FlockChild | null} value
     * @param {Failure} [error]
     */
    const settle = (value, error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(value);
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      settle(null, new Failure(EXIT.io, `cannot lock \`${lockPath}\`: timed out after ${LOCK_TIMEOUT_MS} ms; a native evodb process holds it (check for a hung one)`));
    }, Math.max(0, deadline - Date.now()));
    child.on("error", () => settle(null)); // no flock(1) here
    child.on("exit", () => settle(null)); // flock(1) could not lock this file system: db-cli.mjs's own lock still holds
    child.stdin.on("error", () => {});
    child.stdout.once("data", () => settle(child));
    child.stdin.write("locked\n");
  });
}

/** @type {{path: string, token: string, native: FlockChild | null} | null} */
let heldLock = null;

export function releaseLock() {
  const lock = heldLock;
  if (!lock) return;
  heldLock = null;
  if (lock.native) {
    lock.native.stdin.end();
    lock.native.stdout.destroy();
    lock.native.unref();
  }
  try {
    if (readSmallFile(lock.path) === lock.token) fs.unlinkSync(lock.path);
  } catch {}
}

/** The signals that release the lock, and the exit code of each (128 + its number). @type {[NodeJS.Signals, number][]} */
const SIGNALS = [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]];
for (const [signal, code] of SIGNALS) {
  process.on(signal, () => {
    releaseLock();
    process.exit(code);
  });
}
process.on("exit", releaseLock);

/** @param {string} dir */
export async function acquireLock(dir) {
  const lockPath = path.join(dir, LOCK_FILE);
  const token = JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString(), nonce: randomHex(6) });
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  let delay = 2;
  for (;;) {
    let fd;
    try {
      fd = fs.openSync(lockPath, "wx");
    } catch (e) {
      if (e.code !== "EEXIST") {
        throw new Failure(EXIT.io, `cannot create the lock file \`${lockPath}\`: ${e.message}; check that the directory is writable`);
      }
    }
    if (fd !== undefined) {
      heldLock = { path: lockPath, token, native: null };
      try {
        fs.writeSync(fd, token);
      } finally {
        fs.closeSync(fd);
      }
      break;
    }
    if (breakIfStale(lockPath)) continue;
    if (Date.now() > deadline) {
      const text = readSmallFile(lockPath);
      const holder = text === null ? "" : ` (held by ${text})`;
      throw new Failure(
        EXIT.io,
        `cannot lock \`${lockPath}\`${holder}: timed out after ${LOCK_TIMEOUT_MS} ms; if no db-cli.mjs process is using the database, remove that file`,
      );
    }
    await sleep(delay * (0.5 + Math.random()));
    delay = Math.min(delay * 1.5, 50);
  }
  // Imported here, by writers only: node:child_process and the net module it loads cost readers ~3 ms.
  const { spawn } = await import("node:child_process");
  heldLock.native = await takeNativeLock(dir, deadline, spawn);
}
