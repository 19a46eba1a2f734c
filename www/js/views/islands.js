// @ts-check
// Islands: one band per island, its members as squares ranked by fitness (best first),
// coloured by fitness (grey: rejected); a ring marks a member that arrived by migration, a dot
// the elite archive.

import { fitText, fitnessPixel, islandColor, prepare, REJECTED, theme } from "./color.js";
import { fmt, islandLabel } from "../model.js";

/** @import { Model } from "../model.js" */
/** @import { Program } from "../types.js" */
/** A member's square, in CSS pixels. @typedef {{id: string, x: number, y: number, size: number}} Box */

const LABEL = 64;
/** The canvas's height for a few islands; more islands make it taller, never their bands thinner. */
const BASE_HEIGHT = 240;
/** The thinnest band: one line of label, and squares still big enough to click. */
const MIN_BAND = 22;

export class IslandsView {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(id: string) => void} onSelect
   * @param {() => void} [onScroll] the bands in sight changed (the frame scrolled): draw again
   */
  constructor(canvas, onSelect, onScroll = () => {}) {
    this.canvas = canvas;
    this.onSelect = onSelect;
    // The canvas is only as tall as its scrolling frame shows (it stays in sight, `sticky`); an
    // empty block after it gives the frame the bands' whole height to scroll. Only the bands in
    // sight are drawn: 64 islands are 1,400 px of bands, of which 440 show.
    this.frame = /** @type {HTMLElement} */ (canvas.parentElement);
    this.rest = document.createElement("div");
    this.rest.className = "islands-rest";
    this.frame.append(this.rest);
    /** The frame's scroll offset drawn last (CSS px). */
    this.scrolled = 0;
    /** The frame's tallest, read once (see `frameHeight`). @type {number | undefined} */
    this.maxFrame = undefined;
    /** A band's height drawn last (CSS px). */
    this.bandHeight = MIN_BAND;
    this.frame.addEventListener("scroll", () => {
      this.drawn = "";
      onScroll();
    });
    /** @type {Box[]} */
    this.boxes = [];
    /** Per island: its members' ids, best first. @type {string[][]} */
    this.ranked = [];
    /** @type {string | null} */
    this.selected = null;
    /** What was drawn last, to skip redrawing the same. */
    this.drawn = "";
    /** The pixels of the squares, reused while the canvas keeps its size. @type {ImageData | undefined} */
    this.image = undefined;
    /** @type {Uint32Array | undefined} */
    this.pixels = undefined;
    /** The model last drawn, for tooltips. @type {import("../model.js").Model | null} */
    this.model = null;
    /** @param {MouseEvent} e */
    const boxAt = (e) => {
      const rect = canvas.getBoundingClientRect();
      return this.boxes.find((b) => inside(b, e.clientX - rect.left, e.clientY - rect.top + this.scrolled));
    };
    canvas.addEventListener("click", (e) => {
      const hit = boxAt(e);
      if (hit) onSelect(hit.id);
    });
    canvas.addEventListener("pointermove", (e) => {
      const hit = boxAt(e);
      const program = hit && this.model?.known.get(hit.id);
      canvas.title = program
        ? `${program.id}\nfitness ${fmt(program.fitness)}, ${islandLabel(/** @type {Model} */ (this.model), program.island)}, generation ${program.generation}` +
          `${program.status === "rejected" ? ", rejected" : ""}\n${program.changes.split("\n")[0]}`
        : "";
    });
    canvas.addEventListener("keydown", (e) => this.key(e));
  }

  /** The scrolling frame's tallest (style.css's `.scroll` max-height), read once. */
  frameHeight() {
    this.maxFrame ??= parseFloat(getComputedStyle(this.frame).maxHeight) || Infinity;
    return this.maxFrame;
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
    // Keys walking to a band out of sight scroll it into the frame.
    const [top, bottom] = [island * this.bandHeight, (island + 1) * this.bandHeight];
    if (top < this.frame.scrollTop) this.frame.scrollTop = top;
    else if (bottom > this.frame.scrollTop + this.frame.clientHeight) this.frame.scrollTop = bottom - this.frame.clientHeight;
    if (id) this.onSelect(id);
  }

  /**
   * Every member of every island is drawn: bands are at least `MIN_BAND` tall (the canvas grows
   * and its frame scrolls), squares shrink to fit the band, and only when even 2-pixel squares do
   * not fit does the band end with "+N more". Redrawn only when the population or the selection
   * changed.
   * @param {Model} model
   * @param {string | null} selected
   */
  draw(model, selected) {
    this.model = model;
    const key = `${model.version}|${selected}|${this.canvas.clientWidth}|${model.range().join()}`;
    if (key === this.drawn) return;
    this.drawn = key;
    this.selected = selected;
    const bands = model.islands.length;
    const bandHeight = Math.max(MIN_BAND, Math.floor(BASE_HEIGHT / Math.max(1, bands)));
    this.bandHeight = bandHeight;
    const whole = Math.max(BASE_HEIGHT, bands * bandHeight);
    const shown = Math.min(whole, this.frameHeight());
    if (this.canvas.style.height !== `${shown}px`) {
      this.canvas.style.height = `${shown}px`;
      this.rest.style.height = `${whole - shown}px`;
    }
    // Bands are laid out in the whole height (y from its top) and drawn shifted up by the scroll.
    const scrolled = Math.min(this.frame.scrollTop, whole - shown);
    this.scrolled = scrolled;
    /** Whether a band is (partly) in sight. @param {number} island */
    const inSight = (island) => (island + 1) * bandHeight > scrolled && island * bandHeight < scrolled + shown;
    const { ctx, width } = prepare(this.canvas);
    const ratio = this.canvas.width / width;
    const colours = theme();
    // Squares are written as pixels (thousands of fillRects a frame would not keep up), into one
    // buffer kept from frame to frame (a new one a frame is megabytes of garbage with 64 islands).
    if (this.image?.width !== this.canvas.width || this.image.height !== this.canvas.height) {
      this.image = ctx.createImageData(this.canvas.width, this.canvas.height);
      this.pixels = new Uint32Array(this.image.data.buffer);
    }
    const image = this.image;
    const pixels = /** @type {Uint32Array} */ (this.pixels);
    pixels.fill(0);
    /** @type {{program: Program, x: number, y: number, size: number, migrant: boolean | undefined}[]} */
    const overlays = [];
    /** Per island: how many members did not fit. @type {number[]} */
    const hidden = [];
    this.boxes = [];
    this.ranked = [];
    let drawn = 0;
    const range = model.range();
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
      const areaHeight = bandHeight - 4;
      const { size, perRow, fits } = squares(areaWidth, areaHeight, ranked.length);
      hidden.push(ranked.length - fits);
      const gap = size > 3 ? 1 : 0;
      const sight = inSight(island);
      for (let i = 0; i < fits; i += 1) {
        const program = ranked[i];
        const x = LABEL + (i % perRow) * size;
        const y = top + 2 + Math.floor(i / perRow) * size;
        this.boxes.push({ id: program.id, x, y, size });
        drawn += 1;
        if (!sight) continue;
        const pixel = program.status === "rejected" ? REJECTED : fitnessPixel(program.fitness, range);
        fill(pixels, image.width, image.height, x * ratio, (y - scrolled) * ratio, (size - gap) * ratio, pixel);
        const migrant = members.get(program.id);
        if ((migrant && size >= 6) || (size >= 8 && model.archive.has(program.id)) || program.id === selected) {
          overlays.push({ program, x, y: y - scrolled, size, migrant });
        }
      }
    });
    ctx.putImageData(image, 0, 0);
    model.islands.forEach((members, island) => {
      if (!inSight(island)) return;
      const top = island * bandHeight - scrolled;
      const count = this.ranked[island].length;
      ctx.fillStyle = islandColor(island);
      ctx.fillRect(0, top + 2, 4, bandHeight - 4);
      ctx.fillStyle = colours.ink;
      const name = model.islandName(island);
      if (bandHeight >= 40) {
        ctx.fillText(`island ${island}`, 8, top + 13);
        ctx.fillStyle = colours.muted;
        ctx.fillText(`${count} live`, 8, top + 26);
        if (name && bandHeight >= 50) ctx.fillText(fitText(ctx, name, LABEL - 10), 8, top + 39);
      } else {
        // One line: a band this thin has room for no more.
        ctx.fillText(fitText(ctx, `${island}${name ? ` ${name}` : ""} · ${count}`, LABEL - 10), 8, top + bandHeight / 2 + 4);
      }
      if (hidden[island] > 0) {
        const more = `+${hidden[island]} more`;
        const w = ctx.measureText(more).width + 6;
        ctx.fillStyle = colours.background;
        ctx.fillRect(width - w, top + bandHeight - 14, w, 13);
        ctx.fillStyle = colours.ink;
        ctx.fillText(more, width - w + 3, top + bandHeight - 4);
      }
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
    // For tests and for people: what is on the canvas, and what is only counted.
    this.canvas.dataset.islands = String(this.ranked.length);
    this.canvas.dataset.members = String(this.ranked.reduce((n, ids) => n + ids.length, 0));
    this.canvas.dataset.drawn = String(drawn);
    this.canvas.dataset.more = String(hidden.reduce((n, k) => n + k, 0));
    this.canvas.dataset.scrolled = String(scrolled);
  }
}

