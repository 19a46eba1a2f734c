// @ts-check
// The playground: one event list (from the live simulation or a saved run), a position on it,
// and the model of the population at that position, drawn by the views once per frame.

import init from "../pkg/evodb.js";
import { Model, fmt } from "./model.js";
import { LiveRun, programsInFile, savedRun, settingsFrom } from "./sources.js";
import { IslandsView } from "./views/islands.js";
import { FitnessView } from "./views/fitness.js";
import { drawHeatmap, heatmapTooltips } from "./views/heatmap.js";
import { EventsView, TopView } from "./views/panels.js";
import { ProgramView } from "./views/program.js";
import { TreeView } from "./views/tree.js";
import { MetricsView } from "./views/metrics.js";
import { DiversityView } from "./views/diversity.js";
import { AttributionView } from "./views/attribution.js";
import { InstancesView } from "./views/instances.js";
import { LeasesView } from "./views/leases.js";
import { TableView } from "./views/table.js";
import { BestPathView } from "./views/lineage.js";
import { follow } from "./follow.js";
import { NearDuplicates } from "./nearduplicates.js";

/** @import { RunEvent, Settings } from "./types.js" */

/**
 * The page's element with `id` (index.html has every id named here).
 * @param {string} id
 */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const $canvas = (id) => /** @type {HTMLCanvasElement} */ ($(id));
/** @param {string} id */
const $input = (id) => /** @type {HTMLInputElement} */ ($(id));
const $form = () => /** @type {HTMLFormElement} */ ($("sim-form"));

/**
 * @type {{model: Model, events: RunEvent[], live: LiveRun | null, liveLength: number,
 *   replay: import("../pkg/evodb.js").Replay | null, playing: boolean,
 *   selected: string | null, following: boolean, dirty: boolean, frames: number, playStart: number,
 *   heatmap: string, stopFollowing: (() => void) | null, drawMs: number, runName: string,
 *   firstDrawing: boolean, opening: Promise<void>, panelShows: string | null, panelAt: number,
 *   frameMs: number, stepMs: number, lastFrame: number | undefined}}
 */
const state = {
  model: new Model(),
  // A saved or followed run's events; the live simulation keeps none (it is run again to go back).
  events: [],
  live: null,
  // How far the live simulation has run, in events.
  liveLength: 0,
  // A saved or followed run as the engine re-ran it: the best program after each event.
  replay: null,
  playing: false,
  // The program the panel shows: the best while `following`, else the one picked.
  selected: null,
  following: true,
  dirty: true,
  frames: 0,
  playStart: 0,
  heatmap: "",
  stopFollowing: null,
  drawMs: 0,
  // A frame's length and the simulation's part of it while playing (ms, smoothed): the
  // simulation steps with what the rest of the frame leaves.
  frameMs: 1000 / 60,
  stepMs: 0,
  lastFrame: undefined,
  // The saved run on show, for the status line.
  runName: "",
  // While a run opens: only the views at the top are drawn, so it shows sooner.
  firstDrawing: false,
  // A run's opening, done once the views below the top are drawn too (see `openRun`).
  opening: Promise.resolve(),
  // The program the panel was last drawn for, and when (performance.now()).
  panelShows: null,
  panelAt: -Infinity,
};

/**
 * Which figures are in view (an IntersectionObserver keeps the set): while a run plays, a view
 * out of sight is not drawn, and it is drawn again as soon as it comes into view.
 * @type {Set<Element>}
 */
const inView = new Set();
const viewWatcher = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (entry.isIntersecting) {
      inView.add(entry.target);
      state.dirty = true;
    } else {
      inView.delete(entry.target);
    }
  }
});
/**
 * The figure holding the element `id`, watched for coming into view.
 * @param {string} id
 */
