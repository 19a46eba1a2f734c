// @ts-check
// Where events come from: the core's synthetic evolution (live), or a saved run — its
// history.ndjson when it has one, otherwise its database.json re-inserted in iterationFound order.

import { Database, Simulation } from "../pkg/evodb.js";

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
}

/**
 * A saved run as events, from database.json's text and history.ndjson's (null: none). With
 * history.ndjson the events are the recorded ones; without, the programs of database.json are
 * re-inserted by iterationFound.
 * @param {string} databaseText
 * @param {string | null} historyText
 * @returns {SavedRun}
 */
export function savedRun(databaseText, historyText) {
  const problems = Database.validate(databaseText);
  if (problems.length > 0) {
    throw new Error(`database.json does not load: ${problems[0]}`);
  }
  /** @type {SavedFile} */
  const file = JSON.parse(databaseText);
  if (historyText && historyText.trim()) {
    /** @type {RunEvent[]} */
    const events = historyText
      .split("\n")
      .filter((line) => line.trim())
      .map((line, i) => {
        try {
          return JSON.parse(line);
        } catch (e) {
          throw new Error(`history.ndjson line ${i + 1} is not JSON (${e.message}); the file is torn — remove that line`, {
            cause: e,
          });
        }
      });
    if (events[0]?.event === "created") return { file, events, note: null };
    return {
      file,
      events: reinserted(file),
      note: "history.ndjson does not start at the run's creation, so the programs are re-inserted from database.json.",
    };
  }
  return {
    file,
    events: reinserted(file),
    note:
      "No history.ndjson: the programs of database.json are re-inserted in iterationFound order. " +
      "Programs pruned before the file was saved are not in it, so migrations and evictions are not shown.",
  };
}

/**
 * Synthetic `created`/`added`/`migrated` events that rebuild the file's final islands.
 * @param {SavedFile} file
 * @returns {RunEvent[]}
 */
function reinserted(file) {
  const ext = file.evodb ?? {};
  const config = {
    numIslands: file.numIslands,
    maxIslandSize: file.maxIslandSize,
    migrationInterval: file.migrationInterval,
    migrationRate: file.migrationRate,
    explorationRatio: file.explorationRatio,
    ...(ext.config ?? {}),
  };
  /** Each program's islands, its home first. @type {Map<string, number[]>} */
  const homes = new Map();
  (file.islands ?? []).forEach((members, island) => {
    for (const id of members) {
      let home = homes.get(id);
      if (!home) homes.set(id, (home = []));
      home.push(island);
    }
  });
  const programs = Object.values(file.programs ?? {}).sort(
    (a, b) => a.iterationFound - b.iterationFound || a.timestamp - b.timestamp,
  );
  /** @type {RunEvent[]} */
  const events = [{ event: "created", seed: ext.seed ?? 0, config }];
  for (const p of programs) {
    const islands = homes.get(p.id) ?? [p.island ?? 0];
    const values = Object.values(p.metrics ?? {});
    events.push({
      event: "added",
      seq: p.iterationFound + 1,
      id: p.id,
      island: islands[0],
      status: p.status ?? "accepted",
      fitness: values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0,
      cell: p.cell ?? undefined,
      migratedFrom: p.migratedFrom ?? null,
      request: {
        codePath: p.codePath,
        targetCode: p.targetCode,
        parentId: p.parentId,
        metrics: p.metrics,
        changes: p.changes,
      },
      now: p.timestamp,
    });
    for (const to of islands.slice(1)) events.push({ event: "migrated", id: p.id, from: islands[0], to });
  }
  return events;
}
