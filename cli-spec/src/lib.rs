//! The evodb command line, once: every command, flag, help text and exit code as plain static
//! data. The native `evodb` builds its clap parser from [`CLI`]; the Node drop-in
//! (`skill/scripts/db-cli.mjs`) reads the same table as JSON ([`to_json`], written to
//! `skill/scripts/evodb-wasm/cli.json` and the npm package's `cli.json` by `wasm/build.sh`), and
//! `docs/cli.md` is the same table as Markdown ([`to_markdown`]).

mod config_flags;
mod database_commands;
mod idea_commands;
mod markdown;
mod model;
mod other_commands;

pub use config_flags::{CONFIG_SCALARS, STOPPING_RULES};
pub use model::{Cli, Command, ExitClass, Flag, HyphenValues, Positional, PossibleValue, Value};

use database_commands::{
    ADD, ADMIT, BEST, CREATE, EXPORT, HEARTBEAT, HISTORY, INFO, INIT, LEASES, LINEAGE, NOTE, NOTES, PLAN, PROMPT,
    REMEASURE, SAMPLE, SEED, SHOULD_STOP, STATS, VALIDATE,
};
use idea_commands::{ADD_IDEA, IDEAS, PROFILE, RUNS, SHOW};
use other_commands::{APPLY, COPY, DEMO, GIT_TIDY, HOST_SETUP, IMPORT, MCP, SERVE, SKILL, STRATEGY, TRIAL, VIEW};

/// The sandbox's limits; every command takes them (the Node drop-in keeps them as far as Node can).
const GLOBAL_FLAGS: &[Flag] = &[
    Flag::of(
        "timeBudgetMs",
        Value::U64,
        "MS",
        "Wall-time budget of each database operation, in milliseconds (exit 4 beyond it)",
    )
    .default("10000"),
    Flag::of("memoryLimitMb", Value::U64, "MIB", "Memory cap of the database engine, in MiB (exit 4 beyond it)")
        .default("1024"),
    Flag::text(
        "store",
        "URL",
        "Keep the database in PostgreSQL: postgres://user@host:port/dbname (or set EVODB_STORE); leave <dbPath> out",
    ),
    Flag::text("run", "NAME", "The run inside that PostgreSQL database (or set EVODB_RUN); one server holds many"),
    Flag::of("connectTimeout", Value::U64, "SECONDS", "How long to wait for the PostgreSQL server (exit 5 beyond it)")
        .default("10"),
];

const EXIT_CODES: &[ExitClass] = &[
    ExitClass { code: 0, name: "ok", text: "success", commands: &[] },
    ExitClass {
        code: 1,
        name: "badInput",
        text: "bad input: invalid metrics, code or config, a corrupt database file, an id in use,\n\
               a *File flag naming something that is not a regular file",
        commands: &[],
    },
    ExitClass {
        code: 2,
        name: "usage",
        text: "usage: unknown command or flag, missing or conflicting flags, a value not among a flag's\n\
               possible values or not of its type, an argument that is not valid UTF-8",
        commands: &[],
    },
    ExitClass {
        code: 3,
        name: "notFound",
        text: "not found: a file named by a flag, a program id, no database to validate",
        commands: &[],
    },
    ExitClass {
        code: 4,
        name: "limit",
        text: "sandbox limit: the operation exceeded its time budget or memory cap",
        commands: &[],
    },
    ExitClass {
        code: 5,
        name: "io",
        text: "IO: the database directory cannot be created, read, written or locked, or the PostgreSQL\n\
               server cannot be reached",
        commands: &[],
    },
    ExitClass {
        code: 6,
        name: "retry",
        text: "retry (trial): --judge holds no valid judge score; ask the judge again",
        commands: &["trial"],
    },
    ExitClass {
        code: 70,
        name: "internal",
        text: "internal: the WebAssembly engine failed or is missing (a bug in evodb)",
        commands: &[],
    },
    ExitClass {
        code: 130,
        name: "interrupted",
        text: "interrupted: Ctrl-C (SIGINT) or SIGTERM (db-cli.mjs exits 143 on SIGTERM); the lock is\n\
               released, a trial's target file restored",
        commands: &[],
    },
];

/// The whole command line, in `--help` order.
pub static CLI: Cli = Cli {
    name: "evodb",
    about: "The population database of LLM-driven evolutionary code search, run as a sandboxed WebAssembly component",
    long_about: "The population database of LLM-driven evolutionary code search, run as a sandboxed WebAssembly \
component. A drop-in for the AlphaEvolve skill's `node db-cli.mjs <command> <dbPath>`: same commands, flags and JSON \
output, safe under parallel workers.\n\nEvery command prints one JSON value on stdout; errors go to stderr.",
    global_flags: GLOBAL_FLAGS,
    commands: &[
        CREATE,
        INFO,
        SEED,
        ADD,
        SAMPLE,
        BEST,
        INIT,
        STATS,
        VALIDATE,
        EXPORT,
        LINEAGE,
        HISTORY,
        DEMO,
        VIEW,
        SERVE,
        MCP,
        HOST_SETUP,
        COPY,
        IMPORT,
        PLAN,
        HEARTBEAT,
        LEASES,
        SHOULD_STOP,
        IDEAS,
        ADD_IDEA,
        RUNS,
        SHOW,
        PROFILE,
        NOTE,
        NOTES,
        PROMPT,
        REMEASURE,
        ADMIT,
        SKILL,
        STRATEGY,
        TRIAL,
        APPLY,
        GIT_TIDY,
    ],
    exit_codes: EXIT_CODES,
};

/// The table as the Node drop-in reads it: [`CLI`], plus which of `init`'s flags are config
/// scalars and which stopping rules (the drop-in builds the config from them, as host-cli does).
pub fn to_json() -> String {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct InitConfig {
        scalars: Vec<&'static str>,
        stopping: Vec<&'static str>,
    }
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Dump {
        #[serde(flatten)]
        cli: &'static Cli,
        init_config: InitConfig,
    }
    let names = |flags: &'static [Flag]| flags.iter().map(|f| f.name).collect();
    let dump =
        Dump { cli: &CLI, init_config: InitConfig { scalars: names(CONFIG_SCALARS), stopping: names(STOPPING_RULES) } };
    let mut json = serde_json::to_string_pretty(&dump).expect("the table serializes");
    json.push('\n');
    json
}

/// `docs/cli.md`: the whole table as Markdown — the commands in `--help` order, the flags every
/// command takes, the exit codes.
pub fn to_markdown() -> String {
    markdown::render(&CLI)
}
