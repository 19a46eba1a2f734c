// End to end, as a coding agent ran the skill (issue 37): a function-level target in a git
// repository — `primes_below` inside a module that also holds a docstring, an import and a
// second function the tests use — evolved with a playbook (named islands, the four operators),
// a noisy benchmark, sequential rounds through `evodb prompt`, a resume in a "new session", one
// parallel round through `evodb plan` answered out of order, a re-measurement of the best, and
// `evodb apply` at the end. Only the two LLM roles are stand-ins: the mutator writes a prepared
// version of the function (by the operator it was asked for), and there is no judge (fitness is
// the benchmark's median over three runs).
//
// What it checks, each a bug the agent hit: every child lands on the island its sample or plan
// item named; a crossover records both parents; every rendered prompt is whole (no placeholder);
// `add --decide` applies the playbook's rule; one program number everywhere (history `seq`, the
// tree's `#N`, the markdown's `Candidate N`); `apply` replaces only the definition and the tests
// pass on the committed file.
//
//   node --test skill/tests/e2e-agent.test.mjs        (EVODB_BIN overrides target/release/evodb)
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { EVODB, env, noNative, tempDir } from "./helpers.mjs";

const havePython = spawnSync("python3", ["--version"]).status === 0;
const haveGit = spawnSync("git", ["--version"]).status === 0;
const skip = noNative || (!havePython && "python3 not found") || (!haveGit && "git not found");
if (skip && process.env.EVODB_REQUIRE_NATIVE) throw new Error(`tests/run.sh needs this suite to run, but: ${skip}`);

const TARGET = "primes.py";
const TEST_CMD = "python3 test_primes.py";
const BENCH_CMD = "python3 bench_primes.py";
const DB = "evolve-output/database";
const CAND = "evolve-output/candidates";
const STRATEGY = "evolve-output/strategy";

// The module around the target: what `apply` must leave alone.
const HEAD = `"""Prime helpers. This docstring, the import and is_prime must survive the evolution."""

import math

`;
const TAIL = `

def is_prime(n):
    """Whether n is prime (the tests use it beside primes_below)."""
    return n >= 2 and all(n % d for d in range(2, math.isqrt(n) + 1))
`;

// The versions of primes_below the stand-in mutator writes, and the benchmark's true score of
// each (the `# variant:` line tells the benchmark which one it runs).
const VARIANTS = {
  seed: { score: 0.1, body: "    primes = []\n    for c in range(2, n):\n        if all(c % d for d in range(2, c)):\n            primes.append(c)\n    return primes" },
  early: { score: 0.3, body: "    primes = []\n    for c in range(2, n):\n        for d in range(2, c):\n            if c % d == 0:\n                break\n        else:\n            primes.append(c)\n    return primes" },
  broken: { score: 0.9, body: "    return [c for c in range(1, n) if all(c % d for d in range(2, c))]" },
  sqrt: { score: 0.45, body: "    return [c for c in range(2, n) if all(c % d for d in range(2, math.isqrt(c) + 1))]" },
  sieve: { score: 0.7, body: "    sieve = bytearray([1]) * max(n, 2)\n    sieve[:2] = b\"\\x00\\x00\"\n    for p in range(2, math.isqrt(n) + 1):\n        if sieve[p]:\n            sieve[p * p::p] = bytearray(len(range(p * p, n, p)))\n    return [i for i in range(n) if sieve[i]]" },
  fused: { score: 0.74, body: "    if n < 3:\n        return []\n    sieve = bytearray([1]) * (n // 2)\n    sieve[0] = 0\n    for p in range(3, math.isqrt(n) + 1, 2):\n        if sieve[p // 2]:\n            sieve[p * p // 2::p] = bytearray(len(range(p * p // 2, n // 2, p)))\n    return [2] + [2 * i + 1 for i in range(1, n // 2) if sieve[i]]" },
};
const definition = (variant) =>
  `def primes_below(n):\n    """Every prime below n, in increasing order."""\n    # variant: ${variant}\n${VARIANTS[variant].body}\n`;
