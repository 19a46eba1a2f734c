// @ts-check
// Following a run as it is written: `evodb view` answers `history.ndjson?from=<byte>` with the
// complete lines written since that byte and the offset to ask from next (`X-Evodb-Next`). The
// page polls twice a second, so a new event shows within about a second of being written.

const POLL_MS = 500;

/**
 * Polls `url` from byte `offset` until the returned stop function is called.
 * - `lines` gets each batch of new history lines (whole lines), in order;
 * - `live` says whether the server answers (false while it does not, true when it does again);
 * - `restarted` is called, and polling stops, when the history is shorter than what was read
 *   (the run was replaced): the caller opens it again.
 * A server that is not `evodb view` (no `X-Evodb-Next`) is not followed.
 * @param {URL} url
 * @param {number} offset
 * @param {{lines: (text: string) => void, live: (on: boolean) => void, restarted: () => void}} on
 * @returns {() => void}
 */
export function follow(url, offset, on) {
  let stopped = false;
  let next = offset;
  /** @type {boolean | null} */
  let up = null;
  const decoder = new TextDecoder();
  /** @param {boolean} now */
  const report = (now) => {
    if (up !== now) on.live(now);
    up = now;
  };
  const poll = async () => {
    if (stopped) return;
    const ask = new URL(url);
    ask.searchParams.set("from", String(next));
    try {
      const response = await fetch(ask, { cache: "no-store" });
      if (stopped) return;
      if (response.status === 409) {
        stopped = true;
        on.restarted();
        return;
      }
      const header = response.headers.get("X-Evodb-Next");
      if (header === null) {
        // Not `evodb view` (a static server): nothing to follow.
        if (response.ok) return;
        throw new Error(`HTTP ${response.status}`);
      }
      report(true);
      const text = decoder.decode(await response.arrayBuffer());
      next = Number(header);
      if (text.trim() && !stopped) on.lines(text);
    } catch {
      report(false);
    }
    if (!stopped) setTimeout(poll, POLL_MS);
  };
  setTimeout(poll, POLL_MS);
  return () => {
    stopped = true;
  };
}