function figureOf(id) {
  const figure = /** @type {Element} */ ($(id).closest("figure"));
  viewWatcher.observe(figure);
  return figure;
}
const figures = {
  islands: figureOf("islands"),
  fitness: figureOf("fitness"),
  program: figureOf("program"),
  tree: figureOf("tree"),
  heatmap: figureOf("heatmap"),
  diversity: figureOf("diversity"),
  metrics: figureOf("metrics"),
  top: figureOf("top"),
  bestPath: figureOf("best-path"),
  attribution: figureOf("attribution"),
  leases: figureOf("leases"),
  instances: figureOf("instances"),
  events: figureOf("events"),
  table: figureOf("programs-table"),
};

/**
 * Opens program `id` in the panel and pins it there; the address gets its permalink.
 * @param {string} id
 */
const select = (id) => {
  state.selected = id;
  state.model.pinned = id;
  state.following = false;
  history.replaceState(null, "", `#program=${encodeURIComponent(id)}`);
  state.dirty = true;
};

/** The panel follows the best program again. */
function followBest() {
  state.following = true;
  state.model.pinned = null;
  history.replaceState(null, "", location.pathname + location.search);
  state.dirty = true;
}

/** The program named by the address's `#program=<id>`, if any. */
function programInHash() {
  const match = /^#program=(.+)$/.exec(location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

const islandsView = new IslandsView($canvas("islands"), select, () => (state.dirty = true));
const fitnessView = new FitnessView($canvas("fitness"), select, $("fitness-legend"));
/** The live near-duplicates at the moment shown, for the panel and the table (computed once per state). */
const nearDuplicates = new NearDuplicates(() => (state.dirty = true));
const programView = new ProgramView($("program"), $("program-caption"), select, () => (state.dirty = true), nearDuplicates);
const eventsView = new EventsView($("events"), $("events-scroll"), /** @type {HTMLSelectElement} */ ($("events-kind")), $("events-count"), select);
const tableView = new TableView($("table-figure"), select, nearDuplicates);
const bestPathView = new BestPathView($("best-path"), $("island-progress"), select, (id) => {
  programView.mode = "parent";
  programView.drawn = "";
  select(id);
  $("program-figure").scrollIntoView({ block: "nearest" });
});
$("table-csv").addEventListener("click", () => tableView.download());
const topView = new TopView($("top"), select);
const treeView = new TreeView($canvas("tree"), /** @type {HTMLSelectElement} */ ($("tree-colour")), select);
$("tree-fit").addEventListener("click", () => treeView.fit());
$("tree-selected").addEventListener("click", () => treeView.centreOn(state.selected ?? state.model.best?.id ?? null));
$("tree-best").addEventListener("click", () => treeView.centreOn(state.model.best?.id ?? null));
heatmapTooltips($canvas("heatmap"));
const diversityView = new DiversityView($canvas("diversity"));
const attributionView = new AttributionView($("attribution"));
const leasesView = new LeasesView($("leases"));
const instancesView = new InstancesView($("instances"), (id) => select(id));
/** Which run (and how far) the operators-and-cost table was last asked about. */
let attributionAsked = "";
const metricsView = new MetricsView(
  $canvas("metrics"),
  {
    x: /** @type {HTMLSelectElement} */ ($("metrics-x")),
    y: /** @type {HTMLSelectElement} */ ($("metrics-y")),
    mode: /** @type {HTMLSelectElement} */ ($("metrics-mode")),
  },
  select,
);

/** @param {string} text */
function status(text) {
  $("status").textContent = text;
}

/** How many events the timeline holds: a saved run's, or as far as the simulation has run. */
function timelineLength() {
  return state.live ? state.liveLength : state.events.length;
}

/**
 * Moves the model to event `k`: forward by applying, backward by rebuilding from the start (the
 * live simulation, which keeps no events, is run again from its settings up to `k`).
 * @param {number} k
 */
function seek(k) {
  const target = Math.max(0, Math.min(k, timelineLength()));
  const { live } = state;
  // Before any event the run's own setup shows (its islands), not a default one.
  const first = live ? live.created : state.events[0];
  if (target < state.model.applied) {
    state.model.reset(first?.event === "created" ? first.config : {});
    live?.restart();
  }
  for (let i = state.model.applied; i < target; i += 1) state.model.apply(live ? live.next() : state.events[i]);
  showEnginesBest();
  state.dirty = true;
}

/** The model's best is the engine's at the model's position: the replay's, or the simulation's. */
function showEnginesBest() {
  if (state.live) state.model.setBest(state.live.bestId());
  else if (state.replay) state.model.setBest(state.replay.bestAfter(state.model.applied));
}

function atEnd() {
  return state.model.applied >= timelineLength();
}

/** Frees the run on show (its engine's memory is wasm's, not the garbage collector's). */
function dropRun() {
  state.live?.simulation?.free();
  state.live = null;
  state.replay?.free();
  state.replay = null;
}

/** @param {Settings} settings */
function startSimulation(settings) {
  pause();
  try {
    dropRun();
    state.live = new LiveRun(settings);
  } catch (e) {
    status(`Cannot start: ${e.message}`);
    return false;
  }
  stopFollowingRun();
  state.following = true;
  state.events = [];
  state.liveLength = 0;
  // Before its first step, the run's own islands show (the form's, not a default).
  state.model.reset(settings.config);
  state.model.fixedRange = null;
  // A live run would otherwise remember every program it ever added.
  state.model.forgetPruned = true;
  advance(0);
  status(`Simulating seed ${settings.seed} with the core (same run as \`evodb demo --seed ${settings.seed}\`).`);
  return true;
}

/** While playing, the simulation's share of a frame (ms) at most, and the steps run between checks. */
const STEP_BUDGET_MS = 8;
/** The frame a playing simulation aims at (ms): 40 frames a second, so that a slow machine
 * still keeps above 30 as frames vary. */
const FRAME_GOAL_MS = 1000 / 40;
const LIVE_BATCH = 10;
/** While playing, the charts (fitness, tree, cells) and lists (events, top) are drawn every this many frames. */
const CHART_EVERY = 3;
/** While playing, the panel showing the same program is rebuilt at most this often (ms). */
const PANEL_EVERY_MS = 250;

/**
 * One unit of play: up to `n` simulation steps live (fewer when a frame's budget runs out while
 * playing), `n` events in replay.
 * @param {number} n
 */
function advance(n) {
  if (state.live && atEnd()) {
    // Up to `n` steps, in small batches while the frame's budget lasts, so a slow machine shows
    // fewer steps per frame rather than fewer frames.
    // What the frame's drawing and the browser's painting leave of the frame goal, within
    // STEP_BUDGET_MS: a machine that draws slowly steps less per frame, at 30 frames a second.
    const rest = FRAME_GOAL_MS - state.frameMs + state.stepMs;
    const budget = Math.min(STEP_BUDGET_MS, Math.max(1, rest));
    const begun = performance.now();
    const deadline = begun + budget;
    for (let done = 0; done < n; ) {
      const batch = Math.min(LIVE_BATCH, n - done);
      for (const event of state.live.step(batch)) state.model.apply(event);
      done += batch;
      if (state.playing && performance.now() > deadline) break;
    }
    state.stepMs = 0.9 * state.stepMs + 0.1 * (performance.now() - begun);
    state.liveLength = state.model.applied;
    showEnginesBest();
    state.dirty = true;
  } else {
    seek(state.model.applied + n);
  }
}

function play() {
  if (!state.live && atEnd()) seek(0);
  state.playing = true;
  state.frames = 0;
  state.playStart = performance.now();
  $("play").textContent = "Pause";
}

function pause() {
  state.playing = false;
  $("play").textContent = "Play";
  // Draw everything once more: a playing run draws its charts only every few frames.
  state.dirty = true;
}

function frame(/** @type {number} */ now) {
  // A frame's whole length, the browser's painting included, smoothed.
  if (state.lastFrame !== undefined) state.frameMs = 0.9 * state.frameMs + 0.1 * Math.min(250, now - state.lastFrame);
  state.lastFrame = now;
  if (state.playing) {
    advance(Number($input("speed").value));
    state.frames += 1;
    if (!state.live && atEnd()) {
      const seconds = (performance.now() - state.playStart) / 1000;
      document.body.dataset.replayFps = (state.frames / seconds).toFixed(1);
      document.body.dataset.replayFrames = String(state.frames);
      pause();
    }
  }
  if (state.dirty) draw();
  requestAnimationFrame(frame);
}

/**
 * Redraws what changed; each view skips itself when what it shows is unchanged. At rest every
 * view is drawn, in view or not (scripts read them); while a run plays only those in view are,
 * the charts and lists every third frame; while a run opens only the views at the top.
 */
function draw() {
  const started = performance.now();
  const { model } = state;
  if (state.following) state.selected = model.best?.id ?? null;
  // While a run plays, the charts and lists are drawn every third frame: they move no slower to
  // the eye, and a frame's cost stays within a slow machine's budget.
  const charts = !state.playing || state.frames % CHART_EVERY === 0;
  /** A view at the top: drawn at rest and while opening, playing only in view. @param {Element} figure */
  const top = (figure) => !state.playing || inView.has(figure);
  /** A view lower down: drawn at rest, playing only in view and on a chart frame, not while opening. @param {Element} figure */
  const lower = (figure) => !state.firstDrawing && charts && (!state.playing || inView.has(figure));
  // The near-duplicates the panel and the table mark: not in a run's first drawing (it shows sooner).
  if (!state.firstDrawing) nearDuplicates.at(model, state.playing);
  if (top(figures.islands)) islandsView.draw(model, state.selected);
  if (charts && top(figures.fitness)) fitnessView.draw(model);
  if (lower(figures.events)) eventsView.draw(model);
  if (lower(figures.top)) topView.draw(model, state.selected);
  if (lower(figures.tree)) treeView.draw(model, state.selected);
  if (lower(figures.table)) tableView.draw(model, state.playing);
  if (lower(figures.bestPath)) bestPathView.draw(model);
  if (lower(figures.metrics)) metricsView.draw(model);
  if (lower(figures.diversity)) diversityView.draw(model);
  if (lower(figures.leases)) leasesView.draw(model);
  // The engine's stats: a saved run's once per change of its history, the simulation's as it runs.
  const asked = state.replay ? `run ${state.events.length}` : `live ${model.counts.added}`;
  const statsShown = lower(figures.attribution) || lower(figures.instances);
  if (asked !== attributionAsked && statsShown && (!state.playing || state.frames % 60 === 0)) {
    attributionAsked = asked;
    const stats = state.replay ? state.replay.stats() : (state.live?.stats() ?? null);
    attributionView.draw(stats);
    instancesView.draw(stats);
  }
  const heatmapKey = `${model.version}|${$canvas("heatmap").clientWidth}|${model.range().join()}`;
  if (heatmapKey !== state.heatmap && lower(figures.heatmap)) {
    state.heatmap = heatmapKey;
    drawHeatmap($canvas("heatmap"), model);
  }
  // The panel: at once when it is to show another program, else at rest or a few times a
  // second (a playing run changes its lineage and badges every frame; rebuilding the panel
  // costs a layout and a paint of half the page).
  if (
    top(figures.program) &&
    (!state.playing || state.selected !== state.panelShows || started - state.panelAt >= PANEL_EVERY_MS)
  ) {
    state.panelShows = state.selected;
    if (programView.draw(model, state.selected, state.following)) state.panelAt = started;
  }
  const position = $input("position");
  position.max = String(timelineLength());
  position.value = String(model.applied);
  $("position-label").textContent = `${model.applied} / ${timelineLength()}`;
  const body = document.body.dataset;
  body.programs = String(model.programs.size);
  body.best = model.best ? String(model.best.fitness) : "";
  body.events = String(timelineLength());
  body.known = String(model.known.size);
  body.position = String(model.applied);
  body.added = String(model.counts.added);
  body.selected = state.selected ?? "";
  body.bestId = model.best?.id ?? "";
  state.dirty = false;
  // For scripts: what a frame's drawing costs, smoothed (it must not grow with the run).
  state.drawMs = 0.9 * state.drawMs + 0.1 * (performance.now() - started);
  body.drawMs = state.drawMs.toFixed(2);
}

/**
 * Opens a saved run from its texts; returns the milliseconds it took to show it (null: it did not
 * open). Shown first: the views at the top. The rest — the views lower down, and the check of
 * the history against the file — follows once that first drawing is on screen; `state.opening`
 * resolves when it is done.
 * @param {string} databaseText
 * @param {string | null} historyText
 * @param {string} name
 */
function openRun(databaseText, historyText, name) {
  const started = performance.now();
  pause();
  /** Where the opening's time goes, for the bench. @type {string[]} */
  const parts = [];
  let live = 0;
  try {
    const run = savedRun(databaseText, historyText);
    const replayed = performance.now();
    parts.push(`engine ${(replayed - started).toFixed(0)}`);
    dropRun();
    state.replay = run.replay;
    state.events = run.events;
    state.runName = name;
    state.model.reset({});
    state.model.forgetPruned = false;
    state.model.fixedRange = fitnessRange(run.events);
    seek(state.events.length);
    parts.push(`model ${(performance.now() - replayed).toFixed(0)}`);
    const note = $("replay-note");
    note.hidden = !run.note;
    note.textContent = run.note ?? "";
    document.body.dataset.replayNote = run.note ? "true" : "false";
    live = state.model.programs.size;
    status(`${name}: ${state.events.length} events, ${live} live programs`);
  } catch (e) {
    status(`Cannot open ${name}: ${e.message}`);
    document.body.dataset.loadError = e.message;
    return null;
  }
  const modelled = performance.now();
  state.firstDrawing = true;
  try {
    draw();
  } finally {
    state.firstDrawing = false;
  }
  const ms = performance.now() - started;
  parts.push(`first drawing ${(performance.now() - modelled).toFixed(0)}`);
  document.body.dataset.loadMs = ms.toFixed(1);
  const events = state.events.length;
  const opening = ++openings;
  state.opening = afterPaint().then(() => {
    const rest = performance.now();
    // Another run opened meanwhile: its own opening finishes it.
    if (opening !== openings) return;
    const fileCount = programsInFile(databaseText);
    const matches = fileCount === live;
    document.body.dataset.replayMatches = String(matches);
    if (!matches) {
      const holds = typeof fileCount === "number" ? `the file holds ${fileCount}` : `the file ${fileCount.problem}`;
      status(`${name}: ${events} events, ${live} live programs — ${holds}; the history and the file disagree`);
    }
    draw();
    parts.push(`the rest ${(performance.now() - rest).toFixed(0)}`);
    document.body.dataset.loadParts = parts.join(", ");
    document.body.dataset.loadAllMs = (performance.now() - started).toFixed(1);
  });
  return ms;
}

/** Runs opened so far: an opening's second half knows whether another run replaced it. */
let openings = 0;

/** Resolves once what is drawn now has been painted (after the next frame). */
function afterPaint() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}


