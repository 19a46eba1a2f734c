// @ts-check
// How varied the live population is, kept as the model applies events: how many distinct code
// texts and how many distinct MAP-Elites cells the live programs hold, recorded after each add.
// A population collapsing onto copies of one program shows as unique code falling behind live.

/** @import { Program } from "./types.js" */

/** A point of the series: after `x` programs added, `live` programs, `unique` code texts, `cells` cells. @typedef {{x: number, live: number, unique: number, cells: number}} DiversityPoint */

const MAX_POINTS = 4096;

export class Diversity {
  constructor() {
    /** Live programs per code text. @type {Map<string, number>} */
    this.codes = new Map();
    /** Live programs per cell (island and bins). @type {Map<string, number>} */
    this.cells = new Map();
    this.live = 0;
    /** @type {DiversityPoint[]} */
    this.series = [];
  }

  /** @param {Program} program */
  enter(program) {
    this.live += 1;
    bump(this.codes, program.code, 1);
    if (program.cell) bump(this.cells, program.cell.join(","), 1);
  }

  /** @param {Program} program */
  leave(program) {
    this.live -= 1;
    bump(this.codes, program.code, -1);
    if (program.cell) bump(this.cells, program.cell.join(","), -1);
  }

  /**
   * Records the population now. Past `MAX_POINTS` every other point is dropped, the first kept,
   * so a long run's series stays bounded and still starts where the run started.
   * @param {number} x programs added so far
   */
  record(x) {
    const { series } = this;
    series.push({ x, live: this.live, unique: this.codes.size, cells: this.cells.size });
    if (series.length > MAX_POINTS) {
      let kept = 1;
      for (let i = 2; i < series.length; i += 2) series[kept++] = series[i];
      series.length = kept;
    }
  }
}

/** @param {Map<string, number>} counts @param {string} key @param {number} by */
function bump(counts, key, by) {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
