// @ts-check
// The program panel: everything about one program — its metrics, status, operator, island,
// generation and candidate number, the `changes` text, its lineage, and its code, coloured, or as a diff
// against its parent or the best. Redrawn only when what it shows changes. A live program that is
// a near-duplicate of an earlier live one says so, and which, as a link that opens it.

import { diffLines, folded } from "../diff.js";
import { fmt, short } from "../model.js";
import { colourLine } from "../syntax.js";
import { ideaCard, ideaComparison, ideaOf } from "./idea.js";

/** @import { Model } from "../model.js" */
/** @import { NearDuplicates } from "../nearduplicates.js" */
/** @import { Program } from "../types.js" */

/** What the code pane shows. @typedef {"code" | "parent" | "best"} CodeMode */

/** The lineage lists the root and at most this many of the last ancestors. */
const LINEAGE_SHOWN = 40;

export class ProgramView {
  /**
   * @param {HTMLElement} element where the panel goes
   * @param {HTMLElement} caption the figure's caption note ("the best program", "pinned")
   * @param {(id: string) => void} onSelect a program was picked inside the panel
   * @param {() => void} redraw the panel's own view changed (code or diff)
   * @param {NearDuplicates} near the live near-duplicates at the moment shown (the page keeps it current)
   */
  constructor(element, caption, onSelect, redraw, near) {
    this.near = near;
    this.element = element;
    this.caption = caption;
    this.onSelect = onSelect;
    /** @type {CodeMode} */
    this.mode = "code";
    /** What was drawn last, to skip redrawing the same. */
    this.drawn = "";
    element.addEventListener("click", (e) => {
      const target = /** @type {HTMLElement} */ (e.target);
      const pick = target.closest("[data-id]");
      if (pick instanceof HTMLElement && pick.dataset.id) {
        e.preventDefault();
        onSelect(pick.dataset.id);
        return;
      }
      const mode = target.closest("[data-mode]");
      if (mode instanceof HTMLElement) {
        this.mode = /** @type {CodeMode} */ (mode.dataset.mode);
        this.drawn = "";
        redraw();
      }
    });
  }

  /**
   * @param {Model} model
   * @param {string | null} selected
   * @param {boolean} following the panel follows the best program (nothing pinned)
   * @returns {boolean} whether it was redrawn (tests and the frame budget read it)
   */
  draw(model, selected, following) {
    const program = selected === null ? undefined : model.known.get(selected);
    const key = `${selected}|${this.mode}|${following}|${model.best?.id}|${model.version}|${this.near.generation}`;
    if (key === this.drawn) return false;
    this.drawn = key;
    this.caption.textContent = following ? "— following the best program" : "— pinned; Esc follows the best again";
    if (!program) {
      const empty = paragraph(
        selected === null
          ? "No program yet: step the simulation, or open a run."
          : `Program ${short(selected)} is not in this run at this point of the timeline.`,
        "empty",
      );
      this.element.replaceChildren(empty);
      return true;
    }
    this.element.replaceChildren(
      this.header(model, program),
      this.facts(model, program),
      this.lineage(model, program),
      this.code(model, program),
    );
    return true;
  }

  /**
   * Id, status, fitness, and the ways to move: parent, first child, best, permalink.
   * @param {Model} model
   * @param {Program} program
   */
  header(model, program) {
    const head = document.createElement("div");
    head.className = "program-head";
    const title = document.createElement("h3");
    title.textContent = program.id;
    title.title = program.id;
    const status = badge(program.status, `status-${program.status}`);
    const live = model.programs.has(program.id);
    const fitness = badge(program.placed ? `fitness ${fmt(program.fitness)}` : "no fitness: evaluation failed", "fitness");
    const nav = document.createElement("nav");
    nav.className = "program-nav";
    const parent = model.known.get(program.parentId);
    const child = model.children.get(program.id)?.[0];
    nav.append(
      link("↑ parent", parent?.id, "[ opens the parent"),
      link("↓ child", child, "] opens the first child"),
      link("★ best", model.best && model.best.id !== program.id ? model.best.id : undefined, "the best program"),
    );
    const permalink = document.createElement("a");
    permalink.href = `#program=${encodeURIComponent(program.id)}`;
    permalink.textContent = "permalink";
    permalink.className = "permalink";
    nav.append(permalink);
    head.append(title, status, fitness);
    if (!program.placed) head.append(badge("never placed", "pruned"));
    else if (!live) head.append(badge("pruned", "pruned"));
    if (model.archive.has(program.id)) head.append(badge("archive", "archive"));
    if (model.best === program) head.append(badge("best", "best"));
    head.append(nav);
    return head;
  }

