#!/usr/bin/env node
// db-cli.mjs — the seed skill's `node db-cli.mjs <command> <dbPath> [--flag value]…`, on evodb's
// WebAssembly engine. Same commands, flags and one-line JSON on stdout as the seed's CLI and as the
// native `evodb` CLI (whose exit codes it uses), safe under parallel workers:
//
//   writers (create, init, seed, add, sample, plan) hold an exclusive lock around the whole
//   read-modify-write; database.json is replaced atomically (database.json.tmp, fsync, rename);
//   history.ndjson gets the operation's events, one whole line each, so the history replays.
//
// Needs only Node ≥ 18 and ./evodb-wasm/ beside this file (wasm/build.sh copies it there).
// `node db-cli.mjs --help` lists the commands; `node db-cli.mjs <command> --help` their flags.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";

const EXIT = { ok: 0, badInput: 1, usage: 2, notFound: 3, io: 5, internal: 70 };

const DATABASE_FILE = "database.json";
const TEMP_FILE = "database.json.tmp";
const HISTORY_FILE = "history.ndjson";
/** The lock among db-cli.mjs processes: created with O_EXCL, holds its owner's pid. */
const LOCK_FILE = "database.json.lock";
/** The native `evodb` CLI's lock (an flock); taken too, through flock(1), where it exists. */
const NATIVE_LOCK_FILE = ".evodb.lock";
/** A lock older than this is stale whatever its pid says (pids get reused); an add takes < 1 s. */
const STALE_LOCK_MS = 10 * 60 * 1000;
/** How long to wait for the lock before giving up (exit 5); EVODB_LOCK_TIMEOUT_MS overrides. */
const LOCK_TIMEOUT_MS = Number(process.env.EVODB_LOCK_TIMEOUT_MS) || 120_000;
const ROOT_PARENT_ID = "0";
const SCRIPT = "node db-cli.mjs";

class Failure extends Error {
  constructor(exit, message) {
    super(message);
    this.exit = exit;
  }
}
const usage = (message) => new Failure(EXIT.usage, message);
const badInput = (message) => new Failure(EXIT.badInput, message);

// --- the command line ---------------------------------------------------------------------------

const CANDIDATE_FLAGS = {
  codePath: "where the candidate's code lives (stored as given, never opened)",
  targetCode: "the candidate's code",
  targetCodeFile: { help: "read the candidate's code from this file (no shell quoting needed)", conflicts: "targetCode" },
  metrics: `metrics as a JSON object of finite numbers, e.g. '{"score": 0.8}'`,
  changes: "what the mutation changed",
  changesFile: { help: "read the changes description from this file", conflicts: "changes" },
};

const INIT_SCALARS = {
  numIslands: "number of islands [seed: 3] (alias --islands)",
  maxIslandSize: "programs kept per island [seed: 40] (alias --capacity)",
  migrationInterval: "island generations between migrations [seed: 10]",
  migrationRate: "share of an island that migrates, in [0, 1] [seed: 0.1]",
  migration: "share (same id on both islands, seed) | copy (new id, provenance)",
  explorationRatio: "probability of a uniform parent pick [seed: 0.3]",
  exploitationTop: "exploitation picks among this many best [seed: 3]",
  inspirationTopPool: "inspirations come from the island's best this many… [seed: 5]",
  inspirationsFromTop: "…this many drawn from that pool… [seed: 3]",
  inspirationsFromRest: "…plus this many from the rest of the island [seed: 2]",
  placement: "roundRobin (seed) | parentIsland | explicit",
  inspirationScope: "island (seed) | allIslands",
  archiveSize: "the elite archive's size [10]",
  qdOffset: "subtracted from each cell's best in the QD score [0]",
};
const STOPPING = {
  maxEvaluations: "stop after this many evaluations",
  scoreThreshold: "stop once the best fitness reaches this",
  patience: "stop after this many evaluations without a new best",
  maxRounds: "stop after this many plan batches",
};

