// @ts-check
// The playground: one event list (from the live simulation or a saved run), a position on it,
// and the model of the population at that position, drawn by the views once per frame.

import init from "../pkg/evodb.js";
import { Model } from "./model.js";
import { LiveRun, savedRun, settingsFrom } from "./sources.js";
import { IslandsView } from "./views/islands.js";
import { drawFitness } from "./views/fitness.js";
import { drawHeatmap } from "./views/heatmap.js";
import { drawEvents, drawLineage, drawTop } from "./views/panels.js";

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
 * @type {{model: Model, events: RunEvent[], live: LiveRun | null, playing: boolean,
 *   selected: string | null, dirty: boolean, frames: number, playStart: number}}
 */
const state = {
  model: new Model(),
  events: [],
  live: null,
  playing: false,
  selected: null,
  dirty: true,
  frames: 0,
  playStart: 0,
};

/** @param {string} id */
const select = (id) => {
  state.selected = id;
  state.dirty = true;
};
const islandsView = new IslandsView($canvas("islands"), select);

/** @param {string} text */
function status(text) {
  $("status").textContent = text;
}

/**
 * Moves the model to event `k`: forward by applying, backward by rebuilding from the start.
 * @param {number} k
 */
function seek(k) {
  const target = Math.max(0, Math.min(k, state.events.length));
  if (target < state.model.applied) state.model.reset({});
  for (let i = state.model.applied; i < target; i += 1) state.model.apply(state.events[i]);
  state.dirty = true;
}

function atEnd() {
  return state.model.applied >= state.events.length;
}

/** @param {Settings} settings */
function startSimulation(settings) {
  pause();
  try {
    state.live = new LiveRun(settings);
  } catch (e) {
    status(`Cannot start: ${e.message}`);
    return false;
  }
  state.events = state.live.step(0);
  state.model.reset({});
  state.selected = null;
  seek(state.events.length);
  status(`Simulating seed ${settings.seed} with the core (same run as \`evodb demo --seed ${settings.seed}\`).`);
  return true;
}

/**
 * One unit of play: `n` simulation steps live, `n` events in replay.
 * @param {number} n
 */
function advance(n) {
  if (state.live && atEnd()) {
    state.events.push(...state.live.step(n));
    seek(state.events.length);
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
}

function frame() {
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

function draw() {
  const { model } = state;
  if (state.selected === null || !model.known.has(state.selected)) state.selected = model.best?.id ?? null;
  islandsView.draw(model, state.selected);
  drawFitness($canvas("fitness"), model);
  drawHeatmap($canvas("heatmap"), model);
  drawLineage($("lineage"), $("lineage-caption"), model, state.selected);
  drawEvents($("events"), model);
  drawTop($("top"), model, state.selected, select);
  const position = $input("position");
  position.max = String(state.events.length);
  position.value = String(model.applied);
  $("position-label").textContent = `${model.applied} / ${state.events.length}`;
  const body = document.body.dataset;
  body.programs = String(model.programs.size);
  body.best = model.best ? String(model.best.fitness) : "";
  body.events = String(state.events.length);
  body.position = String(model.applied);
  body.added = String(model.counts.added);
  state.dirty = false;
}

/**
 * Opens a saved run from its texts; returns the milliseconds it took to show it (null: it did not open).
 * @param {string} databaseText
 * @param {string | null} historyText
 * @param {string} name
 */
function openRun(databaseText, historyText, name) {
  const started = performance.now();
  pause();
  try {
    const run = savedRun(databaseText, historyText);
    state.live = null;
    state.events = run.events;
    state.model.reset({});
    state.selected = null;
    seek(state.events.length);
    const note = $("replay-note");
    note.hidden = !run.note;
    note.textContent = run.note ?? "";
    document.body.dataset.replayNote = run.note ? "true" : "false";
    const fileCount = Object.keys(run.file.programs ?? {}).length;
    const matches = fileCount === state.model.programs.size;
    document.body.dataset.replayMatches = String(matches);
    status(
      `${name}: ${state.events.length} events, ${state.model.programs.size} live programs` +
        (matches ? "" : ` — the file holds ${fileCount}; the history and the file disagree`),
    );
  } catch (e) {
    status(`Cannot open ${name}: ${e.message}`);
    document.body.dataset.loadError = e.message;
    return null;
  }
  draw();
  const ms = performance.now() - started;
  document.body.dataset.loadMs = ms.toFixed(1);
  return ms;
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
  openRun(await database.text(), history ? await history.text() : null, database.name);
  showTab("replay");
}

/** @param {string} base */
async function openUrl(base) {
  /** @param {string} name */
  const get = async (name) => {
    const response = await fetch(new URL(name, new URL(base, location.href)));
    return response.ok ? response.text() : null;
  };
  const databaseText = await get("database.json");
  if (databaseText === null) {
    status(`No database.json at ${base}`);
    return;
  }
  openRun(databaseText, await get("history.ndjson"), base);
  showTab("replay");
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
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === " ") {
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
  await init();
  wire();
  const params = new URLSearchParams(location.search);
  const run = params.get("run");
  if (run !== null) {
    await openUrl(run);
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
  draw();
  document.body.dataset.ready = "true";
  requestAnimationFrame(frame);
}

start().catch((e) => {
  status(`The engine failed to load: ${e.message}`);
  document.body.dataset.error = e.message;
});
