// @ts-check
// A line diff of two programs: the common head and tail are set aside, the middle is aligned by
// its longest common subsequence, and the result is unified-diff lines with their line numbers.

/** One line of a diff. @typedef {{kind: " " | "-" | "+", text: string, old: number | null, new: number | null}} DiffLine */

/** Above this many cells (middle lines × middle lines) the middle is shown as replaced whole. */
const MAX_CELLS = 4_000_000;

/**
 * The lines of `before` and `after`, each marked kept (" "), removed ("-") or added ("+").
 * @param {string} before
 * @param {string} after
 * @returns {{lines: DiffLine[], added: number, removed: number, aligned: boolean}}
 */
export function diffLines(before, after) {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) {
    tail += 1;
  }
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const aligned = midA.length * midB.length <= MAX_CELLS;
  const middle = aligned ? alignMiddle(midA, midB) : [...midA.map(() => "-"), ...midB.map(() => "+")];

  /** @type {DiffLine[]} */
  const lines = [];
  let i = 0;
  let j = 0;
  const keep = () => {
    lines.push({ kind: " ", text: a[i], old: i + 1, new: j + 1 });
    i += 1;
    j += 1;
  };
  for (let k = 0; k < head; k += 1) keep();
  let added = 0;
  let removed = 0;
  for (const op of middle) {
    if (op === " ") keep();
    else if (op === "-") {
      lines.push({ kind: "-", text: a[i], old: i + 1, new: null });
      i += 1;
      removed += 1;
    } else {
      lines.push({ kind: "+", text: b[j], old: null, new: j + 1 });
      j += 1;
      added += 1;
    }
  }
  for (let k = 0; k < tail; k += 1) keep();
  return { lines, added, removed, aligned };
}

/**
 * The edit script turning `a` into `b` (" " keep, "-" remove, "+" add), by an LCS table.
 * @param {string[]} a
 * @param {string[]} b
 * @returns {(" " | "-" | "+")[]}
 */
function alignMiddle(a, b) {
  const n = a.length;
  const m = b.length;
  // lcs[i * (m + 1) + j]: the LCS length of a[i..] and b[j..].
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lcs[i * (m + 1) + j] =
        a[i] === b[j] ? lcs[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
    }
  }
  /** @type {(" " | "-" | "+")[]} */
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push(" ");
      i += 1;
      j += 1;
    } else if (lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1]) {
      ops.push("-");
      i += 1;
    } else {
      ops.push("+");
      j += 1;
    }
  }
  while (i++ < n) ops.push("-");
  while (j++ < m) ops.push("+");
  return ops;
}

/**
 * The diff with unchanged runs longer than `2 × context` folded to their edges; a fold is
 * `{hidden}`, the count of the lines it stands for.
 * @param {DiffLine[]} lines
 * @param {number} context
 * @returns {(DiffLine | {hidden: number})[]}
 */
export function folded(lines, context = 3) {
  /** @type {(DiffLine | {hidden: number})[]} */
  const out = [];
  let run = 0;
  /** @param {number} end */
  const flush = (end) => {
    const start = end - run;
    const keepHead = start === 0 ? 0 : context;
    const keepTail = end === lines.length ? 0 : context;
    if (run > keepHead + keepTail + 1) {
      out.push(...lines.slice(start, start + keepHead), { hidden: run - keepHead - keepTail }, ...lines.slice(end - keepTail, end));
    } else {
      out.push(...lines.slice(start, end));
    }
    run = 0;
  };
  lines.forEach((line, k) => {
    if (line.kind === " ") {
      run += 1;
      return;
    }
    if (run > 0) flush(k);
    out.push(line);
  });
  if (run > 0) flush(lines.length);
  return out;
}

/** @param {string} text */
function splitLines(text) {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}