const COMMANDS = {
  create: { about: "Create the database if missing and print its summary (seed CLI)", positionals: ["dbPath"] },
  info: { about: "Print the database summary; a missing database is empty (seed CLI)", positionals: ["dbPath"] },
  seed: {
    about: 'Add the initial program: parent "0", changes "initial implementation" (seed CLI)',
    positionals: ["dbPath"],
    flags: CANDIDATE_FLAGS,
  },
  add: {
    about: "Add a scored candidate (seed CLI)",
    positionals: ["dbPath"],
    flags: {
      ...CANDIDATE_FLAGS,
      parentId: "the parent's id (an unknown id is accepted with generation 0 and a warning)",
      id: "use this id instead of a generated one",
      island: "put the program on this island (required with --placement explicit)",
      status: "accepted (default), rejected (kept as memory) or error (needs --reason; joins no island)",
      reason: "why the candidate was rejected or failed",
      operator: "exploitation, exploration, crossover or migration",
      planItem: "the plan item this candidate answers; it lands on that item's island",
    },
  },
  sample: { about: "Sample a parent and inspirations for the next mutation (seed CLI)", positionals: ["dbPath"] },
  best: { about: "Print the best program, or null (seed CLI)", positionals: ["dbPath"] },
  init: {
    about: "Create a database with a config and a seed; refuses an existing one",
    positionals: ["dbPath"],
    flags: {
      seed: "seed of the database's PRNG, 0 to 2^53-1 [0]",
      config: "start from a config JSON file; flags override its fields",
      ...INIT_SCALARS,
      islands: { alias: "numIslands" },
      capacity: { alias: "maxIslandSize" },
      fitness: "mean (seed) | primary:<metric> | weighted:<metric>=<weight>,…",
      direction: { help: "a metric to minimise or maximise, e.g. --direction latency=min (repeatable)", repeat: true },
      features: "MAP-Elites feature dimensions as JSON",
      operators: "seed 004's four operators: default, or weights as JSON",
      dedupe: { help: "answer repeated code from the fitness cache", bool: true },
      ...STOPPING,
    },
  },
  stats: { about: "Population statistics: per island size/best/mean, improvement over the baseline", positionals: ["dbPath"] },
  validate: { about: "Check that the database holds together; exit 1 with the problems when not", positionals: ["dbPath"] },
  export: {
    about: "Print the whole database (json), its family tree (mermaid, tree) or seed 004's markdown",
    positionals: ["dbPath"],
    flags: { format: "json (default) | mermaid | tree | markdown" },
  },
  lineage: { about: "Ancestors and descendants of a live program", positionals: ["dbPath", "id"] },
  history: {
    about: "Print the operation history (history.ndjson), one JSON object per line",
    positionals: ["dbPath"],
    flags: { tail: "only the last N operations" },
  },
  plan: {
    about: "Plan a batch of work items for parallel workers: operator, parents, island, name",
    positionals: ["dbPath", "n"],
    flags: {
      frozen: { help: "islands that get no items, e.g. --frozen 1,2", repeat: true },
      boosted: { help: "islands that get twice the share, e.g. --boosted 0", repeat: true },
    },
  },
  "should-stop": { about: "Whether the budget or a stopping rule says the run is over", positionals: ["dbPath"] },
};

/** Accepted by every command for drop-in compatibility with `evodb`; they bound its sandbox. */
const GLOBAL_FLAGS = {
  timeBudgetMs: "accepted for compatibility with evodb (no sandbox here)",
  memoryLimitMb: "accepted for compatibility with evodb (no sandbox here)",
  noCache: { help: "accepted for compatibility with evodb", bool: true },
  help: { help: "print this help", bool: true },
};

const EXIT_CODES = `Exit codes:
  0  success
  1  bad input: invalid metrics, code or config, a corrupt database file, an id in use
  2  usage: unknown command or flag, missing or conflicting flags
  3  not found: a file named by a flag, a program id
  5  IO: the database directory cannot be created, read, written or locked
 70  internal: the WebAssembly engine failed or is missing`;

function spec(flag) {
  return typeof flag === "string" ? { help: flag } : flag;
}

function topHelp() {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.about}`);
  return `evodb's population database for LLM-driven evolutionary code search (WebAssembly, Node).
A drop-in for the seed skill's db-cli.mjs and for the native evodb CLI: every command prints one
JSON value on stdout; errors go to stderr.

