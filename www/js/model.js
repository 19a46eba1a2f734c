// @ts-check
// The population as the views see it, rebuilt from the core's events (`created`, `added`,
// `migrated`, `evicted`, `archive`, …): the live simulation and a replayed history.ndjson feed
// the same model, so scrubbing the timeline is re-applying a prefix of one event list.

import { Diversity } from "./diversity.js";
import { Leases } from "./leases.js";

/** @import { Config, IslandTotals, LogEntry, Point, Program, RunEvent, AddedEvent } from "./types.js" */

/** The live simulation keeps this many event lines (a saved run keeps every one). */
const LOG_LENGTH = 200;
const MAX_POINTS = 4096;
/** A live run forgets pruned programs once it knows this many more than twice the live ones. */
const FORGET_AT = 2048;

export class Model {
  // Declared for the type checker; reset() gives every field its value.
  /** @type {Config} */ config;
  /** @type {number} */ numIslands;
  /** Live programs by id. @type {Map<string, Program>} */ programs;
  /** Every program ever added, so a lineage reaches ancestors that were pruned since. @type {Map<string, Program>} */ known;
  /** Per island: member id → true when it arrived by migration. @type {Map<string, boolean>[]} */ islands;
  /** @type {IslandTotals[]} */ islandStats;
  /** Per island: points {x, best, mean} after each change of that island. @type {Point[][]} */ series;
  /**
   * The run's best-so-far: a point {x, best, id} each time an accepted program beat every one
   * before it (x: programs added then). Only improvements, so it stays short and is never thinned.
   * @type {{x: number, best: number, id: string}[]}
   */
  bestSoFar;
  /** The engine's best program (see `setBest`). @type {Program | null} */ best;
  /** Distinct code and cells among the live programs, over time. @type {Diversity} */ diversity;
  /** Plan items handed out under leases, and the run's clock. @type {Leases} */ leases;
  /** [lowest, highest] fitness ever added. @type {[number, number]} */ fitnessRange;
  /** The elite archive's ids. @type {Set<string>} */ archive;
  /** @type {{added: number, rejected: number, errors: number, cached: number, migrated: number, evicted: number, sampled: number}} */ counts;
  /** @type {LogEntry[]} */ log;
  /** Bumped whenever the log changes, so its view redraws only then. @type {number} */ logVersion = 0;
  /** Bumped whenever programs join, leave or change, so views drawn from them redraw only then. @type {number} */ version = 0;
  /** Per parent id: its children's ids, oldest first. @type {Map<string, string[]>} */ children;
  /** How many events of the list are applied. @type {number} */ applied;
  /** Programs (errored ones too) given an `order` so far: the engine's insertion order. @type {number} */ order;
  /**
   * The colour scale's range when the whole run is known (a saved run): fixed, so colours do not
   * shift while the timeline moves. Survives `reset`.
   * @type {[number, number] | null}
   */
  fixedRange = null;
  /**
   * Whether pruned programs that no live program descends from are forgotten (the live
   * simulation, which would otherwise remember every program it ever added). Survives `reset`.
   */
  forgetPruned = false;
  /** A program kept known while it is open in the panel. @type {string | null} */
  pinned = null;

  constructor() {
    this.reset({});
  }

  /** The fitness range colours are drawn against. @returns {[number, number]} */
  range() {
    return this.fixedRange ?? this.fitnessRange;
  }

  /** @param {Config | undefined} config */
  reset(config) {
    this.config = config ?? {};
    this.numIslands = this.config.numIslands ?? 3;
    this.programs = new Map();
    this.known = new Map();
    this.islands = Array.from({ length: this.numIslands }, () => new Map());
    this.islandStats = Array.from({ length: this.numIslands }, () => ({ sum: 0, count: 0, best: null, improvedAt: null, bestEver: null }));
    this.series = Array.from({ length: this.numIslands }, () => []);
    this.bestSoFar = [];
    this.diversity = new Diversity();
    this.leases = new Leases();
    this.best = null;
    this.fitnessRange = [Infinity, -Infinity];
    this.archive = new Set();
    this.counts = { added: 0, rejected: 0, errors: 0, cached: 0, migrated: 0, evicted: 0, sampled: 0 };
    this.log = [];
    this.children = new Map();
    this.applied = 0;
    this.order = 0;
    this.logVersion += 1;
    this.version += 1;
  }

