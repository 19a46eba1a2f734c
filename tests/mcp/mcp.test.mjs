// `evodb mcp` driven by the official MCP TypeScript SDK's client over stdio (issue 38): the
// handshake, `tools/list` (every input schema compiled by Ajv as JSON Schema 2020-12), evodb's own
// tools answering what the CLI prints and refusing bad calls without changing the run, and two
// whole generations of evo-anything's `evo_step` state machine on a real git repository with four
// parallel workers — branches and commits in worktrees, a protected file edited (policy_fail), a
// crashing candidate, a cache hit, selection, the server restarted between `select` and
// `reflect_done`, and `done` when the budget is spent — each answer checked against the seed's
// phase reference; then `evodb validate` and the playground's server (`evodb view`) read the run.
//
//   node --test tests/mcp/        (EVODB_BIN overrides target/release/evodb)
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv2020 from "ajv/dist/2020.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const EVODB = process.env.EVODB_BIN ?? path.join(root, "target/release/evodb");
const skip = !fs.existsSync(EVODB) && `native evodb not built at ${EVODB}`;

const EVODB_TOOLS = ["sample", "add", "seed", "best", "info", "stats", "plan", "note", "notes", "admit", "lineage", "should_stop"];
const EVO_TOOLS = [
  "evo_init", "evo_register_targets", "evo_report_seed", "evo_step", "evo_get_status", "evo_get_lineage",
  "evo_freeze_target", "evo_boost_target", "evo_check_cache", "evo_record_synergy",
];

function scratch(name) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `evodb-mcp-${name}-`));
}

async function connect(db, cwd) {
  const transport = new StdioClientTransport({ command: EVODB, args: ["mcp", db], cwd, stderr: "pipe" });
  const client = new Client({ name: "evodb-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** A tool's answer: its first text block parsed, and whether it is a tool error. */
async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content[0].text;
  if (result.isError) return { error: text };
  return JSON.parse(text);
}

function cli(args, cwd) {
  const run = spawnSync(EVODB, args, { cwd, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout.trim(), stderr: run.stderr };
}

test("initialize and tools/list: every tool, every schema valid JSON Schema", { skip }, async () => {
  const dir = scratch("list");
  const client = await connect(path.join(dir, "db"), dir);
  try {
    assert.equal(client.getServerVersion().name, "evodb");
    assert.ok(client.getServerCapabilities().tools, "tools capability");
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [...EVODB_TOOLS, ...EVO_TOOLS]) assert.ok(names.includes(name), `tool ${name} listed`);
    const ajv = new Ajv2020({ strict: true, strictRequired: false });
    // schemars names the width of its numbers (`uint32`, `double`): formats, not constraints.
    for (const format of ["uint8", "uint16", "uint32", "uint64", "int32", "int64", "double", "float"]) ajv.addFormat(format, true);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, "object", tool.name);
      assert.ok(ajv.validateSchema(tool.inputSchema), `${tool.name}: ${ajv.errorsText(ajv.errors)}`);
      ajv.compile(tool.inputSchema);
    }
    const step = tools.find((t) => t.name === "evo_step");
    assert.deepEqual(step.inputSchema.required, ["phase"]);
  } finally {
    await client.close();
  }
});

