// @ts-check
// The DOM lists: the newest events and the top programs. Each redraws only when its content
// changed, so a frame costs the same however long the run is.

import { byRank, fmt, islandLabel, short } from "../model.js";

/** @import { Model } from "../model.js" */
/** @import { LogEntry, Program } from "../types.js" */

/** The kinds listed under "every kind" (sampling, holds and notes only with their own filter). */
const SHOWN = new Set(["added", "rejected", "migrated", "evicted", "archive", "error", "cached", "created", "planned", "remeasured"]);
/** A line's height in pixels (style.css `.events li`). */
const LINE_HEIGHT = 18;

export class EventsView {
  /**
   * Every line of the run, newest first, filtered by kind; only the lines in view are in the
   * page, so a 60,000-event run scrolls as a short one does.
   * @param {HTMLElement} element the list
   * @param {HTMLElement} scroller its scrolling box
   * @param {HTMLSelectElement} kind the kind filter
   * @param {HTMLElement} count where "n events" goes
   * @param {(id: string) => void} onSelect
   */
  constructor(element, scroller, kind, count, onSelect) {
    this.element = element;
    this.scroller = scroller;
    this.kind = kind;
    this.count = count;
    this.drawn = "";
    this.window = "";
    /** @type {LogEntry[] | null} the log matched so far */
    this.log = null;
    /** @type {LogEntry | undefined} its first line when matched (the live log drops old lines) */
    this.first = undefined;
    this.kindShown = "";
    /** @type {number[]} positions in the log of the lines shown, oldest first */
    this.matched = [];
    /** How much of the log is matched. */
    this.scanned = 0;
    /** @type {Model | null} */
    this.model = null;
    element.addEventListener("click", (e) => {
      const pick = /** @type {HTMLElement} */ (e.target).closest("[data-id]");
      if (pick instanceof HTMLElement && pick.dataset.id) onSelect(pick.dataset.id);
    });
    // The scroll position and height, kept as they change, so drawing reads no layout.
    this.top = 0;
    this.height = 240;
    scroller.addEventListener("scroll", () => {
      this.top = scroller.scrollTop;
      this.lines();
    });
    new ResizeObserver(() => {
      this.height = scroller.clientHeight || 240;
      this.lines();
    }).observe(scroller);
    kind.addEventListener("input", () => {
      this.drawn = "";
      scroller.scrollTop = 0;
      this.top = 0;
      if (this.model) this.draw(this.model);
    });
  }

  /**
   * The newest events first; an event about a program opens it.
   * @param {Model} model
   */
  draw(model) {
    this.model = model;
    const key = `${model.logVersion}|${this.kind.value}`;
    if (this.drawn === key) return;
    this.drawn = key;
    const kind = this.kind.value;
    const log = model.log;
    // The log only grows between resets (the live simulation's also drops its oldest lines), so
    // only new lines are matched: a frame costs the same at event 60,000 as at event 60.
    if (log !== this.log || log[0] !== this.first || kind !== this.kindShown || log.length < this.scanned) {
      this.log = log;
      this.first = log[0];
      this.kindShown = kind;
      this.matched = [];
      this.scanned = 0;
    }
    for (let i = this.scanned; i < log.length; i += 1) {
      const k = log[i].kind;
      if (kind ? k === kind : SHOWN.has(k)) this.matched.push(i);
    }
    this.scanned = log.length;
    const n = this.matched.length;
    this.element.style.height = `${n * LINE_HEIGHT}px`;
    this.element.dataset.lines = String(n);
    this.count.textContent = `${n} lines`;
    this.window = "";
    this.lines();
  }

  /** Draws the lines in view, and a few around them. */
  lines() {
    const model = this.model;
    if (!model) return;
    const first = Math.max(0, Math.floor(this.top / LINE_HEIGHT) - 10);
    const log = this.log ?? [];
    const n = this.matched.length;
    const last = Math.min(n, Math.ceil((this.top + this.height) / LINE_HEIGHT) + 10);
    const key = `${first}|${last}|${this.drawn}`;
    if (key === this.window) return;
    this.window = key;
    const items = [];
    for (let i = first; i < last; i += 1) {
      // Newest first: the i-th line shown is the i-th matched line from the end.
      const e = log[this.matched[n - 1 - i]];
      const li = document.createElement("li");
      li.className = `event-${e.kind}`;
      li.style.top = `${i * LINE_HEIGHT}px`;
      const text = `${e.at}. ${e.text}`;
      li.title = text;
      if (e.id && model.known.has(e.id)) {
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.id = e.id;
        button.textContent = text;
        li.append(button);
      } else {
        li.textContent = text;
      }
      items.push(li);
    }
    this.element.replaceChildren(...items);
  }
}

export class TopView {
  /**
   * @param {HTMLElement} element
   * @param {(id: string) => void} onSelect
   */
  constructor(element, onSelect) {
    this.element = element;
    this.drawn = "";
    element.addEventListener("click", (e) => {
      const pick = /** @type {HTMLElement} */ (e.target).closest("[data-id]");
      if (pick instanceof HTMLElement && pick.dataset.id) onSelect(pick.dataset.id);
    });
  }

  /**
   * The ten best live accepted programs, best first (rejected ones are not candidates for best).
   * @param {Model} model
   * @param {string | null} selected
   */
  draw(model, selected) {
    const key = `${model.version}|${selected}`;
    if (key === this.drawn) return;
    this.drawn = key;
    const top = best(model.programs.values(), 10);
    if (top.length === 0) {
      const empty = document.createElement("p");
      empty.className = "empty";
      empty.textContent = "No accepted program yet.";
      this.element.replaceChildren(empty);
      return;
    }
    this.element.replaceChildren(
      ...top.map((p) => {
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.id = p.id;
        const by = p.operator ? ` · ${p.operator}` : "";
        button.textContent = `${short(p.id)} · ${fmt(p.fitness)} · island ${p.island}${by}`;
        button.title = `${p.id}\nfitness ${fmt(p.fitness)}, ${islandLabel(model, p.island)}${by}`;
        button.setAttribute("aria-pressed", String(p.id === selected));
        return button;
      }),
    );
  }
}

/**
 * The `k` fittest accepted programs, best first as the engine ranks them (a tie to the later
 * program), in one pass (a run can hold tens of thousands).
 * @param {Iterable<Program>} programs
 * @param {number} k
 */
function best(programs, k) {
  /** @type {Program[]} */
  const top = [];
  for (const p of programs) {
    if (p.status !== "accepted") continue;
    if (top.length === k && byRank(p, top[k - 1]) >= 0) continue;
    let i = top.length;
    while (i > 0 && byRank(p, top[i - 1]) < 0) i -= 1;
    top.splice(i, 0, p);
    if (top.length > k) top.pop();
  }
  return top;
}
