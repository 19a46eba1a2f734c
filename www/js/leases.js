// @ts-check
// Leased plan items as the model replays them (issue 41's leases): a `planned` event with a
// lease length hands each of its items out until `now + leaseSeconds` (an item listed again is
// a reissue: its attempt counts up), a `heartbeat` moves its expiry, and the add (or the held
// answer) naming the item settles it. An item is `expired` once the run's clock — the latest
// `now` any event carried — passes its expiry.

/** @typedef {{item: string, attempt: number, expires: number, seconds: number, state: "live" | "held" | "answered"}} LeasedItem */

export class Leases {
  constructor() {
    /** Per item name, in the order first handed out. @type {Map<string, LeasedItem>} */
    this.items = new Map();
    /** The latest time an event carried. */
    this.clock = -Infinity;
  }

  /** @param {number | undefined} now */
  tick(now) {
    if (typeof now === "number" && now > this.clock) this.clock = now;
  }

  /** @param {{items: string[], now?: number, leaseSeconds?: number}} event */
  planned({ items, now, leaseSeconds }) {
    this.tick(now);
    if (typeof now !== "number") return;
    for (const item of items) {
      const before = this.items.get(item);
      // A reissue keeps its item's lease length when the plan gives none.
      const seconds = leaseSeconds ?? before?.seconds;
      if (seconds === undefined) continue;
      this.items.set(item, { item, attempt: (before?.attempt ?? 0) + 1, expires: now + seconds, seconds, state: "live" });
    }
  }

  /** @param {{item: string, now: number, leaseSeconds?: number}} event */
  heartbeat({ item, now, leaseSeconds }) {
    this.tick(now);
    const lease = this.items.get(item);
    if (lease) lease.expires = now + (leaseSeconds ?? lease.seconds);
  }

  /** An answer to `item` arrived: applied, or `held` until the items before it are in. @param {string | null | undefined} item @param {"held" | "answered"} state */
  answer(item, state) {
    const lease = item ? this.items.get(item) : undefined;
    if (lease) lease.state = state;
  }

  /** The leased items not yet applied, as `evodb leases` lists them (live, expired or held). */
  open() {
    return [...this.items.values()]
      .filter((lease) => lease.state !== "answered")
      .map((lease) => ({ ...lease, state: lease.state === "held" ? "held" : lease.expires < this.clock ? "expired" : "live" }));
  }
}