  /**
   * Operator, island, generation, candidate number, metrics and changes.
   * @param {Model} model
   * @param {Program} program
   */
  facts(model, program) {
    const list = document.createElement("dl");
    list.className = "facts";
    const name = model.islandName(program.island);
    const island = program.island < 0 ? "—" : name ? `${program.island} · ${name}` : String(program.island);
    /** @type {[string, string][]} */
    const rows = [
      ["operator", program.operator ?? "—"],
      // A failed candidate never joined an island: the one it was meant for.
      [program.placed ? "island" : "meant for island", island],
      ["generation", String(program.generation)],
      ["candidate", `#${program.candidate}`],
      ["code path", program.codePath || "—"],
    ];
    if (program.migratedFrom) rows.push(["copy of", short(program.migratedFrom)]);
    for (const [metric, value] of Object.entries(program.metrics ?? {})) rows.push([metric, fmt(value)]);
    for (const [term, value] of rows) {
      const dt = document.createElement("dt");
      dt.textContent = term;
      const dd = document.createElement("dd");
      dd.textContent = value;
      list.append(dt, dd);
    }
    const changes = paragraph(program.changes || "(no changes text)", "changes");
    const wrap = document.createElement("div");
    wrap.append(list);
    const nearLine = this.nearDuplicate(model, program);
    if (nearLine) wrap.append(nearLine);
    if (program.status !== "accepted") {
      const why = program.status === "error" ? "Evaluation failed" : "Rejected";
      wrap.append(paragraph(`${why}: ${program.reason ?? "no reason given"}`, `reason reason-${program.status}`));
    }
    wrap.append(changes);
    return wrap;
  }