  /** @param {RunEvent} event */
  apply(event) {
    this.applied += 1;
    switch (event.event) {
      case "created":
        this.reset(event.config);
        this.applied = 1;
        this.note("created", `run created (seed ${event.seed}, ${this.numIslands} islands${operatorsText(this.config)})`);
        break;
      case "added":
        this.added(event);
        this.leases.tick(event.now);
        this.leases.answer(event.request.planItem, "answered");
        break;
      case "status":
        this.failed(event);
        this.leases.tick(event.now);
        this.leases.answer(event.request.planItem, "answered");
        break;
      case "cached":
        this.leases.answer(event.request.planItem, "answered");
        this.counts.cached += 1;
        this.note("cached", `duplicate of ${short(event.id)} answered from the cache`, event.id);
        break;
      case "sampled":
        this.counts.sampled += 1;
        break;
      case "planned":
        this.leases.planned(event);
        this.version += 1;
        this.note("planned", `planned ${event.n} work items${event.leaseSeconds ? ` under ${event.leaseSeconds} s leases` : ""}`);
        break;
      case "heartbeat":
        this.leases.heartbeat(event);
        this.version += 1;
        this.note("heartbeat", `${event.item}'s lease extended`);
        break;
      case "held":
        this.leases.tick(event.now);
        this.leases.answer(event.item, "held");
        this.note("held", `answer to ${event.item} held until the items before it are answered`);
        break;
      case "noted": {
        const { kind, text } = event.request;
        this.note("noted", `${kind}: ${text.length > 80 ? `${text.slice(0, 79)}…` : text}`);
        break;
      }
      case "remeasured":
        this.remeasured(event);
        break;
      case "migrated":
        this.migrated(event);
        break;
      case "evicted":
        this.evicted(event);
        break;
      case "archive":
        for (const id of event.left) this.archive.delete(id);
        for (const id of event.entered) this.archive.add(id);
        this.version += 1;
        this.note("archive", `archive: +${event.entered.map(short).join(" +") || "0"} −${event.left.map(short).join(" −") || "0"}`);
        break;
      default:
        break;
    }
  }

  /**
   * The island's name when the run names its islands (seed 004's families).
   * @param {number} island
   * @returns {string | undefined}
   */
  islandName(island) {
    return this.config.islands?.[island]?.name;
  }