Usage: ${SCRIPT} <command> <dbPath> [--flag value]…   (--flag=value works too)

Commands:
${lines.join("\n")}

${EXIT_CODES}
`;
}

function commandHelp(name) {
  const command = COMMANDS[name];
  const flags = Object.entries({ ...(command.flags ?? {}), ...GLOBAL_FLAGS })
    .map(([flag, s]) => [flag, spec(s)])
    .filter(([, s]) => !s.alias)
    .map(([flag, s]) => `  --${flag}${s.bool ? "" : " <value>"}`.padEnd(32) + s.help);
  const positionals = command.positionals.map((p) => `<${p}>`).join(" ");
  return `${command.about}\n\nUsage: ${SCRIPT} ${name} ${positionals} [--flag value]…\n\nFlags:\n${flags.join("\n")}\n\n${EXIT_CODES}\n`;
}

/** `<command> <positionals…> [--flag value | --flag=value]…` → {command, positionals, flags}. */
function parseArgs(argv) {
  const [name, ...rest] = argv;
  if (name === undefined) throw usage(`a command is required\n\n${topHelp()}`);
  if (name === "--help" || name === "-h" || name === "help") return { help: topHelp() };
  const command = COMMANDS[name];
  if (!command) {
    throw usage(`unrecognized command '${name}'; the commands are ${Object.keys(COMMANDS).join(", ")} (${SCRIPT} --help)`);
  }
  const known = { ...(command.flags ?? {}), ...GLOBAL_FLAGS };
  const flags = {};
  const positionals = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "-h") return { help: commandHelp(name) };
    if (!arg.startsWith("--") || arg === "--") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    let key = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    let s = known[key] === undefined ? undefined : spec(known[key]);
    if (s === undefined) {
      throw usage(`unexpected argument '--${key}' found; \`${SCRIPT} ${name} --help\` lists the flags of ${name}`);
    }
    if (s.alias) {
      key = s.alias;
      s = spec(known[key]);
    }
    let value;
    if (s.bool) {
      if (eq !== -1) throw usage(`--${key} takes no value`);
      value = true;
    } else if (eq !== -1) {
      value = arg.slice(eq + 1);
    } else if (i + 1 < rest.length) {
      value = rest[++i];
    } else {
      throw usage(`a value is required for '--${key}' but none was supplied; see \`${SCRIPT} ${name} --help\``);
    }
    if (s.repeat) {
      (flags[key] ??= []).push(value);
    } else if (key in flags && !s.bool) {
      throw usage(`the argument '--${key}' cannot be used multiple times`);
    } else {
      flags[key] = value;
    }
  }
  if (flags.help) return { help: commandHelp(name) };
  for (const [key, s] of Object.entries(known)) {
    const conflicts = spec(s).conflicts;
    if (conflicts && key in flags && conflicts in flags) {
      throw usage(`the argument '--${conflicts}' cannot be used with '--${key}'; pass one of them`);
    }
  }
  const wanted = command.positionals;
  if (positionals.length < wanted.length) {
    const missing = wanted.slice(positionals.length).map((p) => `<${p}>`).join(" ");
    throw usage(`the following required arguments were not provided: ${missing}\n\nUsage: ${SCRIPT} ${name} ${wanted.map((p) => `<${p}>`).join(" ")}`);
  }
  if (positionals.length > wanted.length) {
    throw usage(`unexpected argument '${positionals[wanted.length]}' found; \`${SCRIPT} ${name} --help\` shows the usage`);
  }
  for (const flag of ["timeBudgetMs", "memoryLimitMb"]) {
    if (flag in flags) nonNegativeInteger(`--${flag}`, flags[flag]);
  }
  return { name, positionals, flags };
}

function nonNegativeInteger(what, text) {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw usage(`invalid value '${text}' for '${what}': expected a non-negative integer`);
  }
  return Number(text);
}

function islandList(flag, values) {
  return (values ?? []).flatMap((v) => v.split(",")).map((v) => nonNegativeInteger(flag, v.trim()));
}

// --- files --------------------------------------------------------------------------------------

