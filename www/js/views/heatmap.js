// @ts-check
// MAP-Elites cells: the best live fitness in each cell of the first two feature dimensions
// (a third and later dimensions fold into the max), with the dimensions' names and bins on the
// axes and a colour bar giving the fitness each colour stands for.

import { fitText, fitnessColor, prepare, rampColor, theme } from "./color.js";
import { fmt } from "../model.js";

/** @import { Model } from "../model.js" */
/** @import { FeatureDim } from "../types.js" */

const PAD = { left: 64, top: 8, bottom: 34, right: 58 };
const BAR = { width: 10, gap: 10 };

/** Per canvas: what a point of the last drawing shows, for its tooltip. @type {WeakMap<HTMLCanvasElement, (x: number, y: number) => string>} */
const hover = new WeakMap();

/**
 * Tooltips over the cells: each cell's bins and its best program (call once per canvas).
 * @param {HTMLCanvasElement} canvas
 */
export function heatmapTooltips(canvas) {
  canvas.addEventListener("pointermove", (e) => {
    const rect = canvas.getBoundingClientRect();
    canvas.title = hover.get(canvas)?.(e.clientX - rect.left, e.clientY - rect.top) ?? "";
  });
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {Model} model
 */
export function drawHeatmap(canvas, model) {
  hover.delete(canvas);
  const { ctx, width, height } = prepare(canvas);
  const colours = theme();
  const dims = model.config.features ?? [];
  if (dims.length === 0) {
    ctx.fillStyle = colours.muted;
    ctx.fillText("This run has no feature dimensions: islands prune by the seed's rule.", 10, 24);
    ctx.fillText("To see cells, pick “MAP-Elites cells” in the simulation's settings,", 10, 42);
    ctx.fillText("or give the run's config `features` (see docs/engine.md).", 10, 58);
    return;
  }
  const sizes = dims.map((d) => dimensionSize(d, model.numIslands));
  const cols = sizes[0];
  const rows = sizes[1] ?? 1;
  /** Cell index → the best live accepted program in it. @type {Map<number, {fitness: number, id: string, count: number}>} */
  const best = new Map();
  for (const program of model.programs.values()) {
    if (!program.cell || program.status === "rejected") continue;
    const key = program.cell[0] + (program.cell[1] ?? 0) * cols;
    const current = best.get(key);
    if (current === undefined) best.set(key, { fitness: program.fitness, id: program.id, count: 1 });
    else {
      current.count += 1;
      if (program.fitness > current.fitness) [current.fitness, current.id] = [program.fitness, program.id];
    }
  }
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const w = plotW / cols;
  const h = plotH / rows;
  const range = model.range();
  const xNames = binLabels(dims[0], cols);
  const yNames = dims[1] ? binLabels(dims[1], rows) : [];
  hover.set(canvas, (x, y) => {
    const c = Math.floor((x - PAD.left) / w);
    const r = rows - 1 - Math.floor((y - PAD.top) / h);
    if (c < 0 || c >= cols || r < 0 || r >= rows) return "";
    const where = `${dimensionName(dims[0])} ${xNames[c]}${dims[1] ? `, ${dimensionName(dims[1])} ${yNames[r]}` : ""}`;
    const cell = best.get(c + r * cols);
    return cell
      ? `${where}: best ${fmt(cell.fitness)} (${cell.id.slice(0, 8)}) of ${cell.count} live`
      : `${where}: empty`;
  });
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) {
      const value = best.get(c + r * cols)?.fitness;
      ctx.fillStyle = value === undefined ? colours.empty : fitnessColor(value, range);
      ctx.fillRect(PAD.left + c * w, PAD.top + (rows - 1 - r) * h, Math.max(1, w - 1), Math.max(1, h - 1));
    }
  }
  // Bin labels, thinned so they never overlap.
  ctx.fillStyle = colours.muted;
  const xLabels = xNames;
  const xEvery = Math.max(1, Math.ceil((Math.max(...xLabels.map((t) => ctx.measureText(t).width)) + 6) / w));
  ctx.textAlign = "center";
  xLabels.forEach((label, c) => {
    if (c % xEvery === 0) ctx.fillText(fitText(ctx, label, w * xEvery - 2), PAD.left + (c + 0.5) * w, PAD.top + plotH + 12);
  });
  ctx.textAlign = "right";
  if (dims[1]) {
    const yEvery = Math.max(1, Math.ceil(13 / h));
    yNames.forEach((label, r) => {
      if (r % yEvery === 0) {
        ctx.fillText(fitText(ctx, label, PAD.left - 18), PAD.left - 4, PAD.top + (rows - 1 - r + 0.5) * h + 4);
      }
    });
  }
  ctx.textAlign = "left";
  ctx.fillStyle = colours.ink;
  const filled = `${best.size}/${cols * rows} cells filled`;
  const filledWidth = ctx.measureText(filled).width;
  ctx.fillText(fitText(ctx, dimensionName(dims[0]), plotW - filledWidth - 12), PAD.left, height - 4);
  ctx.fillStyle = colours.muted;
  ctx.fillText(filled, PAD.left + plotW - filledWidth, height - 4);
  if (dims[1]) {
    ctx.save();
    ctx.translate(10, PAD.top + plotH / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = "center";
    ctx.fillStyle = colours.ink;
    ctx.fillText(fitText(ctx, dimensionName(dims[1]), plotH), 0, 0);
    ctx.restore();
  }
  colourBar(ctx, width - PAD.right + BAR.gap, PAD.top, plotH, range, colours);
  canvas.dataset.cells = String(best.size);
}

/**
 * A vertical colour bar with the fitness at its ends and middle.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} height
 * @param {readonly [number, number]} range
 * @param {ReturnType<typeof theme>} colours
 */
function colourBar(ctx, x, y, height, [lo, hi], colours) {
  if (!Number.isFinite(lo)) return;
  const steps = 32;
  for (let i = 0; i < steps; i += 1) {
    ctx.fillStyle = rampColor(1 - i / (steps - 1));
    ctx.fillRect(x, y + (i * height) / steps, BAR.width, height / steps + 1);
  }
  ctx.fillStyle = colours.muted;
  ctx.textAlign = "left";
  const label = (/** @type {number} */ v, /** @type {number} */ at) => ctx.fillText(short(v), x + BAR.width + 3, at);
  label(hi, y + 8);
  if (hi > lo) label((lo + hi) / 2, y + height / 2 + 4);
  label(lo, y + height);
}

/** @param {number} v */
function short(v) {
  return Math.abs(v) >= 1000 || (Math.abs(v) < 0.01 && v !== 0) ? v.toExponential(1) : v.toFixed(2);
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

/**
 * What each bin of `dim` holds, as axis labels.
 * @param {FeatureDim} dim
 * @param {number} n
 */
function binLabels(dim, n) {
  if (dim.kind === "codeLines") {
    const t = dim.thresholds ?? [];
    return Array.from({ length: n }, (_, i) => (i === 0 ? `<${t[0]}` : i === n - 1 ? `≥${t[i - 1]}` : `${t[i - 1]}–${t[i] - 1}`));
  }
  if (dim.kind === "metric") {
    const min = dim.min ?? 0;
    const max = dim.max ?? 1;
    return Array.from({ length: n }, (_, i) => short(min + ((max - min) * i) / n));
  }
  return Array.from({ length: n }, (_, i) => String(i));
}

/** @param {FeatureDim} dim */
function dimensionName(dim) {
  if (dim.kind === "metric") return dim.metric;
  return dim.kind === "codeLines" ? "code lines" : "island";
}
