// @ts-check
// Best (solid) and mean (dashed) fitness per island against the number of programs added.

import { islandColor, prepare } from "./color.js";

/** @import { Model } from "../model.js" */

const PAD = { left: 40, right: 8, top: 8, bottom: 18 };

/**
 * @param {HTMLCanvasElement} canvas
 * @param {Model} model
 */
export function drawFitness(canvas, model) {
  const { ctx, width, height } = prepare(canvas);
  const [lo, hi] = Number.isFinite(model.fitnessRange[0]) ? model.fitnessRange : [0, 1];
  const span = hi > lo ? hi - lo : 1;
  const maxX = Math.max(1, model.counts.added);
  /** @param {number} x */
  const px = (x) => PAD.left + (x / maxX) * (width - PAD.left - PAD.right);
  /** @param {number} y */
  const py = (y) => height - PAD.bottom - ((y - lo) / span) * (height - PAD.top - PAD.bottom);
  ctx.strokeStyle = "#bbb";
  ctx.beginPath();
  ctx.moveTo(PAD.left, PAD.top);
  ctx.lineTo(PAD.left, height - PAD.bottom);
  ctx.lineTo(width - PAD.right, height - PAD.bottom);
  ctx.stroke();
  ctx.fillStyle = "#555";
  ctx.fillText(hi.toFixed(3), 2, PAD.top + 8);
  ctx.fillText(lo.toFixed(3), 2, height - PAD.bottom);
  ctx.fillText(`${maxX} added`, width - PAD.right - 60, height - 4);
  const budget = Math.max(1, Math.floor(width - PAD.left - PAD.right));
  model.series.forEach((points, island) => {
    ctx.strokeStyle = islandColor(island);
    /** @type {[key: "best" | "mean", dash: number[]][]} */
    const lines = [["best", []], ["mean", [4, 3]]];
    for (const [key, dash] of lines) {
      ctx.setLineDash(dash);
      ctx.beginPath();
      // At most one point per pixel column: the last one of each column.
      const stride = Math.max(1, Math.ceil(points.length / budget));
      let started = false;
      for (let i = 0; i < points.length; i += 1) {
        if (i % stride !== stride - 1 && i !== points.length - 1) continue;
        const value = points[i][key];
        if (value === null) continue;
        if (started) ctx.lineTo(px(points[i].x), py(value));
        else ctx.moveTo(px(points[i].x), py(value));
        started = true;
      }
      ctx.stroke();
    }
  });
  ctx.setLineDash([]);
}