/** A text file named by a flag: exit 3 when missing, 1 when not UTF-8. */
function readFlagFile(flag, file) {
  let bytes;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    if (e.code === "ENOENT") throw new Failure(EXIT.notFound, `${flag}: \`${file}\` does not exist; check the path`);
    throw new Failure(EXIT.io, `${flag}: cannot read \`${file}\`: ${e.message}`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badInput(`${flag}: \`${file}\` is not UTF-8 text; save it as UTF-8`);
  }
}

/** database.json's text, or null when the directory or the file does not exist. */
function readDatabaseText(dir) {
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

function checkDirectory(dir) {
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

// --- the lock -----------------------------------------------------------------------------------

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
 */
function breakIfStale(lockPath) {
  let text, stat;
  try {
    stat = fs.statSync(lockPath);
    text = fs.readFileSync(lockPath, "utf8");
  } catch (e) {
    if (e.code === "ENOENT") return true; // released meanwhile: try again at once
    throw e;
  }
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
    try {
      if (Date.now() - fs.statSync(guard).mtimeMs > 10_000) fs.unlinkSync(guard); // its breaker died
    } catch {}
    return false;
  }
  try {
    let again;
    try {
      again = fs.readFileSync(lockPath, "utf8");
    } catch (e) {
      if (e.code === "ENOENT") return true;
      throw e;
    }
    if (again === text) fs.unlinkSync(lockPath);
    return true;
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

/**
 * Takes the native CLI's flock on `<dir>/.evodb.lock` through flock(1): `flock -x FILE cat` starts
 * `cat` once the lock is held, and `cat` echoing our line says so. The lock lives as long as that
 * `cat`, which ends when our end of its stdin closes — on release, or when this process dies in
 * any way. Resolves null where flock(1) is missing (e.g. macOS): then only db-cli.mjs processes
 * exclude each other.
 */
function takeNativeLock(dir, deadline) {
  if (process.env.EVODB_NO_FLOCK) return Promise.resolve(null);
  const lockPath = path.join(dir, NATIVE_LOCK_FILE);
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn("flock", ["-x", lockPath, "cat"], { stdio: ["pipe", "pipe", "ignore"] });
    } catch {
      resolve(null);
      return;
    }
    let settled = false;
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

let heldLock = null;

function releaseLock() {
  const lock = heldLock;
  if (!lock) return;
  heldLock = null;
  if (lock.native) {
    lock.native.stdin.end();
    lock.native.stdout.destroy();
    lock.native.unref();
  }
  try {
    if (fs.readFileSync(lock.path, "utf8") === lock.token) fs.unlinkSync(lock.path);
  } catch {}
}

for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]]) {
  process.on(signal, () => {
    releaseLock();
    process.exit(code);
  });
}
process.on("exit", releaseLock);

async function acquireLock(dir) {
  const lockPath = path.join(dir, LOCK_FILE);
  const token = JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString(), nonce: randomBytes(6).toString("hex") });
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
      let holder = "";
      try {
        holder = ` (held by ${fs.readFileSync(lockPath, "utf8")})`;
      } catch {}
      throw new Failure(
        EXIT.io,
        `cannot lock \`${lockPath}\`${holder}: timed out after ${LOCK_TIMEOUT_MS} ms; if no db-cli.mjs process is using the database, remove that file`,
      );
    }
    await sleep(delay * (0.5 + Math.random()));
    delay = Math.min(delay * 1.5, 50);
  }
  heldLock.native = await takeNativeLock(dir, deadline);
}

// --- the engine ---------------------------------------------------------------------------------

let Database;

async function loadEngine() {
  try {
    ({ Database } = await import("./evodb-wasm/evodb.js"));
  } catch (e) {
    const where = new URL("./evodb-wasm/", import.meta.url).pathname;
    throw new Failure(
      EXIT.internal,
      `cannot load evodb's WebAssembly engine from \`${where}\` (${e.message}); run wasm/build.sh, which copies wasm/pkg/node there`,
    );
  }
}

/** An engine error (EvodbError with a `code`) → bad input (exit 1); anything else is ours (70). */
function engineFailure(e) {
  if (e instanceof Failure) return e;
  if (e && e.name === "EvodbError") return badInput(e.message);
  return new Failure(EXIT.internal, `the database engine failed (${e?.stack ?? e}); this is a bug in evodb, please report it`);
}

