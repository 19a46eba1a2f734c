// The playground's line diff (www/js/diff.js), in plain Node: the script it gives turns the old
// text into the new one, it is minimal on small cases, and long unchanged runs fold.
import test from "node:test";
import assert from "node:assert/strict";
import { diffLines, folded } from "../js/diff.js";

/** Applies a diff: the kept and added lines, in order, are the new text. */
const after = (lines) => lines.filter((l) => l.kind !== "-").map((l) => l.text);
const before = (lines) => lines.filter((l) => l.kind !== "+").map((l) => l.text);

test("a diff rebuilds both texts and counts what changed", () => {
  const a = "def f(x):\n    y = 0\n    y += 1 * x\n    return y\n";
  const b = "def f(x):\n    y = 0\n    y += 2 * x\n    y += x * x\n    return y\n";
  const { lines, added, removed, aligned } = diffLines(a, b);
  assert.equal(aligned, true);
  assert.deepEqual(before(lines), a.trimEnd().split("\n"));
  assert.deepEqual(after(lines), b.trimEnd().split("\n"));
  assert.deepEqual([added, removed], [2, 1]);
  assert.deepEqual(
    lines.map((l) => [l.kind, l.old, l.new]),
    [[" ", 1, 1], [" ", 2, 2], ["-", 3, null], ["+", null, 3], ["+", null, 4], [" ", 4, 5]],
  );
});

test("identical, empty and disjoint texts", () => {
  assert.deepEqual(diffLines("a\nb\n", "a\nb\n").lines.map((l) => l.kind), [" ", " "]);
  assert.deepEqual(diffLines("", "").lines, []);
  const { added, removed } = diffLines("a\nb", "c\nd\ne");
  assert.deepEqual([added, removed], [3, 2]);
});

test("random edits: the script always rebuilds both sides", () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 6;
  for (let round = 0; round < 200; round += 1) {
    const a = Array.from({ length: next() * 3 }, () => `line ${next()}`);
    const b = a.filter(() => next() > 1).concat(Array.from({ length: next() }, () => `new ${next()}`));
    const { lines } = diffLines(a.join("\n"), b.join("\n"));
    assert.deepEqual(before(lines), a);
    assert.deepEqual(after(lines), b);
  }
});

test("long unchanged runs fold to three lines of context around each change", () => {
  const a = Array.from({ length: 40 }, (_, i) => `line ${i}`);
  const b = a.map((l, i) => (i === 20 ? "changed" : l));
  const shown = folded(diffLines(a.join("\n"), b.join("\n")).lines);
  const folds = shown.filter((l) => "hidden" in l).map((l) => l.hidden);
  assert.deepEqual(folds, [17, 16]);
  assert.equal(shown.length, 2 + 3 + 2 + 3);
});