/**
 * The lowest and highest fitness a list of events adds, so a saved run's colours stay put while
 * its timeline moves (null: nothing added).
 * @param {RunEvent[]} events
 * @returns {[number, number] | null}
 */
function fitnessRange(events) {
  let [lo, hi] = [Infinity, -Infinity];
  for (const e of events) {
    if (e.event !== "added") continue;
    lo = Math.min(lo, e.fitness);
    hi = Math.max(hi, e.fitness);
  }
  return lo <= hi ? [lo, hi] : null;
}

function stopFollowingRun() {
  state.stopFollowing?.();
  state.stopFollowing = null;
  $("live-badge").hidden = true;
  document.body.dataset.live = "false";
}

/**
 * Lines appended to the followed run's history: the engine re-runs them after what it has
 * (`Replay.append`), their events join the timeline, and a view at the end of it moves on with
 * them. A line that does not fit the run stops the following, and says why.
 * @param {string} lines
 */
function appended(lines) {
  const replay = /** @type {import("../pkg/evodb.js").Replay} */ (state.replay);
  const atTheEnd = atEnd();
  const before = replay.length;
  try {
    replay.append(lines);
  } catch (e) {
    stopFollowingRun();
    status(`Stopped following the run: ${e.message}`);
    return;
  }
  /** @type {RunEvent[]} */
  const events = JSON.parse(replay.eventsJson(before));
  state.events.push(...events);
  if (state.model.fixedRange) {
    const more = fitnessRange(events);
    if (more) state.model.fixedRange = [Math.min(state.model.fixedRange[0], more[0]), Math.max(state.model.fixedRange[1], more[1])];
  }
  if (atTheEnd) seek(state.events.length);
  state.dirty = true;
  status(`Following the run: ${state.events.length} events, ${state.model.programs.size} live programs.`);
}

