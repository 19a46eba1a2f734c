// @ts-check
// Diversity over time: the live programs, how many distinct code texts they hold and how many
// MAP-Elites cells they fill, against the number of programs added. Unique code falling away
// from live means the population is filling with copies.

import { prepare, theme, ticks } from "./color.js";
import { Throttle, watchOnScreen } from "./onscreen.js";

/** @import { Model } from "../model.js" */
/** @import { DiversityPoint } from "../diversity.js" */

const PAD = { left: 48, right: 10, top: 10, bottom: 32 };
/** @type {[key: "live" | "unique" | "cells", label: string, colour: string, dash: number[]][]} */
const LINES = [
  ["live", "live programs", "#868e96", [2, 3]],
  ["unique", "distinct code", "#1971c2", []],
  ["cells", "cells filled", "#e8590c", [6, 3]],
];

export class DiversityView {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.drawn = "";
    /** The canvas width drawn last. */
    this.width = -1;
    /** @type {Model | null} */
    this.model = null;
    // Drawn only on screen, and a few times a second while a run moves.
    this.onScreen = watchOnScreen(canvas, () => {
      this.drawn = "";
      this.throttle.last = -Infinity;
      if (this.model) this.draw(this.model);
    });
    this.throttle = new Throttle(250, () => this.model && this.draw(this.model));
  }

  /** @param {Model} model */
  draw(model) {
    this.model = model;
    const { canvas } = this;
    const key = `${model.version}|${canvas.clientWidth}`;
    // (A new size is drawn at once, on screen or not: the canvas must not be left stretched.)
    const resized = canvas.clientWidth !== this.width;
    if (key === this.drawn || (!resized && (!this.onScreen() || !this.throttle.due()))) return;
    this.width = canvas.clientWidth;
    this.drawn = key;
    const { ctx, width, height } = prepare(canvas);
    const colours = theme();
    const { diversity } = model;
    // The recorded points, then the population now.
    const now = { x: model.counts.added, live: diversity.live, unique: diversity.codes.size, cells: diversity.cells.size };
    const series = [...diversity.series, now];
    const last = model.counts.added > 0 ? now : undefined;
    canvas.dataset.points = String(diversity.series.length);
    canvas.dataset.unique = String(model.diversity.codes.size);
    canvas.dataset.cells = String(model.diversity.cells.size);
    canvas.dataset.live = String(model.diversity.live);
    canvas.dataset.firstX = String(series[0]?.x ?? "");
    if (!last) {
      ctx.fillStyle = colours.muted;
      ctx.fillText("No programs yet.", 12, 20);
      return;
    }
    let top = 1;
    for (const p of series) top = Math.max(top, p.live);
    const maxX = Math.max(1, last.x);
    const plotW = width - PAD.left - PAD.right;
    const plotH = height - PAD.top - PAD.bottom;
    const px = (/** @type {number} */ x) => PAD.left + (x / maxX) * plotW;
    const py = (/** @type {number} */ y) => PAD.top + plotH - (y / top) * plotH;
    ctx.strokeStyle = colours.line;
    ctx.fillStyle = colours.muted;
    ctx.lineWidth = 1;
    ctx.textAlign = "right";
    for (const v of ticks(0, top, 4)) {
      if (!Number.isInteger(v)) continue;
      ctx.beginPath();
      ctx.moveTo(PAD.left, py(v));
      ctx.lineTo(width - PAD.right, py(v));
      ctx.stroke();
      ctx.fillText(String(v), PAD.left - 4, py(v) + 4);
    }
    ctx.textAlign = "center";
    for (const v of ticks(0, maxX, Math.max(2, Math.floor(plotW / 80)))) {
      if (Number.isInteger(v)) ctx.fillText(String(v), px(v), height - PAD.bottom + 13);
    }
    ctx.fillStyle = colours.ink;
    ctx.fillText("candidates added", PAD.left + plotW / 2, height - 4);
    ctx.textAlign = "left";
    const hasCells = series.some((p) => p.cells > 0);
    let legendX = PAD.left + 6;
    for (const [line, label, colour, dash] of LINES) {
      if (line === "cells" && !hasCells) continue;
      ctx.strokeStyle = colour;
      ctx.lineWidth = line === "unique" ? 2 : 1.5;
      ctx.setLineDash(dash);
      ctx.beginPath();
      series.forEach((/** @type {DiversityPoint} */ p, i) => {
        if (i === 0) ctx.moveTo(px(p.x), py(p[line]));
        else ctx.lineTo(px(p.x), py(p[line]));
      });
      ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(legendX, PAD.top + 8);
      ctx.lineTo(legendX + 18, PAD.top + 8);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = colours.ink;
      const text = `${label} ${last[line]}`;
      ctx.fillText(text, legendX + 22, PAD.top + 12);
      legendX += 22 + ctx.measureText(text).width + 14;
    }
  }
}
