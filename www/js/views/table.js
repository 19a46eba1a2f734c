// @ts-check
// Every program the run added — live, pruned, rejected and failed — as one table: searched over
// code and changes, filtered by status, island, operator and generation, sorted by any column
// (fitness as the engine ranks, a tie to the later program), exported as CSV. Only the rows in
// view are in the page, so 20,000 programs scroll as smoothly as 20. Above it, the failures
// counted: errors and rejections in all, per island and per operator. A live program that is a
// near-duplicate of an earlier live one (the engine's rule, at the moment shown) is marked
// `≈ #12 (0.953125)`, and the status filter "near-duplicates" shows them with what they are near.

import { byRank, fmt, islandLabel, short } from "../model.js";
import { nearMark } from "../nearduplicates.js";

/** @import { Model } from "../model.js" */
/** @import { NearDuplicates } from "../nearduplicates.js" */
/** @import { Program } from "../types.js" */

/** A row's height in pixels (style.css `.ptable-row` has the same). */
export const ROW_HEIGHT = 22;
/** Rows drawn beyond the visible ones, above and below, so a fast scroll shows no gap. */
const OVERSCAN = 8;
/** While a run plays, the table is rebuilt at most this often (ms). */
const PLAYING_EVERY_MS = 500;

/** What a program is now: failed, rejected, live, or pruned (accepted, no longer live). */
/** @typedef {"error" | "rejected" | "live" | "pruned"} RowState */

/**
 * @typedef {object} Column
 * @property {string} key
 * @property {string} label
 * @property {string} width a CSS grid track
 * @property {(p: Program, model: Model) => string} text
 * @property {((p: Program, model: Model) => number | string | null)} [value] what it sorts by (none: by rank)
 * @property {boolean} [numeric]
 */

/**
 * @param {Program} p
 * @param {Model} model
 * @returns {RowState}
 */
export function rowState(p, model) {
  if (p.status === "error") return "error";
  if (p.status === "rejected") return "rejected";
  return model.programs.has(p.id) ? "live" : "pruned";
}

export class TableView {
  /**
   * @param {HTMLElement} root the figure holding the table's controls and body
   * @param {(id: string) => void} onSelect
   * @param {NearDuplicates} near the live near-duplicates at the moment shown (the page keeps it current)
   */
  constructor(root, onSelect, near) {
    this.near = near;
    const get = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (root.querySelector(selector));
    this.search = /** @type {HTMLInputElement} */ (get(".table-search"));
    this.status = /** @type {HTMLSelectElement} */ (get(".table-status"));
    this.island = /** @type {HTMLSelectElement} */ (get(".table-island"));
    this.operator = /** @type {HTMLSelectElement} */ (get(".table-operator"));
    this.generation = /** @type {HTMLInputElement} */ (get(".table-generation"));
    this.tally = get(".failures");
    this.scroller = get(".ptable");
    this.head = get(".ptable-head");
    this.body = get(".ptable-body");
    this.shownCount = get(".table-count");
    /** @type {Program[]} the filtered rows, sorted */
    this.rows = [];
    /** @type {Column[]} */
    this.columns = [];
    this.sortKey = "fitness";
    this.descending = true;
    this.built = "";
    this.builtAt = 0;
    this.drawnWindow = "";
    this.islandsDrawn = "";
    this.operatorsDrawn = "";
    /** @type {Model | null} */
    this.model = null;
    /** Lower-cased code and changes per program, for the search. @type {WeakMap<Program, string>} */
    this.haystack = new WeakMap();
    const changed = () => {
      this.built = "";
      if (this.model) this.draw(this.model, false);
    };
    for (const control of [this.search, this.status, this.island, this.operator, this.generation]) {
      control.addEventListener("input", changed);
    }
    this.scroller.addEventListener("scroll", () => this.window());
    // Whether the table is in sight, without reading the layout in every frame.
    this.visible = false;
    new IntersectionObserver((entries) => {
      this.visible = entries.some((entry) => entry.isIntersecting);
      if (this.visible && this.model) this.draw(this.model, false);
    }).observe(this.scroller);
    this.head.addEventListener("click", (e) => {
      const button = /** @type {HTMLElement} */ (e.target).closest("[data-sort]");
      if (!(button instanceof HTMLElement) || !button.dataset.sort) return;
      if (this.sortKey === button.dataset.sort) this.descending = !this.descending;
      else {
        this.sortKey = button.dataset.sort;
        // Numbers read best-first; words alphabetically.
        this.descending = this.columns.find((c) => c.key === this.sortKey)?.numeric ?? false;
      }
      changed();
    });
    this.body.addEventListener("click", (e) => {
      const row = /** @type {HTMLElement} */ (e.target).closest("[data-id]");
      if (row instanceof HTMLElement && row.dataset.id) onSelect(row.dataset.id);
    });
    this.body.addEventListener("keydown", (e) => {
      const row = /** @type {HTMLElement} */ (e.target).closest("[data-id]");
      if (e.key === "Enter" && row instanceof HTMLElement && row.dataset.id) onSelect(row.dataset.id);
    });
    this.tally.addEventListener("click", (e) => {
      const pick = /** @type {HTMLElement} */ (e.target).closest("[data-filter]");
      if (!(pick instanceof HTMLElement)) return;
      const [status, island, operator] = (pick.dataset.filter ?? "").split("|");
      this.status.value = status;
      this.island.value = island;
      this.operator.value = operator;
      changed();
      this.scroller.scrollIntoView({ block: "nearest" });
    });
  }

