// @ts-check
// MAP-Elites cells: the best live fitness in each cell of the first two feature dimensions
// (a third and later dimensions fold into the max).

import { fitnessColor, prepare } from "./color.js";

/** @import { Model } from "../model.js" */
/** @import { FeatureDim } from "../types.js" */

const PAD = { left: 70, top: 6, bottom: 30, right: 6 };

/**
 * @param {HTMLCanvasElement} canvas
 * @param {Model} model
 */
export function drawHeatmap(canvas, model) {
  const { ctx, width, height } = prepare(canvas);
  const dims = model.config.features ?? [];
  if (dims.length === 0) {
    ctx.fillStyle = "#555";
    ctx.fillText("This run has no feature dimensions: islands prune by the seed's rule.", 10, 24);
    ctx.fillText("Pick “MAP-Elites cells” in the settings to see cells.", 10, 42);
    return;
  }
  const sizes = dims.map((d) => dimensionSize(d, model.numIslands));
  const cols = sizes[0];
  const rows = sizes[1] ?? 1;
  /** Cell index → the best fitness in it. @type {Map<number, number>} */
  const best = new Map();
  for (const program of model.programs.values()) {
    if (!program.cell) continue;
    const key = program.cell[0] + (program.cell[1] ?? 0) * cols;
    const current = best.get(key);
    if (current === undefined || program.fitness > current) best.set(key, program.fitness);
  }
  const w = (width - PAD.left - PAD.right) / cols;
  const h = (height - PAD.top - PAD.bottom) / rows;
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) {
      const value = best.get(c + r * cols);
      ctx.fillStyle = value === undefined ? "#eee" : fitnessColor(value, model.fitnessRange);
      ctx.fillRect(PAD.left + c * w, PAD.top + (rows - 1 - r) * h, Math.max(1, w - 1), Math.max(1, h - 1));
    }
  }
  ctx.fillStyle = "#333";
  ctx.fillText(dimensionName(dims[0]), PAD.left, height - 6);
  if (dims[1]) ctx.fillText(dimensionName(dims[1]), 4, PAD.top + 12);
  ctx.fillText(`${best.size}/${cols * rows} cells filled`, width - 130, height - 6);
}

/**
 * @param {FeatureDim} dim
 * @param {number} islands
 */
function dimensionSize(dim, islands) {
  if (dim.kind === "island") return islands;
  if (dim.kind === "codeLines") return (dim.thresholds?.length ?? 0) + 1;
  return dim.bins ?? 10;
}

/** @param {FeatureDim} dim */
function dimensionName(dim) {
  if (dim.kind === "metric") return dim.metric;
  return dim.kind === "codeLines" ? "code lines" : "island";
}