/**
 * Another run to compare with: its events applied to a model of its own (the engine re-runs
 * them, as for the run on show), whose best so far and front the charts draw over this run's.
 * @param {FileList} files
 */
async function compareFiles(files) {
  const byName = Object.fromEntries([...files].map((f) => [f.name, f]));
  const database = byName["database.json"] ?? [...files].find((f) => f.name.endsWith(".json"));
  const history = byName["history.ndjson"] ?? [...files].find((f) => f.name.endsWith(".ndjson"));
  const note = $("compare-note");
  note.hidden = false;
  if (!database) {
    note.textContent = "Choose the other run's database.json (and its history.ndjson, if any).";
    return;
  }
  try {
    const run = savedRun(await database.text(), history ? await history.text() : null);
    const other = new Model();
    for (const event of run.events) other.apply(event);
    other.setBest(run.replay.bestAfter(run.events.length));
    run.replay.free();
    const name = history ? `${database.name} + ${history.name}` : database.name;
    fitnessView.compared = { name, model: other };
    metricsView.compared = { name, model: other };
    fitnessView.drawn = "";
    metricsView.redraw();
    const best = other.best ? fmt(other.best.fitness) : "none";
    const mine = state.model.best ? fmt(state.model.best.fitness) : "none";
    note.textContent = `Compared with ${name}: best ${best} after ${other.counts.added} programs (this run: ${mine} after ${state.model.counts.added}).`;
    document.body.dataset.compared = String(other.counts.added);
    state.dirty = true;
  } catch (e) {
    note.textContent = `Cannot compare with ${database.name}: ${e.message}`;
  }
}

