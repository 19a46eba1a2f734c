// @ts-check
// Operators and cost: the engine's own `stats.attribution` and `stats.cost` for the run (a saved
// run after its last event, the live simulation as it stands): per operator × model × island,
// the candidates, failed evaluations, improvements over the parent, improvement rate, dollars and
// dollars per improvement, best rate first; and the run's totals. Nothing is counted here.

import { fmt } from "../model.js";

/** @typedef {import("../../pkg/evodb.js").Stats} Stats */
/** @typedef {import("../../pkg/evodb.js").Attribution} Attribution */

export class AttributionView {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.drawn = "";
  }

  /** @param {Stats | null} stats */
  draw(stats) {
    const rows = stats?.attribution ?? [];
    const key = JSON.stringify([rows, stats?.cost ?? null]);
    if (key === this.drawn) return;
    this.drawn = key;
    this.root.dataset.rows = String(rows.length);
    if (rows.length === 0) {
      const p = document.createElement("p");
      p.className = "muted";
      p.textContent = "No operator or cost counts: a run counts them once its operators are on or an add reports a cost.";
      this.root.replaceChildren(p);
      return;
    }
    const cost = stats?.cost;
    const totals = document.createElement("p");
    totals.className = "cost-totals";
    totals.textContent = cost
      ? `Spent $${money(cost.costUsd)}, ${cost.tokensIn.toLocaleString("en")} tokens in, ${cost.tokensOut.toLocaleString("en")} out, ${fmt(cost.evalSeconds)} s evaluating.`
      : "";
    this.root.dataset.costUsd = cost ? String(cost.costUsd) : "";
    const table = document.createElement("table");
    table.className = "attribution";
    const head = table.createTHead().insertRow();
    for (const title of ["operator", "model", "island", "candidates", "errors", "improved", "rate", "$", "$ per improvement"]) {
      const th = document.createElement("th");
      th.textContent = title;
      head.append(th);
    }
    const body = table.createTBody();
    const sorted = [...rows].sort((a, b) => b.improvementRate - a.improvementRate || b.candidates - a.candidates);
    for (const row of sorted) {
      const tr = body.insertRow();
      const cells = [
        row.operator ?? "—",
        row.model ?? "—",
        row.island === null ? "—" : String(row.island),
        String(row.candidates),
        String(row.errors),
        String(row.improvements),
        `${(row.improvementRate * 100).toFixed(0)}%`,
        money(row.costUsd),
        row.costPerImprovement === null ? "—" : money(row.costPerImprovement),
      ];
      for (const text of cells) tr.insertCell().textContent = text;
    }
    this.root.replaceChildren(totals, table);
  }
}

/** @param {number} usd */
function money(usd) {
  return usd >= 100 ? usd.toFixed(0) : usd >= 1 ? usd.toFixed(2) : usd.toFixed(4);
}
