// @ts-check
// Which live programs are near-duplicates of an earlier-added live one, at the moment shown: the
// core's rule (`db.nearDuplicates()`: `admit`'s MinHash similarity of normalised token shingles,
// at the run's `nearDuplicate`, default 0.9), asked of the engine's signatures of the programs
// live at that event. Each program's code is signed once, a slice at a time between frames, so a
// 20,000-program run opens as quickly as before and the marks follow; the answer is kept per
// state of the model and, while the timeline moves, asked again only a few times a second (once a
// second while playing) — so scrubbing and playing stay smooth, and a run at rest always ends on
// the answer for what it shows.

import { CodeSignatures } from "../pkg/evodb.js";
import { fmt } from "./model.js";

/** @import { Model } from "./model.js" */

/** @typedef {{of: string, similarity: number}} NearDuplicateOf */

/** Signing runs in slices of about this many ms, between frames. */
const SLICE_MS = 12;
/**
 * While the model keeps changing, the answer is asked again no sooner than this (ms), nor sooner
 * than this many times the last answer's own cost: scrubbing, then playing.
 */
const AGAIN = { scrubbing: { ms: 300, factor: 5 }, playing: { ms: 1000, factor: 10 } };

export class NearDuplicates {
  /** @param {() => void} changed called when a newer answer is ready (the page redraws) */
  constructor(changed) {
    this.changed = changed;
    /** The engine's signatures (made once the wasm is loaded). @type {CodeSignatures | null} */
    this.signatures = null;
    /** Per signed id, the program it was signed as (a run opened later may reuse an id). @type {Map<string, {code: string, codePath: string}>} */
    this.signed = new Map();
    /** The model and its version the answer is for. @type {Model | null} */
    this.model = null;
    this.version = -1;
    /** Bumped with each new answer: views drawn from it key on it. */
    this.generation = 0;
    /** Each live near-duplicate: the earlier program it is closest to, and how alike. @type {Map<string, NearDuplicateOf>} */
    this.byId = new Map();
    /** Per program: the live near-duplicates of it, oldest first. @type {Map<string, string[]>} */
    this.copies = new Map();
    /** The similarity from which programs are marked. */
    this.threshold = 0.9;
    /** When the last answer was made (performance.now()) and what it cost (ms). */
    this.answeredAt = -Infinity;
    this.cost = 0;
    /** A later attempt is scheduled. */
    this.scheduled = false;
  }

  /**
   * Brings the answer up to the model's live programs now (the page calls it as it draws); while
   * that is not ready (programs still being signed, or the timeline moving faster than it is
   * worth asking), the last answer stays and a newer one follows (`changed`, then this again).
   * @param {Model} model
   * @param {boolean} playing
   */
  at(model, playing) {
    if (model === this.model && model.version === this.version) return this;
    const now = performance.now();
    const again = playing ? AGAIN.playing : AGAIN.scrubbing;
    const wait = this.answeredAt + Math.max(again.ms, again.factor * this.cost) - now;
    if (wait > 0 && this.model === model) {
      this.later(wait);
      return this;
    }
    // A live run forgets pruned programs; its signatures are forgotten with them, all at once.
    if (!this.signatures || this.signed.size > 2 * model.known.size + 4096) {
      this.signatures?.free();
      this.signatures = new CodeSignatures();
      this.signed.clear();
    }
    // The engine's insertion order: "earlier" is the program added first.
    const live = [...model.programs.values()].sort((a, b) => a.order - b.order);
    const deadline = now + SLICE_MS;
    for (const p of live) {
      const before = this.signed.get(p.id);
      if (before && before.code === p.code && before.codePath === p.codePath) continue;
      if (performance.now() > deadline) {
        this.later(0);
        return this;
      }
      this.signatures.add(p.id, p.code, p.codePath, p.migratedFrom);
      this.signed.set(p.id, { code: p.code, codePath: p.codePath });
    }
    const threshold = model.config.nearDuplicate ?? null;
    const found = this.signatures.nearDuplicates(live.map((p) => p.id), threshold);
    this.threshold = threshold ?? 0.9;
    this.byId.clear();
    this.copies.clear();
    for (const { id, of, similarity } of found) {
      this.byId.set(id, { of, similarity });
      const copies = this.copies.get(of);
      if (copies) copies.push(id);
      else this.copies.set(of, [id]);
    }
    this.model = model;
    this.version = model.version;
    this.generation += 1;
    this.answeredAt = performance.now();
    this.cost = this.answeredAt - now;
    return this;
  }

  /**
   * Asks for a redraw in `ms` (once), when the views will ask again.
   * @param {number} ms
   */
  later(ms) {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.changed();
    }, ms);
  }

  /**
   * Whether program `id` is a near-duplicate or has one (what the table's filter shows).
   * @param {string} id
   */
  involves(id) {
    return this.byId.has(id) || this.copies.has(id);
  }
}

/**
 * The mark beside a near-duplicate: `≈ #12 (0.953125)`, the candidate number of the program it
 * is near and their similarity (printed as the engine prints numbers); empty for a program that
 * is not one.
 * @param {Model} model
 * @param {NearDuplicateOf | undefined} near
 */
export function nearMark(model, near) {
  if (!near) return "";
  const of = model.known.get(near.of);
  return `≈ #${of ? of.candidate : "?"} (${fmt(near.similarity)})`;
}
