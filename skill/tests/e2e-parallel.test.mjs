// End to end: SKILL.md's Step 6 (parallel workers) in a git repository. A copy of skill/example
// is committed to a fresh repository; after the seed, one `evodb plan` round of 4 items has its 4
// trials run at once, each in its own worktree, and the answers are added in the order the trials
// finish. The same plan answered in plan order, from a copy of the database taken right after
// `plan`, must end with the same database (program timestamps aside: each `add` stamps its own
// clock time). The stand-in mutator copies prepared candidates, as in e2e-loop.test.mjs.
//
//   node --test skill/tests/e2e-parallel.test.mjs        (EVODB_BIN overrides target/release/evodb)
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { EVODB, env, noNative, root, tempDir } from "./helpers.mjs";

const EXAMPLE = path.join(root, "skill/example");
const PREPARED = path.join(EXAMPLE, "candidates");
const TARGET = "slow_primes.py";
const TEST_CMD = "python3 test_slow_primes.py";
const BENCH_CMD = "python3 bench_primes.py";
const WORKERS = 4;
const MUTATIONS = ["candidate_1.py", "candidate_3_broken.py", "candidate_2.py", "candidate_1.py"];
const JUDGE = { "slow_primes.py": 0.2, "candidate_1.py": 0.4, "candidate_3_broken.py": 0.6, "candidate_2.py": 0.8 };

const havePython = spawnSync("python3", ["--version"]).status === 0;
const skip = noNative || (!havePython && "python3 not found (the example's tests and benchmark need it)");
if (skip && process.env.EVODB_REQUIRE_NATIVE) throw new Error(`tests/run.sh needs this suite to run, but: ${skip}`);