  /** @param {AddedEvent} event */
  added(event) {
    const request = event.request;
    const parentId = request.parentId ?? "0";
    const parent = this.programs.get(parentId);
    /** @type {Program} */
    const program = {
      id: event.id,
      island: event.island,
      fitness: event.fitness,
      status: event.status,
      cell: event.cell ?? null,
      parentId,
      parents: request.parents?.length ? request.parents : [parentId],
      // As the core counts it: the parent's + 1, 0 when the parent is not live (or there is none).
      generation: parent ? parent.generation + 1 : 0,
      code: request.targetCode,
      codePath: request.codePath,
      changes: request.changes ?? "",
      metrics: request.metrics,
      operator: request.operator ?? null,
      // The candidate number: every evaluation counted from 1, errors included (`seq`), the
      // number `export --format tree` and the population markdown show too (docs/engine.md).
      candidate: event.seq,
      migratedFrom: event.migratedFrom ?? null,
      reason: request.reason ?? null,
      timestamp: event.now ?? 0,
      order: this.order++,
      placed: true,
    };
    // The population as the previous add left it (its evictions and migrations done).
    this.diversity.record(this.counts.added);
    this.counts.added += 1;
    if (event.status === "rejected") this.counts.rejected += 1;
    const record = this.bestSoFar.at(-1);
    if (event.status === "accepted" && (!record || program.fitness > record.best)) {
      this.bestSoFar.push({ x: this.counts.added, best: program.fitness, id: program.id });
    }
    this.known.set(program.id, program);
    this.programs.set(program.id, program);
    this.diversity.enter(program);
    const siblings = this.children.get(parentId);
    if (siblings) siblings.push(program.id);
    else this.children.set(parentId, [program.id]);
    this.join(event.island, program, program.migratedFrom !== null);
    const [lo, hi] = this.fitnessRange;
    this.fitnessRange = [Math.min(lo, program.fitness), Math.max(hi, program.fitness)];
    if (this.forgetPruned && this.known.size > FORGET_AT + 2 * this.programs.size) this.forget();
    const rejected = event.status === "rejected" ? ` (rejected${program.reason ? `: ${program.reason}` : ""})` : "";
    const by = program.operator ? ` by ${program.operator}` : "";
    this.note(
      event.status === "rejected" ? "rejected" : "added",
      `#${event.seq - 1} ${short(event.id)}${by} → island ${event.island}, fitness ${fmt(event.fitness)}${rejected}`,
      event.id,
    );
  }

  /**
   * A candidate whose evaluation failed (`add --status error`): never placed on an island and
   * without fitness, but a program all the same — its code, parent, operator and reason open in
   * the panel. Its island is the one it asked for, else its parent's (the island the iteration
   * sampled from); `placed` says it never joined it.
   * @param {Extract<RunEvent, {event: "status"}>} event
   */
  failed(event) {
    const request = event.request;
    const parentId = request.parentId ?? "0";
    const parent = this.known.get(parentId);
    /** @type {Program} */
    const program = {
      id: event.id,
      island: request.island ?? parent?.island ?? -1,
      // No fitness: NaN keeps the field a number, prints as "—" and sorts after every fitness.
      fitness: NaN,
      status: event.status,
      cell: null,
      parentId,
      parents: request.parents?.length ? request.parents : [parentId],
      generation: parent && this.programs.has(parentId) ? parent.generation + 1 : 0,
      code: request.targetCode,
      codePath: request.codePath,
      changes: request.changes ?? "",
      metrics: request.metrics,
      operator: request.operator ?? null,
      candidate: event.seq,
      migratedFrom: null,
      reason: event.reason ?? request.reason ?? null,
      timestamp: event.now ?? 0,
      order: this.order++,
      placed: false,
    };
    this.counts.errors += 1;
    this.known.set(program.id, program);
    this.version += 1;
    const by = program.operator ? ` by ${program.operator}` : "";
    this.note("error", `#${event.seq - 1} ${short(event.id)}${by} failed evaluation: ${program.reason ?? "no reason given"}`, event.id);
  }

  /**
   * A program measured again: its fitness is now the mean of its measurements, on every island
   * it is on.
   * @param {Extract<RunEvent, {event: "remeasured"}>} event
   */
  remeasured({ id, fitness, measurements }) {
    const program = this.programs.get(id);
    if (!program) return;
    const before = program.fitness;
    program.fitness = fitness;
    this.islands.forEach((members, island) => {
      if (!members.has(id)) return;
      const stats = this.islandStats[island];
      stats.sum += fitness - before;
      stats.best = this.islandBest(island);
      this.point(island);
    });
    const [lo, hi] = this.fitnessRange;
    this.fitnessRange = [Math.min(lo, fitness), Math.max(hi, fitness)];
    this.version += 1;
    this.note("remeasured", `${short(id)} measured again (${measurements} measurements): fitness ${fmt(before)} → ${fmt(fitness)}`, id);
  }

