// @ts-check
// The DOM lists: the newest events and the top programs. Each redraws only when its content
// changed, so a frame costs the same however long the run is.

import { fmt, short } from "../model.js";

/** @import { Model } from "../model.js" */
/** @import { LogEntry, Program } from "../types.js" */

const SHOWN = new Set(["added", "migrated", "evicted", "archive", "error", "cached", "created", "planned"]);

export class EventsView {
  /**
   * @param {HTMLElement} element
   * @param {(id: string) => void} onSelect
   */
  constructor(element, onSelect) {
    this.element = element;
    this.drawn = -1;
    element.addEventListener("click", (e) => {
      const pick = /** @type {HTMLElement} */ (e.target).closest("[data-id]");
      if (pick instanceof HTMLElement && pick.dataset.id) onSelect(pick.dataset.id);
    });
  }

  /**
   * The newest events first (at most 100); an event about a program opens it.
   * @param {Model} model
   */
  draw(model) {
    if (this.drawn === model.logVersion) return;
    this.drawn = model.logVersion;
    /** @type {LogEntry[]} */
    const entries = [];
    for (let i = model.log.length - 1; i >= 0 && entries.length < 100; i -= 1) {
      if (SHOWN.has(model.log[i].kind)) entries.push(model.log[i]);
    }
    this.element.replaceChildren(
      ...entries.map((e) => {
        const li = document.createElement("li");
        li.className = `event-${e.kind}`;
        if (e.id && model.known.has(e.id)) {
          const button = document.createElement("button");
          button.type = "button";
          button.dataset.id = e.id;
          button.textContent = `${e.at}. ${e.text}`;
          li.append(button);
        } else {
          li.textContent = `${e.at}. ${e.text}`;
        }
        return li;
      }),
    );
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
        button.setAttribute("aria-pressed", String(p.id === selected));
        return button;
      }),
    );
  }
}

/**
 * The `k` fittest accepted programs, best first, in one pass (a run can hold tens of thousands).
 * @param {Iterable<Program>} programs
 * @param {number} k
 */
function best(programs, k) {
  /** @type {Program[]} */
  const top = [];
  for (const p of programs) {
    if (p.status === "rejected") continue;
    if (top.length === k && p.fitness <= top[k - 1].fitness) continue;
    let i = top.length;
    while (i > 0 && top[i - 1].fitness < p.fitness) i -= 1;
    top.splice(i, 0, p);
    if (top.length > k) top.pop();
  }
  return top;
}