  /**
   * Rebuilds the rows when the run or a control changed, then draws the rows in view.
   * @param {Model} model
   * @param {boolean} playing while playing, rebuilt at most every PLAYING_EVERY_MS
   */
  draw(model, playing) {
    this.model = model;
    const key = `${model.version}|${this.near.generation}|${model.known.size}|${this.search.value}|${this.status.value}|${this.island.value}|${this.operator.value}|${this.generation.value}|${this.sortKey}|${this.descending}`;
    if (key === this.built) return;
    // Out of sight it waits (scrubbing or playing a 20,000-program run stays quick); the page's
    // scroll brings it up to date when it comes into view.
    if (!this.visible) return;
    if (playing && performance.now() - this.builtAt < PLAYING_EVERY_MS) return;
    this.built = key;
    this.builtAt = performance.now();
    const all = [...model.known.values()];
    this.options(model, all);
    const near = this.near;
    this.columns = columnsFor(all, near);
    this.counts(model, all);
    this.rows = this.filter(model, all);
    this.sort(model);
    this.header();
    this.scroller.dataset.total = String(all.length);
    this.scroller.dataset.rows = String(this.rows.length);
    this.scroller.dataset.nearDuplicates = String(near.byId.size);
    this.shownCount.textContent = this.rows.length === all.length ? `${all.length} programs` : `${this.rows.length} of ${all.length} programs`;
    this.body.style.height = `${this.rows.length * ROW_HEIGHT}px`;
    this.drawnWindow = "";
    this.window();
  }

  /** The island and operator choices, kept when the run has not changed them. @param {Model} model @param {Program[]} all */
  options(model, all) {
    const islands = Array.from({ length: model.numIslands }, (_, i) => i);
    const islandKey = islands.map((i) => model.islandName(i) ?? "").join("|") + `|${islands.length}`;
    if (islandKey !== this.islandsDrawn) {
      this.islandsDrawn = islandKey;
      const keep = this.island.value;
      this.island.replaceChildren(option("", "any"), ...islands.map((i) => option(String(i), islandLabel(model, i))));
      this.island.value = islands.includes(Number(keep)) && keep !== "" ? keep : "";
    }
    const operators = [...new Set(all.map((p) => String(p.operator ?? "—")))].sort();
    const operatorKey = operators.join("|");
    if (operatorKey !== this.operatorsDrawn) {
      this.operatorsDrawn = operatorKey;
      const keep = this.operator.value;
      this.operator.replaceChildren(option("", "any"), ...operators.map((o) => option(o, o)));
      this.operator.value = operators.includes(keep) ? keep : "";
    }
  }

