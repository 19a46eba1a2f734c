// @ts-check
// Best (solid) and mean (dashed) fitness per island against the number of programs added, with
// ticks on both axes, their names, and a legend; a click opens the program that was an island's
// best at that point.

import { islandColor, prepare, theme, ticks } from "./color.js";
import { fmt, islandLabel } from "../model.js";

/** @import { Model } from "../model.js" */

const PAD = { left: 48, right: 10, top: 10, bottom: 32 };

/**
 * A point drawn on a best line (`island` null: the run's best so far).
 * @typedef {{x: number, y: number, id: string, island: number | null, best: number, mean: number | null, at: number}} Hit
 */

export class FitnessView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(id: string) => void} onSelect
   * @param {HTMLElement} legend where the legend goes: every island, named, however many
   */
  constructor(canvas, onSelect, legend) {
    this.canvas = canvas;
    this.legendElement = legend;
    this.legendDrawn = "";
    /**
     * The drawn best-line points, in CSS pixels, for clicks and tooltips (the text made on hover,
     * by `describe`: thousands of points are drawn a frame, a tooltip is read now and then).
     * @type {Hit[]}
     */
    this.hits = [];
    /** What was drawn last, to skip redrawing the same. */
    this.drawn = "";
    /** Another run to draw this one against (its best so far, dashed). @type {{name: string, model: Model} | null} */
    this.compared = null;
    /** The model last drawn, for tooltips. @type {Model | null} */
    this.model = null;
    canvas.addEventListener("click", (e) => {
      const nearest = this.nearest(e);
      if (nearest) onSelect(nearest.id);
    });
    // By keyboard: Enter opens the highest point drawn (the best any island reached).
    canvas.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" || this.hits.length === 0) return;
      const top = this.hits.reduce((a, b) => (b.y < a.y ? b : a));
      onSelect(top.id);
    });
    canvas.addEventListener("pointermove", (e) => {
      const nearest = this.nearest(e);
      canvas.title = nearest ? `${this.describe(nearest)}; click to open ${nearest.id.slice(0, 8)}` : "";
    });
  }

  /** @param {Hit} hit */
  describe(hit) {
    if (hit.island === null) return `best so far: ${fmt(hit.best)} after ${hit.at} programs`;
    const island = this.model ? islandLabel(this.model, hit.island) : `island ${hit.island}`;
    return `${island}: best ${fmt(hit.best)}, mean ${fmt(hit.mean)} after ${hit.at} programs`;
  }

  /**
   * The drawn best point nearest the pointer, within 12 px.
   * @param {MouseEvent} e
   */
  nearest(e) {
    const rect = this.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    let nearest = null;
    let distance = 12 * 12;
    for (const hit of this.hits) {
      const d = (hit.x - x) ** 2 + (hit.y - y) ** 2;
      if (d < distance) [nearest, distance] = [hit, d];
    }
    return nearest;
  }

  /** @param {Model} model */
  draw(model) {
    const { canvas } = this;
    const key = `${model.version}|${canvas.clientWidth}|${model.range().join()}`;
    if (key === this.drawn) return;
    this.drawn = key;
    this.model = model;
    const { ctx, width, height } = prepare(canvas);
    const colours = theme();
    let [lo, hi] = Number.isFinite(model.range()[0]) ? model.range() : [0, 1];
    const other = this.compared?.model;
    if (other && Number.isFinite(other.range()[0])) [lo, hi] = [Math.min(lo, other.range()[0]), Math.max(hi, other.range()[1])];
    const span = hi > lo ? hi - lo : 1;
    const maxX = Math.max(1, model.counts.added, other?.counts.added ?? 0);
    const plotW = width - PAD.left - PAD.right;
    const plotH = height - PAD.top - PAD.bottom;
    /** @param {number} x */
    const px = (x) => PAD.left + (x / maxX) * plotW;
    /** @param {number} y */
    const py = (y) => height - PAD.bottom - ((y - lo) / span) * plotH;
    ctx.strokeStyle = colours.line;
    ctx.fillStyle = colours.muted;
    ctx.lineWidth = 1;
    ctx.textAlign = "right";
    for (const v of ticks(lo, hi, 4)) {
      const y = py(v);
      ctx.beginPath();
      ctx.moveTo(PAD.left, y);
      ctx.lineTo(width - PAD.right, y);
      ctx.stroke();
      ctx.fillText(label(v), PAD.left - 4, y + 4);
    }
    ctx.textAlign = "center";
    for (const v of ticks(0, maxX, Math.max(2, Math.floor(plotW / 80)))) {
      if (!Number.isInteger(v)) continue;
      ctx.fillText(String(v), px(v), height - PAD.bottom + 13);
    }
    ctx.fillStyle = colours.ink;
    ctx.fillText("candidates added (candidate number)", PAD.left + plotW / 2, height - 4);
    ctx.save();
    ctx.translate(11, PAD.top + plotH / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText("fitness", 0, 0);
    ctx.restore();
    ctx.textAlign = "left";
    this.legend(model);
    this.hits = [];
    let firstX = Infinity;
    const budget = Math.max(1, Math.floor(plotW));
    model.series.forEach((points, island) => {
      ctx.strokeStyle = islandColor(island);
      /** @type {[line: "best" | "mean", dash: number[]][]} */
      const lines = [["best", []], ["mean", [4, 3]]];
      for (const [line, dash] of lines) {
        ctx.setLineDash(dash);
        ctx.beginPath();
        // At most one point per pixel column: the last one of each column.
        const stride = Math.max(1, Math.ceil(points.length / budget));
        let started = false;
        for (let i = 0; i < points.length; i += 1) {
          // The first point always: a long run's curves start where the run started.
          if (i % stride !== stride - 1 && i !== 0 && i !== points.length - 1) continue;
          const point = points[i];
          const value = point[line];
          if (value === null) continue;
          const [x, y] = [px(point.x), py(value)];
          firstX = Math.min(firstX, point.x);
          if (started) ctx.lineTo(x, y);
          else ctx.moveTo(x, y);
          started = true;
          if (line === "best" && point.bestId) {
            this.hits.push({ x, y, id: point.bestId, island, best: value, mean: point.mean, at: point.x });
          }
        }
        ctx.stroke();
      }
    });
    ctx.setLineDash([]);
    // The run's best so far, over every island: a step line that only rises.
    const record = model.bestSoFar;
    if (record.length > 0) {
      ctx.strokeStyle = colours.ink;
      ctx.lineWidth = 2;
      ctx.beginPath();
      record.forEach((point, i) => {
        const [x, y] = [px(point.x), py(point.best)];
        if (i === 0) ctx.moveTo(x, y);
        else {
          ctx.lineTo(x, py(record[i - 1].best));
          ctx.lineTo(x, y);
        }
        this.hits.push({ x, y, id: point.id, island: null, best: point.best, mean: null, at: point.x });
      });
      ctx.lineTo(px(maxX), py(record[record.length - 1].best));
      ctx.stroke();
      ctx.lineWidth = 1;
    }
    const theirs = other?.bestSoFar ?? [];
    if (other && theirs.length > 0) {
      // The compared run's best so far: the same step line, dashed.
      ctx.strokeStyle = "#c2255c";
      ctx.lineWidth = 2;
      ctx.setLineDash([6, 4]);
      ctx.beginPath();
      theirs.forEach((point, i) => {
        const [x, y] = [px(point.x), py(point.best)];
        if (i === 0) ctx.moveTo(x, y);
        else {
          ctx.lineTo(x, py(theirs[i - 1].best));
          ctx.lineTo(x, y);
        }
      });
      ctx.lineTo(px(other.counts.added), py(theirs[theirs.length - 1].best));
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.lineWidth = 1;
      ctx.fillStyle = "#c2255c";
      ctx.textAlign = "right";
      ctx.fillText(`dashed: ${this.compared?.name}`, width - PAD.right - 4, PAD.top + 12);
      ctx.textAlign = "left";
    }
    canvas.dataset.comparedBest = theirs.length ? String(theirs[theirs.length - 1].best) : "";
    canvas.dataset.records = String(record.length);
    canvas.dataset.bestSoFar = record.length ? String(record[record.length - 1].best) : "";
    // For scripts: the earliest point drawn (a curve must not lose the start of a long run).
    canvas.dataset.firstX = Number.isFinite(firstX) ? String(firstX) : "";
  }

  /**
   * One swatch per island with its name (the full name and number in a tooltip), in a list that
   * wraps and scrolls, so 64 islands are all named.
   * @param {Model} model
   */
  legend(model) {
    const n = model.series.length;
    const key = Array.from({ length: n }, (_, i) => model.islandName(i) ?? "").join("|") + `|${n}`;
    if (key === this.legendDrawn) return;
    this.legendDrawn = key;
    const overall = document.createElement("li");
    const line = document.createElement("span");
    line.className = "swatch best-so-far";
    overall.append(line, "best so far");
    overall.title = "The best fitness any accepted program had reached, over all islands";
    overall.className = "overall";
    this.legendElement.replaceChildren(
      overall,
      ...Array.from({ length: n }, (_, island) => {
        const li = document.createElement("li");
        const swatch = document.createElement("span");
        swatch.className = "swatch";
        swatch.style.background = islandColor(island);
        li.append(swatch, model.islandName(island) ?? `island ${island}`);
        li.title = islandLabel(model, island);
        return li;
      }),
    );
  }
}

/** @param {number} v */
function label(v) {
  return Math.abs(v) >= 1000 ? v.toExponential(1) : String(Number(v.toPrecision(4)));
}
