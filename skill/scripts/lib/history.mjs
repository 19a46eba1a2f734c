// @ts-check
// history.ndjson, the event log, guarded as the native CLI guards it: a writer killed mid-append
// leaves a torn last line, which the next writer removes (under the lock, before it appends) so
// every acknowledged event stays its own valid line; `validate` reports torn or non-JSON lines.
// Writers only ever append whole lines. The wording is evodb's, word for word.

import fs from "node:fs";
import path from "node:path";

import { splitBytes } from "./input.mjs";

export const HISTORY_FILE = "history.ndjson";

/** How far back a torn tail is looked for at a time. */
const CHUNK = 64 * 1024;
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The offset just after the file's last newline (0 when it has none).
 * @param {number} fd
 * @param {number} size the file's size
 */
function lastNewlineEnd(fd, size) {
  const buffer = Buffer.alloc(CHUNK);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - CHUNK);
    const length = fs.readSync(fd, buffer, 0, end - start, start);
    const at = buffer.subarray(0, length).lastIndexOf(0x0a);
    if (at !== -1) return start + at + 1;
    end = start;
  }
  return 0;
}

/**
 * Removes a torn last line (the bytes after the last newline) and returns what to warn; null when
 * the history is missing, not a regular file (left to the writer, which refuses it), empty, or
 * ends in a newline. The torn line was never acknowledged: its writer died before exiting.
 * @param {string} dir
 * @returns {string | null}
 */
export function repairTornTail(dir) {
  const file = path.join(dir, HISTORY_FILE);
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile() || stat.size === 0) return null;
  const fd = fs.openSync(file, "r+");
  try {
    const size = fs.fstatSync(fd).size;
    const keep = lastNewlineEnd(fd, size);
    if (keep === size) return null;
    fs.ftruncateSync(fd, keep);
    fs.fsyncSync(fd);
    return `${HISTORY_FILE} ended in a torn line (${size - keep} bytes, from an interrupted write); removed it before appending`;
  } finally {
    fs.closeSync(fd);
  }
}

/** @param {Uint8Array} bytes */
function isJsonLine(bytes) {
  try {
    JSON.parse(UTF8.decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/**
 * What `validate` adds about the history: each line that is torn or not JSON.
 * @param {string} dir
 * @returns {string[]}
 */
export function historyProblems(dir) {
  const file = path.join(dir, HISTORY_FILE);
  if (!fs.lstatSync(file, { throwIfNoEntry: false })?.isFile()) return [];
  const bytes = fs.readFileSync(file);
  const tornTail = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a;
  const lines = splitBytes(bytes, 0x0a);
  /** @type {string[]} */
  const problems = [];
  lines.forEach((line, i) => {
    if (isJsonLine(line)) return;
    const fix = tornTail && i + 1 === lines.length ? "the next write removes a torn last line" : "remove the line, or restore the file from a backup";
    problems.push(`${HISTORY_FILE} line ${i + 1} is torn or not JSON (an interrupted write?); ${fix}`);
  });
  return problems;
}
