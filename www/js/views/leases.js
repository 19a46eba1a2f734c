// @ts-check
// Leases: the plan items handed out under a lease and not applied yet, as `evodb leases` lists
// them at the run's clock (the latest time an event carried) — live (and how long it has left),
// expired (the next plan hands it out again) or held (answered, waiting for earlier items) —
// with each item's attempt.

/** @import { Model } from "../model.js" */

export class LeasesView {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.drawn = "";
  }

  /** @param {Model} model */
  draw(model) {
    const open = model.leases.open();
    const clock = model.leases.clock;
    const key = JSON.stringify([open, clock]);
    if (key === this.drawn) return;
    this.drawn = key;
    const count = (/** @type {string} */ state) => open.filter((lease) => lease.state === state).length;
    Object.assign(this.root.dataset, {
      leases: String(open.length),
      live: String(count("live")),
      expired: String(count("expired")),
      held: String(count("held")),
    });
    if (model.leases.items.size === 0) {
      const p = document.createElement("p");
      p.className = "muted";
      p.textContent = "No leases: plan --leaseSeconds S (or config leaseSeconds) hands items out under one.";
      this.root.replaceChildren(p);
      return;
    }
    const summary = document.createElement("p");
    summary.textContent =
      `${model.leases.items.size} items handed out under leases; open now: ${count("live")} live, ` +
      `${count("expired")} expired (the next plan hands them out again), ${count("held")} held.`;
    const table = document.createElement("table");
    table.className = "attribution";
    const head = table.createTHead().insertRow();
    for (const title of ["item", "attempt", "state", "expires"]) {
      const th = document.createElement("th");
      th.textContent = title;
      head.append(th);
    }
    const body = table.createTBody();
    for (const lease of open) {
      const tr = body.insertRow();
      tr.className = `lease-${lease.state}`;
      const left = lease.expires - clock;
      const when = left >= 0 ? `in ${Math.round(left)} s` : `${Math.round(-left)} s ago`;
      for (const text of [lease.item, String(lease.attempt), lease.state, when]) tr.insertCell().textContent = text;
    }
    this.root.replaceChildren(summary, table);
  }
}
