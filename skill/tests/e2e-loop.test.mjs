// End to end: the evodb-evolve skill's loop (skill/SKILL.md, Steps 0–7) on a fresh copy of
// skill/example, with deterministic stand-ins for the two LLM roles:
//
//   - the mutator (Step 5c) overwrites the candidate copy with the next prepared file, cycling
//     candidate_1 (a bit faster), candidate_3_broken (fails the tests), candidate_2 (a sieve);
//   - the judge (Step 5f) answers a fixed `{"efficiency-score": n, "dimensions": …}` per file.
//
// Everything else is the real thing, in the order SKILL.md gives it: `evodb info`, a playbook
// (`evodb strategy init`, its markers filled, `evodb strategy check`), `evodb init` with the
// playbook's named islands and the run's stopping rules, the seed trial and `evodb seed`, then per
// iteration `evodb sample`, the operator's prompt filled from the sample (every placeholder, the
// island's family and every note so far), copy, mutate, `evodb trial` with the example's test and
// benchmark commands, judge, `evodb add` (metrics, or `--metrics '{}' --status error --reason …`
// for a failed gate), a progress line, a lesson (`evodb note`) and `evodb should-stop`; finally `evodb best`/`stats`/`lineage`/`export`, the best
// file copied over the target and the tests run on it.
//
// The run asks for 5 iterations with a fitness threshold of 0.6 ("good enough"): the sieve
// (judge 0.8, benchmark ≈ 0.7) reaches it at iteration 3, so `should-stop` ends the loop there.
// The loop runs twice: database commands through the native `evodb`, then through the Node
// drop-in `node skill/scripts/db-cli.mjs` (trials stay `evodb trial`: the drop-in has none).
//
//   node --test skill/tests/e2e-loop.test.mjs        (EVODB_BIN overrides target/release/evodb)
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
const EXAMPLE = path.join(root, "skill/example");
const PREPARED = path.join(EXAMPLE, "candidates");

const haveNative = fs.existsSync(EVODB);
const havePython = spawnSync("python3", ["--version"]).status === 0;
const skip =
  (!haveNative && `native evodb not built at ${EVODB} (evodb trial is needed)`) ||
  (!havePython && "python3 not found (the example's tests and benchmark need it)");

if (skip && process.env.EVODB_REQUIRE_NATIVE) throw new Error(`tests/run.sh needs this suite to run, but: ${skip}`);
const env = { ...process.env };
delete env.EVODB_LOCK_TIMEOUT_MS;
delete env.EVODB_NO_FLOCK;

// Step 0 — the user's request: "Evolve `primes_below` in `slow_primes.py` for 5 iterations.
// Tests: `python3 test_slow_primes.py`. Benchmark: `python3 bench_primes.py`. A fitness of 0.6 is
// good enough."
const TARGET = "slow_primes.py";
const TARGET_NAME = "primes_below";
const ITERATIONS = 5;
const THRESHOLD = 0.6;
const TEST_CMD = "python3 test_slow_primes.py";
const BENCH_CMD = "python3 bench_primes.py";
const SCORE_KEY = "score";

// The stand-in mutator's cycle, and the stand-in judge's answer for each file.
const CYCLE = ["candidate_1.py", "candidate_3_broken.py", "candidate_2.py"];
const CHANGES = {
  "candidate_1.py": "stop testing a number at its first divisor",
  "candidate_3_broken.py": "test odd numbers only, up to the square root",
  "candidate_2.py": "sieve of Eratosthenes over a bytearray, multiples crossed out by slice assignment",
};
const ISLANDS = [
  { name: "early-exit", description: "stop work as soon as the answer is known" },
  { name: "sieves", description: "mark composites in bulk instead of testing numbers one by one" },
  { name: "arithmetic", description: "skip candidates that cannot be prime (even numbers, wheels)" },
];
const JUDGE = { "slow_primes.py": 2, "candidate_1.py": 4, "candidate_3_broken.py": 6, "candidate_2.py": 8 };

function judgeAnswer(n) {
  const d = n - 1;
  return JSON.stringify({
    "efficiency-score": n,
    dimensions: {
      "algorithmic-efficiency": n,
      "idiomatic-efficiency": d,
      "anti-patterns": n,
      "memory-efficiency": d,
      "io-efficiency": null,
      concurrency: null,
    },
  });
}

// The playbook's prompt per operator, and its placeholders filled as strategy.md's table says.
const PROMPT_OF = { exploitation: "mutation.md", exploration: "exploration.md", crossover: "crossover.md", migration: "migration.md" };

