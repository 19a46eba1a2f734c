// The command line of db-cli.mjs: the command table and its flags, the help text, parseArgs,
// the exit codes (those of the native `evodb` CLI) and the Failure that carries one. What flags
// name from outside (files, standard input, argv's raw bytes) is read in input.mjs.

export const EXIT = { ok: 0, badInput: 1, usage: 2, notFound: 3, limit: 4, io: 5, internal: 70 };

export const SCRIPT = "node db-cli.mjs";

export class Failure extends Error {
  constructor(exit, message) {
    super(message);
    this.exit = exit;
  }
}
export const usage = (message) => new Failure(EXIT.usage, message);
export const badInput = (message) => new Failure(EXIT.badInput, message);

// --- the command line ---------------------------------------------------------------------------

const CANDIDATE_FLAGS = {
  codePath: "where the candidate's code lives (stored as given, never opened)",
  targetCode: "the candidate's code",
  targetCodeFile: { help: "read the candidate's code from this file, byte for byte (- for standard input)", conflicts: "targetCode" },
  metrics: `metrics as a JSON object of finite numbers, e.g. '{"score": 0.8}'`,
  changes: "what the mutation changed",
  changesFile: { help: "read the changes description from this file (- for standard input; its final newline is dropped)", conflicts: "changes" },
};

export const INIT_SCALARS = {
  numIslands: "number of islands [seed: 3] (alias --islands)",
  maxIslandSize: "programs kept per island [seed: 40] (alias --capacity)",
  migrationInterval: "island generations between migrations [seed: 10]",
  migrationRate: "share of an island that migrates, in [0, 1] [seed: 0.1]",
  migration: "share (same id on both islands, seed) | copy (new id, provenance)",
  explorationRatio: "probability of a uniform parent pick [seed: 0.3]",
  exploitationTop: "exploitation picks among this many best [seed: 3]",
  inspirationTopPool: "inspirations come from the island's best this many… [seed: 5]",
  inspirationsFromTop: "…this many drawn from that pool… [seed: 3]",
  inspirationsFromRest: "…plus this many from the rest of the island [seed: 2]",
  placement: "roundRobin (seed) | parentIsland | explicit",
  inspirationScope: "island (seed) | allIslands",
  archiveSize: "the elite archive's size [10]",
  qdOffset: "subtracted from each cell's best in the QD score [0]",
};
export const STOPPING = {
  maxEvaluations: "stop after this many evaluations",
  scoreThreshold: "stop once the best fitness reaches this",
  patience: "stop after this many evaluations without a new best",
  maxRounds: "stop after this many plan batches",
};