const moduleWith = (variant) => `${HEAD}${definition(variant)}${TAIL}`;

// The stand-in mutator: what it writes for each operator, in turn.
const BY_OPERATOR = {
  exploitation: ["sqrt", "sieve", "early"],
  exploration: ["early", "broken", "sieve", "sqrt"],
  crossover: ["fused"],
  migration: ["sqrt", "sieve"],
};

const TESTS = `import unittest
from primes import is_prime, primes_below

class T(unittest.TestCase):
    def test_small(self):
        self.assertEqual(primes_below(20), [2, 3, 5, 7, 11, 13, 17, 19])
    def test_edges(self):
        self.assertEqual(primes_below(2), [])
        self.assertEqual(primes_below(3), [2])
    def test_agrees_with_is_prime(self):
        self.assertEqual(primes_below(500), [n for n in range(500) if is_prime(n)])

unittest.main()
`;

/** The noisy benchmark: the variant's true score plus a deterministic ±0.03 wobble per run. */
const bench = (noiseFile) => `import json, re
text = open("primes.py").read()
variant = re.search(r"# variant: (\\w+)", text).group(1)
scores = ${JSON.stringify(Object.fromEntries(Object.entries(VARIANTS).map(([k, v]) => [k, v.score])))}
try:
    count = int(open(${JSON.stringify(noiseFile)}).read())
except FileNotFoundError:
    count = 0
open(${JSON.stringify(noiseFile)}, "w").write(str(count + 1))
wobble = ((count * 5) % 7 - 3) / 100
print(json.dumps({"score": round(min(1.0, max(0.0, scores[variant] + wobble)), 4)}))
`;

function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", env, maxBuffer: 64 << 20, timeout: 120_000 });
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

/** A git repository holding the module, its tests and its benchmark, committed. */
function project(tmp) {
  const dir = path.join(tmp, "primes");
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, TARGET), moduleWith("seed"));
  fs.writeFileSync(path.join(dir, "test_primes.py"), TESTS);
  fs.writeFileSync(path.join(dir, "bench_primes.py"), bench(path.join(tmp, "bench-runs")));
  fs.writeFileSync(path.join(dir, ".gitignore"), "evolve-output/\n__pycache__/\n");
  const git = (...args) => run("git", ["-c", "user.name=agent", "-c", "user.email=agent@example.invalid", ...args], dir);
  assert.equal(git("init", "-q", "-b", "main").code, 0);
  git("add", "-A");
  assert.equal(git("commit", "-q", "-m", "the project").code, 0);
  return { dir, git };
}

/** The playbook filled as an agent fills it: the problem, three island families, the stopping rules. */
function fillPlaybook(dir) {
  const file = path.join(dir, STRATEGY, "strategy.md");
  const islands = [
    ["early-exit", "stop work as soon as the answer is known"],
    ["sieves", "mark composites in bulk instead of testing numbers one by one"],
    ["arithmetic", "skip candidates that cannot be prime"],
  ];
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const filled = [];
  for (const line of lines) {
    const row = /^\| (\d) \| <CUSTOMIZE/.exec(line);
    if (row) {
      const island = islands[Number(row[1])];
      if (island) filled.push(`| ${row[1]} | ${island[0]} | ${island[1]} |`);
      continue;
    }
    const stop = /^- `(\w+)`: <CUSTOMIZE/.exec(line);
    if (stop) {
      filled.push(stop[1] === "patience" ? "- `patience`: 30" : `- \`${stop[1]}\`: none`);
      if (stop[1] === "patience") filled.push("- `noiseMargin`: 0.01");
      continue;
    }
    filled.push(line
      .replace(/\*\*Goal\*\*: <CUSTOMIZE:[^>]*>/, "**Goal**: make primes_below faster without changing its results")
      .replace(/\*\*Target name\*\*: <CUSTOMIZE:[^>]*>/, "**Target name**: primes_below")
      .replace(/<CUSTOMIZE:[^>]*>/g, "as the tests and benchmark say"));
  }
  fs.writeFileSync(file, filled.join("\n"));
  for (const prompt of fs.readdirSync(path.join(dir, STRATEGY, "prompts"))) {
    const p = path.join(dir, STRATEGY, "prompts", prompt);
    fs.writeFileSync(p, fs.readFileSync(p, "utf8").replace(/<CUSTOMIZE:[^>]*>/g, "keep the signature"));
  }
  return islands;
}

