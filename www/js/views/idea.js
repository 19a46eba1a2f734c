// @ts-check
// An idea run's member as the panel shows it (issue 39): a card with the idea's title, summary
// and facets, its eight criteria as bars (0–10), the ideas it was merged from, and a comparison
// with its parent or the best field by field, since a line diff of one-line JSON says nothing.
// An idea is a program whose code path is `idea.json` and whose code is the idea's JSON
// (docs/ideas.md).

import { fmt, short } from "../model.js";

/** @import { Model } from "../model.js" */
/** @import { Program } from "../types.js" */

/** The file name every idea is stored under. */
export const IDEA_PATH = "idea.json";

/** evoidea's eight criteria, in the critic's order; each scores 0–10. */
export const CRITERIA = [
  "feasibility",
  "speed_to_value",
  "differentiation",
  "market_size",
  "distribution",
  "moats",
  "risk",
  "clarity",
];

const FACETS = ["audience", "jtbd", "differentiator", "monetization", "distribution", "risks"];

/** @typedef {{title: string, summary: string, facets: Record<string, string>}} Idea */

/**
 * The idea `program` holds, or null when it is no idea (a program run's member).
 * @param {Program | undefined} program
 * @returns {Idea | null}
 */
export function ideaOf(program) {
  if (!program || program.codePath !== IDEA_PATH) return null;
  try {
    const idea = JSON.parse(program.code);
    if (typeof idea?.title !== "string") return null;
    return { title: idea.title, summary: String(idea.summary ?? ""), facets: idea.facets ?? {} };
  } catch {
    return null;
  }
}

/**
 * The card: title, summary, facets, the criteria as bars, and the ideas it came from.
 * @param {Model} model
 * @param {Program} program
 * @param {Idea} idea
 */
export function ideaCard(model, program, idea) {
  const card = document.createElement("article");
  card.className = "idea-card";
  const title = document.createElement("h4");
  title.textContent = idea.title;
  const summary = document.createElement("p");
  summary.className = "idea-summary";
  summary.textContent = idea.summary;
  const facets = document.createElement("dl");
  facets.className = "idea-facets";
  for (const name of FACETS) {
    const dt = document.createElement("dt");
    dt.textContent = name;
    const dd = document.createElement("dd");
    dd.textContent = idea.facets[name] || "—";
    facets.append(dt, dd);
  }
  card.append(title, summary, facets, scoreBars(program), origins(model, program));
  return card;
}

/**
 * The eight criteria as horizontal bars, each labelled with its score.
 * @param {Program} program
 */
function scoreBars(program) {
  const list = document.createElement("ul");
  list.className = "idea-scores";
  list.setAttribute("aria-label", "The critic's scores, 0 to 10");
  for (const criterion of CRITERIA) {
    const score = program.metrics?.[criterion];
    const li = document.createElement("li");
    li.dataset.criterion = criterion;
    const label = document.createElement("span");
    label.className = "idea-criterion";
    label.textContent = criterion.replaceAll("_", " ");
    const track = document.createElement("span");
    track.className = "idea-bar";
    const fill = document.createElement("span");
    fill.className = "idea-bar-fill";
    const share = typeof score === "number" ? Math.max(0, Math.min(10, score)) * 10 : 0;
    fill.style.width = `${share}%`;
    track.append(fill);
    const value = document.createElement("span");
    value.className = "idea-score";
    value.textContent = typeof score === "number" ? fmt(score) : "—";
    li.append(label, track, value);
    list.append(li);
  }
  return list;
}

/**
 * Where the idea came from: generated, or refined from / merged from its parents (each a button).
 * @param {Model} model
 * @param {Program} program
 */
function origins(model, program) {
  const p = document.createElement("p");
  p.className = "idea-origin";
  const parents = program.parents.filter((id) => id !== "0");
  if (parents.length === 0) {
    p.textContent = "Generated (no parent).";
    return p;
  }
  p.append(parents.length > 1 ? "Merged from " : "Refined from ");
  parents.forEach((id, i) => {
    if (i > 0) p.append(i === parents.length - 1 ? " and " : ", ");
    const parent = model.known.get(id);
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.id = id;
    button.textContent = parent ? `“${ideaOf(parent)?.title ?? short(id)}”` : short(id);
    if (!parent) button.disabled = true;
    p.append(button);
  });
  p.append(".");
  return p;
}

/**
 * Field by field: the title, summary, each facet and each criterion of `other` and `program`,
 * a changed row marked.
 * @param {Program} other the parent or the best
 * @param {Program} program
 * @param {string} against "parent" or "best"
 */
export function ideaComparison(other, program, against) {
  const before = ideaOf(other);
  const after = ideaOf(program);
  const table = document.createElement("table");
  table.className = "idea-compare";
  const head = document.createElement("tr");
  for (const text of ["field", `${against} · ${short(other.id)}`, `this · ${short(program.id)}`]) {
    const th = document.createElement("th");
    th.textContent = text;
    head.append(th);
  }
  table.append(head);
  /** @type {[string, string, string][]} */
  const rows = [
    ["title", before?.title ?? "—", after?.title ?? "—"],
    ["summary", before?.summary ?? "—", after?.summary ?? "—"],
    ...FACETS.map((f) => /** @type {[string, string, string]} */ ([f, before?.facets[f] ?? "—", after?.facets[f] ?? "—"])),
    ...CRITERIA.map((c) => /** @type {[string, string, string]} */ ([c, scoreText(other, c), scoreText(program, c)])),
  ];
  let changed = 0;
  for (const [field, a, b] of rows) {
    const tr = document.createElement("tr");
    tr.dataset.field = field;
    if (a !== b) {
      tr.className = "changed";
      changed++;
    }
    for (const text of [field, a, b]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    table.append(tr);
  }
  table.dataset.changed = String(changed);
  return table;
}

/**
 * @param {Program} program
 * @param {string} criterion
 */
function scoreText(program, criterion) {
  const value = program.metrics?.[criterion];
  return typeof value === "number" ? fmt(value) : "—";
}