  /**
   * Errors and rejections: in all, per island and per operator; each count filters the table to them.
   * @param {Model} model
   * @param {Program[]} all
   */
  counts(model, all) {
    /** @type {Map<string, {programs: number, rejected: number, errors: number}>} */
    const byIsland = new Map();
    /** @type {Map<string, {programs: number, rejected: number, errors: number}>} */
    const byOperator = new Map();
    const total = { programs: 0, rejected: 0, errors: 0 };
    const tally = (/** @type {typeof total} */ t, /** @type {Program} */ p) => {
      t.programs += 1;
      if (p.status === "rejected") t.rejected += 1;
      if (p.status === "error") t.errors += 1;
    };
    for (const p of all) {
      // A migrant copy is the same candidate again, not another evaluation.
      if (p.migratedFrom) continue;
      tally(total, p);
      const island = String(p.island);
      const operator = p.operator ?? "—";
      if (!byIsland.has(island)) byIsland.set(island, { programs: 0, rejected: 0, errors: 0 });
      if (!byOperator.has(operator)) byOperator.set(operator, { programs: 0, rejected: 0, errors: 0 });
      tally(/** @type {typeof total} */ (byIsland.get(island)), p);
      tally(/** @type {typeof total} */ (byOperator.get(operator)), p);
    }
    const rate = (/** @type {typeof total} */ t) => (t.programs ? `${((100 * t.errors) / t.programs).toFixed(1)}%` : "—");
    const table = document.createElement("table");
    table.className = "tally";
    const headRow = table.createTHead().insertRow();
    for (const h of ["", "candidates", "rejected", "errors", "error rate"]) {
      const th = document.createElement("th");
      th.textContent = h;
      headRow.append(th);
    }
    const body = table.createTBody();
    /**
     * @param {string} label
     * @param {typeof total} t
     * @param {string} island
     * @param {string} operator
     * @param {string} [title]
     */
    const line = (label, t, island, operator, title) => {
      const tr = body.insertRow();
      tr.dataset.tally = label;
      const name = tr.insertCell();
      name.textContent = label;
      if (title) name.title = title;
      tr.insertCell().textContent = String(t.programs);
      for (const [count, status] of /** @type {[number, string][]} */ ([[t.rejected, "rejected"], [t.errors, "error"]])) {
        const cell = tr.insertCell();
        if (count === 0) {
          cell.textContent = "0";
          continue;
        }
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = String(count);
        button.dataset.filter = `${status}|${island}|${operator}`;
        button.title = `Show the ${status === "error" ? "failed" : "rejected"} candidates of ${label}`;
        cell.append(button);
      }
      tr.insertCell().textContent = rate(t);
    };
    line("all", total, "", "");
    const islands = [...byIsland.keys()].sort((a, b) => Number(a) - Number(b));
    for (const island of islands) {
      const i = Number(island);
      line(i < 0 ? "no island" : `island ${i}`, /** @type {typeof total} */ (byIsland.get(island)), i < 0 ? "" : island, "", islandLabel(model, i));
    }
    for (const operator of [...byOperator.keys()].sort()) {
      if (operator === "—" && byOperator.size === 1) continue;
      line(`operator ${operator}`, /** @type {typeof total} */ (byOperator.get(operator)), "", operator);
    }
    this.tally.replaceChildren(table);
    this.tally.dataset.errors = String(total.errors);
    this.tally.dataset.rejected = String(total.rejected);
  }

  /** @param {Model} model @param {Program[]} all */
  filter(model, all) {
    const query = this.search.value.trim().toLowerCase();
    const status = this.status.value;
    const island = this.island.value === "" ? null : Number(this.island.value);
    const operator = this.operator.value;
    const generation = this.generation.value === "" ? null : Number(this.generation.value);
    return all.filter((p) => {
      if (status === "near") {
        if (!this.near.involves(p.id)) return false;
      } else if (status) {
        const state = rowState(p, model);
        if (status === "failed" ? state !== "error" && state !== "rejected" : state !== status) return false;
      }
      if (island !== null && p.island !== island) return false;
      if (operator && (p.operator ?? "—") !== operator) return false;
      if (generation !== null && p.generation !== generation) return false;
      if (query) {
        let text = this.haystack.get(p);
        if (text === undefined) {
          text = `${p.id}\n${p.changes}\n${p.reason ?? ""}\n${p.code}`.toLowerCase();
          this.haystack.set(p, text);
        }
        if (!text.includes(query)) return false;
      }
      return true;
    });
  }