test("an agent's run: named islands, operators, noise, resume, a parallel round, apply", { skip }, (t) => {
  const tmp = tempDir(t);
  const { dir, git } = project(tmp);
  const evodb = (...args) => run(EVODB, args, dir);
  const P = (...p) => path.join(dir, ...p);
  fs.mkdirSync(P(CAND), { recursive: true });
  const next = { exploitation: 0, exploration: 0, crossover: 0, migration: 0 };
  const mutate = (operator) => BY_OPERATOR[operator][next[operator]++ % BY_OPERATOR[operator].length];

  // The trial: tests gate, the noisy benchmark runs three times; the median is the metric.
  function trial(candidate) {
    const r = evodb("trial", "--target", TARGET, "--candidate", candidate, "--test", TEST_CMD, "--bench", BENCH_CMD,
      "--scoreKey", "score", "--repeat", "3", "--timeoutSec", "120");
    assert.ok([0, 1, 4].includes(r.code), `trial: ${r.stderr}`);
    const out = JSON.parse(r.stdout);
    if (out.passed !== true) return { passed: false, out };
    const { median, min, max } = out.benchmark.spread.score;
    assert.equal(out.benchmark.score, median, "the trial reports the median of its runs");
    assert.ok(min < max, "the benchmark is noisy: three runs disagree");
    return { passed: true, score: median, out };
  }

  // Step 2: the playbook, its config, the database.
  evodb("strategy", "init", STRATEGY).json();
  const islands = fillPlaybook(dir);
  assert.equal(evodb("strategy", "check", STRATEGY).json().ready, true);
  fs.writeFileSync(P("evolve-output/config.json"), evodb("strategy", "config", STRATEGY).stdout);
  evodb("init", DB, "--rngSeed", "37", "--config", "evolve-output/config.json").json();
  assert.equal(evodb("strategy", "check", STRATEGY, "--db", DB).json().ready, true, "the playbook and the run agree");
  fs.writeFileSync(P("evolve-output/context.md"), "# Context\n\n`primes_below(n)` is used by the tests with `is_prime`.\n");

  // Step 4: the seed, its definition only (a function-level target).
  fs.copyFileSync(P(TARGET), P(CAND, "iter_0.py"));
  const seedTrial = trial(`${CAND}/iter_0.py`);
  assert.equal(seedTrial.passed, true);
  fs.writeFileSync(P(CAND, "iter_0.code.txt"), definition("seed"));
  evodb("seed", DB, "--codePath", P(CAND, "iter_0.py"), "--targetCodeFile", `${CAND}/iter_0.code.txt`,
    "--metrics", JSON.stringify({ "benchmark-score": seedTrial.score })).json();

  const placed = []; // {id, island, operator, secondParent}
  const prompts = [];
  let crossovers = 0;

  /** 5c–5g for one handout (a sample or a plan item): mutate, trial, add. */
  function answer(i, handout, { planItem } = {}) {
    const candidate = `${CAND}/iter_${i}.py`;
    const parent = handout.parent;
    fs.copyFileSync(parent.codePath, P(candidate));
    const variant = mutate(handout.operator);
    fs.writeFileSync(P(candidate), moduleWith(variant));
    fs.writeFileSync(P(CAND, `iter_${i}.code.txt`), definition(variant));
    fs.writeFileSync(P(CAND, `iter_${i}.changes.txt`), `${handout.operator}: wrote the ${variant} version\n`);
    const common = ["--id", `iter_${i}`, "--codePath", P(candidate), "--targetCodeFile", `${CAND}/iter_${i}.code.txt`,
      "--parentId", parent.id, "--operator", handout.operator, "--changesFile", `${CAND}/iter_${i}.changes.txt`,
      ...(planItem ? ["--planItem", planItem] : [])];
    const result = trial(candidate);
    const args = result.passed
      ? [...common, "--metrics", JSON.stringify({ "benchmark-score": result.score }), "--decide"]
      : [...common, "--metrics", "{}", "--status", "error", "--reason", "tests failed"];
    return { args, variant, passed: result.passed, score: result.score, handout };
  }

  function add(prepared) {
    const r = evodb("add", DB, ...prepared.args);
    assert.equal(r.code, 0, r.stderr);
    const outcome = JSON.parse(r.stdout);
    const { handout } = prepared;
    if (!prepared.passed) assert.equal(outcome.status, "error");
    else {
      // The playbook's rule, decided by evodb: fitter than the parent or rejected.
      const fitter = prepared.score > handout.parentFitness;
      assert.equal(outcome.status ?? "accepted", fitter ? "accepted" : "rejected", `${outcome.id}: ${prepared.score} vs ${handout.parentFitness}`);
      placed.push({ id: outcome.id, island: handout.island, operator: handout.operator, secondParent: handout.secondParent?.id });
    }
    if (handout.operator === "crossover" && handout.secondParent) crossovers++;
    return outcome;
  }

  /** `evodb prompt` for a new sample, or for a plan item; the prompt must be whole. */
  function prompt(i, from) {
    const args = ["prompt", DB, "--candidatePath", `${CAND}/iter_${i}.py`, ...(from ? ["--from", from.file, "--item", from.item] : [])];
    const out = evodb(...args).json();
    assert.doesNotMatch(out.prompt, /\{\{|<CUSTOMIZE/, `iteration ${i}: every placeholder filled`);
    prompts.push(out.prompt);
    return out;
  }

  // Step 5, sequential: until a crossover has happened (and at least 5 iterations).
  let i = 0;
  while (i < 5 || crossovers === 0) {
    i++;
    assert.ok(i <= 16, "a crossover within 16 iterations of the default operator weights");
    const { sample, prompt: text } = prompt(i);
    assert.equal(sample.islandName, islands[sample.island][0], "the sample names its island's family");
    assert.ok(text.includes(sample.islandName) && text.includes(sample.parent.targetCode));
    assert.equal(typeof sample.parentFitness, "number", "a sample carries its parent's fitness");
    add(answer(i, sample));
    assert.equal(evodb("should-stop", DB).json().stop, false);
  }

  // A new session resumes: nothing but what evodb and the files say.
  const info = evodb("info", DB).json();
  assert.equal(info.isEmpty, false);
  assert.equal(evodb("validate", DB, "--history").json().valid, true);
  assert.equal(evodb("should-stop", DB).json().stop, false);
  i = Math.max(...fs.readdirSync(P(CAND)).map((f) => Number(/^iter_(\d+)\.py$/.exec(f)?.[1] ?? -1)));

  // Step 6: one parallel round; its answers arrive in reverse order and apply in plan order.
  const plan = evodb("plan", DB, "3").json();
  fs.writeFileSync(P("evolve-output/plan.json"), JSON.stringify(plan));
  const prepared = plan.items.map((item) => {
    i++;
    assert.ok(item.parent && typeof item.parentFitness === "number", "an item carries its parent and fitness");
    prompt(i, { file: "evolve-output/plan.json", item: item.name });
    return answer(i, item, { planItem: item.name });
  });
  for (const p of prepared.toReversed()) add(p);

  // Every child on the island its sample or item named; a crossover keeps both parents.
  const exported = evodb("export", DB).json();
  for (const child of placed) {
    const program = exported.programs[child.id];
    if (!program) continue; // pruned since: nothing to check
    assert.equal(program.island, child.island, `${child.id} (${child.operator}) joined island ${program.island}, its handout named ${child.island}`);
    if (child.secondParent) assert.equal(program.secondParentId, child.secondParent, `${child.id} records its second parent`);
  }
  assert.ok(crossovers > 0);
  assert.ok(placed.some((c) => c.operator === "crossover" && exported.programs[c.id]?.secondParentId), "a crossover child records both parents");

  // Noise: the best measured again keeps the mean of its measurements.
  const best = evodb("best", DB).json();
  fs.copyFileSync(best.codePath, P(CAND, "remeasure.py"));
  const again = trial(`${CAND}/remeasure.py`);
  const remeasured = evodb("remeasure", DB, "--id", best.id, "--metrics", JSON.stringify({ "benchmark-score": again.score })).json();
  assert.equal(remeasured.measurements, 2);

  // One numbering: the history's `seq` is the tree's `#N` and the markdown's `Candidate N`.
  const history = evodb("history", DB).stdout.trim().split("\n").map((l) => JSON.parse(l));
  const tree = evodb("export", DB, "--format", "tree").stdout;
  const markdown = evodb("export", DB, "--format", "markdown").stdout;
  const live = evodb("export", DB).json().programs;
  for (const event of history.filter((e) => e.event === "added" && live[e.id])) {
    assert.ok(tree.includes(`#${event.seq} ${event.id.slice(0, 8)}`), `the tree numbers ${event.id} #${event.seq}:\n${tree}`);
  }
  const bestSeq = history.find((e) => e.event === "added" && e.id === best.id).seq;
  assert.match(markdown, new RegExp(`### Candidate ${bestSeq} · `), "the markdown numbers the best as the history does");

  // Step 7: apply the best; only its definition changes, the tests pass on the committed file.
  const applied = evodb("apply", DB, "--target", TARGET, "--test", TEST_CMD).json();
  assert.equal(applied.applied, true);
  assert.equal(applied.placement, "definition");
  const committed = git("show", "HEAD:primes.py").stdout;
  assert.ok(committed.startsWith(HEAD), "the docstring and the import are intact");
  assert.ok(committed.endsWith(TAIL), "is_prime is intact");
  assert.ok(committed.includes(best.targetCode), "the best definition is in place");
  assert.equal(git("status", "--porcelain").stdout, "", "apply leaves a clean tree");
  const tests = run("python3", ["test_primes.py"], dir);
  assert.equal(tests.code, 0, `the tests pass on the committed file: ${tests.stderr}`);
  t.diagnostic(`${i} iterations, ${crossovers} crossover(s), best ${best.id} (${JSON.stringify(best.metrics)})`);
});

// The issue's own repro, through the CLI as the agent typed it: with the seed of its report, 3 of
// 8 children landed on another island than their sample named.
test("regression: 8 × (sample; add --parentId --operator) keeps every child on its sample's island", { skip }, (t) => {
  const dir = tempDir(t);
  const evodb = (...args) => run(EVODB, args, dir);
  const db = path.join(dir, "db");
  evodb("init", db, "--rngSeed", "3", "--operators", '{"exploitation":0.5,"exploration":0,"crossover":0,"migration":0.5}').json();
  evodb("seed", db, "--codePath", "seed.py", "--targetCode", "v0", "--metrics", '{"score": 0.3}').json();
  for (let i = 1; i <= 8; i++) {
    const sample = evodb("sample", db).json();
    const added = evodb("add", db, "--codePath", `c${i}.py`, "--targetCode", `v${i}`, "--parentId", sample.parent.id,
      "--operator", sample.operator, "--changes", `try ${i}`, "--metrics", JSON.stringify({ score: 0.3 + ((i * 7) % 5) / 10 })).json();
    const program = evodb("export", db).json().programs[added.id];
    if (program) assert.equal(program.island, sample.island, `child ${i} (${sample.operator}) joined island ${program.island}, not ${sample.island}`);
  }
});
