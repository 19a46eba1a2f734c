// @ts-check
// The family tree: every program the run has added, under its parent (a migrant copy under what
// it copies), one row per generation; pruned programs stay as hollow ghosts, and a parent the
// file no longer holds as a dashed one, so no branch is dropped. Coloured by fitness or by
// island; the path from the root to the best program is drawn bold. Wheel or +/− zooms, a drag
// or the arrow keys pan, 0 fits, c centres the selected program and b the best, a click opens a
// program.
//
// Width and height scale apart: a run of thousands of programs is wide and shallow, and kept
// at one aspect ratio it would fit only as a ribbon a few pixels high. Until the reader pans or
// zooms, the tree stays fitted as the run grows.

import { fitText, islandColor, prepare, rampColor, theme } from "./color.js";
import { fmt, islandLabel } from "../model.js";

/** @import { Model } from "../model.js" */
/** @import { Program } from "../types.js" */

const ROW = 28;
const SLOT = 12;
const PAD = 16;
/** Zooming out stops at this fraction of the fitted scale: past it, nothing more comes into view. */
const MIN_OF_FIT = 0.5;
const MAX_SCALE = 8;
/** A zoom about a point farther than this (px) from every node zooms about the nearest node. */
const ANCHOR_REACH = 24;
/** While a run moves, the tree is laid out again at most this often (ms). */
const RELAYOUT_MS = 250;
/** Fitness colours are drawn in this many steps, so nodes group into a few paths. */
const RAMP_STEPS = 64;
/** A press that moves less than this many pixels is a click, not a drag. */
const CLICK_SLOP = 4;

/** @typedef {{x: number, y: number, sx: number, sy: number}} View */

/**
 * @typedef {object} TreeNode
 * @property {string} id
 * @property {Program | null} program null: a parent the file does not hold
 * @property {string | null} parent
 * @property {number} depth
 * @property {number} x in slots
 */

/**
 * The tree's layout: each leaf takes the next slot left to right, a parent sits over the middle
 * of its children, each generation one row down. Iterative, so a lineage thousands deep is fine.
 * @param {Model} model
 * @returns {{nodes: TreeNode[], byId: Map<string, TreeNode>, width: number, depth: number}}
 */
export function layoutTree(model) {
  /** @type {Map<string, string[]>} */
  const children = new Map();
  /** @type {Map<string, TreeNode>} */
  const byId = new Map();
  /** @param {string} parent @param {string} child */
  const link = (parent, child) => {
    const list = children.get(parent);
    if (list) list.push(child);
    else children.set(parent, [child]);
  };
  /** @type {string[]} */
  const roots = [];
  for (const program of model.known.values()) {
    // A failed evaluation has no fitness and no place: the table and the panel show it.
    if (!program.placed) continue;
    const parent = program.migratedFrom ?? program.parentId;
    const root = !parent || parent === "0";
    byId.set(program.id, { id: program.id, program, parent: root ? null : parent, depth: 0, x: 0 });
    if (root) {
      roots.push(program.id);
      continue;
    }
    if (!model.known.has(parent) && !byId.has(parent)) {
      byId.set(parent, { id: parent, program: null, parent: null, depth: 0, x: 0 });
      roots.push(parent);
    }
    link(parent, program.id);
  }
  /** @type {TreeNode[]} */
  const nodes = [];
  let next = 0;
  let deepest = 0;
  const seen = new Set(roots);
  for (const root of roots) {
    // Depth-first: a node's x is known once all its children are placed.
    /** @type {{id: string, depth: number, child: number, placed: number[]}[]} */
    const stack = [{ id: root, depth: 0, child: 0, placed: [] }];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const kids = children.get(top.id) ?? [];
      if (top.child < kids.length) {
        const kid = kids[top.child++];
        if (!seen.has(kid)) {
          seen.add(kid);
          stack.push({ id: kid, depth: top.depth + 1, child: 0, placed: [] });
        }
        continue;
      }
      stack.pop();
      const node = /** @type {TreeNode} */ (byId.get(top.id));
      node.depth = top.depth;
      deepest = Math.max(deepest, top.depth);
      node.x = top.placed.length === 0 ? next++ : (top.placed[0] + top.placed[top.placed.length - 1]) / 2;
      stack[stack.length - 1]?.placed.push(node.x);
      nodes.push(node);
    }
  }
  return { nodes, byId, width: Math.max(1, next), depth: deepest };
}

