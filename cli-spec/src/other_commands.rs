//! The native CLI's commands that are not database operations on a path: `copy`, `import`, `demo`,
//! `view`, `serve`, `mcp`, `trial`, `apply` and `skill install`. The Node drop-in offers none of them.

use crate::config_flags::RNG_SEED_ALIASES;
use crate::database_commands::DB_PATH;
use crate::model::{Command, Flag, HyphenValues, Positional, PossibleValue, Value};

pub const COPY: Command = Command::new(
    "copy",
    "Copy a database between a directory and a PostgreSQL run, either way (database.json byte for byte, and its history)",
)
.positionals(&[
    Positional::required("src", Value::Path, "The database to copy: a directory, or a postgres:// URL with --run"),
    Positional::required("dst", Value::Path, "Where to: a directory or a postgres:// URL with --run; must hold no database"),
]);

pub const IMPORT: Command = Command::new(
    "import",
    "Import a run made by OpenEvolve or ShinkaEvolve as an evodb run (programs, lineage, islands, metrics, events)",
)
.subcommands(&[
    Command::new(
        "openevolve",
        "Import an OpenEvolve checkpoint (metadata.json + programs/*.json); given a run's output, its latest checkpoint",
    )
    .positionals(&[
        Positional::required(
            "source",
            Value::Path,
            "A checkpoint directory (e.g. openevolve_output/checkpoints/checkpoint_100) or a directory holding checkpoints",
        ),
        Positional::required("dbPath", Value::Path, "Where the evodb run goes: a directory holding no database"),
    ]),
    Command::new("shinka", "Import a ShinkaEvolve run from its SQLite database (evolution_db.sqlite)").positionals(&[
        Positional::required("source", Value::Path, "The run's SQLite file, e.g. results/evolution_db.sqlite"),
        Positional::required("dbPath", Value::Path, "Where the evodb run goes: a directory holding no database"),
    ]),
]);