test("evodb's tools answer what the CLI prints; a bad call is a tool error that changes nothing", { skip }, async () => {
  const dir = scratch("tools");
  const db = path.join(dir, "db");
  assert.equal(cli(["init", db, "--rngSeed", "3"], dir).status, 0);
  const client = await connect(db, dir);
  try {
    const seed = await call(client, "seed", { codePath: "f.py", targetCode: "def f(): return 1", metrics: { score: 0.4 } });
    assert.ok(seed.id, JSON.stringify(seed));
    const sample = await call(client, "sample");
    assert.equal(sample.parent.id, seed.id);
    const added = await call(client, "add", {
      codePath: "f.py", targetCode: "def f(): return 2", parentId: seed.id, metrics: { score: 0.6 }, changes: "two",
    });
    assert.equal(added.bestProgramId, added.id);
    for (const [tool, command] of [["best", "best"], ["info", "info"], ["stats", "stats"], ["should_stop", "should-stop"]]) {
      const result = await client.callTool({ name: tool, arguments: {} });
      assert.equal(result.content[0].text, cli([command, db], dir).stdout, tool);
    }
    const lineage = await call(client, "lineage", { programId: added.id });
    assert.deepEqual(lineage.ancestors, [seed.id]);
    const note = await call(client, "note", { kind: "lesson", text: "-x looks like a flag but is a note" });
    assert.equal(note.text, "-x looks like a flag but is a note");
    assert.equal((await call(client, "notes", { kind: "lesson" })).notes.length, 1);
    const plan = await call(client, "plan", { n: 2 });
    assert.equal(plan.items.length, 2);

    const before = fs.readFileSync(path.join(db, "database.json"), "utf8");
    const bad = [
      ["plan", { n: "two" }, "`n`"],
      ["plan", { n: 2, workers: 3 }, "`workers`"],
      ["add", { parentId: seed.id, metrics: { score: 1 }, changes: "c" }, "codePath"],
      ["add", { codePath: "f.py", targetCode: "x", parentId: seed.id, metrics: { score: "high" }, changes: "c" }, "metrics"],
      ["note", { kind: "rumour", text: "x" }, "`kind`"],
      ["lineage", { programId: "--output=/tmp/x" }, "lineage"],
      ["no_such_tool", {}, "no tool"],
      ["evo_step", { phase: "code_ready" }, "evo_init"],
    ];
    for (const [name, args, named] of bad) {
      const result = await client.callTool({ name, arguments: args });
      assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} is a tool error`);
      assert.ok(result.content[0].text.includes(named), `${name}: ${result.content[0].text} names ${named}`);
    }
    assert.equal(fs.readFileSync(path.join(db, "database.json"), "utf8"), before, "bad calls changed nothing");
    // Parallel calls are serialized: all answered, none lost.
    const many = await Promise.all(Array.from({ length: 8 }, () => call(client, "sample")));
    assert.ok(many.every((s) => s.parent), "every parallel sample answered");
  } finally {
    await client.close();
  }
  assert.equal(cli(["validate", db], dir).status, 0);
});

// --- evo-anything: two generations on a real repository ----------------------------------------------

const GIT = ["-c", "user.name=evo", "-c", "user.email=evo@example.com", "-c", "commit.gpgsign=false"];
function git(cwd, ...args) {
  return execFileSync("git", [...GIT, ...args], { cwd, encoding: "utf8" }).trim();
}

/** The stand-in benchmark: the number of `+ 1` terms is the fitness; `crash` in the code crashes. */
function benchmark(code) {
  if (code.includes("crash")) return { success: false, raw: "Traceback: ZeroDivisionError" };
  return { success: true, fitness: code.split("+ 1").length - 1 };
}

/** One WorkerAgent: a worktree on the item's branch from its parent, a commit, the policy check, the benchmark. */
async function worker(client, repo, item, edit, policy = "pass") {
  const wt = path.join(repo, "..", `wt-${item.branch.replaceAll("/", "_")}`);
  const parent = item.parent_branches[0];
  git(repo, "worktree", "add", "-q", "-b", item.branch, wt, parent);
  const parentCommit = git(repo, "rev-parse", parent);
  edit(wt);
  git(wt, "commit", "-qam", `${item.operation} ${item.target_id}`);
  const check = await call(client, "evo_step", { phase: "code_ready", branch: item.branch, parent_commit: parentCommit });
  assert.equal(check.action, "check_policy", JSON.stringify(check));
  for (const key of ["branch", "parent_commit", "target_id", "target_file", "operation", "parent_branches", "changed_files", "diff", "protected_patterns"]) {
    assert.ok(key in check, `check_policy has ${key}`);
  }
  assert.ok(check.diff.length <= 8000);
  let done;
  if (policy === "fail") {
    assert.ok(check.changed_files.includes("benchmark.py"), JSON.stringify(check.changed_files));
    done = await call(client, "evo_step", { phase: "policy_fail", branch: item.branch, reason: "Protected file modified: 'benchmark.py'" });
    assert.deepEqual(done, { action: "worker_done", branch: item.branch, rejected: true, reason: "Protected file modified: 'benchmark.py'" });
  } else {
    const go = await call(client, "evo_step", { phase: "policy_pass", branch: item.branch });
    assert.deepEqual(Object.keys(go).sort(), ["action", "branch", "operation", "parent_branches", "target_id"]);
    assert.equal(go.action, "run_benchmark");
    const code = fs.readFileSync(path.join(wt, "model.py"), "utf8");
    const result = benchmark(code);
    done = await call(client, "evo_step", {
      phase: "fitness_ready", branch: go.branch, fitness: result.fitness ?? 0, success: result.success,
      operation: go.operation, target_id: go.target_id, parent_branches: go.parent_branches, raw_output: result.raw,
    });
    assert.equal(done.action, "worker_done", JSON.stringify(done));
    assert.ok(Number.isInteger(done.total_evals));
  }
  git(repo, "worktree", "remove", "--force", wt);
  return done;
}

test("evo-anything: two generations, four parallel workers, a restart between select and reflect_done", { skip }, async () => {
  const dir = scratch("evo");
  const repo = path.join(dir, "repo");
  const db = path.join(dir, "db");
  fs.mkdirSync(repo);
  git(repo, "init", "-q");
  fs.writeFileSync(path.join(repo, "model.py"), "def compute(x):\n    return x + 1\n");
  fs.writeFileSync(path.join(repo, "benchmark.py"), "print(1)\n");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "baseline");

  let client = await connect(db, dir);
  try {
    const init = await call(client, "evo_init", { repo_path: repo, benchmark_cmd: "python3 benchmark.py", objective: "max", max_fe: 9, batch_size: 4 });
    assert.equal(init.status, "initialized", JSON.stringify(init));
    assert.equal((await call(client, "evo_report_seed", { fitness: 1 })).status, "seed_recorded");
    git(repo, "tag", "seed-baseline");
    const registered = await call(client, "evo_register_targets", {
      targets: [{ id: "compute", file: "model.py", function: "compute", lines: "1-2", impact: "high", description: "the hot path" }],
    });
    assert.equal(registered.status, "registered", JSON.stringify(registered));

    // Generation 0.
    const gen0 = await call(client, "evo_step", { phase: "begin_generation" });
    assert.equal(gen0.action, "dispatch_workers", JSON.stringify(gen0));
    assert.equal(gen0.generation, 0);
    assert.equal(gen0.batch_size, 4);
    assert.equal(gen0.items.length, 4);
    for (const item of gen0.items) {
      assert.deepEqual(Object.keys(item).sort(), ["branch", "operation", "parent_branches", "target_file", "target_function", "target_id"]);
      assert.deepEqual(item.parent_branches, ["seed-baseline"]);
      assert.equal(item.target_file, "model.py");
    }
    // Asking again before the workers report hands out the same batch (a restarted orchestrator).
    assert.deepEqual((await call(client, "evo_step", { phase: "begin_generation" })).items, gen0.items);
    const [good, protectedEdit, crash, duplicate] = gen0.items;
    const better = (wt) => fs.writeFileSync(path.join(wt, "model.py"), "def compute(x):\n    return x + 1 + 1\n");
    let firstDone;
    const first = new Promise((resolve) => { firstDone = resolve; });
    const results = await Promise.all([
      worker(client, repo, good, better).then((r) => { firstDone(); return r; }),
      worker(client, repo, protectedEdit, (wt) => fs.writeFileSync(path.join(wt, "benchmark.py"), "print(99)\n"), "fail"),
      worker(client, repo, crash, (wt) => fs.writeFileSync(path.join(wt, "model.py"), "def compute(x):\n    return crash\n")),
      // The same code as the first worker's, reported after it: a cache hit, which still spends budget.
      first.then(() => worker(client, repo, duplicate, better)),
    ]);
    assert.equal(results[0].is_new_best, true, JSON.stringify(results[0]));
    assert.equal(results[0].fitness, 2);
    assert.equal(results[2].success, false);
    assert.equal(results[2].is_new_best, false);
    assert.equal(results[3].cached, true, JSON.stringify(results[3]));
    assert.ok(results[3].total_evals > results[0].total_evals);

    const selected = await call(client, "evo_step", { phase: "select" });
    assert.equal(selected.action, "reflect", JSON.stringify(selected));
    assert.deepEqual(selected.keep, [good.branch]);
    assert.deepEqual([...selected.eliminate].sort(), [protectedEdit.branch, crash.branch, duplicate.branch].sort());
    assert.equal(selected.best_branch, good.branch);
    assert.equal(selected.best_obj, 2);
    git(repo, "tag", "best-gen-0", selected.best_branch);
  } finally {
    await client.close();
  }

  // The server restarts between select and reflect_done: the session is in the run.
  client = await connect(db, dir);
  try {
    const status = await call(client, "evo_get_status");
    assert.equal(status.generation, 0);
    assert.equal(status.best_obj, 2);
    const gen1 = await call(client, "evo_step", { phase: "reflect_done" });
    assert.equal(gen1.action, "dispatch_workers", JSON.stringify(gen1));
    assert.equal(gen1.generation, 1);
    assert.ok(gen1.items.length >= 1 && gen1.items.length <= 4);
    const results = await Promise.all(gen1.items.map((item, i) =>
      worker(client, repo, item, (wt) => {
        fs.writeFileSync(path.join(wt, "model.py"), `def compute(x):\n    return x${" + 1".repeat(3 + i)}\n`);
        // The first worker also edits the benchmark, and its PolicyAgent misses it: the engine's
        // own policy check (git mode) records it as rejected when the fitness is reported.
        if (i === 0) fs.writeFileSync(path.join(wt, "benchmark.py"), "print(1000)\n");
      })));
    assert.deepEqual(
      { success: results[0].success, rejected: results[0].rejected, reason: results[0].reason, is_new_best: results[0].is_new_best },
      { success: false, rejected: true, reason: "Protected file modified: 'benchmark.py'", is_new_best: false },
    );
    assert.ok(results.slice(1).every((r) => r.success), JSON.stringify(results));
    const selected = await call(client, "evo_step", { phase: "select" });
    assert.equal(selected.action, "reflect");
    assert.equal(selected.best_obj, 2 + gen1.items.length);
    assert.ok(selected.eliminate.includes(gen1.items[0].branch), JSON.stringify(selected));
    const lineage = await call(client, "evo_get_lineage", { branch: selected.best_branch });
    assert.equal(lineage.ancestors.at(-1), "seed-baseline", JSON.stringify(lineage));
    const end = await call(client, "evo_step", { phase: "reflect_done" });
    assert.equal(end.action, "done", JSON.stringify(end));
    assert.equal(end.reason, "budget exhausted");
    assert.equal(end.total_evals, 9);
  } finally {
    await client.close();
  }
  const validate = cli(["validate", db], dir);
  assert.equal(validate.status, 0, validate.stderr);
  assert.ok(cli(["export", db], dir).stdout.includes(`"branch"`));
  // The playground's server hands the run to the page: database.json and its history.
  const view = spawn(EVODB, ["view", db, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const url = await new Promise((resolve, reject) => {
      view.stdout.once("data", (chunk) => resolve(chunk.toString().split("\n")[0].trim()));
      view.once("exit", (code) => reject(new Error(`evodb view exited with ${code}`)));
    });
    assert.match(url, /\?run=\/run\/$/);
    const database = await (await fetch(new URL("/run/database.json", url))).json();
    assert.ok(Object.values(database.programs).some((p) => p.branch?.startsWith("gen-1/")), "the playground sees generation 1");
    const history = await (await fetch(new URL("/run/history.ndjson", url))).text();
    assert.ok(history.trim().split("\n").length >= 10, "the history holds every add");
  } finally {
    view.kill();
  }
});

test("evo-anything with two targets: impact weights, freeze and boost, the cache check, a synergy round", { skip }, async () => {
  const dir = scratch("targets");
  const repo = path.join(dir, "repo");
  fs.mkdirSync(repo);
  git(repo, "init", "-q");
  fs.writeFileSync(path.join(repo, "a.py"), "A = 1\n");
  fs.writeFileSync(path.join(repo, "b.py"), "B = 1\n");
  git(repo, "add", ".");
  git(repo, "commit", "-qm", "baseline");
  git(repo, "tag", "seed-baseline");
  const client = await connect(path.join(dir, "db"), dir);
  try {
    await call(client, "evo_init", { repo_path: repo, benchmark_cmd: "python3 bench.py", objective: "min", max_fe: 40, batch_size: 4, synergy_interval: 1 });
    await call(client, "evo_report_seed", { fitness: 10 });
    const registered = await call(client, "evo_register_targets", { targets: [{ id: "a", file: "a.py", impact: "high" }, { id: "b", file: "b.py", impact: "low" }] });
    assert.deepEqual(registered.targets.map((t) => t.weight), [3, 1]);
    const gen0 = await call(client, "evo_step", { phase: "begin_generation" });
    assert.deepEqual(gen0.items.map((i) => i.target_id).sort(), ["a", "a", "a", "b"], "3:1 by impact");
    assert.deepEqual(gen0.synergy.parts.map((p) => [p.target_id, p.branch]), [["a", "seed-baseline"], ["b", "seed-baseline"]]);
    for (const [i, item] of gen0.items.entries()) {
      const wt = path.join(dir, `wt${i}`);
      git(repo, "worktree", "add", "-q", "-b", item.branch, wt, item.parent_branches[0]);
      fs.writeFileSync(path.join(wt, item.target_file), `${item.target_id.toUpperCase()} = ${i + 2}\n`);
      git(wt, "commit", "-qam", "variant");
      assert.equal((await call(client, "evo_check_cache", { code_hash: item.branch })).cached, false);
      const done = await call(client, "evo_step", { phase: "fitness_ready", branch: item.branch, fitness: 9 - i, success: true });
      assert.equal(done.success, true, JSON.stringify(done));
      const again = await call(client, "evo_check_cache", { code_hash: item.branch });
      assert.deepEqual([again.cached, again.fitness, again.branch], [true, 9 - i, item.branch]);
    }
    const selected = await call(client, "evo_step", { phase: "select" });
    assert.equal(selected.best_obj, 6, "min: the lowest fitness is the best");
    const synergy = await call(client, "evo_record_synergy", { branch: selected.best_branch, fitness: 5 });
    assert.deepEqual(synergy.target_ids, ["a", "b"]);
    assert.equal((await client.callTool({ name: "evo_record_synergy", arguments: { branch: selected.best_branch, fitness: 5 } })).isError, true, "recorded once");

    await call(client, "evo_freeze_target", { target_id: "b" });
    const frozen = await client.callTool({ name: "evo_freeze_target", arguments: { target_id: "a" } });
    assert.equal(frozen.isError, true, "every target frozen is refused");
    const gen1 = await call(client, "evo_step", { phase: "reflect_done" });
    assert.ok(gen1.items.every((i) => i.target_id === "a"), JSON.stringify(gen1.items));
    const boosted = await call(client, "evo_boost_target", { target_id: "b" });
    assert.deepEqual([boosted.frozen, boosted.boosted], [false, true]);
    const status = await call(client, "evo_get_status");
    assert.deepEqual([status.frozen, status.boosted, status.waiting.length], [[], ["b"], gen1.items.length]);
    const lineage = await call(client, "evo_get_lineage", { branch: gen1.items[0].parent_branches[0] });
    assert.deepEqual(lineage.ancestors, ["seed-baseline"]);
  } finally {
    await client.close();
  }
});
