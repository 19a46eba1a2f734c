// The command line of db-cli.mjs, read from the table the native `evodb` builds its parser from
// (cli-spec/, dumped to ../evodb-wasm/cli.json by wasm/build.sh): the commands the drop-in offers
// and their flags, the help text, parseArgs, the exit codes and the Failure that carries one. What
// flags name from outside (files, standard input, argv's raw bytes) is read in input.mjs.

import fs from "node:fs";

const TABLE = JSON.parse(fs.readFileSync(new URL("../evodb-wasm/cli.json", import.meta.url), "utf8"));

/** The exit codes by name: EXIT.usage is 2. */
export const EXIT = Object.fromEntries(TABLE.exitCodes.map((c) => [c.name, c.code]));

/** init's flags that set a config field of the same name, and those that set a stopping rule. */
export const INIT_CONFIG = TABLE.initConfig;

export const SCRIPT = "node db-cli.mjs";

export class Failure extends Error {
  constructor(exit, message) {
    super(message);
    this.exit = exit;
  }
}
export const usage = (message) => new Failure(EXIT.usage, message);
export const badInput = (message) => new Failure(EXIT.badInput, message);

// --- the table ------------------------------------------------------------------------------------

const COMMANDS = new Map(TABLE.commands.filter((c) => c.node).map((c) => [c.name, c]));
const NATIVE_ONLY = TABLE.commands.filter((c) => !c.node).map((c) => c.name);

/** The exit codes this script can exit with: none that only a native-only command has. */
const EXIT_CODES = [
  "Exit codes:",
  ...TABLE.exitCodes
    .filter((c) => c.commands.length === 0 || c.commands.some((name) => COMMANDS.has(name)))
    .map((c) => `${String(c.code).padStart(3)}  ${c.text.replaceAll("\n", "\n     ")}`),
].join("\n");

/** The command's flags and the global ones, by name and by alias. */
function flagsOf(command) {
  const flags = [...command.flags, ...TABLE.globalFlags];
  return new Map(flags.flatMap((f) => [f.name, ...f.aliases].map((name) => [name, f])));
}

const isSwitch = (flag) => flag.value === "switch";
const INTEGER_MAX = { u16: 0xffffn, u32: 0xffffffffn, u64: 0xffffffffffffffffn, usize: 0xffffffffffffffffn };

// --- help -----------------------------------------------------------------------------------------

/** Two columns: the term padded to the widest, then its help (as clap lays them out). */
function columns(rows) {
  const width = Math.max(...rows.map(([term]) => term.length));
  return rows.map(([term, help]) => `  ${term.padEnd(width)}  ${help}`.trimEnd()).join("\n");
}

function flagHelp(flag) {
  const notes = [];
  if (flag.default !== null) notes.push(`[default: ${flag.default}]`);
  if (flag.possibleValues.length) notes.push(`[possible values: ${flag.possibleValues.map((v) => v.name).join(", ")}]`);
  if (flag.aliases.length) notes.push(`[aliases: ${flag.aliases.map((a) => `--${a}`).join(", ")}]`);
  return [flag.help, ...notes].join(" ");
}

function topHelp() {
  const commands = columns([...COMMANDS.values()].map((c) => [c.name, c.about]));
  return `evodb's population database for LLM-driven evolutionary code search (WebAssembly, Node).
A drop-in for the seed skill's db-cli.mjs and for the native evodb CLI: every command prints one
JSON value on stdout; errors go to stderr.

Usage: ${SCRIPT} <command> <dbPath> [--flag value]…   (--flag=value works too)

Commands:
${commands}

${EXIT_CODES}
`;
}

function usageLine(command) {
  const positionals = command.positionals.map((p) => (p.required ? `<${p.name}>` : `[${p.name}]`)).join(" ");
  return `Usage: ${SCRIPT} ${command.name} ${positionals} [--flag value]…`;
}