function sync(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", env, timeout: 120_000 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function json(r, what) {
  assert.equal(r.code, 0, `${what} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** `evodb trial` in the background; resolves with its exit code, stdout and stderr. */
function trialAsync(cwd, candidate) {
  const args = ["trial", "--target", TARGET, "--candidate", candidate, "--test", TEST_CMD, "--bench", BENCH_CMD,
    "--timeoutSec", "600"];
  return new Promise((resolve, reject) => {
    const child = spawn(EVODB, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The database without the programs' timestamps (each add stamps its own clock time). */
function withoutTimestamps(dbDir) {
  const db = JSON.parse(fs.readFileSync(path.join(dbDir, "database.json"), "utf8"));
  for (const program of Object.values(db.programs)) delete program.timestamp;
  return db;
}

test("Step 6 in a git repository: 4 trials at once in worktrees; answers in any order give the plan-order database", { skip, timeout: 600_000 }, async (t) => {
  const project = path.join(tempDir(t), "primes");
  fs.cpSync(EXAMPLE, project, { recursive: true });
  const P = (...p) => path.join(project, ...p);
  const git = (...args) => sync("git", ["-c", "user.name=test", "-c", "user.email=test@localhost", ...args], project);
  assert.equal(git("init", "--quiet").code, 0);
  assert.equal(git("add", ".").code, 0);
  assert.equal(git("commit", "--quiet", "-m", "the user's project").code, 0);
  const evodb = (...args) => sync(EVODB, args, project);

  // Step 1: the run's files are ignored by git, so worktrees do not copy them.
  fs.mkdirSync(P("evolve-output/candidates"), { recursive: true });
  fs.writeFileSync(P("evolve-output/.gitignore"), "*\n");
  const DB = "evolve-output/database";
  const CAND = P("evolve-output/candidates");
  json(evodb("init", DB, "--seed", "42", "--operators", "default"), "init");

  // Step 4: the seed's trial (in a worktree) and `seed`.
  fs.copyFileSync(P(TARGET), path.join(CAND, "iter_0.py"));
  const seedTrial = json(sync(EVODB, ["trial", "--target", TARGET, "--candidate", path.join(CAND, "iter_0.py"),
    "--test", TEST_CMD, "--bench", BENCH_CMD], project), "seed trial");
  assert.equal(seedTrial.isolation, "worktree");
  assert.equal(seedTrial.passed, true);
  json(evodb("seed", DB, "--codePath", path.join(CAND, "iter_0.py"), "--targetCodeFile", P(TARGET),
    "--metrics", JSON.stringify({ "efficiency-score": JUDGE[TARGET], "benchmark-score": seedTrial.benchmark.score })), "seed");
  const before = sync("git", ["status", "--porcelain"], project).stdout;

  // Step 6: one plan per round; the control copy of the database is taken right after it.
  const plan = json(evodb("plan", DB, String(WORKERS)), "plan");
  assert.equal(plan.items.length, WORKERS);
  fs.cpSync(P(DB), P("evolve-output/control"), { recursive: true });

  const programs = json(evodb("export", DB), "export").programs;
  const trials = plan.items.map((item, k) => {
    const i = k + 1;
    const parent = programs[item.parentIds[0]];
    const candidate = path.join(CAND, `iter_${i}.py`);
    fs.copyFileSync(parent.codePath, candidate);
    fs.copyFileSync(path.join(PREPARED, MUTATIONS[k]), candidate); // the stand-in mutator
    return trialAsync(project, candidate).then((r) => ({ i, k, item, r, finished: performance.now() }));
  });
  const done = await Promise.all(trials);

  // The trials overlapped, by their own clocks, and never touched the project.
  const reports = done.map(({ r }) => JSON.parse(r.stdout));
  for (const report of reports) assert.equal(report.isolation, "worktree");
  const latestStart = Math.max(...reports.map((r) => r.started));
  const earliestEnd = Math.min(...reports.map((r) => r.ended));
  assert.ok(latestStart < earliestEnd, `the ${WORKERS} trials ran one after another: ${JSON.stringify(reports.map((r) => [r.started, r.ended]))}`);
  assert.equal(sync("git", ["status", "--porcelain"], project).stdout, before, "the working tree is as it was");
  assert.equal(sync("git", ["worktree", "list"], project).stdout.trim().split("\n").length, 1, "no worktree left");

  // Every item answered by one add (success or error), in the order the trials finished; the
  // same adds in plan order on the control copy.
  const answer = ({ i, k, item, r }) => {
    const report = JSON.parse(r.stdout);
    const common = ["--id", `iter_${i}`, "--codePath", path.join(CAND, `iter_${i}.py`), "--targetCodeFile",
      path.join(CAND, `iter_${i}.py`), "--parentId", item.parentIds[0], "--operator", item.operator,
      "--planItem", item.name, "--changes", `mutation ${MUTATIONS[k]}`];
    if (!report.passed) return [...common, "--metrics", "{}", "--status", "error", "--reason", "tests failed"];
    return [...common, "--metrics", JSON.stringify({ "efficiency-score": JUDGE[MUTATIONS[k]], "benchmark-score": report.benchmark.score })];
  };
  const arrival = [...done].sort((a, b) => a.finished - b.finished || b.k - a.k);
  if (arrival.every((d, n) => d.k === n)) arrival.reverse(); // make sure some answer arrives early
  const held = [];
  for (const d of arrival) {
    const r = evodb("add", DB, ...answer(d));
    json(r, `add iter_${d.i}`);
    if (r.stderr.includes("warning: held:")) held.push(d.i);
  }
  assert.ok(held.length > 0, "at least one answer came before an earlier item's and was held");
  for (const d of done) json(evodb("add", "evolve-output/control", ...answer(d)), `control add iter_${d.i}`);

  assert.deepEqual(withoutTimestamps(P(DB)), withoutTimestamps(P("evolve-output/control")));
  const info = json(evodb("info", DB), "info");
  assert.equal(info.lastIteration, 1 + done.filter(({ r }) => JSON.parse(r.stdout).passed).length);
  assert.equal(evodb("validate", DB).code, 0);
  t.diagnostic(`arrival order ${arrival.map((d) => d.i).join(", ")}; held ${held.join(", ")}`);
});
