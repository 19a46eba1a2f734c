//! Idea runs (evoidea's face): `ideas` creates one, `add-idea` adds a critic-scored idea, `runs`
//! lists runs, `show` summarises one, `profile export` prints its weights. The memetic loop
//! itself is `plan` and `should-stop` on an idea run.

use crate::database_commands::{DB_PATH, ID, PLAN_ITEM, REASON, STATUS};
use crate::model::{Command, Flag, HyphenValues, Positional, PossibleValue, Value};

const IDEA_RUN_FLAGS: &[Flag] = &[
    Flag::of("rounds", Value::U64, "N", "Stop after this many rounds").default("3"),
    Flag::of("population", Value::U32, "N", "Ideas generated in the first round (and after all are pruned)")
        .default("6"),
    Flag::of("elite", Value::U32, "N", "Best ideas refined in each later round").default("2"),
    Flag::of("threshold", Value::F64, "SCORE", "Stop once the best overall score reaches this (0-10)").default("9"),
    Flag::of("patience", Value::U64, "N", "Stop after this many rounds without a better best").default("3"),
    Flag::of(
        "profile",
        Value::InputFile,
        "PATH",
        r#"A preference profile, {"weights": {"moats": 2, …}} (- for standard input): overall_score is their weighted mean"#,
    ),
    Flag::of("rngSeed", Value::U64, "N", "Seed of the run's PRNG, 0 to 2^53-1").default("0"),
];

pub const IDEAS: Command = Command::new(
    "ideas",
    "Create an idea run (evoidea): ideas scored on eight criteria, evolved by generate/refine rounds",
)
.long_about(
    "Create an idea run (evoidea): members are ideas (title, summary, facets), their metrics the critic's eight \
     criteria (feasibility, speed_to_value, differentiation, market_size, distribution, moats, risk, clarity), each \
     0-10. `plan` then answers each round (generate, then refine the elite) and `should-stop` applies the threshold, \
     patience and rounds. Refuses an existing run.",
)
.positionals(&[DB_PATH])
.flags(IDEA_RUN_FLAGS);

const ADD_IDEA_FLAGS: &[Flag] = &[
    Flag::text("idea", "JSON", r#"The idea: {"title", "summary", "facets": {audience, jtbd, differentiator, …}}"#)
        .hyphen_values(HyphenValues::Any)
        .conflicts_with(&["ideaFile"]),
    Flag::of("ideaFile", Value::InputFile, "PATH", "Read the idea from this file (- for standard input)"),
    Flag::text("scores", "JSON", r#"The critic's eight scores, 0-10, e.g. '{"feasibility": 8, …}'"#)
        .hyphen_values(HyphenValues::Any),
    Flag::text("parents", "IDS", "The ideas it was made from, comma-separated (several for a merge)")
        .hyphen_values(HyphenValues::Any),
    Flag::text("origin", "ORIGIN", "How it came about (implied by its parents when left out)").possible_values(&[
        PossibleValue { name: "generated", help: "from the prompt alone: no parent" },
        PossibleValue { name: "refined", help: "one idea improved: one parent" },
        PossibleValue { name: "merged", help: "several ideas combined: two parents or more" },
    ]),
    PLAN_ITEM,
    ID,
    STATUS,
    REASON,
];

pub const ADD_IDEA: Command =
    Command::new("add-idea", "Add a critic-scored idea to an idea run, with its parents and origin")
        .positionals(&[DB_PATH])
        .flags(ADD_IDEA_FLAGS);

pub const RUNS: Command = Command::new(
    "runs",
    "List the runs under a directory (evoidea's list) or in a PostgreSQL store; delete or rename a stored run",
)
.long_about(
    "List the runs under a directory: id, created, kind, rounds, best score, stopped or not (evoidea's list). With \
     --store URL (or a postgres:// URL as <dir>, or EVODB_STORE), list the runs that PostgreSQL database holds, by \
     name: created, lastWrite, programs, events, bytes. --delete NAME deletes a stored run with its events; \
     --rename OLD --to NEW renames one (its events follow). Both wait for the operation in progress on that run \
     (within --timeBudgetMs), and refuse a name that is not there, naming the closest one.",
)
.positionals(&[Positional::optional(
    "dir",
    Value::Path,
    "The directory holding one run per subdirectory [default: runs], or a postgres:// URL",
)])
.flags(&[
    Flag::text("delete", "NAME", "Delete this run of the PostgreSQL store, with its events")
        .hyphen_values(HyphenValues::Any)
        .conflicts_with(&["rename", "to"]),
    Flag::text("rename", "NAME", "Rename this run of the PostgreSQL store (to --to's name)")
        .hyphen_values(HyphenValues::Any)
        .conflicts_with(&["delete"]),
    Flag::text("to", "NAME", "The run's new name, with --rename").hyphen_values(HyphenValues::Any),
]);

pub const SHOW: Command = Command::new(
    "show",
    "A readable summary of a run: the best idea with its scores, the best-score trajectory, what stopped it",
)
.positionals(&[DB_PATH]);

pub const PROFILE: Command = Command::new("profile", "An idea run's preference profile").subcommands(&[Command::new(
    "export",
    r#"Print the weights the run's overall_score uses, {"weights": {…}}, readable by `ideas --profile`"#,
)
.positionals(&[DB_PATH])]);