/** @param {FileList} files */
async function openFiles(files) {
  const byName = Object.fromEntries([...files].map((f) => [f.name, f]));
  const database = byName["database.json"] ?? [...files].find((f) => f.name.endsWith(".json"));
  if (!database) {
    status("Choose a database.json (and its history.ndjson, if any).");
    return;
  }
  const history = byName["history.ndjson"] ?? [...files].find((f) => f.name.endsWith(".ndjson"));
  stopFollowingRun();
  state.following = true;
  openRun(await database.text(), history ? await history.text() : null, database.name);
  showTab("replay");
}

/**
 * Opens the run at `base` (a URL holding database.json and history.ndjson) and, when its server
 * is `evodb view`, follows it: events written after the page opened are added as they come.
 * @param {string} base
 */
async function openUrl(base) {
  const root = new URL(base, location.href);
  /** @param {string} name */
  const get = async (name) => {
    const response = await fetch(new URL(name, root));
    return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
  };
  const database = await get("database.json");
  if (database === null) {
    status(`No database.json at ${base}`);
    return;
  }
  const history = await get("history.ndjson");
  const decoder = new TextDecoder();
  stopFollowingRun();
  const opened = openRun(decoder.decode(database), history && decoder.decode(history), base);
  showTab("replay");
  if (opened === null || state.events[0]?.event !== "created" || !history) return;
  state.stopFollowing = follow(new URL("history.ndjson", root), history.length, {
    lines: appended,
    live: (on) => {
      $("live-badge").hidden = false;
      $("live-badge").classList.toggle("off", !on);
      $("live-badge").textContent = on ? "live" : "live · reconnecting";
      document.body.dataset.live = String(on);
    },
    restarted: () => openUrl(base),
  });
}