  /**
   * "Near-duplicate of #N, similarity 0.953125" (#N opens it) for a live near-duplicate of an
   * earlier live program, and the live near-duplicates of this one; nothing when there are none.
   * @param {Model} model
   * @param {Program} program
   */
  nearDuplicate(model, program) {
    const near = this.near;
    const of = near.byId.get(program.id);
    const copies = near.copies.get(program.id) ?? [];
    if (!of && copies.length === 0) return null;
    const box = document.createElement("div");
    box.className = "near-duplicate";
    const threshold = `at least the run's nearDuplicate, ${fmt(near.threshold)}, as admit measures code`;
    /** @param {string} id */
    const open = (id) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.id = id;
      const p = model.known.get(id);
      button.textContent = `#${p ? p.candidate : "?"}`;
      button.title = `Open ${id}`;
      return button;
    };
    if (of) {
      const line = paragraph("", "near-of");
      line.title = threshold;
      line.append("≈ Near-duplicate of ", open(of.of), `, similarity ${fmt(of.similarity)}`);
      box.append(line);
    }
    if (copies.length > 0) {
      const line = paragraph("", "near-copies");
      line.title = threshold;
      line.append(copies.length === 1 ? "≈ Its near-duplicate: " : `≈ Its ${copies.length} near-duplicates: `);
      for (const [i, id] of copies.slice(0, 12).entries()) line.append(i > 0 ? ", " : "", open(id));
      if (copies.length > 12) line.append(` … ${copies.length - 12} more`);
      box.append(line);
    }
    return box;
  }

  /**
   * Ancestors, root first; pruned ones stay as ghosts, and a gap says ancestors are missing.
   * @param {Model} model
   * @param {Program} program
   */
  lineage(model, program) {
    const { chain, complete } = model.lineage(program.id);
    const list = document.createElement("ol");
    list.className = "program-lineage";
    if (!complete) list.append(item("ancestors before this one are not in the file", "missing"));
    // A lineage thousands deep shows its root, then its last ancestors (the tree shows them all).
    const hidden = chain.length > LINEAGE_SHOWN ? chain.length - LINEAGE_SHOWN : 0;
    for (const [i, p] of chain.entries()) {
      if (hidden > 0 && i > 0 && i <= hidden) {
        if (i === 1) list.append(item(`… ${hidden} more ancestors (the family tree shows every one)`, "missing"));
        continue;
      }
      const li = item("", model.programs.has(p.id) ? "" : "gone");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.id = p.id;
      button.textContent = `#${p.candidate} ${short(p.id)} · ${fmt(p.fitness)}`;
      if (p === program) button.setAttribute("aria-current", "true");
      li.append(button, ` ${p.changes || "—"}`);
      list.append(li);
    }
    return list;
  }

  /**
   * The code pane with its switch: the code, or a diff against the parent or the best.
   * @param {Model} model
   * @param {Program} program
   */
  code(model, program) {
    const wrap = document.createElement("div");
    wrap.className = "code-pane";
    const tabs = document.createElement("div");
    tabs.className = "code-tabs";
    tabs.setAttribute("role", "group");
    tabs.setAttribute("aria-label", "Show");
    const parent = model.known.get(program.parentId);
    /** @type {[CodeMode, string, boolean][]} */
    const modes = [
      ["code", "Code", true],
      ["parent", "Diff vs parent", parent !== undefined],
      ["best", "Diff vs best", model.best !== null && model.best !== program],
    ];
    for (const [mode, label, enabled] of modes) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.mode = mode;
      button.textContent = label;
      button.disabled = !enabled;
      button.setAttribute("aria-pressed", String(mode === this.mode));
      tabs.append(button);
    }
    const other = this.mode === "parent" ? parent : this.mode === "best" ? model.best : null;
    // An idea run's member: its card, or a field-by-field comparison instead of a line diff.
    const idea = ideaOf(program);
    if (idea) {
      tabs.querySelector("[data-mode=code]")?.replaceChildren("Idea");
      tabs.querySelector("[data-mode=parent]")?.replaceChildren("Compare with parent");
      tabs.querySelector("[data-mode=best]")?.replaceChildren("Compare with best");
      const shown = other ? ideaComparison(other, program, this.mode) : ideaCard(model, program, idea);
      wrap.append(tabs, shown);
      return wrap;
    }
    const pre = document.createElement("pre");
    pre.className = "code";
    if (other) {
      const { lines, added, removed } = diffLines(other.code, program.code);
      pre.classList.add("diff");
      pre.dataset.added = String(added);
      pre.dataset.removed = String(removed);
      const against = this.mode === "parent" ? "parent" : "best";
      const summary = paragraph(
        `${short(other.id)} (${against}, ${fmt(other.fitness)}) → ${short(program.id)} (${fmt(program.fitness)}): +${added} −${removed} lines`,
        "diff-summary",
      );
      for (const line of folded(lines)) {
        if ("hidden" in line) {
          pre.append(row("fold", `⋯ ${line.hidden} unchanged lines`, []));
          continue;
        }
        const kind = line.kind === "+" ? "add" : line.kind === "-" ? "del" : "same";
        pre.append(row(kind, line.kind, colourLine(line.text, program.codePath)));
      }
      if (lines.length === 0) pre.append(row("fold", "(both are empty)", []));
      wrap.append(tabs, summary, pre);
    } else {
      const lines = program.code.split("\n");
      lines.forEach((line, i) => pre.append(row("same", String(i + 1), colourLine(line, program.codePath))));
      wrap.append(tabs, pre);
    }
    return wrap;
  }
}

/**
 * One line of the code pane: a gutter (line number or +/−) and the coloured text.
 * @param {string} kind
 * @param {string} gutter
 * @param {Node[]} nodes
 */
function row(kind, gutter, nodes) {
  const line = document.createElement("span");
  line.className = `line line-${kind}`;
  const mark = document.createElement("span");
  mark.className = "gutter";
  mark.textContent = gutter;
  line.append(mark, ...nodes, "\n");
  return line;
}

/**
 * @param {string} text
 * @param {string} className
 */
function badge(text, className) {
  const span = document.createElement("span");
  span.className = `badge ${className}`;
  span.textContent = text;
  return span;
}

/**
 * A button that opens program `id`, disabled when there is none.
 * @param {string} text
 * @param {string | undefined} id
 * @param {string} title
 */
function link(text, id, title) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = text;
  button.title = title;
  if (id) button.dataset.id = id;
  else button.disabled = true;
  return button;
}

/**
 * @param {string} text
 * @param {string} className
 */
function paragraph(text, className) {
  const p = document.createElement("p");
  p.className = className;
  p.textContent = text;
  return p;
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
