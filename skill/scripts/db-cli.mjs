#!/usr/bin/env node
// @ts-check
// db-cli.mjs — the seed skill's `node db-cli.mjs <command> <dbPath> [--flag value]…`, on evodb's
// WebAssembly engine. Same commands, flags and one-line JSON on stdout as the seed's CLI and as the
// native `evodb` CLI (whose exit codes it uses), safe under parallel workers:
//
//   writers (create, init, seed, add, sample, plan, heartbeat, note, remeasure) hold an exclusive
//   lock around the whole read-modify-write; database.json is replaced atomically (a new temp file,
//   fsync, rename); history.ndjson gets the operation's events, one whole line each, so the history
//   replays (an append that fails puts database.json back: a failed write stores nothing).
//
// Needs only Node ≥ 18 and ./evodb-wasm/ beside this file (committed with the skill).
// `node db-cli.mjs --help` lists the commands; `node db-cli.mjs <command> --help` their flags.
//
// This file holds main and the commands; lib/ the rest: args.mjs (the command line, exit codes),
// input.mjs (*File flags, standard input, argv's bytes, JSON from flags), limits.mjs (the time
// budget and memory cap), lock.mjs (the writers' lock), history.mjs (history.ndjson's torn tail),
// store.mjs (the files and the WebAssembly engine).

import fs from "node:fs";
import path from "node:path";
import {
  EXIT,
  Failure,
  INIT_CONFIG,
  SCRIPT,
  U32_MAX,
  badInput,
  islandList,
  nonNegativeInteger,
  parseArgs,
} from "./lib/args.mjs";
import { historyProblems } from "./lib/history.mjs";
import { checkArgvUtf8, openRegular, parseJson, readFlagText, withoutFinalNewline } from "./lib/input.mjs";
import { checkMemory, checkTime, setLimits, startClock } from "./lib/limits.mjs";
import {
  DATABASE_FILE,
  Database,
  HISTORY_FILE,
  checkDirectory,
  checkFiles,
  addRequestFromFlags,
  checkAddFlags,
  checkSeed,
  configFromFlags,
  embeddingFromFlag,
  engine,
  engineFailure,
  hasDatabase,
  isDirectory,
  load,
  loadEngine,
  read,
  readDatabaseText,
  write,
} from "./lib/store.mjs";

/** @import { AddOutcome, AddRequest, ConfigFlags, Database as Db, NoteKind, NoteRequest, RemeasureRequest } from "./evodb-wasm/evodb.js" */
/**
 * The flags parseArgs returns (a flag's text; a repeatable flag's texts; a switch, true). Untyped
 * until lib/args.mjs, being rewritten, declares them.
 * @typedef {Record<string, any>} Flags
 */
/** A parsed command line. @typedef {{name: string, positionals: string[], flags: Flags}} Command */
/** A command's stdout and its warnings for stderr. @typedef {{stdout: string, warnings: string[]}} Printed */

// --- the commands -------------------------------------------------------------------------------

/**
 * The add request `seed`'s or `add`'s flags give, by the engine's rule (`addRequestFromFlags`,
 * the one evodb calls): a missing flag is refused before any file is read, in the seed's order;
 * then the files are read (code keeps its bytes), and the request is built and checked.
 * @param {"seed" | "add"} command
 * @param {Flags} flags
 * @returns {Promise<AddRequest>}
 */
async function addRequest(command, flags) {
  const given = ["codePath", "targetCode", "targetCodeFile", "parentId", "metrics", "changes", "changesFile"];
  engine(() => checkAddFlags(command, given.filter((name) => flags[name] !== undefined)));
  /** @type {import("./evodb-wasm/evodb.js").AddFlags & Record<string, unknown>} */
  const addFlags = { codePath: flags.codePath, metrics: flags.metrics, changesFromFile: false };
  if (flags.instanceScores !== undefined) addFlags.instanceScores = flags.instanceScores;
  addFlags.targetCode = flags.targetCode ?? (await readFlagText("--targetCodeFile", flags.targetCodeFile));
  if (flags.changes !== undefined) addFlags.changes = flags.changes;
  else if (flags.changesFile !== undefined) {
    addFlags.changes = await readFlagText("--changesFile", flags.changesFile);
    addFlags.changesFromFile = true;
  }
  if (command === "add") {
    if (flags.island !== undefined) addFlags.island = nonNegativeInteger("--island", flags.island, U32_MAX);
    for (const key of ["parentId", "id", "status", "reason", "operator", "planItem", "token"]) {
      if (flags[key] !== undefined) addFlags[key] = flags[key];
    }
    if (flags.decide) addFlags.decide = true;
    if (flags.model !== undefined) addFlags.model = flags.model;
    for (const key of ["tokensIn", "tokensOut"]) {
      if (flags[key] !== undefined) addFlags[key] = nonNegativeInteger(`--${key}`, flags[key], Number.MAX_SAFE_INTEGER);
    }
    for (const key of ["costUsd", "evalSeconds"]) {
      if (flags[key] !== undefined) addFlags[key] = Number(flags[key]); // parseArgs checked it (f64)
    }
  }
  if (flags.targetId !== undefined) addFlags.targetId = flags.targetId;
  if (flags.embedding !== undefined) addFlags.embedding = flags.embedding;
  return engine(() => addRequestFromFlags(command, addFlags));
}