function commandHelp(command) {
  const positionals = columns(command.positionals.map((p) => [`<${p.name}>`, p.help]));
  const flags = columns([
    ...[...command.flags, ...TABLE.globalFlags].map((f) => [`--${f.name}${isSwitch(f) ? "" : ` <${f.valueName}>`}`, flagHelp(f)]),
    ["-h, --help", "Print help"],
  ]);
  return `${command.longAbout ?? command.about}\n\n${usageLine(command)}\n\nArguments:\n${positionals}\n\nFlags:\n${flags}\n\n${EXIT_CODES}\n`;
}

// --- parsing --------------------------------------------------------------------------------------

/** `<command> <positionals…> [--flag value | --flag=value]…` → {name, positionals, flags}. */
export function parseArgs(argv) {
  const [name, ...rest] = argv;
  if (name === undefined) throw usage(`a command is required\n\n${topHelp()}`);
  if (name === "--help" || name === "-h" || name === "help") return { help: topHelp() };
  const command = COMMANDS.get(name);
  if (!command) {
    const native = NATIVE_ONLY.includes(name) ? ` (\`evodb ${name}\` is the native CLI's)` : "";
    throw usage(`unrecognized command '${name}'${native}; the commands are ${[...COMMANDS.keys()].join(", ")} (${SCRIPT} --help)`);
  }
  const known = flagsOf(command);
  const flags = {};
  const positionals = [];
  let help = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--") {
      positionals.push(...rest.slice(i + 1)); // after `--`, everything is a positional (as in clap)
      break;
    }
    if (arg === "-h" || arg === "--help") {
      help = true;
      continue;
    }
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const given = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const flag = known.get(given);
    if (flag === undefined) {
      throw usage(`unexpected argument '--${given}' found; \`${SCRIPT} ${name} --help\` lists the flags of ${name}`);
    }
    const key = flag.name;
    if (isSwitch(flag)) {
      if (eq !== -1) throw usage(`--${key} takes no value`);
      flags[key] = true;
      continue;
    }
    let value;
    if (eq !== -1) value = arg.slice(eq + 1);
    else if (i + 1 < rest.length) value = rest[++i];
    else throw usage(`a value is required for '--${key} <${flag.valueName}>' but none was supplied; see \`${SCRIPT} ${name} --help\``);
    const values = flag.delimiter === null ? [value] : value.split(flag.delimiter);
    for (const v of values) checkValue(flag, v);
    if (flag.repeatable) {
      (flags[key] ??= []).push(...values);
    } else if (key in flags) {
      throw usage(`the argument '--${key} <${flag.valueName}>' cannot be used multiple times`);
    } else {
      flags[key] = value;
    }
  }
  if (help) return { help: commandHelp(command) };
  for (const flag of known.values()) {
    for (const other of flag.conflictsWith) {
      if (flag.name in flags && other in flags) throw usage(`the argument '--${other}' cannot be used with '--${flag.name}'; pass one of them`);
    }
  }
  const locations = positionals.filter((_, i) => LOCATIONS.has(command.positionals[i]?.name));
  const postgres = locations.some((text) => locationForm(text) === "postgres");
  if ("store" in flags || "run" in flags || postgres) {
    throw usage(
      "PostgreSQL runs (--store, --run, postgres:// URLs) need the native evodb: `evodb " + name + " --store URL --run NAME`; this Node drop-in keeps a database in a directory",
    );
  }
  // Any other `scheme://` is refused, never made a directory (issue 35: `POSTGRES://u:PW@h/evo`
  // or `mysql://…` became a directory holding the password); the message never quotes it.
  const foreign = locations.map(locationForm).find((form) => form.startsWith("scheme:"));
  if (foreign) {
    const scheme = foreign.slice("scheme:".length);
    throw usage(
      `<dbPath> starts with \`${scheme}:\`, which is neither a directory nor a PostgreSQL URL: PostgreSQL URLs start with postgres:// or postgresql:// (in any case) and need the native evodb; pass a directory (for one with \`://\` in its name, write ./${scheme}:…)`,
    );
  }
  const git = ["branch", "commit", "target", "protected"].filter((key) => key in flags && name === "add");
  if (git.length) {
    throw usage(
      `git mode (${git.map((key) => `--${key}`).join(", ")}) needs the native evodb, which reads the commit: \`evodb add … --branch B --target FILE\`; with this Node drop-in, pass the code with --targetCode or --targetCodeFile`,
    );
  }
  checkPositionals(command, positionals);
  for (const flag of known.values()) {
    if (flag.required && !(flag.name in flags)) throw usage(`the following required arguments were not provided: --${flag.name}`);
    if (flag.default !== null && !(flag.name in flags)) flags[flag.name] = flag.default;
  }
  return { name, positionals, flags };
}