/**
 * @param {string} template
 * @param {Record<string, string>} fixed the run's own values (goal, target, candidate, context)
 * @param {any} sample what `evodb sample` printed
 */
function fillPrompt(template, fixed, sample) {
  const json = (/** @type {unknown} */ v) => JSON.stringify(v);
  const second = sample.secondParent;
  /** @type {Record<string, string>} */
  const values = {
    ...fixed,
    operator: sample.operator,
    island_name: sample.islandName ?? "none",
    island_description: sample.islandDescription ?? "none",
    donor_island_name: sample.donorIslandName ?? "none",
    parent_metrics: json(sample.parent.metrics),
    parent_changes: sample.parent.changes,
    parent_code: sample.parent.targetCode,
    second_parent_metrics: second ? json(second.metrics) : "none",
    second_parent_changes: second?.changes ?? "none",
    second_parent_code: second?.targetCode ?? "none",
    inspirations: sample.inspirations.map((/** @type {any} */ p) => `- ${json(p.metrics)}: ${p.changes}`).join("\n") || "none",
    notes: (sample.notes ?? []).map((/** @type {any} */ n) => `- ${n.kind}: ${n.text}`).join("\n") || "none",
  };
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name) => values[name] ?? whole);
}

/** Run a command synchronously; `json()` insists on exit 0 and parses stdout. */
function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", env, maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    json() {
      assert.equal(this.code, 0, `${command} ${args.join(" ")} failed: ${this.stderr}`);
      return JSON.parse(this.stdout);
    },
  };
}

/** The target's source text (Step 4.4 / 5d): the `def` up to the next top-level line. */
function definition(source, name) {
  const lines = source.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`def ${name}(`));
  assert.notEqual(start, -1, `no definition of ${name}`);
  let end = start + 1;
  while (end < lines.length && (lines[end] === "" || /^\s/.test(lines[end]))) end++;
  while (end > start && lines[end - 1] === "") end--;
  return lines.slice(start, end).join("\n") + "\n";
}

const fitness = (metrics) => {
  const values = Object.values(metrics);
  return values.reduce((a, b) => a + b, 0) / values.length;
};
const f2 = (x) => x.toFixed(2);

/**
 * One whole run of the skill in a fresh copy of skill/example. `dbTool` is the `evodb` of the
 * database commands: [command, ...leading args].
 */
