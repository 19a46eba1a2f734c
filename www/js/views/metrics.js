// @ts-check
// Any two metrics against each other: every placed program the run added as a point (faded once
// pruned, grey when rejected), coloured by fitness; or, as cells, the best fitness in each bin of
// a 20 × 20 grid. The live programs no other live program beats on both metrics (each read in its
// configured direction) are the front: ringed and joined by a staircase, the rest faded. Scrubbing
// the timeline shows the front at any moment; a click opens the program nearest the pointer.

import { fitnessColor, prepare, theme, ticks } from "./color.js";
import { Throttle, watchOnScreen } from "./onscreen.js";
import { fmt } from "../model.js";

/** @import { Model } from "../model.js" */
/** @import { Program } from "../types.js" */

const PAD = { left: 56, right: 12, top: 10, bottom: 34 };
const CELLS = 20;
/** The x axis's choice of time (a program's candidate number) instead of a metric: one metric over the run. */
export const TIME = "\u0000candidate";

/**
 * A program's value on an axis: a metric, or its candidate number for `TIME`.
 * @param {Program} program
 * @param {string} name
 */
function value(program, name) {
  return name === TIME ? program.candidate : program.metrics[name];
}

/**
 * The running best of `y` over time: the accepted programs, by candidate number, that beat every
 * one before them (both coordinates signed so that higher is better).
 * @template {{x: number, y: number}} P
 * @param {P[]} points
 * @returns {P[]}
 */
export function runningBest(points) {
  const sorted = [...points].sort((a, b) => a.x - b.x);
  /** @type {P[]} */
  const records = [];
  for (const p of sorted) if (records.length === 0 || p.y > records[records.length - 1].y) records.push(p);
  return records;
}

/**
 * The points no other point beats: `a` dominates `b` when it is at least as good on both
 * coordinates and better on one (both already signed so that higher is better). Sorted by x,
 * a sweep from the right keeps each point higher than every point right of it.
 * @template {{x: number, y: number}} P
 * @param {P[]} points
 * @returns {P[]} the front, by x ascending
 */
export function paretoFront(points) {
  const sorted = [...points].sort((a, b) => b.x - a.x || b.y - a.y);
  /** @type {P[]} */
  const front = [];
  let bestY = -Infinity;
  for (const p of sorted) {
    if (p.y > bestY) {
      front.push(p);
      bestY = p.y;
    }
  }
  return front.reverse();
}