/**
 * The largest square side (≤ 16 px) at which `n` squares fit an area, and how many fit: all of
 * them unless even 2-pixel squares do not.
 * @param {number} width
 * @param {number} height
 * @param {number} n
 */
function squares(width, height, n) {
  let size = Math.max(2, Math.min(16, Math.floor(Math.sqrt((width * height) / Math.max(1, n)))));
  const capacity = (/** @type {number} */ side) => Math.floor(width / side) * Math.floor(height / side);
  while (size > 2 && capacity(size) < n) size -= 1;
  return { size, perRow: Math.max(1, Math.floor(width / size)), fits: Math.min(n, capacity(size)) };
}

/**
 * Fills a `side`×`side` square of device pixels at (`x`, `y`).
 * @param {Uint32Array} pixels
 * @param {number} stride pixels per row
 * @param {number} rows rows of pixels
 * @param {number} x
 * @param {number} y
 * @param {number} side
 * @param {number} pixel
 */
function fill(pixels, stride, rows, x, y, side, pixel) {
  const x0 = Math.round(x);
  const y0 = Math.round(y);
  const n = Math.max(1, Math.round(side));
  // A plain loop: for squares a few pixels wide it beats a `fill` call per row. Rows above or
  // below the canvas (a band half in sight) are skipped.
  for (let row = Math.max(0, y0); row < Math.min(rows, y0 + n); row += 1) {
    const start = row * stride + x0;
    for (let i = start; i < start + n; i += 1) pixels[i] = pixel;
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
