// @ts-check
// What reaches db-cli.mjs from outside the database directory: the files named by `*File` flags
// (or standard input for `-`), the command line's raw bytes, and JSON text given in flags. The
// rules are the native `evodb` CLI's: a path that is not a regular file is refused before
// anything waits on it, code keeps its bytes, a description loses the newline an editor leaves.

import fs from "node:fs";
import { EXIT, Failure, badInput, usage } from "./args.mjs";

/** Fatal on invalid UTF-8; a byte-order mark is kept as text, as Rust's String::from_utf8 keeps it. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const LOSSY = new TextDecoder("utf-8", { ignoreBOM: true });

// --- regular files ------------------------------------------------------------------------------

/** @typedef {"a FIFO" | "a directory" | "a socket" | "a device" | "a symbolic link"} Kind what is there instead of a regular file */
/** @typedef {{fd: number, stat: fs.Stats, kind?: undefined} | {kind: Kind}} Opened a regular file, open; or its kind */

/**
 * "a FIFO", "a directory", … for a message, from an fs.Stats (an lstat's, for a link) that is not
 * a regular file.
 * @param {fs.Stats} stat
 * @returns {Kind}
 */
export function kindOf(stat) {
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isDirectory()) return "a directory";
  if (stat.isSocket()) return "a socket";
  if (stat.isSymbolicLink()) return "a symbolic link";
  return "a device";
}

/**
 * What is at `file` when it is not a regular file (never following a link), else null.
 * @param {string} file
 * @returns {Kind | null}
 */
export function kindAt(file) {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  return stat && !stat.isFile() ? kindOf(stat) : null;
}

/**
 * Opens `file` for reading without blocking — opening or reading a FIFO with no writer would
 * wait forever, and a synchronous wait keeps even SIGTERM's handler from running — and returns
 * `{fd, stat}` for a regular file or `{kind}` for anything else. Throws the open's error. With
 * `noFollow` (the database directory's own files), a symbolic link is `{kind: "a symbolic link"}`:
 * it could lead out of the directory.
 * @param {string} file
 * @param {{noFollow?: boolean}} [options]
 * @returns {Opened}
 */
export function openRegular(file, { noFollow = false } = {}) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (noFollow ? fs.constants.O_NOFOLLOW : 0));
  } catch (e) {
    if (e.code === "ELOOP" && noFollow && fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) return { kind: "a symbolic link" };
    // A UNIX socket cannot be opened at all (ENXIO); say what it is rather than "no such device".
    if (e.code === "ENXIO" && fs.statSync(file, { throwIfNoEntry: false })?.isSocket()) return { kind: "a socket" };
    throw e;
  }
  const stat = fs.fstatSync(fd);
  if (stat.isFile()) return { fd, stat };
  fs.closeSync(fd);
  return { kind: kindOf(stat) };
}

/**
 * Up to `limit` bytes of the regular file `file` as text, read without following a link or
 * blocking on a FIFO; null when it is missing or not a regular file.
 * @param {string} file
 * @param {number} [limit]
 */
export function readSmallFile(file, limit = 4096) {
  let opened;
  try {
    opened = openRegular(file, { noFollow: true });
  } catch {
    return null;
  }
  if (opened.kind) return null;
  try {
    const buffer = Buffer.alloc(limit);
    const length = fs.readSync(opened.fd, buffer, 0, limit, 0);
    return buffer.subarray(0, length).toString("utf8");
  } catch {
    return null;
  } finally {
    fs.closeSync(opened.fd);
  }
}

/**
 * The bytes of a regular file named by `flag`: exit 3 when missing, 1 when not a regular file.
 * @param {string} flag
 * @param {string} file
 */
function flagFileBytes(flag, file) {
  let opened;
  try {
    opened = openRegular(file);
  } catch (e) {
    if (e.code === "ENOENT") throw new Failure(EXIT.notFound, `${flag}: \`${file}\` does not exist; check the path`);
    throw new Failure(EXIT.io, `${flag}: cannot read \`${file}\`: ${e.message}`);
  }
  if (opened.kind) {
    throw badInput(`${flag} \`${file}\` is not a regular file (${opened.kind}); pass a file, or - for standard input`);
  }
  try {
    return fs.readFileSync(opened.fd);
  } catch (e) {
    throw new Failure(EXIT.io, `${flag}: cannot read \`${file}\`: ${e.message}`);
  } finally {
    fs.closeSync(opened.fd);
  }
}

// --- standard input -----------------------------------------------------------------------------

/** @type {Promise<Buffer> | null} */
let stdinBytes = null;

/**
 * Standard input to its end, read asynchronously so SIGTERM and SIGINT are handled while it
 * waits; a closed pipe or /dev/null ends at once. Read once: a second `-` flag gets what is left,
 * nothing, as with the native CLI.
 * @param {string} flag
 * @returns {Promise<Buffer>}
 */
