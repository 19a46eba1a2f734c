// @ts-check
// The native CLI's sandbox limits, kept as far as Node can keep them. evodb runs each operation
// under a time budget (epoch interruption) and a memory cap (a wasmtime resource limiter); Node
// cannot interrupt synchronous WebAssembly or cap its memory, so here:
//
//   --memoryLimitMb: refused up front (exit 4) when loading database.json would need more than
//     the cap — the engine's own memory plus four times the file (the JS string, the bytes handed
//     to the engine, its parse and its working copy);
//   --timeBudgetMs: checked after the file is loaded and after the operation (exit 4), and for a
//     writer before anything is saved, so an operation over budget leaves the files unchanged.
//
// Same defaults and messages as evodb.

import { EXIT, Failure } from "./args.mjs";

const MIB = 1024 * 1024;
/** How many times database.json's size the engine needs while loading it. */
const LOAD_FACTOR = 4;

/** @type {{timeBudgetMs: number, memoryLimitMb: number, engineBytes: number, started: number | null}} */
const limits = { timeBudgetMs: 10_000, memoryLimitMb: 1024, engineBytes: 0, started: null };

/**
 * The flags' values, where given (parseArgs has checked they are integers).
 * @param {{timeBudgetMs?: string, memoryLimitMb?: string}} flags
 */
export function setLimits(flags) {
  if (flags.timeBudgetMs !== undefined) limits.timeBudgetMs = Number(flags.timeBudgetMs);
  if (flags.memoryLimitMb !== undefined) limits.memoryLimitMb = Number(flags.memoryLimitMb);
}

/** The engine's linear memory when loaded: what even an empty database needs (~1.1 MiB). */
/** @param {number} bytes */
export function setEngineBytes(bytes) {
  limits.engineBytes = bytes;
}

/** Milliseconds on a monotonic clock (process.hrtime: the global `performance` loads perf_hooks, ~1.5 ms). */
const now = () => Number(process.hrtime.bigint()) / 1e6;

export function startClock() {
  limits.started = now();
}

/** Exit 4 once the operation has used its time budget (0 ms: always). */
export function checkTime() {
  if (limits.started === null || now() - limits.started < limits.timeBudgetMs) return;
  throw new Failure(
    EXIT.limit,
    `database operation exceeded its time budget (${limits.timeBudgetMs} ms); a very large database may need more: pass --timeBudgetMs`,
  );
}

/** @param {number} bytes */
function size(bytes) {
  if (bytes < 1024) return `${bytes} bytes`;
  return bytes < MIB ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / MIB).toFixed(1)} MiB`;
}

/**
 * Exit 4 when loading a database.json of `fileBytes` (0: none) would exceed the memory cap.
 * @param {number} fileBytes
 */
export function checkMemory(fileBytes) {
  const needed = limits.engineBytes + LOAD_FACTOR * fileBytes;
  if (needed <= limits.memoryLimitMb * MIB) return;
  const file = fileBytes > 0 ? `database.json is ${size(fileBytes)}, ` : "";
  throw new Failure(
    EXIT.limit,
    `database operation exceeded its memory cap (${limits.memoryLimitMb} MiB): ${file}loading it needs about ${size(needed)}; a very large database may need more: pass --memoryLimitMb`,
  );
}
