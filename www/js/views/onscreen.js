// @ts-check
// Whether a view is on screen, so views that cost a frame's budget draw only when someone can see
// them; and a throttle, so a chart that follows a moving run redraws a few times a second.

/**
 * Watches `element`; `onShow` runs each time it comes into view. Returns whether it is in view.
 * @param {Element} element
 * @param {() => void} onShow
 * @returns {() => boolean}
 */
export function watchOnScreen(element, onShow) {
  let visible = false;
  new IntersectionObserver((entries) => {
    visible = entries.some((entry) => entry.isIntersecting);
    if (visible) onShow();
  }).observe(element);
  return () => visible;
}

/** Redraws at most every `ms` while its input keeps changing; the last change is drawn once it settles. */
export class Throttle {
  /** @param {number} ms @param {() => void} redraw */
  constructor(ms, redraw) {
    this.ms = ms;
    this.redraw = redraw;
    this.last = -Infinity;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  /** True when drawing now is due; otherwise a redraw is scheduled for when it is. */
  due() {
    const now = performance.now();
    clearTimeout(this.timer);
    if (now - this.last >= this.ms) {
      this.last = now;
      return true;
    }
    this.timer = setTimeout(this.redraw, this.ms - (now - this.last));
    return false;
  }
}
