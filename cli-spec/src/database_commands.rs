//! The database commands: the seed skill's six (`create` … `best`) and evodb's own. All but
//! `demo` are offered by the Node drop-in too. `init`'s config flags are in `config_flags.rs`.

use crate::config_flags::INIT_FLAGS;
use crate::model::{Command, Flag, HyphenValues, Positional, PossibleValue, Value, concat_flags};

pub const DB_PATH: Positional = Positional::required(
    "dbPath",
    Value::Path,
    "The database directory (holds database.json and history.ndjson), or a postgres:// URL with --run",
);

const DB_ONLY: &[Positional] = &[DB_PATH];

// --- the candidate of `seed` and `add` ------------------------------------------------------------

pub const CODE_PATH: Flag =
    Flag::text("codePath", "PATH", "Where the candidate's code lives (stored as given; evodb never opens it)")
        .hyphen_values(HyphenValues::Any);
pub const TARGET_CODE: Flag = Flag::text("targetCode", "CODE", "The candidate's code")
    .hyphen_values(HyphenValues::Any)
    .conflicts_with(&["targetCodeFile"]);
pub const TARGET_CODE_FILE: Flag = Flag::of(
    "targetCodeFile",
    Value::InputFile,
    "PATH",
    "Read the candidate's code from this file, byte for byte (- for standard input; no shell quoting needed)",
);
pub const METRICS: Flag =
    Flag::text("metrics", "JSON", r#"Metrics as a JSON object of finite numbers, e.g. '{"score": 0.8}'"#)
        .hyphen_values(HyphenValues::Any);
pub const CHANGES: Flag = Flag::text("changes", "TEXT", "What the mutation changed")
    .hyphen_values(HyphenValues::Any)
    .conflicts_with(&["changesFile"]);
pub const CHANGES_FILE: Flag = Flag::of(
    "changesFile",
    Value::InputFile,
    "PATH",
    "Read the changes description from this file (- for standard input; its final newline is dropped)",
);

pub const INSTANCE_SCORES: Flag = Flag::text(
    "instanceScores",
    "JSON",
    r#"Per-instance scores, instance id → score (higher is better), e.g. '{"test_1": 1, "test_2": 0}'; \
       required by --selection instances, coverage in stats in any mode"#,
)
.hyphen_values(HyphenValues::Any);
const CANDIDATE_FLAGS: [Flag; 7] =
    [CODE_PATH, TARGET_CODE, TARGET_CODE_FILE, METRICS, INSTANCE_SCORES, CHANGES, CHANGES_FILE];

// --- add's own ------------------------------------------------------------------------------------

pub const PARENT_ID: Flag = Flag::text(
    "parentId",
    "ID",
    "The parent's id (an unknown id is accepted with generation 0 and a warning, as the seed does)",
)
.hyphen_values(HyphenValues::Any);
pub const ID: Flag = Flag::text(
    "id",
    "ID",
    "Use this id instead of a generated one; running the same add again is then safe (answered, not added twice)",
);
pub const ISLAND: Flag = Flag::of(
    "island",
    Value::U32,
    "N",
    "Put the program on this island (required with --placement explicit); with --operators, left out means the \
     island its sample named",
);
pub const STATUS: Flag = Flag::text("status", "STATUS", "The evaluation's outcome; accepted when not given")
    .possible_values(&[
        PossibleValue { name: "accepted", help: "a scored program that joins the population" },
        PossibleValue { name: "rejected", help: "kept on its island as memory, ranked like any program" },
        PossibleValue { name: "error", help: "failed to run (needs --reason); joins no island" },
    ]);
pub const REASON: Flag =
    Flag::text("reason", "TEXT", "Why the candidate was rejected or failed").hyphen_values(HyphenValues::Any);
pub const DECIDE: Flag = Flag::switch(
    "decide",
    "The playbook's rule: accepted when fitter than its parent, else rejected with a reason naming both fitnesses",
);
pub const OPERATOR: Flag = Flag::text(
    "operator",
    "OPERATOR",
    "The operator that produced it (the sample's: it tells which of the parent's samples this add answers)",
)
.possible_values(&[
    PossibleValue { name: "exploitation", help: "a change to one of the best programs" },
    PossibleValue { name: "exploration", help: "a change to a program picked uniformly" },
    PossibleValue { name: "crossover", help: "a merge of two parents" },
    PossibleValue { name: "migration", help: "a program carried to another island" },
]);
/// `targetId`, not `target`: on `add`, `--target` is git mode's evolved file.
pub const TARGET_ID: Flag = Flag::text(
    "targetId",
    "ID",
    "Several-target runs: the target this candidate is a version of (else its plan item's, island's or parent's)",
);
pub const PLAN_ITEM: Flag =
    Flag::text("planItem", "NAME", "The `plan` item this candidate answers; it lands on that item's island");
pub const TOKEN: Flag = Flag::text(
    "token",
    "TOKEN",
    "The lease token of the plan item it answers (its `lease.token`); required for a leased item",
);

/// Git mode (native evodb only): the candidate is a commit in the current directory's repository.
pub const GIT_FLAGS: [Flag; 4] = [
    Flag::text(
        "branch",
        "BRANCH",
        "Git mode: the branch holding the candidate's commit (e.g. evo/run-1/gen-0/island-1/exploration-1); kept \
         with the program",
    ),
    Flag::text("commit", "REV", "Git mode: the candidate's commit (default: the branch's); kept with the program"),
    Flag::of(
        "target",
        Value::Path,
        "FILE",
        "Git mode: the evolved file; its code is read from the commit (unless given) and the commit's diff against \
         the parent's commit is policy-checked",
    ),
    Flag::text(
        "protected",
        "GLOBS",
        "Git mode: comma-separated globs a candidate must not touch (default: benchmark*.py,eval*.py,*.sh)",
    ),
];

/// Cost and attribution: what the candidate cost (`stats` totals them per operator × model × island).
const COST_FLAGS: [Flag; 5] = [
    Flag::text("model", "NAME", "Cost: the model that wrote the candidate, e.g. gpt-5-mini"),
    Flag::of("tokensIn", Value::U64, "N", "Cost: the tokens the model read"),
    Flag::of("tokensOut", Value::U64, "N", "Cost: the tokens the model wrote"),
    Flag::of("costUsd", Value::F64, "USD", "Cost: the price of the model's call(s) in US dollars"),
    Flag::of("evalSeconds", Value::F64, "SECONDS", "Cost: the evaluation's wall time"),
];

/// `add --embedding` and `seed --embedding`: kept with the program for `admit --embedding`.
pub const EMBEDDING: Flag = Flag::text(
    "embedding",
    "JSON",
    "Your own embedding of the code, a JSON list of numbers (one model, one length per run), e.g. '[0.12, -0.5]'; \
     kept for admit --embedding",
)
.hyphen_values(HyphenValues::Any);

const ADD_FLAGS: [Flag; 27] = concat_flags(&[
    &CANDIDATE_FLAGS,
    &[PARENT_ID, ID, ISLAND, STATUS, DECIDE, REASON, OPERATOR, PLAN_ITEM, TOKEN, TARGET_ID, EMBEDDING],
    &COST_FLAGS,
    &GIT_FLAGS,
]);
const SEED_FLAGS: [Flag; 9] = concat_flags(&[&CANDIDATE_FLAGS, &[TARGET_ID, EMBEDDING]]);
/// `sample`, `best` and `should-stop` of one target.
pub const FOR_TARGET: Flag =
    Flag::text("target", "ID", "Several-target runs: only this target (its islands, its best, its verdict)");

// --- the other commands' flags --------------------------------------------------------------------

pub const FORMAT: Flag = Flag::text("format", "FORMAT", "What to print").default("json").possible_values(&[
    PossibleValue { name: "json", help: "database.json as stored" },
    PossibleValue { name: "mermaid", help: "the live population's family tree as a Mermaid flowchart" },
    PossibleValue { name: "tree", help: "the family tree as indented ASCII" },
    PossibleValue { name: "markdown", help: "the AlphaEvolve strategy's `## 🧬 Population` section" },
    PossibleValue { name: "evoidea", help: "an idea run as evoidea's {state, final} (state.json, final.json)" },
]);
pub const EXPORT_OUT: Flag = Flag::of(
    "out",
    Value::Path,
    "DIR",
    "With --format evoidea (native evodb): write state.json and final.json into DIR instead of printing",
);
pub const TAIL: Flag = Flag::of("tail", Value::Usize, "N", "Only the last N operations");
pub const FROZEN: Flag =
    Flag::of("frozen", Value::U32, "ISLANDS", "Islands that get no items, e.g. --frozen 1,2 (repeatable)")
        .repeatable()
        .delimiter(',');
pub const BOOSTED: Flag =
    Flag::of("boosted", Value::U32, "ISLANDS", "Islands that get twice the share, e.g. --boosted 0 (repeatable)")
        .repeatable()
        .delimiter(',');

pub const PLAN_SIZE: Positional = Positional::required("n", Value::U32, "How many items (workers) to plan");
pub const PROGRAM_ID: Positional = Positional::required("id", Value::Text, "The program's id");

pub const CREATE: Command = Command::new("create", "Create the database if missing and print its summary (seed CLI)")
    .in_node()
    .positionals(DB_ONLY);
pub const INFO: Command = Command::new("info", "Print the database summary; a missing database is empty (seed CLI)")
    .in_node()
    .positionals(DB_ONLY);
pub const SEED: Command =
    Command::new("seed", r#"Add the initial program: parent "0", changes "initial implementation" (seed CLI)"#)
        .in_node()
        .positionals(DB_ONLY)
        .flags(&SEED_FLAGS);
pub const ADD: Command =
    Command::new("add", "Add a scored candidate (seed CLI)").in_node().positionals(DB_ONLY).flags(&ADD_FLAGS);
pub const SAMPLE: Command = Command::new("sample", "Sample a parent and inspirations for the next mutation (seed CLI)")
    .long_about(SAMPLE_LONG_ABOUT)
    .in_node()
    .positionals(DB_ONLY)
    .flags(&[FOR_TARGET, NOW]);
const SAMPLE_LONG_ABOUT: &str = "\
Sample a parent and inspirations for the next mutation (seed CLI).

On a run with leased plan items (plan --leaseSeconds), an item whose lease expired unanswered (its
worker died) is handed out again in place of a draw: the sample then carries its `planItem` (name),
parents, island and operator as planned, and a new `lease: {token, expires, attempt}`. Answer it
like a plan item: `add --planItem NAME --token T`.";
pub const FRONT: Flag =
    Flag::switch("front", "Pareto selection: print the whole first front as a JSON array, best-ranked first");
pub const BEST: Command = Command::new("best", "Print the best program, or null (seed CLI)")
    .in_node()
    .positionals(DB_ONLY)
    .flags(&[FOR_TARGET, FRONT]);
pub const INIT: Command = Command::new("init", "Create a database with a config and a seed; refuses an existing one")
    .in_node()
    .positionals(DB_ONLY)
    .flags(INIT_FLAGS);
pub const STATS: Command =
    Command::new("stats", "Population statistics: per island size/best/mean, improvement over the baseline")
        .in_node()
        .positionals(DB_ONLY);
pub const VALIDATE: Command =
    Command::new("validate", "Check that the database loads and holds together; exit 1 with the problems when not")
        .in_node()
        .positionals(DB_ONLY)
        .flags(&[Flag::switch(
            "history",
            "Also replay history.ndjson and compare it with database.json: programs, metrics, best, config, notes",
        )]);
pub const EXPORT: Command = Command::new(
    "export",
    "Print the whole database (json), its family tree (mermaid, tree) or the AlphaEvolve strategy's markdown",
)
.in_node()
.positionals(DB_ONLY)
.flags(&[FORMAT, EXPORT_OUT]);
pub const LINEAGE: Command = Command::new("lineage", "Ancestors and descendants of a live program")
    .in_node()
    .positionals(&[DB_PATH, PROGRAM_ID]);
pub const HISTORY: Command =
    Command::new("history", "Print the operation history (history.ndjson), one JSON object per line")
        .in_node()
        .positionals(DB_ONLY)
        .flags(&[TAIL]);
pub const PLAN: Command = Command::new(
    "plan",
    "Plan a batch of work items for parallel workers (evo-anything): operator, parents, island, name",
)
.long_about(PLAN_LONG_ABOUT)
.in_node()
.positionals(&[DB_PATH, PLAN_SIZE])
.flags(&[FROZEN, BOOSTED, LEASE_SECONDS, NOW]);
const PLAN_LONG_ABOUT: &str = "\
Plan a batch of work items for parallel workers (evo-anything): operator, parents, island, name.

Answer each item with `add --planItem NAME`; the answers of a batch apply in plan order, whatever
order they arrive in. With --leaseSeconds S (or the config's leaseSeconds) each item is handed out
under a lease, `lease: {token, expires, attempt}`: answer with `add --planItem NAME --token T`,
extend it with `heartbeat` while the work goes on. An item whose lease expired unanswered (its
worker died) is handed out again by the next plan, first, with a new token and the next attempt;
it counts toward N (or by the next sample, which then carries it as `planItem`). An answer under the old token is then refused, so no item is applied twice.
`leases` lists the leased items.";
pub const LEASE_SECONDS: Flag = Flag::of(
    "leaseSeconds",
    Value::F64,
    "SECONDS",
    "Hand items out under a lease of this many seconds (default: the config's leaseSeconds, else no lease)",
);
pub const NOW: Flag = Flag::of(
    "now",
    Value::F64,
    "SECONDS",
    "The time in seconds since the epoch that leases are reckoned from (default: the clock); for simulations",
);
pub const HEARTBEAT: Command = Command::new(
    "heartbeat",
    "Extend a leased plan item's lease while its worker is still at it (refused for a stale token)",
)
.in_node()
.positionals(DB_ONLY)
.flags(&[
    Flag::text("item", "NAME", "The plan item's name").required(),
    Flag::text("token", "TOKEN", "The item's current lease token (its `lease.token`)").required(),
    Flag::of(
        "leaseSeconds",
        Value::F64,
        "SECONDS",
        "The lease runs this many seconds from now (default: the length it was handed out with)",
    ),
    NOW,
]);
pub const LEASES: Command = Command::new(
    "leases",
    "List the leased plan items not applied yet: live, expired (handed out again by the next plan) or held",
)
.in_node()
.positionals(DB_ONLY)
.flags(&[NOW]);
const NOTE_KINDS: &[PossibleValue] = &[
    PossibleValue { name: "lesson", help: "what worked, or why something did not" },
    PossibleValue { name: "failure", help: "a candidate that failed, and why" },
    PossibleValue { name: "idea", help: "something worth trying" },
];
pub const NOTE_TARGET: Flag =
    Flag::text("target", "ID", "The target the note is about (several targets); run-wide when left out");
const NOTE_FLAGS: &[Flag] = &[
    Flag::text("kind", "KIND", "What the note records").possible_values(NOTE_KINDS).required(),
    Flag::text("text", "TEXT", "The note (at most 16 KiB)")
        .hyphen_values(HyphenValues::Any)
        .conflicts_with(&["textFile"]),
    Flag::of("textFile", Value::InputFile, "PATH", "Read the note from this file (- for standard input)"),
    NOTE_TARGET,
    Flag::text("programId", "ID", "The program the note is about"),
];
pub const NOTE: Command =
    Command::new("note", "Keep a note (run memory: a lesson, failure or idea) that later samples and plan items carry")
        .in_node()
        .positionals(DB_ONLY)
        .flags(NOTE_FLAGS);
const NOTES_FLAGS: &[Flag] = &[
    NOTE_TARGET,
    Flag::text("kind", "KIND", "Only notes of this kind").possible_values(NOTE_KINDS),
    Flag::of("limit", Value::U32, "N", "At most N notes"),
];
pub const NOTES: Command =
    Command::new("notes", "List the run's notes, newest first (failures of error adds included)")
        .in_node()
        .positionals(DB_ONLY)
        .flags(NOTES_FLAGS);
const PROMPT_FLAGS: &[Flag] = &[
    Flag::of(
        "from",
        Value::InputFile,
        "PATH",
        "A sample or plan item as `sample`/`plan` printed it, or a whole plan with --item (- for standard input); \
         left out, takes a new sample",
    ),
    Flag::text("item", "NAME", "The plan item of --from's plan to fill the prompt for"),
    Flag::of("strategy", Value::Path, "DIR", "The filled playbook: its strategy.md and prompts/")
        .default("evolve-output/strategy"),
    Flag::of(
        "context",
        Value::InputFile,
        "PATH",
        "The context file that goes whole into the prompt (- for standard input)",
    )
    .default("evolve-output/context.md"),
    Flag::text("candidatePath", "PATH", "Where the mutator writes the candidate").required(),
    Flag::text("goal", "TEXT", "The goal, instead of the playbook's"),
    Flag::text("targetName", "NAME", "The target's name, instead of the playbook's"),
];
pub const PROMPT: Command = Command::new(
    "prompt",
    "Fill the playbook's prompt for a sample or plan item: parents with fitness, inspirations best first, notes",
)
.positionals(DB_ONLY)
.flags(PROMPT_FLAGS);
pub const ADMIT: Command = Command::new(
    "admit",
    "Before evaluating a candidate: is it a duplicate or near-duplicate of a live program? Reads only",
)
.long_about(ADMIT_LONG_ABOUT)
.in_node()
.positionals(DB_ONLY)
.flags(&[
    Flag::text("code", "CODE", "The candidate's code (its target code, as add would store it)")
        .hyphen_values(HyphenValues::Any)
        .conflicts_with(&["codeFile"]),
    Flag::of("codeFile", Value::InputFile, "PATH", "Read the candidate's code from this file (- for standard input)"),
    Flag::text(
        "codePath",
        "PATH",
        "The candidate's file name, whose extension names the comment syntax (default: --codeFile's)",
    ),
    Flag::text(
        "embedding",
        "JSON",
        "Compare by your own embedding of the code (a JSON list of numbers, the model of add --embedding): cosine \
         similarity instead of MinHash",
    )
    .hyphen_values(HyphenValues::Any),
]);
const ADMIT_LONG_ABOUT: &str = "\
Before evaluating a candidate: is it a duplicate or near-duplicate of a live program?

A fleet pays for every evaluation; evaluating what the population already holds is waste. This
compares the candidate's code with every live program's: `duplicate` when they are equal once
comments (by the file extension's language family: # for Python and shell, // and /* */ for the
C family, -- for SQL), trailing blanks, blank lines and runs of blanks are set aside (indentation
counts); `near-duplicate` when their token shingles are at least the config's `nearDuplicate`
(default 0.9) alike, estimated by MinHash; else `evaluate`. It reads only: nothing is recorded
and the evaluation budget does not count it.

With --embedding '[…]' (your own embedding model's vector of the code), near-duplicates are found
by cosine similarity to the vectors the live programs were added with (add --embedding) instead:
at least the config's `embeddingThreshold` (else `nearDuplicate`, else 0.9). Programs added
without one are compared by their code only. Every vector of a run has one length.

Prints {\"verdict\": \"evaluate\"|\"duplicate\"|\"near-duplicate\", \"of\": the program it duplicates or the
closest one | null, \"similarity\": 0..1}. Exit 0 whatever the verdict.";

pub const REMEASURE: Command = Command::new(
    "remeasure",
    "Fold a new measurement of a live program into its metrics (their running mean) and re-rank it",
)
.long_about(REMEASURE_LONG_ABOUT)
.in_node()
.positionals(DB_ONLY)
.flags(&[
    Flag::text("id", "ID", "The live program measured again, e.g. the best's id").required(),
    Flag::text("metrics", "JSON", r#"The new measurement: the same metrics its add reported, e.g. '{"score": 0.41}'"#)
        .required(),
]);
const REMEASURE_LONG_ABOUT: &str = "\
Fold a new measurement of a live program into its metrics and re-rank it.

A benchmark's timing is noisy: one lucky run can make a program the best, and one unlucky run
can reject a better candidate. Run the benchmark of the program in question again (e.g. the
incumbent best before rejecting a close challenger, with `evodb trial --repeat N`) and record it
here. Each metric becomes the running mean of every measurement (the add's included); the
program keeps its id, island and lineage, and `measurements` in database.json counts them. Its
fitness, the best program, the elite archive and the MAP-Elites cell follow the new metrics.
A re-measurement is no new candidate: the evaluation budget and `patience` do not count it.
It is recorded in history.ndjson as a `remeasured` event, so the history replays it.

Prints {\"id\", \"metrics\", \"measurements\", \"fitness\", \"previousFitness\", \"bestProgramId\"}.";
pub const SHOULD_STOP: Command = Command::new(
    "should-stop",
    "Whether the budget or a stopping rule says the run is over (evoidea / evo-anything rules)",
)
.in_node()
.positionals(DB_ONLY)
.flags(&[FOR_TARGET]);
