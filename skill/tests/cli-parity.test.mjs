// Both CLIs over one table of invocations: the Node drop-in (skill/scripts/db-cli.mjs) and the
// native evodb parse the same command-line table (cli-spec/, as cli.json for Node), so the same
// argv must give the same exit code and the same stdout — valid and invalid argv alike: unknown
// commands and flags, missing values, values not among a flag's possible values or not of its
// type, conflicting flags, aliases, --flag=value, --, --help. Half the invocations are written
// here, half generated from the table (every command's --help, an unknown flag, each flag without
// its value, each possible-values flag with a bogus value, each alias).
//
// This suite never skips: without target/release/evodb (EVODB_BIN overrides) it fails.
//
//   node --test skill/tests/cli-parity.test.mjs
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { EVODB, cli, native, root, seedArgs, tempDir } from "./helpers.mjs";

const TABLE = JSON.parse(fs.readFileSync(path.join(root, "skill/scripts/evodb-wasm/cli.json"), "utf8"));
const NODE_COMMANDS = TABLE.commands.filter((c) => c.node);

const CODE = "def f(x):\n    return 1\n";
const CANDIDATE = ["--codePath", "/c/1.py", "--targetCode", CODE, "--metrics", '{"score": 0.5}'];
const ADD = (...extra) => ["add", "{db}", ...CANDIDATE, "--parentId", "{parent}", "--changes", "c", ...extra];

/** {args, input?}: argv with {db} (a copy of a seeded database), {new} (no directory yet), {parent} (the seed's id). */
const WRITTEN = [
  // --- valid: each command, --flag=value, aliases, defaults, repeatable and delimited flags, - for stdin ---
  { args: ["create", "{new}"] },
  { args: ["info", "{db}"] },
  { args: ["info", "{db}", "--timeBudgetMs=5000", "--memoryLimitMb", "512"] },
  { args: ["info", "--", "{db}"] },
  { args: seedArgs("{new}") },
  { args: ["seed", "{new}", "--codePath=/c/0.py", "--targetCodeFile", "-", '--metrics={"score": 0.1}'], input: CODE },
  { args: ADD() },
  { args: ADD("--id", "mine", "--island", "1", "--operator", "crossover", "--status=rejected", "--reason", "-- too slow") },
  { args: ["add", "{db}", ...CANDIDATE, "--parentId", "{parent}", "--changesFile", "-"], input: "from stdin\n" },
  { args: ["sample", "{db}"] },
  { args: ["sample", "{db}", "--now", "1000"] },
  { args: ["best", "{db}"] },
  { args: ["init", "{new}"] },
  { args: ["init", "{new}", "--rngSeed", "5", "--islands", "2", "--capacity=10", "--dedupe"] },
  { args: ["init", "{new}", "--seed", "5", "--numIslands", "2", "--maxIslandSize", "10"] },
  { args: ["init", "{new}", "--rng-seed=5", "--direction", "latency=min", "--direction=size=max", "--fitness", "primary:score"] },
  { args: ["init", "{new}", "--config", "-", "--patience", "3", "--operators", "default"], input: '{"numIslands": 2}' },
  { args: ["stats", "{db}"] },
  { args: ["validate", "{db}"] },
  { args: ["export", "{db}"] },
  { args: ["export", "{db}", "--format", "tree"] },
  { args: ["export", "{db}", "--format=mermaid"] },
  { args: ["lineage", "{db}", "{parent}"] },
  { args: ["history", "{db}", "--tail", "1"] },
  { args: ["plan", "{db}", "2"] },
  { args: ["plan", "{db}", "3", "--frozen", "1,2", "--boosted", "0"] },
  { args: ["plan", "{db}", "3", "--frozen", "1", "--frozen", "2"] },
  { args: ["plan", "{db}", "2", "--leaseSeconds", "60", "--now", "1000"] },
  { args: ["plan", "{db}", "2", "--leaseSeconds", "0", "--now", "1000"] },
  { args: ["leases", "{db}", "--now", "1000"] },
  { args: ["heartbeat", "{db}", "--item", "gen-0/island-0/exploration-0", "--token", "t", "--now", "1000"] },
  { args: ADD("--planItem", "ghost", "--token", "t") },
  { args: ADD("--token", "t") },
  { args: ADD("--embedding", "[0.5, -0.25]") },
  { args: ADD("--embedding", "[0, 0]") },
  { args: ADD("--embedding", "0.5, 1") },
  { args: ["admit", "{db}", "--code", "x = 1", "--codePath", "a.py", "--embedding", "[0.5, 0.5]"] },
  { args: ["admit", "{db}", "--code", "x = 1", "--embedding", "[]"] },
  { args: ["admit", "{db}", "--code", "x = 1", "--embedding", "nope"] },
  { args: ["should-stop", "{db}"] },
  { args: ["init", "{new}", "--patience", "3", "--noiseMargin", "0.01"] },
  { args: ["validate", "{db}", "--history"] },
  { args: ["remeasure", "{db}", "--id", "{parent}", "--metrics", '{"score": 0.9}'] },
  { args: ["remeasure", "{db}", "--id", "ghost", "--metrics", '{"score": 0.9}'] },
  { args: ["remeasure", "{db}", "--id", "{parent}", "--metrics", '{"speed": 0.9}'] },
  { args: ["remeasure", "{new}", "--id", "{parent}", "--metrics", '{"score": 0.9}'] },
  // --- usage errors (exit 2) ---
  { args: [] },
  { args: ["frobnicate", "{db}"] },
  { args: ["info"] },
  { args: ["info", "{db}", "extra"] },
  { args: ["lineage", "{db}"] },
  { args: ["info", "{db}", "--colour", "red"] },
  { args: ["info", "{db}", "-x"] },
  { args: ["info", "{db}", "--timeBudgetMs", "soon"] },
  { args: ["info", "{db}", "--memoryLimitMb=1.5"] },
  { args: ["export", "{db}", "--format", "yaml"] },
  { args: ["export", "{db}", "--format", "json", "--format", "tree"] },
  { args: ADD("--status", "Accepted") },
  { args: ADD("--island", "4294967296") },
  { args: ADD("--targetCodeFile", "/nowhere") },
  { args: ["add", "{db}", ...CANDIDATE, "--parentId", "{parent}", "--changes", "c", "--changesFile", "-"] },
  { args: ["init", "{new}", "--dedupe=yes"] },
  { args: ["init", "{new}", "--rngSeed", ""] },
  { args: ["init", "{new}", "--seed", "x"] },
  { args: ["history", "{db}", "--tail", "ten"] },
  { args: ["plan", "{db}", "two"] },
  { args: ["plan", "{db}", "2", "--frozen", "1,x"] },
  { args: ["plan", "{db}", "99999999999"] },
  { args: ["plan", "{db}", "2", "--leaseSeconds", "soon"] },
  { args: ["heartbeat", "{db}", "--item", "x"] },
  { args: ["sample", "{db}", "--now", "later"] },
  // --- help (exit 0; the text names each flag, compared below) ---
  { args: ["--help"] },
  { args: ["-h"] },
  { args: ["add", "--help"] },
  { args: ["init", "{new}", "-h"] },
];