/** The positionals that name a database: a directory, or (native evodb only) a PostgreSQL run. */
const LOCATIONS = new Set(["dbPath", "src", "dst"]);

/**
 * "postgres" for a PostgreSQL URL (the scheme in any case), "scheme:NAME" for any other
 * RFC 3986 `scheme://` (and `postgres:` without `//`), "directory" otherwise: the native evodb's
 * rule (host-cli/src/postgres/location.rs).
 */
function locationForm(text) {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text);
  if (!match) return "directory";
  const scheme = match[1];
  const postgres = ["postgres", "postgresql"].includes(scheme.toLowerCase());
  const slashes = text.slice(match[0].length).startsWith("//");
  if (postgres && slashes) return "postgres";
  if (postgres || slashes) return `scheme:${/^[A-Za-z0-9+.-]{1,40}$/.test(scheme) ? scheme : "…"}`;
  return "directory";
}

function checkPositionals(command, positionals) {
  const wanted = command.positionals;
  const required = wanted.filter((p) => p.required);
  if (positionals.length < required.length) {
    const missing = required.slice(positionals.length).map((p) => `<${p.name}>`).join(" ");
    throw usage(`the following required arguments were not provided: ${missing}\n\n${usageLine(command)}`);
  }
  if (positionals.length > wanted.length) {
    throw usage(`unexpected argument '${positionals[wanted.length]}' found; \`${SCRIPT} ${command.name} --help\` shows the usage`);
  }
  positionals.forEach((value, i) => checkType(`<${wanted[i].name}>`, wanted[i].value, value));
}

/** A flag's value is among its possible values and of its type, as clap checks them. */
function checkValue(flag, value) {
  const possible = flag.possibleValues.map((v) => v.name);
  if (possible.length && !possible.includes(value)) {
    throw usage(`invalid value '${value}' for '--${flag.name} <${flag.valueName}>' [possible values: ${possible.join(", ")}]`);
  }
  checkType(`--${flag.name}`, flag.value, value);
}

function checkType(what, type, text) {
  const max = INTEGER_MAX[type];
  if (max !== undefined) {
    if (!/^\d+$/.test(text)) throw usage(`invalid value '${text}' for '${what}': expected a non-negative integer`);
    if (BigInt(text) > max) throw usage(`invalid value '${text}' for '${what}': ${text} is not in 0..=${max}`);
  } else if (type === "f64" && !Number.isFinite(Number(text))) {
    throw usage(`invalid value '${text}' for '${what}': expected a number`);
  }
}

/** A count or index already checked by parseArgs, as a Number; `max` bounds it (u32 for islands). */
export function nonNegativeInteger(what, text, max = Number.MAX_SAFE_INTEGER) {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw usage(`invalid value '${text}' for '${what}': expected a non-negative integer`);
  }
  if (Number(text) > max) throw usage(`invalid value '${text}' for '${what}': ${text} is not in 0..=${max}`);
  return Number(text);
}

export const U32_MAX = 0xffffffff;

export function islandList(flag, values) {
  return (values ?? []).map((v) => nonNegativeInteger(flag, v, U32_MAX));
}
