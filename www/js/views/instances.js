// @ts-check
// Per-instance coverage: the engine's own `stats.instances` for the run (a saved run after its
// last event, the live simulation as it stands), once its programs carry `--instanceScores`.
// One square per instance, shaded by the best score any live program reached on it (darker is
// higher), with the instance, its best, the fittest program reaching it and how many reach it
// in the tooltip; a click opens that program. Below, the instance front (the programs best on
// some instance, most instances led first), each a button. Nothing is counted here.

import { fmt } from "../model.js";

/** @typedef {import("../../pkg/evodb.js").Stats} Stats */
/** @typedef {import("../../pkg/evodb.js").InstanceCoverage} InstanceCoverage */

export class InstancesView {
  /**
   * @param {HTMLElement} root
   * @param {(id: string) => void} open called with a program's id when its square or button is clicked
   */
  constructor(root, open) {
    this.root = root;
    this.open = open;
    this.drawn = "";
  }

  /** @param {Stats | null} stats */
  draw(stats) {
    const instances = stats?.instances ?? null;
    const key = JSON.stringify(instances);
    if (key === this.drawn) return;
    this.drawn = key;
    this.root.dataset.instances = String(instances?.instanceCount ?? 0);
    if (!instances) {
      const p = document.createElement("p");
      p.className = "muted";
      p.textContent = "No per-instance scores: a run reports them with add --instanceScores (see docs/objectives.md).";
      this.root.replaceChildren(p);
      return;
    }
    const summary = document.createElement("p");
    summary.className = "cost-totals";
    summary.textContent =
      `${instances.instanceCount} instances; the front of ${instances.frontSize} program${instances.frontSize === 1 ? "" : "s"} ` +
      `reaches a mean best of ${fmt(instances.meanBest)}.`;
    const bests = instances.coverage.map((row) => row.best);
    const [low, high] = [Math.min(...bests), Math.max(...bests)];
    const grid = document.createElement("div");
    grid.className = "instance-grid";
    grid.setAttribute("role", "list");
    for (const row of instances.coverage) grid.append(this.square(row, low, high));
    const front = document.createElement("p");
    front.className = "instance-front";
    front.append("Front: ");
    for (const id of instances.front) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "link";
      button.textContent = id.length > 12 ? `${id.slice(0, 8)}…` : id;
      button.title = id;
      button.addEventListener("click", () => this.open(id));
      front.append(button, " ");
    }
    this.root.replaceChildren(summary, grid, front);
  }

  /**
   * @param {InstanceCoverage} row
   * @param {number} low
   * @param {number} high
   */
  square(row, low, high) {
    const square = document.createElement("button");
    square.type = "button";
    square.className = "instance";
    square.setAttribute("role", "listitem");
    const share = high > low ? (row.best - low) / (high - low) : 1;
    square.style.setProperty("--share", `${Math.round(share * 100)}%`);
    square.dataset.instance = row.instance;
    square.dataset.best = String(row.best);
    const reach = `${row.leaders} of ${row.scored} program${row.scored === 1 ? "" : "s"} reach it`;
    square.title = `${row.instance}: best ${fmt(row.best)} by ${row.leader} (${reach})`;
    square.setAttribute("aria-label", square.title);
    square.addEventListener("click", () => this.open(row.leader));
    return square;
  }
}