const COMMANDS = {
  create: { about: "Create the database if missing and print its summary (seed CLI)", positionals: ["dbPath"] },
  info: { about: "Print the database summary; a missing database is empty (seed CLI)", positionals: ["dbPath"] },
  seed: {
    about: 'Add the initial program: parent "0", changes "initial implementation" (seed CLI)',
    positionals: ["dbPath"],
    flags: CANDIDATE_FLAGS,
  },
  add: {
    about: "Add a scored candidate (seed CLI)",
    positionals: ["dbPath"],
    flags: {
      ...CANDIDATE_FLAGS,
      parentId: "the parent's id (an unknown id is accepted with generation 0 and a warning)",
      id: "use this id instead of a generated one",
      island: "put the program on this island (required with --placement explicit)",
      status: {
        help: "accepted (default), rejected (kept as memory) or error (needs --reason; joins no island)",
        values: ["accepted", "rejected", "error"],
      },
      reason: "why the candidate was rejected or failed",
      operator: { help: "exploitation, exploration, crossover or migration", values: ["exploitation", "exploration", "crossover", "migration"] },
      planItem: "the plan item this candidate answers; it lands on that item's island",
    },
  },
  sample: { about: "Sample a parent and inspirations for the next mutation (seed CLI)", positionals: ["dbPath"] },
  best: { about: "Print the best program, or null (seed CLI)", positionals: ["dbPath"] },
  init: {
    about: "Create a database with a config and a seed; refuses an existing one",
    positionals: ["dbPath"],
    flags: {
      seed: "seed of the database's PRNG, 0 to 2^53-1 [0]",
      config: "start from a config JSON file (- for standard input); flags override its fields",
      ...INIT_SCALARS,
      islands: { alias: "numIslands" },
      capacity: { alias: "maxIslandSize" },
      fitness: "mean (seed) | primary:<metric> | weighted:<metric>=<weight>,…",
      direction: { help: "a metric to minimise or maximise, e.g. --direction latency=min (repeatable)", repeat: true },
      features: "MAP-Elites feature dimensions as JSON",
      operators: "seed 004's four operators: default, or weights as JSON",
      dedupe: { help: "answer repeated code from the fitness cache", bool: true },
      ...STOPPING,
    },
  },
  stats: { about: "Population statistics: per island size/best/mean, improvement over the baseline", positionals: ["dbPath"] },
  validate: { about: "Check that the database holds together; exit 1 with the problems when not", positionals: ["dbPath"] },
  export: {
    about: "Print the whole database (json), its family tree (mermaid, tree) or seed 004's markdown",
    positionals: ["dbPath"],
    flags: { format: { help: "json (default) | mermaid | tree | markdown", values: ["json", "mermaid", "tree", "markdown"] } },
  },
  lineage: { about: "Ancestors and descendants of a live program", positionals: ["dbPath", "id"] },
  history: {
    about: "Print the operation history (history.ndjson), one JSON object per line",
    positionals: ["dbPath"],
    flags: { tail: "only the last N operations" },
  },
  plan: {
    about: "Plan a batch of work items for parallel workers: operator, parents, island, name",
    positionals: ["dbPath", "n"],
    flags: {
      frozen: { help: "islands that get no items, e.g. --frozen 1,2", repeat: true },
      boosted: { help: "islands that get twice the share, e.g. --boosted 0", repeat: true },
    },
  },
  "should-stop": { about: "Whether the budget or a stopping rule says the run is over", positionals: ["dbPath"] },
};

/** Every command takes evodb's sandbox limits; limits.mjs keeps them as far as Node can. */
const GLOBAL_FLAGS = {
  timeBudgetMs: "time budget of the database operation in ms [10000]; checked after loading and after the operation (exit 4)",
  memoryLimitMb: "memory cap in MiB [1024]; a database.json too large to load under it is refused up front (exit 4)",
  help: { help: "print this help", bool: true },
};

const EXIT_CODES = `Exit codes:
  0  success
  1  bad input: invalid metrics, code or config, a corrupt database file, an id in use,
     a *File flag naming something that is not a regular file
  2  usage: unknown command or flag, missing or conflicting flags, a value not among a flag's
     possible values, an argument that is not valid UTF-8
  3  not found: a file named by a flag, a program id, no database to validate
  4  limit: the operation exceeded its time budget or memory cap
  5  IO: the database directory cannot be created, read, written or locked
 70  internal: the WebAssembly engine failed or is missing
130  interrupted by SIGINT (143: SIGTERM); the lock is released`;

function spec(flag) {
  return typeof flag === "string" ? { help: flag } : flag;
}

function topHelp() {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.about}`);
  return `evodb's population database for LLM-driven evolutionary code search (WebAssembly, Node).
A drop-in for the seed skill's db-cli.mjs and for the native evodb CLI: every command prints one
JSON value on stdout; errors go to stderr.

Usage: ${SCRIPT} <command> <dbPath> [--flag value]…   (--flag=value works too)

Commands:
${lines.join("\n")}