pub const DEMO: Command = Command::new(
    "demo",
    "Run a self-contained evolution of a synthetic problem through the component (no LLM)",
)
.flags(&[
    Flag::of("iterations", Value::U64, "N", "Iterations of sample → mutate → evaluate → add").default("60"),
    Flag::of("rngSeed", Value::U64, "N", "Seed of the database's PRNG and of the built-in mutator")
        .aliases(RNG_SEED_ALIASES)
        .default("7"),
    Flag::of(
        "out",
        Value::Path,
        "OUT",
        "Output directory: the database goes to <out>/database, candidates to <out>/candidates",
    )
    .default("evolve-output"),
    Flag::text("config", "JSON", "The database config as JSON (as `init --config`), used when the database is created")
        .default("{}"),
    Flag::text("landscape", "JSON", "The synthetic fitness landscape: polynomial terms (2–8) and ruggedness (0–1)")
        .default(r#"{"terms":4,"ruggedness":0}"#),
]);

pub const VIEW: Command = Command::new(
    "view",
    "Serve the playground on 127.0.0.1 (prints the URL); with a database, the page replays that run",
)
.positionals(&[Positional::optional(
    "dbPath",
    Value::Path,
    "A database directory (or its database.json) to open in the playground",
)])
.flags(&[
    Flag::of("port", Value::U16, "PORT", "Port on 127.0.0.1; 0 picks a free one").default("8787"),
    Flag::switch("open", "Open the page in the system's browser too"),
]);

pub const SERVE: Command = Command::new(
    "serve",
    "Keep a PostgreSQL run's engine warm on this machine: evodb commands on that run are answered by this process",
)
.positionals(&[Positional::required(
    "dbPath",
    Value::Path,
    "The run to serve: a postgres:// URL with --run (or --store and --run); prints its socket, runs until stopped",
)]);

pub const MCP: Command = Command::new(
    "mcp",
    "Serve one run to an agent host over the Model Context Protocol (stdio): evodb's tools and evo-anything's evo_*",
)
.positionals(&[Positional::required(
    "dbPath",
    Value::Path,
    "The run the tools act on: a database directory, or a postgres:// URL with --run (or --store and --run)",
)]);

const SETUP_FLAGS: &[Flag] = &[
    Flag::of(
        "project",
        Value::Path,
        "DIR",
        "Write the project's configuration in DIR (its MCP config, agents or rules, skill); the user's when left out",
    ),
    Flag::text("db", "PATH", "The run the registered server serves, relative to where the host starts it")
        .default("evolve-output/database"),
    Flag::switch("dryRun", "Print what would be written, and where, and write nothing"),
];

pub const HOST_SETUP: Command = Command::new(
    "setup",
    "Register `evodb mcp` with an agent host and add evo-anything's agents and the skill, merging into its config",
)
.subcommands(&[
    Command::new("claude-code", "Claude Code: .mcp.json (or ~/.claude.json), .claude/agents, commands and skills")
        .flags(SETUP_FLAGS),
    Command::new("cursor", "Cursor: .cursor/mcp.json (or ~/.cursor/mcp.json) and .cursor/rules").flags(SETUP_FLAGS),
    Command::new("windsurf", "Windsurf: ~/.codeium/windsurf/mcp_config.json and .windsurf/rules").flags(SETUP_FLAGS),
    Command::new("codex", "Codex: [mcp_servers.evodb] in .codex/config.toml (or ~/.codex/config.toml) and AGENTS.md")
        .flags(SETUP_FLAGS),
]);

pub const SKILL: Command =
    Command::new("skill", "Install the evodb-evolve skill: `evodb skill install .claude/skills/evodb-evolve`")
        .subcommands(&[Command::new(
            "install",
            "Write the evodb-evolve skill into a directory, e.g. .claude/skills/evodb-evolve",
        )
        .positionals(&[Positional::required(
            "dir",
            Value::Path,
            "Where the skill goes (created if missing), e.g. ~/.claude/skills/evodb-evolve",
        )])
        .flags(&[Flag::switch(
            "force",
            "Replace the skill's files in a directory that is not empty (other files are left alone)",
        )])]);

pub const STRATEGY: Command = Command::new(
    "strategy",
    "A strategy playbook for the skill (runtime playbook and per-operator prompts): copy it, check it is filled in",
)
.subcommands(&[
    Command::new("init", "Copy a strategy playbook into a directory and list the <CUSTOMIZE: …> markers to fill")
        .positionals(&[Positional::required(
            "dir",
            Value::Path,
            "Where the playbook goes (created if missing), e.g. evolve-output/strategy",
        )])
        .flags(&[
            Flag::text("strategy", "NAME", "Which playbook (alphaevolve when left out)").possible_values(&[
                PossibleValue {
                    name: "alphaevolve",
                    help: "AlphaEvolve: island families, four operators, run memory (seed 004)",
                },
            ]),
            Flag::switch(
                "force",
                "Replace the playbook's files in a directory that is not empty (other files are left alone)",
            ),
        ]),
    Command::new(
        "check",
        "Fail (exit 1) while a <CUSTOMIZE: …> marker is unfilled, a prompt names an unknown placeholder, or (--db) \
         the run's config disagrees with the playbook",
    )
    .positionals(&[Positional::required("dir", Value::Path, "The playbook's directory")])
    .flags(&[Flag::of(
        "db",
        Value::Path,
        "PATH",
        "A run whose islands and stopping rules must be the playbook's (a directory, or a postgres:// URL with --run)",
    )]),
    Command::new(
        "config",
        "Print the run's config from the filled playbook: its island table, the operators on, its stopping rules",
    )
    .positionals(&[Positional::required("dir", Value::Path, "The playbook's directory")]),
]);

/// `trial`'s and `apply`'s: the limit of each command they run.
const TIMEOUT_SEC: Flag = Flag::of(
    "timeoutSec",
    Value::F64,
    "SECONDS",
    "Time limit of each command, in seconds; the command's process group is killed after it",
)
.default("300")
.hyphen_values(HyphenValues::NegativeNumbers);

/// `trial`'s and `apply`'s: what prepares the directory the tests run in.
const SETUP: Flag = Flag::text(
    "setup",
    "SHELL CMD",
    r#"Run first, with the candidate in place, e.g. --setup "npm ci"; a failure is the setup's, not the candidate's"#,
)
.hyphen_values(HyphenValues::Any);

pub const TRIAL: Command =
    Command::new("trial", TRIAL_ABOUT).long_about(TRIAL_LONG_ABOUT).after_help(TRIAL_EXIT_CODES).flags(&[
        Flag::of(
            "target",
            Value::Path,
            "FILE",
            "The file the candidate replaces while the commands run (restored afterwards)",
        )
        .required(),
        Flag::of("candidate", Value::Path, "FILE", "The candidate's code: a whole file that replaces --target")
            .required(),
        Flag::text(
            "test",
            "SHELL CMD",
            r#"The correctness gate, run with `sh -c`; exit 0 passes, e.g. --test "npm test""#,
        )
        .hyphen_values(HyphenValues::Any),
        Flag::text(
            "bench",
            "SHELL CMD",
            "The benchmark, run with `sh -c` when the tests pass; prints a score in [0, 1] on stdout",
        )
        .hyphen_values(HyphenValues::Any),
        Flag::text(
            "scoreKey",
            "KEY",
            "The key of the score when the benchmark prints a JSON object (`score` also reads `result`, then `value`)",
        )
        .default("score"),
        Flag::of(
            "repeat",
            Value::U32,
            "N",
            "Run the benchmark N times and report the median score, with each metric's spread (min, max, MAD)",
        )
        .default("1"),
        TIMEOUT_SEC,
        Flag::of("judge", Value::Path, "FILE", r#"A file holding the LLM judge's answer, {"efficiency-score": 1-10}"#),
        Flag::of(
            "cwd",
            Value::Path,
            "DIR",
            "The directory the commands run in (default: the current directory); paths given to --target, --candidate \
         and --judge are relative to the current directory, not this one",
        ),
        SETUP,
        Flag::switch(
            "worktree",
            "Run in a fresh git worktree of the target's repository (the default inside one); never touch its files",
        )
        .conflicts_with(&["inPlace"]),
        Flag::switch(
            "inPlace",
            "Swap the candidate into the target file itself (restored afterwards); trials take turns",
        ),
    ]);
const TRIAL_ABOUT: &str =
    "Run the tests, then the benchmark, with a candidate in the target's place: in a git worktree, or swapped in place";

const TRIAL_LONG_ABOUT: &str = "\
Run the tests, then the benchmark, with a candidate in the target's place: in a git worktree, or
swapped in place.

Inside a git repository (or with --worktree), each trial gets its own worktree:
  1. worktrees left by killed trials of the repository are removed first (said on stderr);
  2. a worktree is checked out in $TMPDIR/evodb-trials-<uid>/ from the working tree as git sees
     it (`git stash create`: committed files with your uncommitted changes; untracked files that
     are not ignored are copied in; ignored ones, such as node_modules, are not: --setup can
     bring them), and the candidate is written over the target's copy there;
  3. --setup, --test and --bench run in the worktree's copy of --cwd, with EVODB_WORKTREE and
     EVODB_REPOSITORY set;
  4. the worktree is removed: on success, on errors, on timeouts and on Ctrl-C/SIGTERM/SIGHUP;
     after a SIGKILL the next trial does it (step 1).
Your files are never touched and there is no lock: N trials run at once. Commands must use
paths relative to the worktree (an absolute path into your checkout tests the original).

Elsewhere (or with --inPlace) the candidate is swapped into the target file itself:
  1. a backup `<target>.evodb-trial.bak` left by a killed trial is first renamed back over the
     target (said on stderr);
  2. the target is backed up to `<target>.evodb-trial.bak` (written whole, synced) and the
     candidate replaces it atomically (permissions kept);
  3. --setup, --test and --bench run in --cwd;
  4. the backup is renamed back over the target: byte-identical, and the backup is gone. This
     also happens on errors and on Ctrl-C/SIGTERM/SIGHUP (the running command's process group
     is killed, exit 130); after a SIGKILL the next trial of the target does it (step 1).
Trials of one target queue on `<target>.evodb-trial.lock` (removed afterwards). A symlinked
target is resolved: the file it points to is swapped, and the backup sits beside that file.

Either way, each command runs with `sh -c`, stdin closed, in its own process group, which is
killed after --timeoutSec. --test's non-zero exit or timeout fails the trial; when the tests
pass, --bench runs; its score is its stdout as JSON (the --scoreKey key, with the default
`score` also `result` or `value` as the AlphaEvolve skill's benchmarks print it, or a bare
number; the whole stdout, else its last line), else the last number it prints; it must be finite
and in [0, 1].

--repeat N runs the benchmark N times, one after another (a run that fails ends the trial as
above): \"score\" and \"seconds\" are then the runs' medians, and \"spread\" gives each metric's
median, min, max, MAD (median absolute deviation) and values. Timings measured while other
trials run on a small machine are not comparable: compare candidates measured alike.

--judge names a file holding the LLM judge's answer, `{\"efficiency-score\": n}` with n from 1 to
10 (prose or a code fence around the object is fine): its score is n / 10. It is checked
before anything runs; an invalid answer exits 6 with {\"retry\": true, \"error\": …} on stdout,
the target untouched: ask the judge again.

Prints one JSON object:
  {\"passed\": true|false,                         the tests passed (true without --test)
   \"tests\": {\"exitCode\", \"signal\", \"seconds\", \"timedOut\", \"output\"} | null,
   \"benchmark\": {… the same, \"score\"} | null,     null when not given or the tests failed
              with --repeat N > 1 also \"repeat\": N, \"spread\": {\"score\"|\"seconds\": {\"median\",
              \"min\", \"max\", \"mad\", \"values\"}}
   \"judge\": {\"score\": 0.8, \"raw\": 8} | null,
   \"combined\": x | null,   the mean of the benchmark and judge scores present; null if none or not passed.
                           Not the fitness: evodb ranks by the metrics you add (their mean by default)
   \"combinedOf\": \"benchmark\"|\"judge\"|\"benchmark and judge\"|null,   what `combined` averages
   \"restored\": true,       your target is the original (in a worktree trial it was never touched)
   \"recovered\": bool,      a killed trial's backup or worktree was cleaned up first
   \"isolation\": \"worktree\"|\"inPlace\", \"worktree\": path | null,   where the commands ran
   \"started\": s, \"ended\": s,   seconds since the epoch, to the millisecond
   \"setup\": {…}}           only with --setup
`output` is the last 2000 characters of stdout and stderr, interleaved.

A failing candidate (tests fail or time out) is a normal outcome: exit 0 with \"passed\": false.
A benchmark that fails, times out or prints no valid score exits non-zero with the same JSON
plus \"error\" on stdout (the seed halts the run then: its setup is likely broken).";

const TRIAL_EXIT_CODES: &str = "\
Exit codes:
  0  the trial ran: see \"passed\" (a failing candidate is not an error)
  1  the benchmark or --setup failed, or the benchmark printed no score in [0, 1] (JSON with
     \"error\" on stdout); --target, --candidate or --judge is a directory
  2  usage: neither --test nor --bench, a bad --timeoutSec, an unknown flag, --worktree outside
     a git repository, --cwd outside the target's repository
  3  not found: --target, --candidate, --judge or --cwd does not exist
  4  the benchmark exceeded --timeoutSec and was killed (JSON with \"error\" on stdout)
  5  IO: the target cannot be backed up, swapped or restored; the worktree cannot be made
     (e.g. the repository has no commit yet); a command cannot start
  6  retry: --judge holds no valid {\"efficiency-score\": 1-10}; ask the judge again
 130 interrupted (Ctrl-C, SIGTERM, SIGHUP): the command was killed and the target restored";

pub const APPLY: Command = Command::new(
    "apply",
    "Commit the best program (or the one named) to the target file, after its tests pass with it in a worktree",
)
.long_about(APPLY_LONG_ABOUT)
.after_help(APPLY_EXIT_CODES)
.positionals(&[
    DB_PATH,
    Positional::optional("id", Value::Text, "The program to apply (default: the best); `evodb export` lists the ids"),
])
.flags(&[
    Flag::of("target", Value::Path, "FILE", "The file the program's code replaces, inside a git repository").required(),
    Flag::text("test", "SHELL CMD", r#"The tests that must pass with the program in place, e.g. --test "npm test""#)
        .required()
        .hyphen_values(HyphenValues::Any),
    SETUP,
    TIMEOUT_SEC,
    Flag::text(
        "message",
        "TEXT",
        "The commit message (default: `evodb: apply program <id>` and its metrics and changes)",
    ),
]);

const APPLY_LONG_ABOUT: &str = "\
Commit the best program (or the one named) to the target file, after its tests pass with it in a
worktree.

  1. the program's code is read from the database (the best by fitness, or <id>);
  2. --target must be in a git repository and have no uncommitted changes (they would be mixed
     into the commit); if it already holds the code, nothing happens (\"applied\": false);
     the code replaces the whole file when the file is one of the run's programs (a run of
     whole files), or the one definition of a program of the run standing in it (a run of
     one function: the rest of the module stays); anything else is refused (exit 1);
  3. the tests run as `evodb trial --worktree` runs them: in a fresh worktree of your working
     tree with the code in the target's place (--setup first); your files are not touched;
  4. only when they pass, the code is written to --target and committed alone (whatever else is
     staged stays staged): one commit, `evodb: apply program <id>` unless --message says.
A failing test changes nothing and exits 1 with the trial's report.

Prints {\"applied\": true|false, \"id\", \"target\", \"placement\": \"wholeFile\"|\"definition\"|null, \"replaced\": the program whose code it replaced | null, \"commit\": hash | null, \"trial\": {…the trial's report} | null}.";

const APPLY_EXIT_CODES: &str = "\
Exit codes:
  0  applied, or the target already holds the program
  1  the tests fail with the program in place, or --target has uncommitted changes: nothing changed
  2  usage: a missing --target or --test, --target outside a git repository
  3  not found: no database, no such program id, an empty database, a missing --target
  4  a command exceeded --timeoutSec
  5  IO: the worktree or the commit cannot be made (git's message says why)";

pub const GIT_TIDY: Command = Command::new(
    "git-tidy",
    "Git mode, after a round: tag the best program's commit best-gen-N and delete the branches of programs gone",
)
.long_about(GIT_TIDY_LONG_ABOUT)
.positionals(&[DB_PATH])
.flags(&[
    Flag::text("prefix", "PREFIX", "The run's branch prefix, e.g. evo/run-1/: only branches under it are deleted")
        .required(),
    Flag::switch("dryRun", "Say what would be tagged and deleted; change nothing"),
]);

const GIT_TIDY_LONG_ABOUT: &str = "\
Git mode, after a round: tag the best program's commit best-gen-N and delete the branches of
programs gone.

In the repository of the current directory:
  1. the best program's commit (when it has one) is tagged `best-gen-N`, N being the last plan
     batch (`generation` in `evodb plan`'s answer); an existing tag is left alone;
  2. every branch under --prefix is deleted unless a live program records it, or it is
     <prefix><name> of a plan item still waiting for its answer (a worker may be on it).
Prints {\"tagged\": {\"tag\", \"commit\", \"id\"} | null, \"deleted\": [branches], \"kept\": [branches]}.";