export class TreeView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {HTMLSelectElement} colourBy "fitness" or "island"
   * @param {(id: string) => void} onSelect
   */
  constructor(canvas, colourBy, onSelect) {
    this.canvas = canvas;
    this.colourBy = colourBy;
    /** @type {ReturnType<typeof layoutTree> | null} */
    this.layout = null;
    this.layoutVersion = -1;
    /** The view: screen = world × scale + offset, per axis. Null until the first fit. */
    this.view = /** @type {View | null} */ (null);
    /** The scales `fit` chose last: zooming out stops at half of them. */
    this.fitted = { sx: 1, sy: 1 };
    /** True until the reader pans or zooms: a growing run is fitted again as it is laid out. */
    this.following = true;
    this.drawn = "";
    this.laidOutAt = -Infinity;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.settle = undefined;
    /** @type {Model | null} */
    this.model = null;
    this.selected = /** @type {string | null} */ (null);

    let press = /** @type {{x: number, y: number, vx: number, vy: number, moved: boolean} | null} */ (null);
    canvas.addEventListener("pointerdown", (e) => {
      if (!this.view) return;
      press = { x: e.clientX, y: e.clientY, vx: this.view.x, vy: this.view.y, moved: false };
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener("pointermove", (e) => {
      if (!press) {
        const rect = canvas.getBoundingClientRect();
        const hit = this.nodeAt(e.clientX - rect.left, e.clientY - rect.top);
        canvas.title = hit && this.model ? tooltip(hit, this.model) : "";
        return;
      }
      if (!this.view) return;
      const dx = e.clientX - press.x;
      const dy = e.clientY - press.y;
      if (Math.abs(dx) + Math.abs(dy) > CLICK_SLOP) press.moved = true;
      if (press.moved) this.pan(press.vx + dx, press.vy + dy);
    });
    canvas.addEventListener("pointerup", (e) => {
      const wasClick = press && !press.moved;
      press = null;
      if (!wasClick) return;
      const rect = canvas.getBoundingClientRect();
      const hit = this.nodeAt(e.clientX - rect.left, e.clientY - rect.top);
      if (hit?.program) onSelect(hit.id);
    });
    canvas.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        const rect = canvas.getBoundingClientRect();
        this.zoom(Math.exp(-e.deltaY * 0.0015), e.clientX - rect.left, e.clientY - rect.top);
      },
      { passive: false },
    );
    canvas.addEventListener("keydown", (e) => {
      if (!this.view) return;
      const step = 40;
      const moves = /** @type {Record<string, [number, number]>} */ ({
        ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step],
      });
      if (moves[e.key]) this.pan(this.view.x + moves[e.key][0], this.view.y + moves[e.key][1]);
      else if (e.key === "+" || e.key === "=") this.zoom(1.25);
      else if (e.key === "-") this.zoom(0.8);
      else if (e.key === "0") this.fit();
      else if (e.key === "c") this.centreOn(this.selected ?? this.model?.best?.id ?? null);
      else if (e.key === "b") this.centreOn(this.model?.best?.id ?? null);
      else return;
      e.preventDefault();
      e.stopPropagation();
    });
    colourBy.addEventListener("change", () => this.redraw());
  }

  /**
   * Zooms by `factor` about a point of the canvas (its centre by default). A point with no
   * program near it gives way to the nearest drawn program, so a zoom never ends on empty canvas.
   * @param {number} factor
   */
  zoom(factor, cx = this.canvas.clientWidth / 2, cy = this.canvas.clientHeight / 2) {
    if (!this.view) return;
    const anchor = this.nearestDrawn(cx, cy);
    if (anchor && Math.hypot(anchor.x - cx, anchor.y - cy) > ANCHOR_REACH) [cx, cy] = [anchor.x, anchor.y];
    const clamp = (/** @type {number} */ s, /** @type {number} */ fit) =>
      Math.min(Math.max(MAX_SCALE, fit), Math.max(fit * MIN_OF_FIT, s * factor));
    const sx = clamp(this.view.sx, this.fitted.sx);
    const sy = clamp(this.view.sy, this.fitted.sy);
    const [kx, ky] = [sx / this.view.sx, sy / this.view.sy];
    this.following = false;
    this.moveTo({ x: cx - (cx - this.view.x) * kx, y: cy - (cy - this.view.y) * ky, sx, sy });
  }

  /** Moves the view without zooming; the reader has taken over. @param {number} x @param {number} y */
  pan(x, y) {
    if (!this.view) return;
    this.following = false;
    this.moveTo({ ...this.view, x, y });
  }

  /** The whole tree in view, each axis scaled to the canvas; a growing run stays fitted. */
  fit() {
    if (!this.layout) return;
    const w = this.canvas.clientWidth || this.canvas.width;
    const h = this.canvas.clientHeight || this.canvas.height;
    const worldW = this.layout.width * SLOT;
    const worldH = (this.layout.depth + 1) * ROW;
    const sx = Math.min(1.5, (w - 2 * PAD) / worldW);
    const sy = Math.min(1.5, (h - 2 * PAD) / worldH);
    this.fitted = { sx, sy };
    this.following = true;
    this.moveTo({ x: (w - worldW * sx) / 2, y: PAD, sx, sy });
  }

  /**
   * Puts a program in the middle of the canvas, zoomed in far enough to tell it from its
   * neighbours.
   * @param {string | null} id
   */
  centreOn(id) {
    const node = id ? this.layout?.byId.get(id) : undefined;
    if (!node || !this.view) return;
    const w = this.canvas.clientWidth || this.canvas.width;
    const h = this.canvas.clientHeight || this.canvas.height;
    const sx = Math.max(this.view.sx, 1);
    const sy = Math.max(this.view.sy, 1);
    this.following = false;
    this.moveTo({
      x: w / 2 - (node.x * SLOT + SLOT / 2) * sx,
      y: h / 2 - (node.depth * ROW + ROW / 2) * sy,
      sx,
      sy,
    });
  }

  /** @param {View} view */
  moveTo(view) {
    this.view = view;
    this.redraw();
  }

  redraw() {
    this.drawn = "";
    if (this.model) this.draw(this.model, this.selected);
  }

  /** @param {TreeNode} node */
  screen(node) {
    const v = /** @type {View} */ (this.view);
    return { x: v.x + (node.x * SLOT + SLOT / 2) * v.sx, y: v.y + (node.depth * ROW + ROW / 2) * v.sy };
  }

  /** The screen point of the node nearest to a canvas point, among those in view. @param {number} x @param {number} y */
  nearestDrawn(x, y) {
    if (!this.layout) return null;
    const w = this.canvas.clientWidth || this.canvas.width;
    const h = this.canvas.clientHeight || this.canvas.height;
    let nearest = null;
    let best = Infinity;
    for (const node of this.layout.nodes) {
      const p = this.screen(node);
      if (p.x < 0 || p.x > w || p.y < 0 || p.y > h) continue;
      const d = (p.x - x) ** 2 + (p.y - y) ** 2;
      if (d < best) [nearest, best] = [p, d];
    }
    return nearest;
  }

  /** The node drawn nearest to a canvas point, within a few pixels. @param {number} x @param {number} y */
  nodeAt(x, y) {
    if (!this.layout || !this.view) return null;
    let nearest = null;
    let best = Math.max(8, 5 * Math.min(this.view.sx, this.view.sy)) ** 2;
    for (const node of this.layout.nodes) {
      const p = this.screen(node);
      const d = (p.x - x) ** 2 + (p.y - y) ** 2;
      if (d < best) [nearest, best] = [node, d];
    }
    return nearest;
  }

  /**
   * @param {Model} model
   * @param {string | null} selected
   */
  draw(model, selected) {
    this.model = model;
    this.selected = selected;
    const { canvas } = this;
    if (this.layoutVersion !== model.version || !this.layout) {
      const fresh = !this.layout || this.layout.nodes.length === 0;
      const now = performance.now();
      clearTimeout(this.settle);
      if (!fresh && now - this.laidOutAt < RELAYOUT_MS) {
        // A run moving fast is laid out a few times a second, not every frame; its last change
        // is laid out once it settles.
        this.settle = setTimeout(() => this.redraw(), RELAYOUT_MS);
      } else {
        this.layout = layoutTree(model);
        this.layoutVersion = model.version;
        this.laidOutAt = now;
        if (fresh || !this.view || this.following) this.fit();
      }
    }
    const layout = /** @type {ReturnType<typeof layoutTree>} */ (this.layout);
    const key = `${this.layoutVersion}|${selected}|${canvas.clientWidth}|${canvas.clientHeight}|${this.colourBy.value}|${JSON.stringify(this.view)}`;
    if (key === this.drawn) return;
    this.drawn = key;
    const { ctx, width, height } = prepare(canvas);
    const colours = theme();
    canvas.dataset.nodes = String(layout.nodes.length);
    canvas.dataset.pruned = String(layout.nodes.filter((n) => n.program && !model.programs.has(n.id)).length);
    canvas.dataset.missing = String(layout.nodes.filter((n) => !n.program).length);
    if (layout.nodes.length === 0) {
      ctx.fillStyle = colours.muted;
      ctx.fillText("No programs yet: press Step or Play, or open a run.", 12, 20);
      return;
    }
    const view = /** @type {View} */ (this.view);
    const byIsland = this.colourBy.value === "island";
    const [lo, hi] = model.range();
    const span = hi > lo ? hi - lo : 1;
    const radius = Math.max(1.5, Math.min(6, 4 * Math.min(view.sx, view.sy * 2)));
    const visible = (/** @type {{x: number, y: number}} */ p) => p.x > -20 && p.x < width + 20 && p.y > -20 && p.y < height + 20;

    // Edges, then the best path over them, then the nodes.
    ctx.strokeStyle = colours.line;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const node of layout.nodes) {
      if (!node.parent) continue;
      const parent = layout.byId.get(node.parent);
      if (!parent) continue;
      const a = this.screen(parent);
      const b = this.screen(node);
      if (!visible(a) && !visible(b)) continue;
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
    }
    ctx.stroke();
    const bestPath = new Set();
    // (While a run plays, the layout may be a moment older than the best.)
    for (let id = model.best?.id ?? null; id && layout.byId.has(id) && !bestPath.has(id); id = layout.byId.get(id)?.parent ?? null) {
      bestPath.add(id);
    }
    ctx.strokeStyle = "#e8590c";
    ctx.lineWidth = 3;
    ctx.beginPath();
    for (const id of bestPath) {
      const node = /** @type {TreeNode} */ (layout.byId.get(id));
      const parent = node.parent ? layout.byId.get(node.parent) : null;
      if (!parent) continue;
      const a = this.screen(parent);
      const b = this.screen(node);
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
    }
    ctx.stroke();
    canvas.dataset.bestPath = String(bestPath.size);

    // Nodes in one path per look (filled or hollow, and colour), not one fill each: a fitted
    // tree of 20,000 programs is then a few hundred canvas calls, not 20,000. (Where nodes
    // overlap, which one shows on top follows the looks' order rather than the layout's.)
    /** @type {Map<string, {hollow: boolean, dashed: boolean, colour: string, points: number[]}>} */
    const looks = new Map();
    let drawnNodes = 0;
    let chosenPoint = null;
    for (const node of layout.nodes) {
      const p = this.screen(node);
      if (!visible(p)) continue;
      drawnNodes++;
      if (node.id === selected) chosenPoint = p;
      const program = node.program;
      const colour = !program
        ? colours.muted
        : program.status === "rejected"
          ? "#a0a0a0"
          : byIsland
            ? islandColor(program.island)
            : rampColor(Math.round(((program.fitness - lo) / span) * RAMP_STEPS) / RAMP_STEPS);
      const dashed = !program;
      const hollow = dashed || !model.programs.has(node.id);
      const lookKey = `${hollow ? (dashed ? "d" : "h") : "f"}${colour}`;
      let look = looks.get(lookKey);
      if (!look) {
        look = { hollow, dashed, colour, points: [] };
        looks.set(lookKey, look);
      }
      look.points.push(p.x, p.y);
    }
    // A node a few pixels across is a square: it looks the same, and costs far less to draw.
    const square = radius < 2.5;
    for (const { hollow, dashed, colour, points } of looks.values()) {
      ctx.beginPath();
      for (let i = 0; i < points.length; i += 2) {
        if (square) {
          ctx.rect(points[i] - radius, points[i + 1] - radius, 2 * radius, 2 * radius);
          continue;
        }
        ctx.moveTo(points[i] + radius, points[i + 1]);
        ctx.arc(points[i], points[i + 1], radius, 0, 2 * Math.PI);
      }
      if (!hollow) {
        ctx.fillStyle = colour;
        ctx.fill();
        continue;
      }
      ctx.setLineDash(dashed ? [2, 2] : []);
      ctx.strokeStyle = colour;
      ctx.lineWidth = dashed ? 1 : 1.5;
      ctx.stroke();
    }
    ctx.setLineDash([]);
    if (chosenPoint) {
      ctx.beginPath();
      ctx.arc(chosenPoint.x, chosenPoint.y, radius + 3, 0, 2 * Math.PI);
      ctx.strokeStyle = colours.ink;
      ctx.lineWidth = 2;
      ctx.stroke();
    }
    // Labels where the slots are wide enough to read them; the selected program's always, on a
    // backdrop so its neighbours do not cover it.
    const room = SLOT * view.sx - radius - 4;
    ctx.textAlign = "left";
    /** @param {TreeNode} node */
    const label = (node) =>
      node.program ? `${node.id.slice(0, 8)} ${fmt(node.program.fitness)}` : `${node.id.slice(0, 8)} (not in the file)`;
    ctx.fillStyle = colours.ink;
    if (room >= 40) {
      for (const node of layout.nodes) {
        const p = this.screen(node);
        if (node.id !== selected && visible(p)) ctx.fillText(fitText(ctx, label(node), room), p.x + radius + 4, p.y + 4);
      }
    }
    const chosen = selected ? layout.byId.get(selected) : undefined;
    if (chosen) {
      const p = this.screen(chosen);
      const text = label(chosen);
      const w = ctx.measureText(text).width;
      ctx.fillStyle = colours.background;
      ctx.fillRect(p.x + radius + 2, p.y - 8, w + 4, 15);
      ctx.fillStyle = colours.ink;
      ctx.fillText(text, p.x + radius + 4, p.y + 4);
      canvas.dataset.selectedX = p.x.toFixed(1);
      canvas.dataset.selectedY = p.y.toFixed(1);
    }
    canvas.dataset.drawn = String(drawnNodes);
    canvas.dataset.scale = view.sx.toFixed(3);
    canvas.dataset.scaleY = view.sy.toFixed(3);
    canvas.dataset.treeHeight = ((layout.depth + 1) * ROW * view.sy).toFixed(0);
    canvas.dataset.following = String(this.following);
  }
}

/**
 * @param {TreeNode} node
 * @param {Model} model
 */
function tooltip(node, model) {
  const p = node.program;
  if (!p) return `${node.id}: a parent the file does not hold (pruned before it was saved)`;
  const status = p.status === "rejected" ? ", rejected" : "";
  return `${p.id}\nfitness ${fmt(p.fitness)}, ${islandLabel(model, p.island)}, generation ${p.generation}${status}\n${p.changes.split("\n")[0]}`;
}
