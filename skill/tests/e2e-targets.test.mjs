// End to end: a scripted two-target run (issue 20, seed 003's evo-anything) through the real
// command line — `init` with two targets and synergy every second round, `seed --targetId` per
// target, then rounds of `plan`: each item is mutated from its parent's code (read from `export`),
// scored by a deterministic stand-in evaluator and added with `--planItem`; a lesson per target
// (`note --target`); and, on synergy rounds, the synergy item's parts combined into one candidate
// and added against it. It checks what a run author relies on: items spread over both targets
// within their islands, every program naming its target, notes reaching only their target's
// items, synergy items naming each target's best and their result recorded against both, and
// `best`/`should-stop`/`lineage` per target. It runs through the native `evodb` and the Node drop-in.
//
//   node --test skill/tests/e2e-targets.test.mjs        (EVODB_BIN overrides target/release/evodb)
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const EVODB = process.env.EVODB_BIN ?? path.join(root, "target/release/evodb");
const DROP_IN = path.join(root, "skill/scripts/db-cli.mjs");
const skip = !fs.existsSync(EVODB) && `native evodb not built at ${EVODB}`;
if (skip && process.env.EVODB_REQUIRE_NATIVE) throw new Error(`tests/run.sh needs this suite to run, but: ${skip}`);

const TARGETS = [
  { id: "parse", description: "tokenize and parse the input", weight: 2 },
  { id: "render", description: "format the result" },
];
const ROUNDS = 4;

/** The stand-in evaluator: longer code scores higher, `render` saturating at 0.9 (its threshold). */
function score(target, code) {
  const n = code.split("+").length;
  return target === "render" ? Math.min(0.9, 0.3 + 0.2 * n) : Math.min(0.85, 0.1 + 0.05 * n);
}

function cli(native) {
  const [command, prefix] = native ? [EVODB, []] : [process.execPath, [DROP_IN]];
  return (...args) => {
    const r = spawnSync(command, [...prefix, ...args], { encoding: "utf8" });
    if (r.error) throw r.error;
    return {
      code: r.status,
      stderr: r.stderr,
      json() {
        assert.equal(r.status, 0, `${args.join(" ")} failed: ${r.stderr}`);
        return JSON.parse(r.stdout);
      },
    };
  };
}

function twoTargetRun(t, native) {
  const evodb = cli(native);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "evodb-targets-"));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const db = path.join(dir, "database");
  const config = path.join(dir, "config.json");
  fs.writeFileSync(
    config,
    JSON.stringify({
      numIslands: 4,
      targets: TARGETS,
      synergyEvery: 2,
      operators: {},
      notes: { perSample: 10 },
      stopping: { scoreThreshold: 0.9 },
    }),
  );
  evodb("init", db, "--config", config, "--rngSeed", "5").json();
  for (const { id } of TARGETS) {
    evodb("seed", db, "--codePath", `${id}.py`, "--targetCode", `${id}0`, "--metrics", JSON.stringify({ score: score(id, `${id}0`) }), "--targetId", id).json();
  }
  // A candidate whose target cannot be told is refused, naming the flag, and changes nothing.
  const refused = evodb("add", db, "--codePath", "x.py", "--targetCode", "x", "--parentId", "0", "--metrics", '{"score": 0}', "--changes", "x");
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /target.*--targetId/);

  const islandsOf = Object.fromEntries(evodb("stats", db).json().targets.map((s) => [s.id, s.islands]));
  assert.deepEqual(islandsOf, { parse: [0, 1], render: [2, 3] });
  const seen = { parse: 0, render: 0 };
  const synergies = [];
  for (let round = 0; round < ROUNDS; round++) {
    const plan = evodb("plan", db, "3").json();
    const bests = TARGETS.map(({ id }) => ({ target: id, programId: evodb("best", db, "--target", id).json().id }));
    const programs = JSON.parse(fs.readFileSync(path.join(db, "database.json"), "utf8")).programs;
    for (const item of plan.items) {
      seen[item.target] += 1;
      assert.ok(islandsOf[item.target].includes(item.island), `${item.name} on island ${item.island} of ${item.target}`);
      // Notes reach only their own target's items (and the run-wide ones).
      assert.ok((item.notes ?? []).every((n) => n.target === undefined || n.target === null || n.target === item.target), JSON.stringify(item.notes));
      const parent = programs[item.parentIds[0]];
      assert.equal(parent.target, item.target);
      const code = `${parent.targetCode}+r${round}`;
      evodb("add", db, "--codePath", `${item.target}.py`, "--targetCode", code, "--parentId", parent.id, "--metrics", JSON.stringify({ score: score(item.target, code) }), "--changes", `round ${round}`, "--planItem", item.name).json();
    }
    if (plan.synergy) {
      // The parts are each target's best at planning time.
      assert.deepEqual(plan.synergy.parts, bests);
      const combined = plan.synergy.parts.map((p) => programs[p.programId]?.targetCode ?? "").join("\n");
      const fitness = 0.5 + round / 10;
      evodb("add", db, "--codePath", "combined.py", "--targetCode", combined, "--parentId", "0", "--metrics", JSON.stringify({ score: fitness }), "--changes", "synergy", "--planItem", plan.synergy.name).json();
      synergies.push({ round, fitness });
    }
    for (const { id } of TARGETS) {
      evodb("note", db, "--kind", "lesson", "--target", id, "--text", `${id}: round ${round} lengthened the code`).json();
    }
  }
  // Weight 2 : 1 over 12 items.
  assert.deepEqual(seen, { parse: 8, render: 4 });
  assert.deepEqual(synergies.map((s) => s.round), [1, 3]);

  const stats = evodb("stats", db).json();
  for (const target of stats.targets) assert.equal(target.bestSynergyFitness, Math.max(...synergies.map((s) => s.fitness)));
  const exported = evodb("export", db).json();
  for (const program of Object.values(exported.programs)) {
    assert.ok(islandsOf[program.target].includes(program.island), `${program.id} of ${program.target} on ${program.island}`);
  }
  // Per target: best, lineage back to the target's own seed, and its own verdict.
  for (const { id } of TARGETS) {
    const best = evodb("best", db, "--target", id).json();
    assert.equal(exported.programs[best.id].target, id);
    const { ancestors } = evodb("lineage", db, best.id).json();
    assert.ok(ancestors.every((a) => exported.programs[a]?.target === id), `${id}: ${ancestors}`);
  }
  assert.deepEqual(evodb("should-stop", db, "--target", "render").json().reason, "threshold reached");
  assert.equal(evodb("should-stop", db, "--target", "parse").json().stop, false);
  const unknown = evodb("should-stop", db, "--target", "nope");
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /targets are parse, render/);
  // Samples keep to the target asked for.
  assert.equal(evodb("sample", db, "--target", "render").json().target, "render");
}

test("a two-target run with notes and synergy rounds through the native evodb", { skip }, (t) => twoTargetRun(t, true));
test("the same two-target run through the Node drop-in", (t) => twoTargetRun(t, false));
