//! The native CLI's commands that are not database operations on a path: `copy`, `demo`,
//! `view`, `trial` and `skill install`. The Node drop-in offers none of them.

use crate::config_flags::RNG_SEED_ALIASES;
use crate::model::{Command, Flag, HyphenValues, Positional, Value};

pub const COPY: Command = Command::new(
    "copy",
    "Copy a database between a directory and a PostgreSQL run, either way (database.json byte for byte, and its history)",
)
.positionals(&[
    Positional::required("src", Value::Path, "The database to copy: a directory, or a postgres:// URL with --run"),
    Positional::required("dst", Value::Path, "Where to: a directory or a postgres:// URL with --run; must hold no database"),
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
.flags(&[Flag::of("port", Value::U16, "PORT", "Port on 127.0.0.1; 0 picks a free one").default("8787")]);

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
        Flag::text("scoreKey", "KEY", "The key of the score when the benchmark prints a JSON object").default("score"),
        Flag::of(
            "timeoutSec",
            Value::F64,
            "SECONDS",
            "Time limit of each command, in seconds; the command's process group is killed after it",
        )
        .default("300")
        .hyphen_values(HyphenValues::NegativeNumbers),
        Flag::of("judge", Value::Path, "FILE", r#"A file holding the LLM judge's answer, {"efficiency-score": 1-10}"#),
        Flag::of(
            "cwd",
            Value::Path,
            "DIR",
            "The directory the commands run in (default: the current directory); paths given to --target, --candidate \
         and --judge are relative to the current directory, not this one",
        ),
    ]);
const TRIAL_ABOUT: &str =
    "Swap a candidate into the target file, run the tests, then the benchmark; always restore the file";

const TRIAL_LONG_ABOUT: &str = "\
Swap a candidate into the target file, run the tests, then the benchmark; always restore the file.

The seed skill's correctness gate and benchmark, done safely:
  1. a backup `<target>.evodb-trial.bak` left by a killed trial is first renamed back over the
     target (said on stderr);
  2. the target is backed up to `<target>.evodb-trial.bak` (written whole, synced) and the
     candidate replaces it atomically (permissions kept);
  3. --test runs (`sh -c`, in --cwd, stdin closed, its own process group); a non-zero exit or a
     timeout fails the trial;
  4. when the tests pass, --bench runs the same way; its score is its stdout as JSON (the
     --scoreKey key, or a bare number; the whole stdout, else its last line), else the last
     number it prints; it must be finite and in [0, 1];
  5. the backup is renamed back over the target: byte-identical, and the backup is gone. This
     also happens on errors and on Ctrl-C/SIGTERM/SIGHUP (the running command's process group
     is killed, exit 130); after a SIGKILL the next trial of the target does it (step 1).
Trials of one target queue on `<target>.evodb-trial.lock` (removed afterwards). A symlinked
target is resolved: the file it points to is swapped, and the backup sits beside that file.

--judge names a file holding the LLM judge's answer, `{\"efficiency-score\": n}` with n from 1 to
10 (prose or a code fence around the object is fine): its score is n / 10. It is checked
before anything runs; an invalid answer exits 6 with {\"retry\": true, \"error\": …} on stdout,
the target untouched: ask the judge again.

Prints one JSON object:
  {\"passed\": true|false,                         the tests passed (true without --test)
   \"tests\": {\"exitCode\", \"signal\", \"seconds\", \"timedOut\", \"output\"} | null,
   \"benchmark\": {… the same, \"score\"} | null,     null when not given or the tests failed
   \"judge\": {\"score\": 0.8, \"raw\": 8} | null,
   \"combined\": x | null,   the mean of the benchmark and judge scores present; null if none or not passed
   \"restored\": true,       the target is the original again
   \"recovered\": bool}      a killed trial's backup was restored first
`output` is the last 2000 characters of stdout and stderr, interleaved.

A failing candidate (tests fail or time out) is a normal outcome: exit 0 with \"passed\": false.
A benchmark that fails, times out or prints no valid score exits non-zero with the same JSON
plus \"error\" on stdout (the seed halts the run then: its setup is likely broken).";

const TRIAL_EXIT_CODES: &str = "\
Exit codes:
  0  the trial ran: see \"passed\" (a failing candidate is not an error)
  1  the benchmark failed or printed no score in [0, 1] (JSON with \"error\" on stdout);
     --target, --candidate or --judge is a directory
  2  usage: neither --test nor --bench, a bad --timeoutSec, an unknown flag
  3  not found: --target, --candidate, --judge or --cwd does not exist
  4  the benchmark exceeded --timeoutSec and was killed (JSON with \"error\" on stdout)
  5  IO: the target cannot be backed up, swapped or restored; a command cannot start
  6  retry: --judge holds no valid {\"efficiency-score\": 1-10}; ask the judge again
 130 interrupted (Ctrl-C, SIGTERM, SIGHUP): the command was killed and the target restored";