export class MetricsView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {{x: HTMLSelectElement, y: HTMLSelectElement, mode: HTMLSelectElement}} controls
   * @param {(id: string) => void} onSelect
   */
  constructor(canvas, controls, onSelect) {
    this.canvas = canvas;
    this.controls = controls;
    this.drawn = "";
    /** The canvas width drawn last. */
    this.width = -1;
    // Drawn only on screen, and a few times a second while a run moves.
    this.onScreen = watchOnScreen(canvas, () => this.redraw());
    this.throttle = new Throttle(250, () => this.model && this.draw(this.model));
    this.names = "";
    /** @type {{x: number, y: number, id: string}[]} screen points, for clicks and tooltips */
    this.hits = [];
    /** @type {Model | null} */
    this.model = null;
    /** Another run whose front is drawn over this one's (dashed). @type {{name: string, model: Model} | null} */
    this.compared = null;
    canvas.addEventListener("click", (e) => {
      const hit = this.nearest(e);
      if (hit) onSelect(hit.id);
    });
    canvas.addEventListener("pointermove", (e) => {
      const hit = this.nearest(e);
      const program = hit && this.model?.known.get(hit.id);
      canvas.title = program ? this.tooltip(program) : "";
    });
    for (const select of Object.values(controls)) select.addEventListener("change", () => this.redraw());
  }

  /** Draws now: the reader changed what to show. */
  redraw() {
    this.drawn = "";
    this.throttle.last = -Infinity;
    if (this.model) this.draw(this.model);
  }

  /** @param {MouseEvent} e */
  nearest(e) {
    const rect = this.canvas.getBoundingClientRect();
    const [x, y] = [e.clientX - rect.left, e.clientY - rect.top];
    let nearest = null;
    let best = 8 ** 2;
    for (const hit of this.hits) {
      const d = (hit.x - x) ** 2 + (hit.y - y) ** 2;
      if (d < best) [nearest, best] = [hit, d];
    }
    return nearest;
  }

  /** @param {Program} program */
  tooltip(program) {
    const { x, y } = this.controls;
    const name = x.value === TIME ? "candidate" : x.value;
    return `${program.id}\n${name} ${fmt(value(program, x.value))}, ${y.value} ${fmt(value(program, y.value))}, fitness ${fmt(program.fitness)}`;
  }

  /**
   * The metric names the run's programs report, offered in both selects; the config's
   * objectives (or the first two names) chosen first.
   * @param {Model} model
   */
  offer(model) {
    /** @type {Set<string>} */
    const names = new Set();
    for (const program of model.known.values()) for (const name of Object.keys(program.metrics)) names.add(name);
    const sorted = [...names].sort();
    const key = sorted.join("\u0000");
    if (key === this.names) return sorted;
    this.names = key;
    const selection = /** @type {{objectives?: string[]} | undefined} */ (/** @type {any} */ (model.config).selection);
    const preferred = (selection?.objectives ?? []).filter((name) => names.has(name));
    const [first, second] = [...preferred, ...sorted.filter((n) => !preferred.includes(n))];
    for (const [select, fallback] of /** @type {const} */ ([[this.controls.x, first], [this.controls.y, second ?? first]])) {
      const kept = names.has(select.value) || (select === this.controls.x && select.value === TIME) ? select.value : fallback;
      select.replaceChildren(...sorted.map((name) => new Option(name, name)));
      // Time on x: one metric over the run, with its running best.
      if (select === this.controls.x) select.append(new Option("candidate number (time)", TIME));
      if (kept) select.value = kept;
    }
    return sorted;
  }

  /** @param {Model} model */
  draw(model) {
    this.model = model;
    const { canvas, controls } = this;
    const key = () =>
      `${model.version}|${canvas.clientWidth}|${controls.x.value}|${controls.y.value}|${controls.mode.value}|${model.range().join()}|${this.compared?.name}`;
    // (A new size is drawn at once, on screen or not: the canvas must not be left stretched.)
    const resized = canvas.clientWidth !== this.width;
    if (key() === this.drawn || (!resized && (!this.onScreen() || !this.throttle.due()))) return;
    this.width = canvas.clientWidth;
    const names = this.offer(model);
    this.drawn = key();
    const { ctx, width, height } = prepare(canvas);
    const colours = theme();
    this.hits = [];
    const [mx, my] = [controls.x.value, controls.y.value];
    if (names.length === 0 || !mx || !my) {
      ctx.fillStyle = colours.muted;
      ctx.fillText("No metrics yet.", 12, 20);
      canvas.dataset.points = "0";
      canvas.dataset.front = "0";
      return;
    }
    /** @param {string} name */
    const sign = (name) => (/** @type {Record<string, string>} */ (model.config.directions ?? {})[name] === "min" ? -1 : 1);
    const [sx, sy] = [sign(mx), sign(my)];
    const programs = [...model.known.values()].filter(
      (p) => p.placed && Number.isFinite(value(p, mx)) && Number.isFinite(value(p, my)),
    );
    const xs = programs.map((p) => value(p, mx));
    const ys = programs.map((p) => value(p, my));
    const span = (/** @type {number[]} */ values) => {
      // (A loop: spreading 100,000 values into Math.min would overflow the call stack.)
      let [lo, hi] = [Infinity, -Infinity];
      for (const v of values) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
      return hi > lo ? [lo, hi] : [lo - 0.5, hi + 0.5];
    };
    let [xlo, xhi] = programs.length ? span(xs) : [0, 1];
    let [ylo, yhi] = programs.length ? span(ys) : [0, 1];
    // The compared run's live programs widen the axes, so both fronts are in view.
    const theirs = this.compared
      ? [...this.compared.model.programs.values()].filter(
          (p) => p.placed && p.status !== "rejected" && Number.isFinite(value(p, mx)) && Number.isFinite(value(p, my)),
        )
      : [];
    if (theirs.length > 0) {
      const widen = (/** @type {number[]} */ bounds, /** @type {number[]} */ values) => {
        for (const v of values) [bounds[0], bounds[1]] = [Math.min(bounds[0], v), Math.max(bounds[1], v)];
        return bounds;
      };
      [xlo, xhi] = widen([xlo, xhi], theirs.map((p) => value(p, mx)));
      [ylo, yhi] = widen([ylo, yhi], theirs.map((p) => value(p, my)));
    }
    const plotW = width - PAD.left - PAD.right;
    const plotH = height - PAD.top - PAD.bottom;
    const px = (/** @type {number} */ v) => PAD.left + ((v - xlo) / (xhi - xlo)) * plotW;
    const py = (/** @type {number} */ v) => PAD.top + plotH - ((v - ylo) / (yhi - ylo)) * plotH;
    this.axes(ctx, colours, { xlo, xhi, ylo, yhi, plotW, plotH, px, py, mx, my, sx, sy });
    const range = model.range();

    const live = programs.filter((p) => model.programs.has(p.id) && p.status !== "rejected");
    // Against time, the running best of the metric; else the front no live program beats.
    const front =
      mx === TIME
        ? runningBest(programs.filter((p) => p.status === "accepted").map((p) => ({ x: value(p, mx), y: sy * value(p, my), p })))
        : paretoFront(live.map((p) => ({ x: sx * value(p, mx), y: sy * value(p, my), p })));
    const onFront = new Set(front.map((f) => f.p.id));
    if (controls.mode.value === "cells") {
      /** @type {Map<number, number>} */
      const best = new Map();
      for (const p of live) {
        const c = Math.min(CELLS - 1, Math.floor(((value(p, mx) - xlo) / (xhi - xlo)) * CELLS));
        const r = Math.min(CELLS - 1, Math.floor(((value(p, my) - ylo) / (yhi - ylo)) * CELLS));
        best.set(c + r * CELLS, Math.max(best.get(c + r * CELLS) ?? -Infinity, p.fitness));
      }
      const [w, h] = [plotW / CELLS, plotH / CELLS];
      for (const [cell, fitness] of best) {
        ctx.fillStyle = fitnessColor(fitness, range);
        ctx.fillRect(PAD.left + (cell % CELLS) * w, PAD.top + plotH - (Math.floor(cell / CELLS) + 1) * h, w - 1, h - 1);
      }
    } else {
      for (const p of programs) {
        const liveHere = model.programs.has(p.id);
        ctx.globalAlpha = onFront.has(p.id) ? 1 : liveHere ? 0.45 : 0.15;
        ctx.fillStyle = p.status === "rejected" ? "#a0a0a0" : fitnessColor(p.fitness, range);
        const [x, y] = [px(value(p, mx)), py(value(p, my))];
        ctx.fillRect(x - 2, y - 2, 4, 4);
        this.hits.push({ x, y, id: p.id });
      }
      ctx.globalAlpha = 1;
    }
    // The front: a staircase through its points, each ringed.
    ctx.strokeStyle = "#e8590c";
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    front.forEach((f, i) => {
      const [x, y] = [px(value(f.p, mx)), py(value(f.p, my))];
      if (i === 0) ctx.moveTo(x, y);
      else {
        const prev = front[i - 1].p;
        ctx.lineTo(x, py(value(prev, my)));
        ctx.lineTo(x, y);
      }
    });
    ctx.stroke();
    for (const f of front) {
      const [x, y] = [px(value(f.p, mx)), py(value(f.p, my))];
      ctx.beginPath();
      ctx.arc(x, y, 4.5, 0, 2 * Math.PI);
      ctx.stroke();
      if (controls.mode.value === "cells") this.hits.push({ x, y, id: f.p.id });
    }
    if (theirs.length > 0) {
      // The compared run's front: the same staircase, dashed, without its points.
      const other =
        mx === TIME
          ? runningBest(theirs.filter((p) => p.status === "accepted").map((p) => ({ x: value(p, mx), y: sy * value(p, my), p })))
          : paretoFront(theirs.map((p) => ({ x: sx * value(p, mx), y: sy * value(p, my), p })));
      ctx.strokeStyle = "#c2255c";
      ctx.setLineDash([6, 4]);
      ctx.beginPath();
      other.forEach((f, i) => {
        const [x, y] = [px(value(f.p, mx)), py(value(f.p, my))];
        if (i === 0) ctx.moveTo(x, y);
        else {
          ctx.lineTo(x, py(value(other[i - 1].p, my)));
          ctx.lineTo(x, y);
        }
      });
      ctx.stroke();
      ctx.setLineDash([]);
      canvas.dataset.comparedFront = String(other.length);
    } else canvas.dataset.comparedFront = "";
    canvas.dataset.points = String(programs.length);
    canvas.dataset.mode = controls.mode.value;
    canvas.dataset.axes = `${mx} ${my}`;
    canvas.dataset.front = String(front.length);
    canvas.dataset.frontIds = front.map((f) => f.p.id).join(" ");
    canvas.dataset.frontAt = JSON.stringify(
      front.map((f) => ({ id: f.p.id, x: Math.round(px(value(f.p, mx))), y: Math.round(py(value(f.p, my))) })),
    );
  }

  /**
   * Ticks and names on both axes; a metric read as `min` says so.
   * @param {CanvasRenderingContext2D} ctx
   * @param {ReturnType<typeof theme>} colours
   * @param {{xlo: number, xhi: number, ylo: number, yhi: number, plotW: number, plotH: number,
   *   px: (v: number) => number, py: (v: number) => number, mx: string, my: string, sx: number, sy: number}} a
   */
  axes(ctx, colours, a) {
    ctx.strokeStyle = colours.line;
    ctx.strokeRect(PAD.left, PAD.top, a.plotW, a.plotH);
    ctx.fillStyle = colours.muted;
    ctx.textAlign = "center";
    for (const t of ticks(a.xlo, a.xhi, 6)) ctx.fillText(fmt(t), a.px(t), PAD.top + a.plotH + 12);
    const xName = a.mx === TIME ? "candidate number" : `${a.mx}${a.sx < 0 ? " (lower is better)" : ""}`;
    ctx.fillText(xName, PAD.left + a.plotW / 2, PAD.top + a.plotH + 27);
    ctx.textAlign = "right";
    for (const t of ticks(a.ylo, a.yhi, 5)) ctx.fillText(fmt(t), PAD.left - 4, a.py(t) + 4);
    ctx.save();
    ctx.translate(12, PAD.top + a.plotH / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = "center";
    ctx.fillText(`${a.my}${a.sy < 0 ? " (lower is better)" : ""}`, 0, 0);
    ctx.restore();
    ctx.textAlign = "left";
  }
}