  /** @param {Extract<RunEvent, {event: "migrated"}>} event */
  migrated({ id, from, to, copyId }) {
    this.counts.migrated += 1;
    const original = this.known.get(id);
    if (!original) return;
    if (copyId) {
      const cell = original.cell && this.cellOnIsland(original.cell, to);
      const copy = { ...original, id: copyId, island: to, migratedFrom: id, cell, order: this.order++ };
      this.known.set(copyId, copy);
      this.programs.set(copyId, copy);
      this.diversity.enter(copy);
      this.join(to, copy, true);
      this.note("migrated", `${short(id)} copied from island ${from} to ${to} as ${short(copyId)}`, copyId);
    } else {
      this.join(to, original, true);
      this.note("migrated", `${short(id)} joined island ${to} from ${from}`, id);
    }
  }

  /** @param {Extract<RunEvent, {event: "evicted"}>} event */
  evicted({ id, island, deleted }) {
    this.counts.evicted += 1;
    const program = this.known.get(id);
    if (this.islands[island]?.delete(id) && program) {
      const stats = this.islandStats[island];
      stats.sum -= program.fitness;
      stats.count -= 1;
      if (stats.best === program) stats.best = this.islandBest(island);
      this.point(island);
    }
    if (deleted && this.programs.delete(id) && program) this.diversity.leave(program);
    this.version += 1;
    this.note("evicted", `${short(id)} evicted from island ${island}${deleted ? " (deleted)" : ""}`, id);
  }

  /**
   * @param {number} island
   * @param {Program} program
   * @param {boolean} migrant
   */
  join(island, program, migrant) {
    const members = this.islands[island];
    if (!members || members.has(program.id)) return;
    members.set(program.id, migrant);
    this.version += 1;
    const stats = this.islandStats[island];
    stats.sum += program.fitness;
    stats.count += 1;
    if (stats.best === null || program.fitness > stats.best.fitness) {
      // A new program fitter than any the island held (a migrant too); an arrival that only
      // ties, or a best that an eviction lowers, is no improvement.
      if (stats.best === null || program.fitness > (stats.bestEver ?? -Infinity)) stats.improvedAt = this.counts.added;
      stats.bestEver = Math.max(stats.bestEver ?? -Infinity, program.fitness);
      stats.best = program;
    }
    this.point(island);
  }

  /**
   * Records island `island`'s best and mean now. A series past `MAX_POINTS` keeps every other
   * point, so memory and drawing stay bounded however long a run goes.
   * @param {number} island
   */
  point(island) {
    const { sum, count, best } = this.islandStats[island];
    const series = this.series[island];
    series.push({ x: this.counts.added, best: best?.fitness ?? null, mean: count ? sum / count : null, bestId: best?.id ?? null });
    if (series.length > MAX_POINTS) {
      let kept = 0;
      for (let i = (series.length - 1) % 2; i < series.length; i += 2) series[kept++] = series[i];
      series.length = kept;
    }
  }

  /** @param {number} island */
  islandBest(island) {
    /** @type {Program | null} */
    let best = null;
    for (const id of this.islands[island].keys()) {
      const p = this.known.get(id);
      if (p && (best === null || p.fitness > best.fitness)) best = p;
    }
    return best;
  }

  /** A copy's cell: the program's cell with every `island` coordinate set to its new island. */
  /**
   * @param {number[]} cell
   * @param {number} island
   */
  cellOnIsland(cell, island) {
    const dims = this.config.features ?? [];
    return cell.map((c, i) => (dims[i]?.kind === "island" ? island : c));
  }

  /**
   * The best program, as the engine says (`Replay.bestAfter`, `Simulation.bestId`): the page does
   * not rank programs itself. An id not applied yet (a live run's step may be ahead of the view)
   * leaves the best as it is.
   * @param {string | null | undefined} id
   */
  setBest(id) {
    const best = id ? this.known.get(id) : null;
    if (best === undefined || best === this.best) return;
    this.best = best;
    this.version += 1;
  }