  /** Sorts by the chosen column; equal values fall back to the engine's rank. @param {Model} model */
  sort(model) {
    const column = this.columns.find((c) => c.key === this.sortKey);
    const sign = this.descending ? 1 : -1;
    if (!column?.value) {
      this.rows.sort((a, b) => sign * byRank(a, b));
      return;
    }
    const value = column.value;
    const keyed = this.rows.map((p) => ({ p, v: value(p, model) }));
    keyed.sort((a, b) => {
      const [x, y] = [a.v, b.v];
      // A missing value goes last whichever way the column sorts.
      const missingX = x === null || (typeof x === "number" && Number.isNaN(x));
      const missingY = y === null || (typeof y === "number" && Number.isNaN(y));
      if (missingX !== missingY) return missingX ? 1 : -1;
      if (!missingX && x !== y) return (/** @type {number | string} */ (x) < /** @type {number | string} */ (y) ? 1 : -1) * sign;
      return byRank(a.p, b.p);
    });
    this.rows = keyed.map((k) => k.p);
  }

  header() {
    const template = this.columns.map((c) => c.width).join(" ");
    this.head.style.gridTemplateColumns = template;
    this.body.style.setProperty("--columns", template);
    this.head.replaceChildren(
      ...this.columns.map((c) => {
        const button = document.createElement("button");
        button.type = "button";
        button.setAttribute("role", "columnheader");
        button.dataset.sort = c.key;
        const sorted = c.key === this.sortKey;
        button.setAttribute("aria-sort", sorted ? (this.descending ? "descending" : "ascending") : "none");
        button.textContent = `${c.label}${sorted ? (this.descending ? " ▾" : " ▴") : ""}`;
        button.title =
          c.key === "fitness"
            ? "Sort by fitness, ties as the engine breaks them (the later program first)"
            : c.key === "near"
              ? "A near-duplicate of an earlier live program: ≈ its number (their similarity). Sort by similarity"
              : `Sort by ${c.label}`;
        if (c.numeric) button.classList.add("num");
        return button;
      }),
    );
  }