function engine(f) {
  try {
    return f();
  } catch (e) {
    throw engineFailure(e);
  }
}

/** A directory without database.json holds a fresh database with the seed's defaults (PRNG seed 0, as evodb). */
function fresh() {
  return new Database({}, 0);
}

function load(text) {
  return engine(() => Database.fromJson(text));
}

/** Readers take no lock: writers replace database.json atomically, so a reader sees the old or the new file. */
function read(dir) {
  const text = readDatabaseText(dir);
  return text === null ? fresh() : load(text);
}

/**
 * A writer's read-modify-write under the lock. `op(db, isNew)` returns `{value, save, replace?}`
 * (`replace`: a database to store instead of `db`); when it throws nothing is written. A missing directory is only created once a dry run on a fresh database
 * succeeded, so bad input never leaves a directory behind.
 */
async function write(dir, op) {
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

// --- the commands -------------------------------------------------------------------------------

function missingFlag(name) {
  return usage(`Missing required flag: --${name}`); // the seed's message, word for word
}

/** --metrics text → an object; JSON.parse turns 1e999 into Infinity, which is refused here. */
function parseMetrics(text) {
  const hint = `pass an object of finite numbers, e.g. --metrics '{"score": 0.8}'`;
  let metrics;
  try {
    metrics = JSON.parse(text);
  } catch (e) {
    throw badInput(`--metrics is not valid JSON (${e.message}); ${hint}`);
  }
  if (metrics && typeof metrics === "object" && !Array.isArray(metrics)) {
    for (const [name, value] of Object.entries(metrics)) {
      if (typeof value === "number" && !Number.isFinite(value)) {
        throw badInput(`--metrics is not valid JSON (number out of range: \`${name}\`); ${hint}`);
      }
    }
  }
  return metrics;
}

/** The candidate's flags as request fields, checked in the seed's order. */
function candidateFields(flags, required) {
  for (const [name, present] of required) if (!present(flags)) throw missingFlag(name);
  const fields = { codePath: flags.codePath };
  fields.targetCode = flags.targetCode ?? readFlagFile("--targetCodeFile", flags.targetCodeFile);
  fields.metrics = parseMetrics(flags.metrics);
  const changes = flags.changes ?? (flags.changesFile === undefined ? undefined : readFlagFile("--changesFile", flags.changesFile));
  if (changes !== undefined) fields.changes = changes;
  return fields;
}

const has = (...names) => (flags) => names.some((n) => flags[n] !== undefined);

/** Checks a request's own validity (metrics, code, status…) before the database is touched, as evodb does. */
function precheck(request) {
  const { island, planItem, ...intrinsic } = request;
  const scratch = new Database({}, 0);
  try {
    engine(() => scratch.add(intrinsic, 0));
  } finally {
    scratch.free();
  }
}

function addOutcome(outcome) {
  const warnings = outcome.warnings ?? [];
  delete outcome.warnings; // the seed prints no warnings in its JSON; they go to stderr
  return { stdout: JSON.stringify(outcome), warnings };
}

async function seedCommand(dir, flags) {
  const fields = candidateFields(flags, [
    ["codePath", has("codePath")],
    ["targetCode", has("targetCode", "targetCodeFile")],
    ["metrics", has("metrics")],
  ]);
  const request = { ...fields, parentId: ROOT_PARENT_ID, changes: fields.changes ?? "initial implementation" };
  precheck(request);
  const outcome = await write(dir, (db) => ({ value: db.add(request, Date.now() / 1000), save: true }));
  const { warnings } = addOutcome(outcome);
  return { stdout: JSON.stringify({ id: outcome.id, metrics: outcome.metrics }), warnings };
}

async function addCommand(dir, flags) {
  const fields = candidateFields(flags, [
    ["codePath", has("codePath")],
    ["targetCode", has("targetCode", "targetCodeFile")],
    ["parentId", has("parentId")],
    ["metrics", has("metrics")],
    ["changes", has("changes", "changesFile")],
  ]);
  const request = { ...fields, parentId: flags.parentId };
  if (flags.id !== undefined) request.id = flags.id;
  if (flags.island !== undefined) request.island = nonNegativeInteger("--island", flags.island);
  for (const key of ["status", "reason", "operator", "planItem"]) {
    if (flags[key] !== undefined) request[key] = flags[key];
  }
  precheck(request);
  const outcome = await write(dir, (db) => ({ value: db.add(request, Date.now() / 1000), save: true }));
  return addOutcome(outcome);
}

function scalar(text) {
  try {
    const value = JSON.parse(text);
    if (typeof value === "number" && Number.isFinite(value)) return value;
  } catch {}
  return text;
}

function jsonFlag(flag, text) {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badInput(`${flag} is not valid JSON (${e.message}); see \`${SCRIPT} init --help\``);
  }
}