  /**
   * `forget`: drops from `known` (and `children`) every pruned program that no live program, the
   * best or the pinned one descends from — through parents or migration. Ancestors of what is
   * live stay, so lineages and the family tree stay whole.
   */
  forget() {
    const keep = new Set();
    const stack = [...this.programs.keys(), this.best?.id, this.pinned];
    while (stack.length) {
      const id = stack.pop();
      const program = id === undefined || id === null ? undefined : this.known.get(id);
      if (!program || keep.has(program.id)) continue;
      keep.add(program.id);
      stack.push(program.parentId);
      if (program.migratedFrom) stack.push(program.migratedFrom);
    }
    for (const id of this.known.keys()) if (!keep.has(id)) this.known.delete(id);
    for (const [parent, kids] of this.children) {
      if (parent !== "0" && !keep.has(parent)) this.children.delete(parent);
      else this.children.set(parent, kids.filter((kid) => keep.has(kid)));
    }
  }

  /**
   * Ancestors of `id`, oldest first, ending with the program itself.
   * @param {string} id
   */
  lineage(id) {
    /** @type {Program[]} */
    const chain = [];
    const seen = new Set();
    let current = this.known.get(id);
    while (current && !seen.has(current.id)) {
      seen.add(current.id);
      chain.unshift(current);
      if (current.parentId === "0") return { chain, complete: true };
      current = this.known.get(current.parentId);
    }
    return { chain, complete: false };
  }

  /**
   * @param {string} kind
   * @param {string} text
   * @param {string} [id] the program the entry is about, for a click to open
   */
  note(kind, text, id) {
    this.log.push({ kind, text, at: this.applied, id });
    this.logVersion += 1;
    // The live simulation runs without end, so it keeps the last lines only; a saved run keeps all.
    if (this.forgetPruned && this.log.length > LOG_LENGTH * 2) this.log.splice(0, this.log.length - LOG_LENGTH);
  }
}

/**
 * ", four operators" when the run's config weighs operators (seed 004), else "".
 * @param {Config} config
 */
function operatorsText(config) {
  return config.operators ? ", four operators" : "";
}

/** @param {string} id */
export function short(id) {
  return String(id).slice(0, 8);
}

/**
 * A number as the engine prints it (`json_text::shown`, then JavaScript's own printing): 12
 * significant digits, no trailing zeros — `1`, `40`, `0.3`, `0.123456789012` — and "—" for none.
 * @param {number | null | undefined} x
 */
export function fmt(x) {
  if (x === null || x === undefined || Number.isNaN(Number(x))) return "—";
  const n = Number(x);
  // An integer prints as itself (and this runs for every event line: the quick way first).
  if (Number.isSafeInteger(n)) return String(n + 0);
  return Number.isFinite(n) ? String(Number(n.toExponential(11)) + 0) : String(n);
}

/**
 * The engine's ranking (`RankKey`): higher fitness first, a tie to the later timestamp, then to
 * the earlier added. A program without fitness (an error) ranks after all others.
 * @param {Program} a
 * @param {Program} b
 */
export function byRank(a, b) {
  const fa = Number.isNaN(a.fitness) ? -Infinity : a.fitness;
  const fb = Number.isNaN(b.fitness) ? -Infinity : b.fitness;
  if (fa !== fb) return fb > fa ? 1 : -1;
  if (a.timestamp !== b.timestamp) return b.timestamp > a.timestamp ? 1 : -1;
  return a.order - b.order;
}

/**
 * "island 3", or "island 3 · name" when the run names it; "no island" for -1.
 * @param {Model} model
 * @param {number} island
 */
export function islandLabel(model, island) {
  if (island < 0) return "no island";
  const name = model.islandName(island);
  return name ? `island ${island} · ${name}` : `island ${island}`;
}