/** @param {"simulate" | "replay"} which */
function showTab(which) {
  for (const name of ["simulate", "replay"]) {
    $(`tab-${name}`).setAttribute("aria-selected", String(name === which));
    $(`panel-${name}`).hidden = name !== which;
  }
}

function wire() {
  const form = $form();
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    startSimulation(settingsFrom(form));
  });
  $("tab-simulate").addEventListener("click", () => showTab("simulate"));
  $("tab-replay").addEventListener("click", () => showTab("replay"));
  $("step").addEventListener("click", () => {
    pause();
    advance(1);
  });
  $("play").addEventListener("click", () => (state.playing ? pause() : play()));
  $("position").addEventListener("input", (e) => {
    pause();
    seek(Number(/** @type {HTMLInputElement} */ (e.target).value));
    if (!state.live && state.runName) {
      status(`${state.runName}: event ${state.model.applied} of ${state.events.length}, ${state.model.programs.size} live programs`);
    }
  });
  $("compare-input").addEventListener("change", (e) => {
    const { files } = /** @type {HTMLInputElement} */ (e.target);
    if (files) compareFiles(files);
  });
  $("file-input").addEventListener("change", (e) => {
    const { files } = /** @type {HTMLInputElement} */ (e.target);
    if (files) openFiles(files);
  });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => e.preventDefault());
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    if (e.dataTransfer) openFiles(e.dataTransfer.files);
  });
  $("follow-best").addEventListener("click", followBest);
  window.addEventListener("resize", () => (state.dirty = true));
  window.addEventListener("hashchange", () => {
    const id = programInHash();
    if (id !== null && id !== state.selected) select(id);
  });
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const shown = state.selected === null ? undefined : state.model.known.get(state.selected);
    if (e.key === "[" && shown && state.model.known.has(shown.parentId)) {
      select(shown.parentId);
    } else if (e.key === "]" && shown && state.model.children.get(shown.id)?.length) {
      select(/** @type {string[]} */ (state.model.children.get(shown.id))[0]);
    } else if (e.key === "Escape") {
      followBest();
    } else if (e.key === " ") {
      e.preventDefault();
      if (state.playing) pause();
      else play();
    } else if (e.key === "s") {
      pause();
      advance(1);
    }
  });
}