function runSkill(dbTool, tmp, t) {
  const project = path.join(tmp, "primes");
  fs.cpSync(EXAMPLE, project, { recursive: true });
  const P = (...p) => path.join(project, ...p);
  const evodb = (...args) => run(dbTool[0], [...dbTool.slice(1), ...args], project);
  const log = [];
  const say = (line) => {
    log.push(line);
    t.diagnostic(line);
  };

  const original = fs.readFileSync(P(TARGET));
  const DB = "evolve-output/database";
  const CAND = "evolve-output/candidates";
  let trials = 0;

  /** Step 5e: `evodb trial`, saved to iter_<i>.trial.json; the target must come back intact. */
  function trial(i) {
    const candidate = `${CAND}/iter_${i}.py`;
    const r = run(
      EVODB,
      ["trial", "--target", TARGET, "--candidate", candidate, "--test", TEST_CMD, "--bench", BENCH_CMD,
        "--scoreKey", SCORE_KEY, "--timeoutSec", "600"],
      project,
    );
    trials++;
    fs.writeFileSync(P(CAND, `iter_${i}.trial.json`), r.stdout);
    // exit 0: the trial ran; 1 or 4 with JSON: the benchmark failed (an error to record).
    assert.ok([0, 1, 4].includes(r.code), `evodb trial exit ${r.code}: ${r.stderr}`);
    const out = JSON.parse(r.stdout);
    assert.equal(out.restored, true, "trial says the target was restored");
    assert.equal(out.recovered, false);
    assert.ok(fs.readFileSync(P(TARGET)).equals(original), `${TARGET} is byte-identical after trial ${i}`);
    assert.ok(!fs.existsSync(P(`${TARGET}.evodb-trial.bak`)), "no backup left after the trial");
    assert.ok(!fs.existsSync(P(`${TARGET}.evodb-trial.lock`)), "no lock left after the trial");
    return { code: r.code, out };
  }

  /** Step 5f with the stand-in judge: the answer is checked as references/evaluator.md says. */
  function judge(i, file) {
    const answer = judgeAnswer(JUDGE[file]);
    fs.writeFileSync(P(CAND, `iter_${i}.judge.json`), answer);
    const parsed = JSON.parse(fs.readFileSync(P(CAND, `iter_${i}.judge.json`), "utf8"));
    assert.deepEqual(Object.keys(parsed).sort(), ["dimensions", "efficiency-score"]);
    assert.ok(Number.isInteger(parsed["efficiency-score"]) && parsed["efficiency-score"] >= 1 && parsed["efficiency-score"] <= 10);
    return parsed["efficiency-score"] / 10;
  }

  // Step 1 — workspace; no interrupted trial to recover.
  assert.ok(!fs.existsSync(P(`${TARGET}.evodb-trial.bak`)));
  fs.mkdirSync(P(CAND), { recursive: true });

  // Step 2 — a fresh start: the database is empty, so create it with this run's stopping rules.
  assert.equal(evodb("info", DB).json().isEmpty, true);
  // Step 2's playbook: `evodb strategy init`, every marker filled, `evodb strategy check` passes.
  const STRATEGY = "evolve-output/strategy";
  const copied = run(EVODB, ["strategy", "init", STRATEGY], project).json();
  assert.ok(copied.unfilled.length > 0, "the copy lists its markers");
  assert.equal(run(EVODB, ["strategy", "check", STRATEGY], project).code, 1, "an unfilled copy fails the check");
  for (const file of ["strategy.md", ...fs.readdirSync(P(STRATEGY, "prompts")).map((f) => `prompts/${f}`)]) {
    const text = fs.readFileSync(P(STRATEGY, file), "utf8");
    fs.writeFileSync(P(STRATEGY, file), text.replace(/<CUSTOMIZE:[^>]*>/g, "profile the sieve before changing it"));
  }
  assert.equal(run(EVODB, ["strategy", "check", STRATEGY], project).json().ready, true);

  // The playbook's island families (Step 2) go in as the config's named islands.
  const patience = Math.max(5, Math.floor(ITERATIONS / 2));
  fs.mkdirSync(P("evolve-output"), { recursive: true });
  fs.writeFileSync(P("evolve-output/config.json"), JSON.stringify({ islands: ISLANDS }));
  evodb("init", DB, "--seed", "42", "--config", "evolve-output/config.json", "--operators", "default",
    "--patience", String(patience), "--scoreThreshold", String(THRESHOLD)).json();

  // Step 3 — context (the stand-in for references/context.md's gathering).
  fs.writeFileSync(P("evolve-output/context.md"),
    "# Context\n\n`primes_below(n)` is called by test_slow_primes.py and bench_primes.py (n = 1500).\n");

  // Step 4 — seed: the unchanged target must pass its own trial.
  fs.copyFileSync(P(TARGET), P(CAND, "iter_0.py"));
  const seedTrial = trial(0);
  assert.equal(seedTrial.code, 0);
  assert.equal(seedTrial.out.passed, true, "the unchanged code passes its tests");
  const seedBench = seedTrial.out.benchmark.score;
  assert.ok(seedBench >= 0 && seedBench <= 1);
  const seedMetrics = { "efficiency-score": judge(0, TARGET), "benchmark-score": seedBench };
  fs.writeFileSync(P(CAND, "iter_0.code.txt"), definition(fs.readFileSync(P(CAND, "iter_0.py"), "utf8"), TARGET_NAME));
  const seeded = evodb("seed", DB, "--codePath", P(CAND, "iter_0.py"), "--targetCodeFile", `${CAND}/iter_0.code.txt`,
    "--metrics", JSON.stringify(seedMetrics)).json();
  say(`Baseline | efficiency-score: ${f2(seedMetrics["efficiency-score"])} | benchmark-score: ${f2(seedBench)} | fitness: ${f2(fitness(seedMetrics))}`);

  // Step 5 — the loop.
  const iterations = []; // {i, file, id, status, parentId}
  const memory = []; // the notes a sample should carry, oldest first
  const errorIds = new Set();
  let stop = null;
  for (let i = 1; i <= ITERATIONS; i++) {
    // 5a. Sample — never an errored candidate, as parent or inspiration.
    const sample = evodb("sample", DB).json();
    const { parent, operator } = sample;
    assert.ok(parent && parent.id && fs.existsSync(parent.codePath), `iteration ${i}: a parent with a file`);
    assert.ok(!errorIds.has(parent.id), "an errored candidate is never a parent");
    for (const insp of sample.inspirations) assert.ok(!errorIds.has(insp.id), "nor an inspiration");
    assert.ok(["exploitation", "exploration", "crossover", "migration"].includes(operator));
    // Named islands and run memory reach the mutator's prompt (5c): every lesson and failure so far.
    assert.equal(sample.islandName, ISLANDS[sample.island].name, "the sample names its island's family");
    assert.equal(sample.islandDescription, ISLANDS[sample.island].description);
    const remembered = (sample.notes ?? []).map((n) => `${n.kind}: ${n.text}`);
    // By relevance: lessons first (an early one never scrolls out), then the rest; newest first within each.
    const byRelevance = memory.toReversed().toSorted((a, b) => Number(!a.startsWith("lesson:")) - Number(!b.startsWith("lesson:")));
    assert.deepEqual(remembered, byRelevance, `iteration ${i}: the sample carries the notes, lessons first`);

    // 5c with the playbook: the operator's prompt template, every placeholder filled from the sample.
    const prompt = fillPrompt(fs.readFileSync(P(STRATEGY, "prompts", PROMPT_OF[operator]), "utf8"), {
      goal: "make primes_below faster without changing its results", target_name: TARGET_NAME,
      candidate_path: P(CAND, `iter_${i}.py`), context: fs.readFileSync(P("evolve-output/context.md"), "utf8"),
    }, sample);
    assert.ok(!/\{\{/.test(prompt), `iteration ${i}: every placeholder of ${PROMPT_OF[operator]} is filled`);
    assert.ok(prompt.includes(parent.targetCode) && prompt.includes(sample.islandName), "the prompt shows the parent and its family");
    for (const note of memory) assert.ok(prompt.includes(note.slice(note.indexOf(": ") + 2)), `the prompt carries "${note}"`);
    fs.writeFileSync(P(CAND, `iter_${i}.prompt.md`), prompt);

    // 5b. Copy the parent; 5c. the stand-in mutator edits the copy only.
    const candPath = P(CAND, `iter_${i}.py`);
    fs.copyFileSync(parent.codePath, candPath);
    const file = CYCLE[(i - 1) % CYCLE.length];
    fs.copyFileSync(path.join(PREPARED, file), candPath);
    assert.ok(!fs.readFileSync(candPath).equals(fs.readFileSync(parent.codePath)), "the mutation changed the file");

    // 5d. Collect the target's new source and the CHANGES line.
    fs.writeFileSync(P(CAND, `iter_${i}.code.txt`), definition(fs.readFileSync(candPath, "utf8"), TARGET_NAME));
    fs.writeFileSync(P(CAND, `iter_${i}.changes.txt`), CHANGES[file]);
    const common = ["--codePath", candPath, "--targetCodeFile", `${CAND}/iter_${i}.code.txt`,
      "--parentId", parent.id, "--operator", operator, "--changesFile", `${CAND}/iter_${i}.changes.txt`];

    // 5e. Trial.
    const { code, out } = trial(i);
    let added;
    let line;
    if (code === 0 && out.passed === false) {
      // The gate failed: record an error with a reason from `tests`; no judge.
      assert.equal(out.benchmark, null);
      const failing = /^(?:FAIL|ERROR): (\w+)/m.exec(out.tests.output)?.[1] ?? "?";
      const reason = `tests failed (exit ${out.tests.exitCode}, ${failing})`;
      added = evodb("add", DB, ...common, "--metrics", "{}", "--status", "error", "--reason", reason).json();
      assert.equal(added.status, "error");
      errorIds.add(added.id);
      // An error's reason becomes a failure note by itself, with what the candidate tried.
      memory.push(`failure: tried: ${CHANGES[file]} — failed: ${reason}`);
      line = `Iteration ${i}/${ITERATIONS} | ${operator} | ✗ tests failed (${failing}) | best ${f2(fitness(added.bestMetrics))}`;
      iterations.push({ i, file, id: added.id, status: "error", parentId: parent.id, reason });
    } else {
      assert.equal(code, 0, `the benchmark gave a score: ${JSON.stringify(out)}`);
      assert.equal(out.passed, true);
      const bench = out.benchmark.score;
      assert.ok(typeof bench === "number" && bench >= 0 && bench <= 1);
      // 5f. Judge; 5g. add with both metrics (evodb's fitness is their mean, `combined`).
      const metrics = { "efficiency-score": judge(i, file), "benchmark-score": bench };
      added = evodb("add", DB, ...common, "--metrics", JSON.stringify(metrics)).json();
      line = `Iteration ${i}/${ITERATIONS} | ${operator} | efficiency ${f2(metrics["efficiency-score"])} | benchmark ${f2(bench)} | fitness ${f2(fitness(metrics))} | best ${f2(fitness(added.bestMetrics))} | Δ ${CHANGES[file]}`;
      iterations.push({ i, file, id: added.id, status: "accepted", parentId: parent.id, metrics });
    }
    assert.ok(!errorIds.has(added.bestProgramId), "an errored candidate never becomes the best");
    // 5h. Report.
    say(line);

    // 5i. Remember: each accepted change leaves its lesson.
    if (iterations.at(-1).status === "accepted") {
      const lesson = `${CHANGES[file]} scored ${f2(fitness(iterations.at(-1).metrics))}`;
      const noted = evodb("note", DB, "--kind", "lesson", "--text", lesson).json();
      assert.equal(noted.text, lesson);
      memory.push(`lesson: ${lesson}`);
    }

    // 5j. Stop early?
    const should = evodb("should-stop", DB).json();
    if (should.stop) {
      stop = should;
      say(`Stopping after iteration ${i}: ${should.reason}`);
      break;
    }
  }

  // Step 7 — finalise.
  const best = evodb("best", DB).json();
  fs.mkdirSync(P("evolve-output/best"), { recursive: true });
  fs.copyFileSync(best.codePath, P("evolve-output/best", path.basename(best.codePath)));
  const stats = evodb("stats", DB).json();
  const lineage = evodb("lineage", DB, best.id).json();
  const exportedMd = evodb("export", DB, "--format", "markdown");
  assert.equal(exportedMd.code, 0, exportedMd.stderr);
  fs.writeFileSync(P("evolve-output/population.md"), exportedMd.stdout);
  const exportedMmd = evodb("export", DB, "--format", "mermaid");
  assert.equal(exportedMmd.code, 0, exportedMmd.stderr);
  fs.writeFileSync(P("evolve-output/lineage.mmd"), exportedMmd.stdout);
  const failedCount = iterations.filter((it) => it.status === "error").length;
  say(`Evolution complete (${iterations.length} iterations, ${failedCount} failed the tests).`);
  say(`Baseline → best fitness: ${f2(stats.baselineFitness)} → ${f2(stats.bestFitness)}`);

  // 7.6 — the user says yes: the target is unchanged since the seed, so copy the best file over it,
  // then run the tests once on the real file.
  assert.ok(fs.readFileSync(P(TARGET)).equals(fs.readFileSync(P(CAND, "iter_0.py"))));
  fs.copyFileSync(best.codePath, P(TARGET));
  const [testCmd, ...testArgs] = TEST_CMD.split(" ");
  const finalTests = run(testCmd, testArgs, project);

  const info = evodb("info", DB).json();
  const validate = evodb("validate", DB);
  const history = evodb("history", DB).stdout.trim().split("\n").map((l) => JSON.parse(l));
  const exported = evodb("export", DB).json();
  const notes = evodb("notes", DB).json().notes;
  assert.deepEqual(notes.map((n) => `${n.kind}: ${n.text}`), memory.toReversed(), "`notes` lists the run's memory");
  const leftovers = fs.readdirSync(project, { recursive: true }).filter((f) => String(f).includes(".evodb-trial."));

  return {
    project, original, seeded, seedMetrics, iterations, errorIds, stop, trials, best, stats, lineage,
    finalTests, info, validate, history, exported, leftovers, log,
    populationMd: exportedMd.stdout, lineageMmd: exportedMmd.stdout,
  };
}

/** What every run must show, whichever tool ran the database commands. */
function checkRun(r) {
  const cand2 = fs.readFileSync(path.join(PREPARED, "candidate_2.py"));
  const cand2Def = definition(cand2.toString("utf8"), TARGET_NAME);

  // The loop: 3 of the 5 requested iterations, stopped by the threshold; one trial each + the seed's.
  assert.equal(r.iterations.length, 3, "iterations run");
  assert.deepEqual(r.iterations.map((it) => it.file), CYCLE);
  assert.deepEqual(r.iterations.map((it) => it.status), ["accepted", "error", "accepted"]);
  assert.equal(r.stop?.reason, "threshold reached");
  assert.equal(r.trials, 4);
  assert.equal(r.log.length, 1 + 3 + 1 + 2);
  assert.match(r.log[0], /^Baseline \| efficiency-score: 0\.20 \| benchmark-score: 0\.\d\d \| fitness: 0\.\d\d$/);
  assert.match(r.log[1], /^Iteration 1\/5 \| \w+ \| efficiency 0\.40 \| benchmark 0\.\d\d \| fitness 0\.\d\d \| best 0\.\d\d \| Δ stop testing/);
  assert.match(r.log[2], /^Iteration 2\/5 \| \w+ \| ✗ tests failed \(test_\w+\) \| best 0\.\d\d$/);
  assert.match(r.log[3], /^Iteration 3\/5 \| \w+ \| efficiency 0\.80 \| benchmark 0\.\d\d \| fitness 0\.\d\d \| best 0\.\d\d \| Δ sieve/);

  // The best is candidate_2: its code, its file, its metrics; it descends from the seed.
  const third = r.iterations[2];
  assert.equal(r.best.id, third.id);
  assert.equal(r.best.targetCode, cand2Def);
  assert.equal(r.best.codePath, path.join(r.project, "evolve-output/candidates/iter_3.py"));
  assert.ok(fs.readFileSync(r.best.codePath).equals(cand2));
  assert.deepEqual(r.best.metrics, third.metrics);
  assert.ok(fitness(r.best.metrics) >= THRESHOLD);
  assert.ok(r.lineage.ancestors.includes(r.seeded.id));
  assert.ok(fs.readFileSync(path.join(r.project, "evolve-output/best/iter_3.py")).equals(cand2));

  // The broken candidate: recorded as an error with its reason, in no island, never the best.
  const broken = r.iterations[1];
  assert.equal(r.errorIds.size, 1);
  assert.ok(r.errorIds.has(broken.id));
  const brokenEvents = r.history.filter((e) => e.id === broken.id);
  assert.equal(brokenEvents.length, 1, "the error is in the history, once");
  assert.equal(brokenEvents[0].event, "status");
  assert.equal(brokenEvents[0].status, "error");
  assert.equal(brokenEvents[0].reason, broken.reason);
  assert.equal(brokenEvents[0].request.parentId, broken.parentId);
  assert.match(broken.reason, /^tests failed \(exit 1, test_\w+\)$/);
  assert.ok(!(broken.id in r.exported.programs), "an error joins no island");
  for (const island of r.stats.islands) assert.notEqual(island.bestProgramId, broken.id);

  // Counts: programs = seed + 2 accepted; evaluations = seed + 3 adds.
  assert.equal(r.info.programCount, 3);
  assert.equal(r.stats.programCount, 3);
  assert.equal(Object.keys(r.exported.programs).length, 3);
  assert.equal(r.stats.evaluations, 4);
  assert.equal(r.stop.evaluations, 4);
  assert.equal(r.history.filter((e) => e.event === "added" && e.status === "accepted").length, 3);
  assert.equal(r.history.filter((e) => e.status === "error").length, 1);
  assert.deepEqual(r.stats.recentStatuses, ["accepted", "accepted", "error", "accepted"]);
  assert.equal(r.info.bestProgramId, third.id);
  assert.ok(Math.abs(r.stats.baselineFitness - fitness(r.seedMetrics)) < 1e-9);
  assert.ok(r.stats.improvement > 0);

  // The database is sound; no trial left anything behind; the target holds the best and is green.
  assert.equal(r.validate.code, 0, r.validate.stderr);
  assert.equal(JSON.parse(r.validate.stdout).valid, true);
  assert.deepEqual(r.leftovers, []);
  assert.ok(r.populationMd.length > 0 && r.lineageMmd.length > 0);
  assert.ok(fs.readFileSync(path.join(r.project, TARGET)).equals(cand2), "the best was applied");
  assert.equal(r.finalTests.code, 0, `the tests pass on the applied best:\n${r.finalTests.stdout}${r.finalTests.stderr}`);
  assert.match(r.finalTests.stderr, /\nOK\n/);
}

/** A fresh temporary directory for one run, removed afterwards whatever happens. */
function inTmp(fn) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "evodb-e2e-"));
  try {
    return fn(tmp);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

test("the skill's loop through the native evodb: best applied, tests green", { skip }, (t) => {
  inTmp((tmp) => checkRun(runSkill([EVODB], tmp, t)));
});

test("the same loop with the Node drop-in for the database commands", { skip }, (t) => {
  inTmp((tmp) => checkRun(runSkill([process.execPath, DROP_IN], tmp, t)));
});
