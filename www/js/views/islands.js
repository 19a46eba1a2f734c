// @ts-check
// Islands: one band per island, its members as squares ranked by fitness (best first),
// coloured by fitness; a ring marks a member that arrived by migration, a dot the elite archive.

import { fitnessPixel, islandColor, prepare } from "./color.js";

/** @import { Model } from "../model.js" */
/** @import { Program } from "../types.js" */
/** A member's square, in CSS pixels. @typedef {{id: string, x: number, y: number, size: number}} Box */

const LABEL = 64;

/**
 * `text` cut to `width` pixels with an ellipsis (a squeezed label would be unreadable).
 * @param {CanvasRenderingContext2D} ctx
 * @param {string} text
 * @param {number} width
 */
function fitText(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let end = text.length;
  while (end > 1 && ctx.measureText(`${text.slice(0, end)}…`).width > width) end--;
  return `${text.slice(0, end)}…`;
}

export class IslandsView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(id: string) => void} onSelect
   */
  constructor(canvas, onSelect) {
    this.canvas = canvas;
    this.onSelect = onSelect;
    /** @type {Box[]} */
    this.boxes = [];
    /** Per island: its members' ids, best first. @type {string[][]} */
    this.ranked = [];
    /** @type {string | null} */
    this.selected = null;
    canvas.addEventListener("click", (e) => {
      const rect = canvas.getBoundingClientRect();
      const hit = this.boxes.find((b) => inside(b, e.clientX - rect.left, e.clientY - rect.top));
      if (hit) onSelect(hit.id);
    });
    canvas.addEventListener("keydown", (e) => this.key(e));
  }

  /**
   * Arrow keys walk the members: left/right within an island, up/down between islands.
   * @param {KeyboardEvent} e
   */
  key(e) {
    /** @type {Record<string, [number, number] | undefined>} */
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const move = moves[e.key];
    if (!move || this.ranked.length === 0) return;
    e.preventDefault();
    const { selected } = this;
    let island = selected === null ? -1 : this.ranked.findIndex((ids) => ids.includes(selected));
    let index = island < 0 || selected === null ? 0 : this.ranked[island].indexOf(selected);
    if (island < 0) island = 0;
    island = Math.min(this.ranked.length - 1, Math.max(0, island + move[0]));
    index = Math.min(this.ranked[island].length - 1, Math.max(0, index + move[1]));
    const id = this.ranked[island][index];
    if (id) this.onSelect(id);
  }

  /**
   * @param {Model} model
   * @param {string | null} selected
   */
  draw(model, selected) {
    this.selected = selected;
    const { ctx, width, height } = prepare(this.canvas);
    const ratio = this.canvas.width / width;
    const bands = model.islands.length;
    const bandHeight = height / Math.max(1, bands);
    // Squares are written as pixels (thousands of fillRects a frame would not keep up).
    const image = ctx.createImageData(this.canvas.width, this.canvas.height);
    const pixels = new Uint32Array(image.data.buffer);
    /** @type {{program: Program, x: number, y: number, size: number, migrant: boolean | undefined}[]} */
    const overlays = [];
    this.boxes = [];
    this.ranked = [];
    model.islands.forEach((members, island) => {
      const top = island * bandHeight;
      /** @type {Program[]} */
      const ranked = [];
      for (const id of members.keys()) {
        const program = model.known.get(id);
        if (program) ranked.push(program);
      }
      ranked.sort((a, b) => b.fitness - a.fitness);
      this.ranked.push(ranked.map((p) => p.id));
      const areaWidth = width - LABEL;
      const areaHeight = bandHeight - 6;
      const size = Math.max(2, Math.min(16, Math.floor(Math.sqrt((areaWidth * areaHeight) / Math.max(1, ranked.length)))));
      const perRow = Math.max(1, Math.floor(areaWidth / size));
      const gap = size > 3 ? 1 : 0;
      ranked.forEach((program, i) => {
        const x = LABEL + (i % perRow) * size;
        const y = top + 3 + Math.floor(i / perRow) * size;
        if (y + size > top + bandHeight) return;
        fill(pixels, image.width, x * ratio, y * ratio, (size - gap) * ratio, fitnessPixel(program.fitness, model.fitnessRange));
        const migrant = members.get(program.id);
        if ((migrant && size >= 6) || (size >= 8 && model.archive.has(program.id)) || program.id === selected) {
          overlays.push({ program, x, y, size, migrant });
        }
        this.boxes.push({ id: program.id, x, y, size });
      });
    });
    ctx.putImageData(image, 0, 0);
    model.islands.forEach((members, island) => {
      const top = island * bandHeight;
      ctx.fillStyle = islandColor(island);
      ctx.fillRect(0, top + 2, 4, bandHeight - 4);
      ctx.fillStyle = "#222";
      ctx.fillText(`island ${island}`, 8, top + 14);
      ctx.fillStyle = "#666";
      ctx.fillText(`${this.ranked[island].length} live`, 8, top + 28);
      const name = model.islandName(island);
      if (name && bandHeight >= 44) ctx.fillText(fitText(ctx, name, LABEL - 10), 8, top + 42);
    });
    for (const { program, x, y, size, migrant } of overlays) {
      if (migrant && size >= 6) {
        ctx.strokeStyle = "#fff";
        ctx.lineWidth = 1.5;
        ctx.strokeRect(x + 1.5, y + 1.5, size - 4, size - 4);
      }
      if (size >= 8 && model.archive.has(program.id)) {
        ctx.fillStyle = "#000";
        ctx.fillRect(x + size / 2 - 1, y + size / 2 - 1, 2, 2);
      }
      if (program.id === selected) {
        ctx.strokeStyle = "#e00";
        ctx.lineWidth = 2;
        ctx.strokeRect(x, y, size - 1, size - 1);
      }
    }
  }
}

/**
 * Fills a `side`×`side` square of device pixels at (`x`, `y`).
 * @param {Uint32Array} pixels
 * @param {number} stride pixels per row
 * @param {number} x
 * @param {number} y
 * @param {number} side
 * @param {number} pixel
 */
function fill(pixels, stride, x, y, side, pixel) {
  const x0 = Math.round(x);
  const y0 = Math.round(y);
  const n = Math.max(1, Math.round(side));
  for (let row = y0; row < y0 + n; row += 1) {
    pixels.fill(pixel, row * stride + x0, row * stride + x0 + n);
  }
}

/**
 * @param {Box} box
 * @param {number} x
 * @param {number} y
 */
function inside(box, x, y) {
  return x >= box.x && x < box.x + box.size && y >= box.y && y < box.y + box.size;
}
