// @ts-check
// How the best got there: the best program's lineage, root first, one step a line — its fitness,
// the gain over its parent, the operator and island that made it, and a one-click diff against
// its parent; and per island, how many programs ago it last improved.

import { fmt, islandLabel, short } from "../model.js";

/** @import { Model } from "../model.js" */

/** The steps listed: the root and at most this many of the last. */
const STEPS_SHOWN = 100;

export class BestPathView {
  /**
   * @param {HTMLElement} element the step list
   * @param {HTMLElement} islands the per-island "last improved" list
   * @param {(id: string) => void} onSelect opens a program
   * @param {(id: string) => void} onDiff opens a program's diff against its parent
   */
  constructor(element, islands, onSelect, onDiff) {
    this.element = element;
    this.islands = islands;
    this.drawn = "";
    this.islandsDrawn = "";
    element.addEventListener("click", (e) => {
      const target = /** @type {HTMLElement} */ (e.target);
      const diff = target.closest("[data-diff]");
      if (diff instanceof HTMLElement && diff.dataset.diff) {
        onDiff(diff.dataset.diff);
        return;
      }
      const pick = target.closest("[data-id]");
      if (pick instanceof HTMLElement && pick.dataset.id) onSelect(pick.dataset.id);
    });
    islands.addEventListener("click", (e) => {
      const pick = /** @type {HTMLElement} */ (e.target).closest("[data-id]");
      if (pick instanceof HTMLElement && pick.dataset.id) onSelect(pick.dataset.id);
    });
  }

  /** @param {Model} model */
  draw(model) {
    this.steps(model);
    this.improved(model);
  }

  /** The best's lineage, root first, with each step's gain. @param {Model} model */
  steps(model) {
    const best = model.best;
    const key = `${best?.id}|${best?.fitness}`;
    if (key === this.drawn) return;
    this.drawn = key;
    if (!best) {
      const empty = document.createElement("p");
      empty.className = "empty";
      empty.textContent = "No best program yet.";
      this.element.replaceChildren(empty);
      this.element.dataset.steps = "0";
      return;
    }
    const { chain, complete } = model.lineage(best.id);
    const items = [];
    if (!complete) {
      const li = document.createElement("li");
      li.className = "missing";
      li.textContent = "ancestors before this one are not in the file";
      items.push(li);
    }
    // A lineage thousands deep shows its root and its last steps (the family tree has them all).
    const hidden = chain.length > STEPS_SHOWN ? chain.length - STEPS_SHOWN : 0;
    chain.forEach((p, i) => {
      if (hidden > 0 && i > 0 && i <= hidden) {
        if (i === 1) {
          const li = document.createElement("li");
          li.className = "missing";
          li.textContent = `… ${hidden} more steps (the family tree shows every one)`;
          items.push(li);
        }
        return;
      }
      const parent = i > 0 ? chain[i - 1] : undefined;
      const li = document.createElement("li");
      li.dataset.step = String(i);
      const open = document.createElement("button");
      open.type = "button";
      open.dataset.id = p.id;
      open.className = "step-open";
      open.textContent = `#${p.candidate} ${short(p.id)}`;
      const fitness = document.createElement("span");
      fitness.className = "step-fitness";
      fitness.textContent = fmt(p.fitness);
      const gain = document.createElement("span");
      gain.className = "step-gain";
      if (parent) {
        const delta = p.fitness - parent.fitness;
        gain.textContent = `${delta >= 0 ? "+" : "−"}${fmt(Math.abs(delta))}`;
        gain.classList.add(delta > 0 ? "up" : delta < 0 ? "down" : "flat");
      } else {
        gain.textContent = "root";
      }
      const how = document.createElement("span");
      how.className = "step-how";
      how.textContent = `${p.operator ?? "—"} · ${islandLabel(model, p.island)}`;
      how.title = p.changes;
      li.append(open, fitness, gain, how);
      if (parent) {
        const diff = document.createElement("button");
        diff.type = "button";
        diff.dataset.diff = p.id;
        diff.className = "step-diff";
        diff.textContent = "diff";
        diff.title = `${short(p.id)} against its parent ${short(parent.id)}`;
        li.append(diff);
      } else {
        li.append(document.createElement("span"));
      }
      const changes = document.createElement("span");
      changes.className = "step-changes";
      changes.textContent = p.changes.split("\n")[0];
      li.append(changes);
      items.push(li);
    });
    this.element.replaceChildren(...items);
    this.element.dataset.steps = String(chain.length);
  }

  /** Per island: its best now, and how many programs ago it last improved. @param {Model} model */
  improved(model) {
    const key = `${model.counts.added}|${model.islandStats.map((s) => `${s.best?.id}:${s.improvedAt}`).join()}`;
    if (key === this.islandsDrawn) return;
    this.islandsDrawn = key;
    // One button per island, made once and updated in place (this runs as often as the run moves).
    const items = /** @type {HTMLButtonElement[]} */ ([...this.islands.querySelectorAll("button")]);
    if (items.length !== model.islandStats.length) {
      this.islands.replaceChildren(
        ...model.islandStats.map((_, island) => {
          const li = document.createElement("li");
          li.dataset.island = String(island);
          const button = document.createElement("button");
          button.type = "button";
          li.append(button);
          items[island] = button;
          return li;
        }),
      );
      items.length = model.islandStats.length;
    }
    model.islandStats.forEach((stats, island) => {
      const button = items[island];
      const li = /** @type {HTMLElement} */ (button.parentElement);
      const ago = stats.improvedAt === null ? null : model.counts.added - stats.improvedAt;
      li.dataset.ago = ago === null ? "" : String(ago);
      const label = islandLabel(model, island);
      const when = ago === 0 ? "by the newest program" : `${ago} program${ago === 1 ? "" : "s"} ago`;
      button.textContent = ago === null ? `${label}: nothing yet` : `${label}: best ${fmt(stats.best?.fitness)}, last improved ${when}`;
      if (stats.best) button.dataset.id = stats.best.id;
      else delete button.dataset.id;
      button.disabled = !stats.best;
    });
  }
}