${EXIT_CODES}
`;
}

function commandHelp(name) {
  const command = COMMANDS[name];
  const flags = Object.entries({ ...(command.flags ?? {}), ...GLOBAL_FLAGS })
    .map(([flag, s]) => [flag, spec(s)])
    .filter(([, s]) => !s.alias)
    .map(([flag, s]) => `  --${flag}${s.bool ? "" : " <value>"}`.padEnd(32) + s.help);
  const positionals = command.positionals.map((p) => `<${p}>`).join(" ");
  return `${command.about}\n\nUsage: ${SCRIPT} ${name} ${positionals} [--flag value]…\n\nFlags:\n${flags.join("\n")}\n\n${EXIT_CODES}\n`;
}

/** `<command> <positionals…> [--flag value | --flag=value]…` → {command, positionals, flags}. */
export function parseArgs(argv) {
  const [name, ...rest] = argv;
  if (name === undefined) throw usage(`a command is required\n\n${topHelp()}`);
  if (name === "--help" || name === "-h" || name === "help") return { help: topHelp() };
  const command = COMMANDS[name];
  if (!command) {
    throw usage(`unrecognized command '${name}'; the commands are ${Object.keys(COMMANDS).join(", ")} (${SCRIPT} --help)`);
  }
  const known = { ...(command.flags ?? {}), ...GLOBAL_FLAGS };
  const flags = {};
  const positionals = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "-h") return { help: commandHelp(name) };
    if (!arg.startsWith("--") || arg === "--") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    let key = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    let s = known[key] === undefined ? undefined : spec(known[key]);
    if (s === undefined) {
      throw usage(`unexpected argument '--${key}' found; \`${SCRIPT} ${name} --help\` lists the flags of ${name}`);
    }
    if (s.alias) {
      key = s.alias;
      s = spec(known[key]);
    }
    let value;
    if (s.bool) {
      if (eq !== -1) throw usage(`--${key} takes no value`);
      value = true;
    } else if (eq !== -1) {
      value = arg.slice(eq + 1);
    } else if (i + 1 < rest.length) {
      value = rest[++i];
    } else {
      throw usage(`a value is required for '--${key}' but none was supplied; see \`${SCRIPT} ${name} --help\``);
    }
    if (s.values && !s.values.includes(value)) throw notAmong(key, value, s.values);
    if (s.repeat) {
      (flags[key] ??= []).push(value);
    } else if (key in flags && !s.bool) {
      throw usage(`the argument '--${key}' cannot be used multiple times`);
    } else {
      flags[key] = value;
    }
  }
  if (flags.help) return { help: commandHelp(name) };
  for (const [key, s] of Object.entries(known)) {
    const conflicts = spec(s).conflicts;
    if (conflicts && key in flags && conflicts in flags) {
      throw usage(`the argument '--${conflicts}' cannot be used with '--${key}'; pass one of them`);
    }
  }
  const wanted = command.positionals;
  if (positionals.length < wanted.length) {
    const missing = wanted.slice(positionals.length).map((p) => `<${p}>`).join(" ");
    throw usage(`the following required arguments were not provided: ${missing}\n\nUsage: ${SCRIPT} ${name} ${wanted.map((p) => `<${p}>`).join(" ")}`);
  }
  if (positionals.length > wanted.length) {
    throw usage(`unexpected argument '${positionals[wanted.length]}' found; \`${SCRIPT} ${name} --help\` shows the usage`);
  }
  for (const flag of ["timeBudgetMs", "memoryLimitMb"]) {
    if (flag in flags) nonNegativeInteger(`--${flag}`, flags[flag]);
  }
  return { name, positionals, flags };
}

/** clap's wording, so both CLIs name the flag and list what it takes. */
function notAmong(key, value, values) {
  return usage(`invalid value '${value}' for '--${key} <${key.toUpperCase()}>' [possible values: ${values.join(", ")}]`);
}

/** A count or index; `max` is the native flag's integer type (u32 for islands and plan sizes). */
export function nonNegativeInteger(what, text, max = Number.MAX_SAFE_INTEGER) {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw usage(`invalid value '${text}' for '${what}': expected a non-negative integer`);
  }
  if (Number(text) > max) throw usage(`invalid value '${text}' for '${what}': ${text} is not in 0..=${max}`);
  return Number(text);
}

export const U32_MAX = 0xffffffff;

export function islandList(flag, values) {
  return (values ?? []).flatMap((v) => v.split(",")).map((v) => nonNegativeInteger(flag, v.trim(), U32_MAX));
}