/**
 * @param {AddOutcome} outcome
 * @returns {Printed}
 */
function addOutcome(outcome) {
  const warnings = outcome.warnings ?? [];
  delete outcome.warnings; // the seed prints no warnings in its JSON; they go to stderr
  return { stdout: JSON.stringify(outcome), warnings };
}

/**
 * @param {string} dir
 * @param {Flags} flags
 * @returns {Promise<Printed>}
 */
async function seedCommand(dir, flags) {
  const request = await addRequest("seed", flags);
  const written = await write(dir, (db) => ({ value: db.add(request, Date.now() / 1000), save: true }), { announce: true });
  const outcome = written.value;
  const { warnings } = addOutcome(outcome);
  return { stdout: JSON.stringify({ id: outcome.id, metrics: outcome.metrics }), warnings: [...written.warnings, ...warnings] };
}

/**
 * @param {string} dir
 * @param {Flags} flags
 * @returns {Promise<Printed>}
 */
async function addCommand(dir, flags) {
  const request = await addRequest("add", flags);
  const written = await write(dir, (db) => ({ value: db.add(request, Date.now() / 1000), save: true }), { announce: true });
  const { stdout, warnings } = addOutcome(written.value);
  return { stdout, warnings: [...written.warnings, ...warnings] };
}

/**
 * `note`: a lesson, failure or idea kept in the database for later samples and plan items.
 * @param {string} dir
 * @param {Flags} flags
 * @returns {Promise<Printed>}
 */
async function noteCommand(dir, flags) {
  let text = flags.text;
  if (text === undefined && flags.textFile !== undefined) text = withoutFinalNewline(await readFlagText("--textFile", flags.textFile));
  if (text === undefined) throw new Failure(EXIT.usage, "missing --text (or --textFile): what should the note say?");
  /** @type {NoteRequest} */
  const request = { kind: /** @type {NoteKind} */ (flags.kind), text };
  if (flags.target !== undefined) request.target = flags.target;
  if (flags.programId !== undefined) request.programId = flags.programId;
  const scratch = new Database({}, 0); // a bad note touches nothing
  try {
    engine(() => scratch.note(request));
  } finally {
    scratch.free();
  }
  return written(dir, (db) => ({ value: db.note(request), save: true }), true);
}

/**
 * --metrics text → an object; JSON.parse turns 1e999 into Infinity, which is refused here.
 * @param {string} text
 * @returns {any} the parsed JSON: the engine checks it is an object of numbers
 */