  /** Draws the rows in view (and a few around them); the rest are only the body's height. */
  window() {
    const model = this.model;
    if (!model) return;
    const top = Math.max(0, this.scroller.scrollTop - this.head.offsetHeight);
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rows.length, Math.ceil((top + this.scroller.clientHeight) / ROW_HEIGHT) + OVERSCAN);
    const key = `${first}|${last}`;
    if (key === this.drawnWindow) return;
    this.drawnWindow = key;
    const rows = [];
    for (let i = first; i < last; i += 1) {
      const p = this.rows[i];
      const row = document.createElement("div");
      row.className = `ptable-row row-${rowState(p, model)}`;
      row.setAttribute("role", "row");
      row.tabIndex = 0;
      row.dataset.id = p.id;
      row.dataset.index = String(i);
      row.style.top = `${i * ROW_HEIGHT}px`;
      for (const c of this.columns) {
        const cell = document.createElement("span");
        cell.setAttribute("role", "cell");
        cell.textContent = c.text(p, model);
        if (c.numeric) cell.className = "num";
        if (c.key === "changes" || c.key === "island") cell.title = cell.textContent;
        if (c.key === "near" && cell.textContent) {
          cell.className = "num near-mark";
          const near = /** @type {import("../nearduplicates.js").NearDuplicateOf} */ (this.near.byId.get(p.id));
          cell.title = `A near-duplicate of ${near.of}: similarity ${fmt(near.similarity)}, at least the run's nearDuplicate (${fmt(this.near.threshold)})`;
        }
        row.append(cell);
      }
      rows.push(row);
    }
    this.body.replaceChildren(...rows);
    this.scroller.dataset.rendered = String(rows.length);
  }

  /** The filtered, sorted rows as CSV (every metric, the whole changes text and reason). */
  csv() {
    const model = this.model;
    if (!model) return "";
    const metrics = metricNames(this.rows);
    const head = ["candidate", "id", "status", "state", "fitness", ...metrics, "island", "island name", "operator", "generation", "parent", "copy of", "near-duplicate of", "similarity", "reason", "changes"];
    const lines = [head.map(quote).join(",")];
    for (const p of this.rows) {
      const cells = [
        String(p.candidate),
        p.id,
        p.status,
        rowState(p, model),
        fmtOrEmpty(p.fitness),
        ...metrics.map((m) => fmtOrEmpty(p.metrics?.[m])),
        p.island < 0 ? "" : String(p.island),
        p.island < 0 ? "" : (model.islandName(p.island) ?? ""),
        p.operator ?? "",
        String(p.generation),
        p.parentId === "0" ? "" : p.parentId,
        p.migratedFrom ?? "",
        this.near.byId.get(p.id)?.of ?? "",
        fmtOrEmpty(this.near.byId.get(p.id)?.similarity),
        p.reason ?? "",
        p.changes,
      ];
      lines.push(cells.map(quote).join(","));
    }
    return `${lines.join("\n")}\n`;
  }

  /** Saves `csv()` as programs.csv. */
  download() {
    const blob = new Blob([this.csv()], { type: "text/csv" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "programs.csv";
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }
}

/** @param {number | undefined} x */
function fmtOrEmpty(x) {
  const text = fmt(x);
  return text === "—" ? "" : text;
}

/** @param {string} text */
function quote(text) {
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** @param {Program[]} programs the metric names any of them has, sorted */
function metricNames(programs) {
  const names = new Set();
  for (const p of programs) for (const name of Object.keys(p.metrics ?? {})) names.add(name);
  return [...names].sort();
}

/**
 * The columns: candidate, id, state, near-duplicate mark, fitness, each metric, island, operator,
 * generation, changes.
 * @param {Program[]} all
 * @param {NearDuplicates} near
 * @returns {Column[]}
 */
function columnsFor(all, near) {
  /** @type {Column[]} */
  const columns = [
    { key: "candidate", label: "#", width: "4.5em", text: (p) => String(p.candidate), value: (p) => p.candidate, numeric: true },
    { key: "id", label: "id", width: "6.5em", text: (p) => short(p.id), value: (p) => p.id },
    { key: "state", label: "status", width: "6.5em", text: (p, m) => rowState(p, m), value: (p, m) => rowState(p, m) },
    {
      key: "near",
      label: "≈ near",
      width: "9.5em",
      text: (p, m) => nearMark(m, near.byId.get(p.id)),
      value: (p) => near.byId.get(p.id)?.similarity ?? null,
      numeric: true,
    },
    { key: "fitness", label: "fitness", width: "7em", text: (p) => fmt(p.fitness), numeric: true },
  ];
  for (const name of metricNames(all).slice(0, 6)) {
    columns.push({
      key: `metric:${name}`,
      label: name,
      width: "6.5em",
      text: (p) => fmt(p.metrics?.[name]),
      value: (p) => (typeof p.metrics?.[name] === "number" ? /** @type {number} */ (p.metrics[name]) : null),
      numeric: true,
    });
  }
  columns.push(
    { key: "island", label: "island", width: "6em", text: (p, m) => (p.island < 0 ? "—" : (m.islandName(p.island) ? `${p.island} · ${m.islandName(p.island)}` : String(p.island))), value: (p) => (p.island < 0 ? null : p.island), numeric: true },
    { key: "operator", label: "operator", width: "8.5em", text: (p) => p.operator ?? "—", value: (p) => p.operator },
    { key: "generation", label: "gen", width: "3.5em", text: (p) => String(p.generation), value: (p) => p.generation, numeric: true },
    { key: "changes", label: "changes / reason", width: "minmax(10em, 1fr)", text: (p) => firstLine(p.status === "accepted" ? p.changes : `${p.reason ?? ""} — ${p.changes}`), value: (p) => p.changes },
  );
  return columns;
}

/** @param {string} text */
function firstLine(text) {
  const line = text.split("\n")[0];
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/**
 * @param {string} value
 * @param {string} text
 */
function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}