/** From the table: what every command and flag the drop-in offers must answer alike. */
function generated() {
  const cases = [];
  for (const command of NODE_COMMANDS) {
    const positionals = command.positionals.map((p) => ({ dbPath: "{db}", n: "2", id: "{parent}" })[p.name]);
    const base = [command.name, ...positionals];
    cases.push({ args: [command.name, "--help"], help: command });
    cases.push({ args: [...base, "--noSuchFlag", "1"] });
    for (const flag of command.flags) {
      if (flag.value !== "switch") cases.push({ args: [...base, `--${flag.name}`] });
      if (flag.possibleValues.length) cases.push({ args: [...base, `--${flag.name}`, "bogus"] });
      for (const alias of flag.aliases) cases.push({ args: [...base, `--${alias}`, flag.value === "u64" ? "3" : "2"] });
    }
  }
  return cases;
}

/** Timestamps and `now` are the clock's: zeroed; stdout lines that are JSON compare as values. */
function comparable(stdout) {
  return stdout.split("\n").map((line) => {
    try {
      return JSON.parse(line, (key, v) => (key === "timestamp" || key === "now" ? 0 : v));
    } catch {
      return line;
    }
  });
}

function template(t) {
  const db = path.join(tempDir(t), "db");
  const seeded = cli(seedArgs(db)).json();
  for (let i = 0; i < 2; i++) cli(["add", db, ...CANDIDATE, "--parentId", seeded.id, "--changes", `c${i}`]).json();
  return { db, parent: seeded.id };
}

/** One invocation on one face, in a fresh copy of the template. */
function run(t, face, c, { db: templateDb, parent }) {
  const scratch = tempDir(t);
  const db = path.join(scratch, "db");
  fs.cpSync(templateDb, db, { recursive: true });
  const args = c.args.map((a) => a.replaceAll("{db}", db).replaceAll("{new}", path.join(scratch, "new")).replaceAll("{parent}", parent));
  return (face === "node" ? cli : native)(args, { input: c.input ?? "" });
}

test("db-cli.mjs and native evodb answer the same argv alike", (t) => {
  assert.ok(fs.existsSync(EVODB), `native evodb is missing at ${EVODB}: build it with \`cargo build --release -p evodb-host\` (this suite compares the two CLIs and never skips)`);
  const base = template(t);
  const cases = [...WRITTEN, ...generated()];
  let runs = 0;
  const codes = {};
  for (const c of cases) {
    const node = run(t, "node", c, base);
    const evodb = run(t, "native", c, base);
    runs += 2;
    const label = `${JSON.stringify(c.args)}\nnode: ${JSON.stringify(node)}\nnative: ${JSON.stringify(evodb)}`;
    assert.equal(node.code, evodb.code, `exit code of ${label}`);
    codes[node.code] = (codes[node.code] ?? 0) + 1;
    if (node.code !== 0) {
      assert.notEqual(node.stderr, "", `node says nothing: ${label}`);
      assert.notEqual(evodb.stderr, "", `native says nothing: ${label}`);
    }
    const help = c.help ?? (c.args.includes("--help") || c.args.includes("-h"));
    if (!help) {
      assert.deepEqual(comparable(node.stdout), comparable(evodb.stdout), `stdout of ${label}`);
      continue;
    }
    // The usage lines differ (`node db-cli.mjs` / `evodb`); what the help lists does not.
    const command = c.help ?? TABLE.commands.find((cmd) => c.args.includes(cmd.name));
    const names = command ? command.flags.map((f) => `--${f.name}`) : NODE_COMMANDS.map((cmd) => cmd.name);
    for (const name of [...names, "Exit codes:"]) {
      assert.ok(node.stdout.includes(name) && evodb.stdout.includes(name), `${name} is not in both helps: ${label}`);
    }
  }
  console.log(`cli parity: ${cases.length} invocations (${WRITTEN.length} written, ${cases.length - WRITTEN.length} from the table), ${runs} runs, exit codes ${JSON.stringify(codes)}`);
  assert.equal(runs, 2 * cases.length);
  assert.ok(WRITTEN.length >= 50 && cases.length >= 120, `${cases.length} invocations`);
});
