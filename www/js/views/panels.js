// @ts-check
// The DOM views: the lineage of the selected program, the event list, the top programs.

import { fmt, short } from "../model.js";

/** @import { Model } from "../model.js" */
/** @import { Program } from "../types.js" */

/**
 * Ancestors of the selected program, root first, each with its changes; the program's code.
 * @param {HTMLElement} element
 * @param {HTMLElement} caption
 * @param {Model} model
 * @param {string | null} selected
 */
export function drawLineage(element, caption, model, selected) {
  const program = selected === null ? undefined : model.known.get(selected);
  element.replaceChildren();
  if (!program) {
    caption.textContent = "— nothing selected";
    return;
  }
  caption.textContent = program === model.best ? "of the best program" : `of ${short(program.id)}`;
  const { chain, complete } = model.lineage(program.id);
  const list = document.createElement("ol");
  if (!complete) list.append(item("ancestors before this one are not in the file", "missing"));
  for (const p of chain) {
    const li = item(`#${p.iteration} ${short(p.id)} · fitness ${fmt(p.fitness)} · ${p.changes || "—"}`, "");
    if (!model.programs.has(p.id)) li.classList.add("gone");
    list.append(li);
  }
  const metrics = document.createElement("p");
  metrics.className = "metrics";
  metrics.textContent = Object.entries(program.metrics ?? {})
    .map(([k, v]) => `${k}: ${fmt(v)}`)
    .join(" · ");
  const code = document.createElement("pre");
  code.textContent = program.code;
  element.append(list, metrics, code);
}

/**
 * @param {string} text
 * @param {string} className
 */
function item(text, className) {
  const li = document.createElement("li");
  li.textContent = text;
  if (className) li.className = className;
  return li;
}

const SHOWN = new Set(["added", "migrated", "evicted", "archive", "error", "cached", "created", "planned"]);

/**
 * The newest events first (at most 100).
 * @param {HTMLElement} element
 * @param {Model} model
 */
export function drawEvents(element, model) {
  const entries = model.log.filter((e) => SHOWN.has(e.kind)).slice(-100).reverse();
  element.replaceChildren(...entries.map((e) => item(`${e.at}. ${e.text}`, `event-${e.kind}`)));
}

/**
 * The ten best live programs as buttons that select them.
 * @param {HTMLElement} element
 * @param {Model} model
 * @param {string | null} selected
 * @param {(id: string) => void} onSelect
 */
export function drawTop(element, model, selected, onSelect) {
  const top = best(model.programs.values(), 10);
  element.replaceChildren(
    ...top.map((p) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `${short(p.id)} · ${fmt(p.fitness)} · island ${p.island}`;
      button.setAttribute("aria-pressed", String(p.id === selected));
      button.addEventListener("click", () => onSelect(p.id));
      return button;
    }),
  );
}

/**
 * The `k` fittest of `programs`, best first, in one pass (a run can hold tens of thousands).
 * @param {Iterable<Program>} programs
 * @param {number} k
 */
function best(programs, k) {
  /** @type {Program[]} */
  const top = [];
  for (const p of programs) {
    if (top.length === k && p.fitness <= top[k - 1].fitness) continue;
    let i = top.length;
    while (i > 0 && top[i - 1].fitness < p.fitness) i -= 1;
    top.splice(i, 0, p);
    if (top.length > k) top.pop();
  }
  return top;
}