function readStdin(flag) {
  if (stdinBytes) return stdinBytes.then(() => Buffer.alloc(0));
  stdinBytes = new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    process.stdin.on("data", (chunk) => chunks.push(chunk));
    process.stdin.once("end", () => resolve(Buffer.concat(chunks)));
    process.stdin.once("error", (e) => reject(new Failure(EXIT.io, `${flag}: cannot read standard input: ${e.message}`)));
  });
  return stdinBytes;
}

/**
 * The text named by a `*File` flag: `-` is standard input, anything else a regular file.
 * @param {string} flag
 * @param {string} file
 */
export async function readFlagText(flag, file) {
  const bytes = file === "-" ? await readStdin(flag) : flagFileBytes(flag, file);
  try {
    return UTF8.decode(bytes);
  } catch {
    const what = file === "-" ? "standard input" : `\`${file}\``;
    throw badInput(`${flag}: ${what} is not UTF-8 text; save it as UTF-8`);
  }
}

/**
 * A description read from a file loses the one line ending an editor leaves at its end.
 * @param {string} text
 */
export function withoutFinalNewline(text) {
  if (text.endsWith("\r\n")) return text.slice(0, -2);
  if (text.endsWith("\n")) return text.slice(0, -1);
  return text;
}

// --- the command line's bytes -------------------------------------------------------------------

/** Flags whose text can come from a file instead, for the hint. @type {Record<string, string | undefined>} */
const FILE_ALTERNATIVE = { "--targetCode": "--targetCodeFile", "--changes": "--changesFile" };

/**
 * The last `count` arguments as the kernel passed them (Linux's /proc/self/cmdline), or null
 * where that is unavailable or does not line up with `argv`.
 * @param {string[]} argv
 */
function rawArgs(argv) {
  let bytes;
  try {
    bytes = fs.readFileSync("/proc/self/cmdline");
  } catch {
    return null;
  }
  const parts = splitBytes(bytes, 0);
  const raw = parts.slice(parts.length - argv.length);
  if (raw.length !== argv.length || raw.some((b, i) => LOSSY.decode(b) !== argv[i])) return null;
  return raw;
}

/** @param {Uint8Array} bytes */
function isUtf8(bytes) {
  try {
    UTF8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Names the flag an argument belongs to (`--flag=value`, or the value after `--flag`), if any.
 * @param {string[]} argv
 * @param {number} i
 */
function flagOf(argv, i) {
  const end = argv.indexOf("--");
  if (end !== -1 && i >= end) return null; // `--` itself and what follows it are positional
  if (argv[i].startsWith("--")) return argv[i].split("=")[0];
  const before = argv[i - 1];
  return i > 1 && before.startsWith("--") && !before.includes("=") ? before : null;
}

/**
 * Refuses an argument that is not valid UTF-8 (exit 2, as clap does natively). Node decodes argv
 * lossily, so the bytes are checked where /proc shows them; elsewhere a U+FFFD stands for them.
 * @param {string[]} argv
 */
export function checkArgvUtf8(argv) {
  const raw = rawArgs(argv);
  for (let i = 0; i < argv.length; i++) {
    if (raw ? isUtf8(raw[i]) : !argv[i].includes("\uFFFD")) continue;
    const flag = flagOf(argv, i);
    if (flag) {
      const file = FILE_ALTERNATIVE[flag];
      throw usage(`${flag} is not valid UTF-8; pass the text as UTF-8${file ? ` or use ${file}` : ""}`);
    }
    throw usage(`argument ${i + 1} (\`${argv[i]}\`) is not valid UTF-8; pass it as UTF-8 (this Node CLI cannot name a non-UTF-8 path; the native evodb can)`);
  }
}

// --- JSON from flags ----------------------------------------------------------------------------

/**
 * Any string in `value` (keys included) holding a lone surrogate, which UTF-8 cannot carry.
 * @param {unknown} value
 * @returns {string | null}
 */
function loneSurrogate(value) {
  if (typeof value === "string") return /\p{Cs}/u.test(value) ? value : null;
  if (value === null || typeof value !== "object") return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = loneSurrogate(key) ?? loneSurrogate(inner);
    if (found !== null) return found;
  }
  return null;
}

/**
 * JSON.parse, but refusing what evodb's parser refuses: a lone surrogate escape such as
 * "\ud800" would otherwise reach the engine as U+FFFD, silently changed. Throws a SyntaxError.
 * @param {string} text
 * @returns {any} JSON.parse's value
 */
export function parseJson(text) {
  const value = JSON.parse(text);
  const bad = loneSurrogate(value);
  if (bad !== null) throw new SyntaxError(`lone surrogate in the string \`${JSON.stringify(bad).slice(1, -1)}\`; UTF-8 cannot hold it`);
  return value;
}

/**
 * `bytes` cut at every `separator` byte (the separators dropped; no empty piece after a final one).
 * @param {Uint8Array} bytes
 * @param {number} separator
 * @returns {Uint8Array[]}
 */
export function splitBytes(bytes, separator) {
  const pieces = [];
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(separator, start);
    if (end === -1) end = bytes.length;
    pieces.push(bytes.subarray(start, end));
    start = end + 1;
  }
  return pieces;
}