/** `mean` | `primary:<metric>` | `weighted:<metric>=<weight>,…` → the engine's `fitness` object. */
function fitnessRule(rule) {
  const bad = () => usage(`--fitness \`${rule}\`: expected mean, primary:<metric> or weighted:<metric>=<weight>,…`);
  if (rule === "mean") return { kind: "mean" };
  const colon = rule.indexOf(":");
  if (colon === -1) throw bad();
  const [kind, rest] = [rule.slice(0, colon), rule.slice(colon + 1)];
  if (kind === "primary") return { kind: "primary", metric: rest };
  if (kind !== "weighted") throw bad();
  const weights = {};
  for (const pair of rest.split(",")) {
    const eq = pair.indexOf("=");
    if (eq === -1) throw bad();
    weights[pair.slice(0, eq)] = scalar(pair.slice(eq + 1));
  }
  return { kind: "weighted", weights };
}

/** init's flags → the config object; every range and type check stays in the engine. */
function initConfig(flags) {
  let config = {};
  if (flags.config !== undefined) {
    const text = readFlagFile("--config", flags.config);
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw badInput(`--config: \`${flags.config}\` is not valid JSON (${e.message})`);
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw badInput(`--config: \`${flags.config}\` must hold a JSON object`);
    }
    config = parsed;
  }
  for (const key of Object.keys(INIT_SCALARS)) if (flags[key] !== undefined) config[key] = scalar(flags[key]);
  if (flags.fitness !== undefined) config.fitness = fitnessRule(flags.fitness);
  if (flags.direction) {
    const directions = {};
    for (const pair of flags.direction) {
      const eq = pair.indexOf("=");
      if (eq === -1) throw usage(`--direction \`${pair}\`: expected <metric>=min or <metric>=max`);
      directions[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    config.directions = directions;
  }
  if (flags.features !== undefined) config.features = jsonFlag("--features", flags.features);
  if (flags.operators !== undefined) config.operators = flags.operators === "default" ? {} : jsonFlag("--operators", flags.operators);
  if (flags.dedupe) config.dedupe = true;
  const stopping = Object.keys(STOPPING).filter((key) => flags[key] !== undefined);
  if (stopping.length) {
    config.stopping ??= {};
    if (config.stopping && typeof config.stopping === "object") {
      for (const key of stopping) config.stopping[key] = scalar(flags[key]);
    }
  }
  return config;
}

async function initCommand(dir, flags) {
  const config = initConfig(flags);
  let seed = 0;
  if (flags.seed !== undefined) {
    if (!/^\d+$/.test(flags.seed)) throw usage(`invalid value '${flags.seed}' for '--seed': expected a non-negative integer`);
    if (BigInt(flags.seed) > 2n ** 53n - 1n) {
      throw badInput(`invalid config: \`seed\` is ${flags.seed}; pass an integer from 0 to 2^53-1 (JavaScript keeps those exact)`);
    }
    seed = Number(flags.seed);
  }
  engine(() => new Database(config, seed)).free(); // a bad config or seed touches nothing
  const info = await write(dir, (current, isNew) => {
    if (!isNew) {
      throw badInput(`\`${path.join(dir, DATABASE_FILE)}\` already holds a database; use it as it is, or remove it to start over`);
    }
    const db = new Database(config, seed);
    db.recordEvents(true); // its `created` event carries this config and seed
    return { value: db.info(), save: true, replace: db };
  });
  return JSON.stringify(info);
}

async function run({ name, positionals, flags }) {
  const [dir] = positionals;
  switch (name) {
    case "create":
      return JSON.stringify(await write(dir, (db, isNew) => ({ value: db.info(), save: isNew })));
    case "info":
      return JSON.stringify(engine(() => read(dir).info()));
    case "seed":
      return seedCommand(dir, flags);
    case "add":
      return addCommand(dir, flags);
    case "sample":
      return JSON.stringify(await write(dir, (db) => ({ value: db.sample(), save: true })));
    case "best":
      return JSON.stringify(engine(() => read(dir).best()));
    case "init":
      return initCommand(dir, flags);
    case "stats":
      return JSON.stringify(engine(() => read(dir).stats()));
    case "validate":
      return validateCommand(dir);
    case "export": {
      const format = flags.format ?? "json";
      const exporters = {
        json: (db) => db.toJson(),
        mermaid: (db) => db.lineageMermaid(),
        tree: (db) => db.lineageTree(),
        markdown: (db) => db.populationMarkdown(),
      };
      if (!exporters[format]) {
        throw usage(`invalid value '${format}' for '--format <FORMAT>' [possible values: json, mermaid, tree, markdown]`);
      }
      return engine(() => exporters[format](read(dir))).trimEnd();
    }
    case "lineage": {
      const id = positionals[1];
      const lineage = engine(() => read(dir).lineage(id));
      if (lineage === null) {
        throw new Failure(EXIT.notFound, `no live program has id \`${id}\`; \`${SCRIPT} best\` or \`${SCRIPT} export\` list the ids`);
      }
      return JSON.stringify(lineage);
    }
    case "history": {
      checkDirectory(dir);
      let text = "";
      try {
        text = readFlagFile("history", path.join(dir, HISTORY_FILE));
      } catch (e) {
        if (e.exit !== EXIT.notFound) throw e;
      }
      const lines = text.split("\n").filter((line) => line !== "");
      const tail = flags.tail === undefined ? lines.length : nonNegativeInteger("--tail", flags.tail);
      return lines.slice(Math.max(0, lines.length - tail)).join("\n");
    }
    case "plan": {
      const n = nonNegativeInteger("<n>", positionals[1]);
      if (n > 0xffffffff) throw usage(`invalid value '${positionals[1]}' for '<n>': too large`);
      const frozen = islandList("--frozen", flags.frozen);
      const boosted = islandList("--boosted", flags.boosted);
      return JSON.stringify(await write(dir, (db) => ({ value: db.plan(n, frozen, boosted), save: true })));
    }
    case "should-stop":
      return JSON.stringify(engine(() => read(dir).shouldStop()));
  }
  throw new Failure(EXIT.internal, `command ${name} has no implementation`);
}

/** Every broken invariant of the stored file; invalid → the problems on stdout, the first on stderr, exit 1. */
function validateCommand(dir) {
  const text = readDatabaseText(dir);
  const problems = text === null ? [] : Database.validate(text);
  if (problems.length) {
    process.stdout.write(JSON.stringify({ valid: false, problems }) + "\n");
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more on stdout)` : "";
    throw badInput(`${problems[0]}${more}`);
  }
  const info = engine(() => (text === null ? fresh() : load(text)).info());
  return JSON.stringify({ valid: true, programCount: info.programCount, lastIteration: info.lastIteration });
}

// --- main ---------------------------------------------------------------------------------------

async function main(argv) {
  const parsed = parseArgs(argv);
  if (parsed.help) {
    process.stdout.write(parsed.help);
    return;
  }
  await loadEngine();
  let printed = await run(parsed);
  if (typeof printed === "string") printed = { stdout: printed, warnings: [] };
  for (const warning of printed.warnings) process.stderr.write(`warning: ${warning}\n`);
  if (printed.stdout !== "") process.stdout.write(printed.stdout + "\n");
}

process.stdout.on("error", () => {}); // a closed pipe (`… history db | head`) is not worth reporting

main(process.argv.slice(2)).then(
  () => {
    process.exitCode = EXIT.ok;
  },
  (e) => {
    const failure = engineFailure(e);
    process.stderr.write(`${failure.message}\n`);
    process.exitCode = failure.exit;
  },
);