function parseMetrics(text) {
  const hint = `pass an object of finite numbers, e.g. --metrics '{"score": 0.8}'`;
  let metrics;
  try {
    metrics = parseJson(text);
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

/**
 * `remeasure`: a new measurement of a live program folded into its metrics (their running mean).
 * A missing database is an error: there is no program to measure, and nothing is created.
 * @param {string} dir
 * @param {Flags} flags
 * @returns {Promise<Printed>}
 */
async function remeasureCommand(dir, flags) {
  if (!hasDatabase(dir)) {
    throw new Failure(EXIT.notFound, `no database at \`${dir}\` (no ${DATABASE_FILE}): nothing to remeasure; check the path`);
  }
  /** @type {RemeasureRequest} */
  const request = { id: flags.id, metrics: parseMetrics(flags.metrics) };
  return written(dir, (db) => ({ value: db.remeasure(request), save: true }), false);
}

/**
 * init's flags → the config object: the rule is the engine's (`configFromFlags`, the one
 * `evodb init` follows); only reading `--config` is done here.
 * @param {Flags} flags
 */
async function initConfig(flags) {
  const given = (/** @type {string[]} */ keys) => keys.filter((key) => flags[key] !== undefined).map((key) => /** @type {[string, string]} */ ([key, flags[key]]));
  /** @type {ConfigFlags} */
  const configFlags = {
    scalars: given(INIT_CONFIG.scalars),
    directions: flags.direction ?? [],
    dedupe: Boolean(flags.dedupe),
    stopping: given(INIT_CONFIG.stopping),
  };
  if (flags.config !== undefined) configFlags.configFile = { path: flags.config, text: await readFlagText("--config", flags.config) };
  for (const key of /** @type {const} */ (["fitness", "features", "operators", "selection", "objectives"])) if (flags[key] !== undefined) configFlags[key] = flags[key];
  return JSON.parse(engine(() => configFromFlags(configFlags, SCRIPT)));
}

/**
 * @param {string} dir
 * @param {Flags} flags
 */
async function initCommand(dir, flags) {
  const config = await initConfig(flags);
  // parseArgs checked it is a u64 (its default is 0); the range is the engine's.
  engine(() => checkSeed(String(flags.rngSeed)));
  const seed = Number(flags.rngSeed);
  engine(() => new Database(config, seed)).free(); // a bad config or seed touches nothing
  const { value: info } = await write(dir, (current, isNew) => {
    if (!isNew) {
      throw badInput(`\`${path.join(dir, DATABASE_FILE)}\` already holds a database; use it as it is, or remove it to start over`);
    }
    const db = new Database(config, seed);
    db.recordEvents(true); // its `created` event carries this config and seed
    return { value: db.info(), save: true, replace: db };
  });
  return JSON.stringify(info);
}

/**
 * A writer's JSON and warnings; `announce`: say when it creates the database.
 * @template T
 * @param {string} dir
 * @param {(db: Db, isNew: boolean) => {value: T, save: boolean}} op
 * @param {boolean} announce
 * @returns {Promise<Printed>}
 */
async function written(dir, op, announce) {
  const { value, warnings } = await write(dir, op, { announce });
  return { stdout: JSON.stringify(value), warnings };
}

/**
 * @param {Command} command
 * @returns {Promise<string | Printed>}
 */
async function run({ name, positionals, flags }) {
  const [dir] = positionals;
  switch (name) {
    case "create":
      return written(dir, (db, isNew) => ({ value: db.info(), save: isNew }), false);
    case "info":
      return JSON.stringify(read(dir, (db) => db.info()));
    case "seed":
      return seedCommand(dir, flags);
    case "add":
      return addCommand(dir, flags);
    case "sample":
      return written(dir, (db) => ({ value: db.sampleAt(flags.target, clock(flags)), save: true }), true);
    case "best":
      if (flags.front) {
        if (flags.target !== undefined) throw new Failure(EXIT.usage, "--front prints the whole run's front; leave out --target");
        return JSON.stringify(read(dir, (db) => db.paretoFront()));
      }
      return JSON.stringify(read(dir, (db) => db.best(flags.target)));
    case "init":
      return initCommand(dir, flags);
    case "stats":
      return JSON.stringify(read(dir, (db) => db.stats()));
    case "validate":
      return validateCommand(dir, Boolean(flags.history));
    case "export": {
      /** @type {Record<string, (db: Db) => string>} */
      const exporters = {
        json: (db) => db.toJson(),
        mermaid: (db) => db.lineageMermaid(),
        tree: (db) => db.lineageTree(),
        markdown: (db) => db.populationMarkdown(),
        evoidea: (db) => db.evoideaExport(),
      };
      if (flags.out !== undefined) {
        throw new Failure(EXIT.usage, "--out writes evoidea's files with the native evodb only; print the export and write it yourself");
      }
      return read(dir, exporters[flags.format]).trimEnd(); // parseArgs checked the format (default json)
    }
    case "lineage": {
      const id = positionals[1];
      const lineage = read(dir, (db) => db.lineage(id));
      if (lineage === null) {
        throw new Failure(EXIT.notFound, `no live program has id \`${id}\`; \`${SCRIPT} best\` or \`${SCRIPT} export\` list the ids`);
      }
      return JSON.stringify(lineage);
    }
    case "history": {
      const tail = flags.tail === undefined ? Infinity : Number(flags.tail); // parseArgs checked it (a usize)
      const lines = historyText(dir).split("\n").filter((line) => line !== "");
      return lines.slice(Math.max(0, lines.length - tail)).join("\n");
    }
    case "plan": {
      const n = nonNegativeInteger("<n>", positionals[1], U32_MAX);
      const frozen = islandList("--frozen", flags.frozen);
      const boosted = islandList("--boosted", flags.boosted);
      const leaseSeconds = flags.leaseSeconds === undefined ? undefined : Number(flags.leaseSeconds); // an f64
      return written(dir, (db) => ({ value: db.planAt(n, frozen, boosted, clock(flags), leaseSeconds), save: true }), true);
    }
    case "heartbeat": {
      const leaseSeconds = flags.leaseSeconds === undefined ? undefined : Number(flags.leaseSeconds);
      const { item, token } = /** @type {{item: string, token: string}} */ (flags); // parseArgs required them
      return written(dir, (db) => ({ value: db.heartbeat(item, token, clock(flags), leaseSeconds), save: true }), false);
    }
    case "leases":
      return JSON.stringify(read(dir, (db) => db.leases(clock(flags))));
    case "should-stop":
      return JSON.stringify(read(dir, (db) => db.shouldStop(flags.target)));
    case "note":
      return noteCommand(dir, flags);
    case "remeasure":
      return remeasureCommand(dir, flags);
    case "admit": {
      if (flags.code === undefined && flags.codeFile === undefined) {
        throw new Failure(EXIT.usage, "admit needs the candidate's code: --code '<code>' or --codeFile <path> (- for standard input)");
      }
      const code = flags.code ?? (await readFlagText("--codeFile", flags.codeFile));
      const codePath = flags.codePath ?? (flags.codeFile !== undefined && flags.codeFile !== "-" ? flags.codeFile : "");
      if (flags.embedding === undefined) return JSON.stringify(read(dir, (db) => db.admit(code, codePath)));
      const embedding = engine(() => embeddingFromFlag(flags.embedding));
      return JSON.stringify(read(dir, (db) => db.admitEmbedding(code, codePath, embedding)));
    }
    case "notes": {
      const limit = flags.limit === undefined ? null : nonNegativeInteger("--limit", flags.limit, U32_MAX);
      const kind = /** @type {NoteKind | null} */ (flags.kind ?? null); // parseArgs checked it
      return JSON.stringify({ notes: read(dir, (db) => db.notes(flags.target ?? null, kind, limit)) });
    }
  }
  throw new Failure(EXIT.internal, `command ${name} has no implementation`);
}

/**
 * `--now` (parseArgs checked it: an f64), else the clock, in seconds since the epoch.
 * @param {Flags} flags
 */
function clock(flags) {
  return flags.now === undefined ? Date.now() / 1000 : Number(flags.now);
}

/**
 * history.ndjson's text ("" when there is none); anything but a regular file is refused (exit 5).
 * @param {string} dir
 */
function historyText(dir) {
  if (checkDirectory(dir)) checkFiles(dir);
  checkMemory(0); // evodb starts its engine for this too
  const file = path.join(dir, HISTORY_FILE);
  let opened;
  try {
    opened = openRegular(file, { noFollow: true });
  } catch (e) {
    if (e.code === "ENOENT") return "";
    throw new Failure(EXIT.io, `cannot read \`${file}\`: ${e.message}; check the path and its permissions`);
  }
  if (opened.kind) throw new Failure(EXIT.io, `cannot read \`${file}\`: it is ${opened.kind}, not a regular file; move it away (the history must be a file)`);
  try {
    return fs.readFileSync(opened.fd, "utf8");
  } finally {
    fs.closeSync(opened.fd);
  }
}

/**
 * Every broken invariant of the stored file and every torn or non-JSON history line (with
 * `compareHistory`, also every disagreement between the history replayed and the file); invalid →
 * the problems on stdout, the first on stderr, exit 1. No database.json is nothing to validate
 * (exit 3): `{"valid": true}` there would pass a typo'd path.
 * @param {string} dir
 * @param {boolean} compareHistory
 */
function validateCommand(dir, compareHistory) {
  if (!hasDatabase(dir)) {
    throw new Failure(EXIT.notFound, `no database at \`${dir}\` (no ${DATABASE_FILE}): nothing to validate; check the path`);
  }
  if (isDirectory(dir)) checkFiles(dir);
  startClock();
  const text = readDatabaseText(dir);
  if (text === null) throw new Failure(EXIT.notFound, `no database at \`${dir}\` (no ${DATABASE_FILE}): nothing to validate; check the path`);
  const problems = [...Database.validate(text), ...historyProblems(dir)];
  if (compareHistory && problems.length === 0) problems.push(...Database.compareHistory(text, historyText(dir)));
  checkTime();
  if (problems.length) {
    process.stdout.write(JSON.stringify({ valid: false, problems }) + "\n");
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more on stdout)` : "";
    throw badInput(`${problems[0]}${more}`);
  }
  const db = load(text, dir);
  const info = engine(() => db.info());
  db.free();
  checkTime();
  return JSON.stringify({ valid: true, programCount: info.programCount, lastIteration: info.lastIteration });
}

// --- main ---------------------------------------------------------------------------------------

/** @param {string[]} argv */
async function main(argv) {
  checkArgvUtf8(argv);
  /**
   * `{help}` or a Command: `if (parsed.help)` cannot narrow that union (help may be ""), so it is
   * untyped until lib/args.mjs, being rewritten, declares it.
   * @type {any}
   */
  const parsed = parseArgs(argv);
  if (parsed.help) {
    process.stdout.write(parsed.help);
    return;
  }
  setLimits(parsed.flags);
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
