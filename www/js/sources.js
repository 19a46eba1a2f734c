// @ts-check
// Where events come from: the core's synthetic evolution (live), or a saved run — its
// history.ndjson when it has one, otherwise its database.json re-inserted in iterationFound order.

import { Database, Replay, Simulation } from "../pkg/evodb.js";

/** @import { Config, FeatureDim, MigrationMode } from "../pkg/evodb.js" */
/** @import { CoreEvent, RunEvent, SavedFile, SavedRun, Settings } from "./types.js" */

/**
 * The form's control named `name` (the form has every name asked for here).
 * @param {HTMLFormElement} form
 * @param {string} name
 */
function field(form, name) {
  return /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
}

/**
 * The form's settings as the core's config and landscape.
 * @param {HTMLFormElement} form
 * @returns {Settings}
 */
export function settingsFrom(form) {
  /** @param {string} name */
  const v = (name) => field(form, name).value;
  /** @param {string} name */
  const n = (name) => Number(v(name));
  /** @type {Config} */
  const config = {
    numIslands: n("numIslands"),
    maxIslandSize: n("maxIslandSize"),
    migrationInterval: n("migrationInterval"),
    migrationRate: n("migrationRate"),
    explorationRatio: n("explorationRatio"),
    migration: /** @type {MigrationMode} */ (v("migration")),
  };
  if (field(form, "operators").checked) {
    config.operators = {
      exploitation: n("exploitation"),
      exploration: n("exploration"),
      crossover: n("crossover"),
      migration: n("migrationWeight"),
    };
  }
  const features = FEATURES[v("features")];
  if (features) config.features = features;
  return { seed: n("seed"), config, landscape: { terms: n("terms"), ruggedness: n("ruggedness") } };
}

// Code lines of the synthetic programs run from 3 (no terms) to 3 + terms.
/** @type {FeatureDim} */
const LINES = { kind: "codeLines", thresholds: [5, 6, 7] };
/** The features select's options. @type {Record<string, FeatureDim[] | null>} */
const FEATURES = {
  none: null,
  "island-lines": [{ kind: "island" }, LINES],
  "accuracy-lines": [{ kind: "metric", metric: "accuracy", min: 0, max: 1, bins: 10 }, LINES],
  "accuracy-worst": [
    { kind: "metric", metric: "accuracy", min: 0, max: 1, bins: 10 },
    { kind: "metric", metric: "worst-case", min: 0, max: 1, bins: 10 },
  ],
};

/**
 * A live run of the core's synthetic evolution, read one event at a time. It keeps no events:
 * the run is deterministic from its settings, so going back means starting it again
 * (`restart`) and reading up to the wanted position, and memory stays flat however long it runs.
 */
export class LiveRun {
  /** @param {Settings} settings */
  constructor(settings) {
    this.settings = settings;
    /** @type {Simulation | null} */
    this.simulation = null;
    /** @type {CoreEvent[]} */
    this.buffer = [];
    this.cursor = 0;
    /** @type {CoreEvent | undefined} */
    this.created = undefined;
    this.restart();
  }

  /** Back to the start of the run (its `created` event next). */
  restart() {
    const { seed, config, landscape } = this.settings;
    this.simulation?.free();
    this.simulation = new Simulation(config, seed, landscape);
    // Events produced but not read yet, from `cursor` on.
    this.buffer = this.simulation.step(0);
    this.cursor = 0;
    // The `created` event that opens the run, for a model reset to show its setup.
    this.created = this.buffer[0];
  }

  /** The next event (one more iteration is run when none is left). */
  next() {
    if (this.cursor >= this.buffer.length) {
      this.buffer = /** @type {Simulation} */ (this.simulation).step(1);
      this.cursor = 0;
    }
    return this.buffer[this.cursor++];
  }

  /**
   * The events not read yet plus those of `n` more iterations.
   * @param {number} n
   */
  step(n) {
    const events = this.buffer.slice(this.cursor);
    if (n > 0) events.push(.../** @type {Simulation} */ (this.simulation).step(n));
    this.buffer = [];
    this.cursor = 0;
    return events;
  }

  stats() {
    return /** @type {Simulation} */ (this.simulation).stats();
  }

  /** The engine's best program so far (after the last iteration run). */
  bestId() {
    return /** @type {Simulation} */ (this.simulation).bestId;
  }
}

/**
 * A saved run: database.json's text and history.ndjson's (null: none), opened by the engine
 * (`Replay`): with a history from the run's creation its events are the recorded ones, re-run
 * and checked; without, the file's programs are re-inserted. Either way the fitness, the best
 * program after each event and the config are the engine's.
 * @param {string} databaseText
 * @param {string | null} historyText
 * @returns {SavedRun}
 */
export function savedRun(databaseText, historyText) {
  let replay;
  try {
    // A history from the run's creation holds all of it, and the engine then does not read the
    // file (core's `Replay::open`): it is not copied into the engine's memory (for a 20,000-
    // program run, 13 MB copied for nothing). A failure below still checks the real file.
    const file = startsAtCreation(historyText) ? "{}" : databaseText;
    replay = Replay.open(file, historyText ?? undefined);
  } catch (e) {
    const problems = Database.validate(databaseText);
    throw new Error(problems.length > 0 ? `database.json does not load: ${problems[0]}` : e.message, { cause: e });
  }
  return {
    events: JSON.parse(replay.eventsJson(0)),
    note: replay.note ?? null,
    replay,
  };
}

/**
 * Whether `history.ndjson`'s first line that is not blank is the run's `created` event, the way
 * the engine reads it (a line that is not JSON: no).
 * @param {string | null} historyText
 */
export function startsAtCreation(historyText) {
  if (!historyText) return false;
  for (let start = 0; start < historyText.length; ) {
    const end = historyText.indexOf("\n", start);
    const line = historyText.slice(start, end < 0 ? historyText.length : end).trim();
    start = end < 0 ? historyText.length : end + 1;
    if (line === "") continue;
    try {
      return JSON.parse(line)?.event === "created";
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * How many programs a database.json holds, or what is wrong with it: a run whose history starts
 * at its creation opens without the engine reading the file, so the file may not even parse.
 * @param {string} databaseText
 * @returns {number | {problem: string}}
 */
export function programsInFile(databaseText) {
  try {
    const file = /** @type {SavedFile | null} */ (JSON.parse(databaseText));
    return Object.keys(file?.programs ?? {}).length;
  } catch (e) {
    return { problem: `does not parse (${e.message})` };
  }
}
