// @ts-check
// Colours: a perceptual ramp for fitness (viridis stops) and a categorical palette for islands.

const RAMP = [
  [68, 1, 84], [72, 40, 120], [62, 74, 137], [49, 104, 142], [38, 130, 142],
  [31, 158, 137], [53, 183, 121], [110, 206, 88], [181, 222, 43], [253, 231, 37],
];

/** @typedef {readonly [number, number]} Range [lo, hi] */

/**
 * Position of `value` within `[lo, hi]`, clamped to [0, 1].
 * @param {number} value
 * @param {Range} range
 */
function unit(value, [lo, hi]) {
  return hi > lo ? Math.min(1, Math.max(0, (value - lo) / (hi - lo))) : 1;
}

/** @param {number} t in [0, 1] */
function rampAt(t) {
  const x = t * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(x));
  const f = x - i;
  return RAMP[i].map((c, k) => Math.round(c + (RAMP[i + 1][k] - c) * f));
}

/**
 * Fitness `value` within `[lo, hi]` as a CSS colour.
 * @param {number} value
 * @param {Range} range
 */
export function fitnessColor(value, range) {
  const [r, g, b] = rampAt(unit(value, range));
  return `rgb(${r},${g},${b})`;
}

// 256 shades as opaque RGBA pixels (little-endian ABGR), for views that write pixels directly.
const PIXELS = Uint32Array.from({ length: 256 }, (_, i) => {
  const [r, g, b] = rampAt(i / 255);
  return (255 << 24) | (b << 16) | (g << 8) | r;
});

/**
 * Fitness `value` within `[lo, hi]` as an RGBA pixel for an ImageData's Uint32 view.
 * @param {number} value
 * @param {Range} range
 */
export function fitnessPixel(value, range) {
  return PIXELS[Math.round(unit(value, range) * 255)];
}

/** Rejected programs: grey, whatever their fitness (they are kept, but are no candidates for best). */
export const REJECTED = (255 << 24) | (0xa0 << 16) | (0xa0 << 8) | 0xa0;

/**
 * The ramp's colour at `t` (0: lowest fitness, 1: highest), for a colour bar.
 * @param {number} t in [0, 1]
 */
export function rampColor(t) {
  const [r, g, b] = rampAt(Math.min(1, Math.max(0, t)));
  return `rgb(${r},${g},${b})`;
}

/** @type {MediaQueryList | undefined} */
let darkScheme;
/** The page's colours per scheme ("true": dark), read once each. @type {Record<string, ReturnType<typeof theme>>} */
const themes = {};

/**
 * The page's colours (style.css sets them, light or dark as the system is), for canvas text.
 * @returns {{ink: string, muted: string, line: string, background: string, empty: string}}
 */
export function theme() {
  // Read once per colour scheme: reading the computed style makes the browser recompute the
  // page's styles first, and every view asks for these on every drawing.
  const dark = (darkScheme ??= matchMedia("(prefers-color-scheme: dark)")).matches;
  if (themes[String(dark)]) return themes[String(dark)];
  const style = getComputedStyle(document.documentElement);
  /** @param {string} name @param {string} fallback */
  const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  return (themes[String(dark)] = {
    ink: read("--ink", "#1d1d1f"),
    muted: read("--muted", "#5f6368"),
    line: read("--line", "#d9dce1"),
    background: read("--background", "#fff"),
    empty: read("--empty-cell", "#eee"),
  });
}

/**
 * `text` cut to `width` pixels with an ellipsis (a squeezed label would be unreadable).
 * @param {CanvasRenderingContext2D} ctx
 * @param {string} text
 * @param {number} width
 */
export function fitText(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let end = text.length;
  while (end > 1 && ctx.measureText(`${text.slice(0, end)}…`).width > width) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * About `count` round tick values spanning [lo, hi] (1, 2 or 5 times a power of ten apart).
 * @param {number} lo
 * @param {number} hi
 * @param {number} count
 */
export function ticks(lo, hi, count) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

const ISLANDS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

/**
 * An island's colour: the ten categorical colours first, then hues a golden angle apart at
 * three lightnesses in turn, so 64 islands (or more) each keep a colour of their own.
 * @param {number} island
 */
export function islandColor(island) {
  if (island < ISLANDS.length) return ISLANDS[island];
  const k = island - ISLANDS.length;
  const hue = (k * 137.508 + 20) % 360;
  const lightness = [42, 58, 34][k % 3];
  return `hsl(${hue.toFixed(1)} 70% ${lightness}%)`;
}

/**
 * A canvas sized for the device's pixels, with its CSS size as the drawing units.
 * @param {HTMLCanvasElement} canvas
 */
export function prepare(canvas) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || canvas.width;
  const height = canvas.clientHeight || canvas.height;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  // Null only for a canvas already given another kind of context; these are only ever 2D.
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.fillStyle = theme().ink;
  ctx.font = "11px system-ui, sans-serif";
  return { ctx, width, height };
}
