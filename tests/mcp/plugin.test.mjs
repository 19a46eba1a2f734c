// The Claude Code plugin (`plugin/`) and the marketplace that lists it (`.claude-plugin/`): the
// pieces the issue asks for are there and well formed — the manifest, the five agents with their
// front matter, `/evolve`, the MCP registration of `evodb mcp`, the skill through its symlink to
// `skill/` — and, when a Claude Code CLI is at hand (`EVODB_CLAUDE_BIN`, e.g. an installed
// `claude`, or tests/run.sh's pinned `npx @anthropic-ai/claude-code`), `claude plugin validate`
// accepts the plugin and the marketplace.
//
//   node --test tests/mcp/
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const plugin = path.join(root, "plugin");
const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf8"));

/** A Markdown file's front matter as key → value (one line each). */
function frontMatter(file) {
  const text = fs.readFileSync(file, "utf8");
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  assert.ok(match, `${file} starts with front matter`);
  return Object.fromEntries(match[1].split("\n").map((line) => {
    const i = line.indexOf(":");
    return [line.slice(0, i).trim(), line.slice(i + 1).trim()];
  }));
}

test("the plugin holds the skill, five agents, /evolve and the evodb MCP server", () => {
  const manifest = readJson(path.join(plugin, ".claude-plugin/plugin.json"));
  assert.equal(manifest.name, "evodb");
  assert.match(manifest.version, /^\d+\.\d+\.\d+$/);
  for (const name of ["orchestrator", "map", "worker", "policy", "reflect"]) {
    const meta = frontMatter(path.join(plugin, "agents", `${name}.md`));
    assert.equal(meta.name, name);
    assert.ok(meta.description.length > 40, `${name} says when to use it`);
  }
  assert.ok(frontMatter(path.join(plugin, "commands/evolve.md")).description);
  const mcp = readJson(path.join(plugin, ".mcp.json"));
  assert.equal(mcp.mcpServers.evodb.command, "evodb");
  assert.equal(mcp.mcpServers.evodb.args[0], "mcp");
  const skill = path.join(plugin, "skills/evodb-evolve");
  assert.ok(fs.lstatSync(skill).isSymbolicLink(), "the skill is skill/ itself, not a copy");
  assert.equal(fs.realpathSync(skill), fs.realpathSync(path.join(root, "skill")));
  assert.equal(frontMatter(path.join(skill, "SKILL.md")).name, "evodb-evolve");
  const memory = fs.readFileSync(path.join(plugin, "agents/reflect.md"), "utf8");
  for (const piece of ["memory/targets/<id>/short_term/gen_<N>.md", "long_term.md", "failures.md", "memory/global/", "memory/synergy/", "seed-baseline", "best-gen-<N>", "best-overall"]) {
    assert.ok(memory.includes(piece), `the reflect agent names ${piece}`);
  }
});

test("the plugin holds /evoidea and its three subagents, each using evodb for the bookkeeping", () => {
  const command = fs.readFileSync(path.join(plugin, "commands/evoidea.md"), "utf8");
  assert.ok(frontMatter(path.join(plugin, "commands/evoidea.md")).description);
  for (const flag of ["--rounds", "--population", "--elite", "--threshold", "--resume", "--profile"]) {
    assert.ok(command.includes(flag), `/evoidea takes ${flag}`);
  }
  for (const call of ["evodb ideas", "evodb plan", "evodb add-idea", "evodb should-stop", "evodb show", "evodb export", "--format evoidea"]) {
    assert.ok(command.includes(call), `/evoidea uses ${call}`);
  }
  for (const name of ["idea-generate", "idea-critic", "idea-refine"]) {
    const meta = frontMatter(path.join(plugin, "agents", `${name}.md`));
    assert.equal(meta.name, name);
    assert.ok(command.includes(`**${name}**`), `/evoidea starts ${name}`);
  }
  const critic = fs.readFileSync(path.join(plugin, "agents/idea-critic.md"), "utf8");
  for (const criterion of ["feasibility", "speed_to_value", "differentiation", "market_size", "distribution", "moats", "risk", "clarity"]) {
    assert.ok(critic.includes(`\`${criterion}\``), `the critic scores ${criterion}`);
  }
  const skill = fs.readFileSync(path.join(root, "skill/references/evoidea.md"), "utf8");
  assert.ok(skill.includes("### Generate") && skill.includes("### Critic") && skill.includes("### Refine"));
});

test("the marketplace at the repository's root lists the plugin", () => {
  const marketplace = readJson(path.join(root, ".claude-plugin/marketplace.json"));
  assert.equal(marketplace.name, "evodb");
  const [entry] = marketplace.plugins;
  assert.equal(entry.name, "evodb");
  assert.equal(path.resolve(root, entry.source), plugin);
});

const claude = process.env.EVODB_CLAUDE_BIN;
test("claude plugin validate accepts the plugin and the marketplace", { skip: !claude && "EVODB_CLAUDE_BIN is not set" }, () => {
  for (const dir of [plugin, root]) {
    const [command, ...prefix] = claude.split(" ");
    const run = spawnSync(command, [...prefix, "plugin", "validate", dir], { encoding: "utf8" });
    assert.equal(run.status, 0, `${dir}: ${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /Validation passed/);
  }
});