/** `?run=<url>` opens a saved run; `?steps=N` plus any form field (`?seed=3`) runs the simulation. */
async function start() {
  const wasm = await init();
  // For scripts: the wasm memory's size (a live run's memory must stay flat).
  setInterval(() => (document.body.dataset.wasmBytes = String(wasm.memory.buffer.byteLength)), 1000);
  wire();
  const params = new URLSearchParams(location.search);
  const run = params.get("run");
  if (run !== null) {
    await openUrl(run);
    await state.opening;
  } else {
    const form = $form();
    for (const [key, value] of params) {
      // By name only: `form.elements[key]` would also find the collection's own `length` or `item`.
      const control = /** @type {HTMLInputElement | null} */ (form.elements.namedItem(key));
      if (control?.type === "checkbox") control.checked = value === "true";
      else if (control) control.value = value;
    }
    if (startSimulation(settingsFrom(form))) {
      const steps = Number(params.get("steps") ?? 0);
      if (steps > 0) advance(steps);
    }
  }
  const linked = programInHash();
  if (linked !== null) select(linked);
  draw();
  document.body.dataset.ready = "true";
  requestAnimationFrame(frame);
}

start().catch((e) => {
  status(`The engine failed to load: ${e.message}`);
  document.body.dataset.error = e.message;
});
