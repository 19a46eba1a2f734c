//! `init`'s flags: the PRNG seed, a config file, and every option of the database config, each
//! named like its JSON key so a flag and the field it sets share one name. Their values go to the
//! engine as JSON (a number stays a number, anything else a string): the engine checks them and
//! names the field, so these are all `Text` and list no possible values.

use crate::model::{Flag, Value, concat_flags};

/// `init` and `demo` take it; the JSON key style of this CLI is camelCase, the rest are aliases.
pub const RNG_SEED_ALIASES: &[&str] = &["seed", "rng-seed"];

pub const RNG_SEED: Flag = Flag::of("rngSeed", Value::U64, "N", "Seed of the database's PRNG, 0 to 2^53-1")
    .aliases(RNG_SEED_ALIASES)
    .default("0");
pub const CONFIG: Flag = Flag::of(
    "config",
    Value::InputFile,
    "PATH",
    "Start from a config JSON file (- for standard input); flags override its fields",
);

/// The config's top-level scalar options, in the order `init --help` lists them.
pub const CONFIG_SCALARS: &[Flag] = &[
    Flag::text("numIslands", "N", "Number of islands [seed: 3]").aliases(&["islands"]),
    Flag::text("maxIslandSize", "N", "Programs kept per island [seed: 40]").aliases(&["capacity"]),
    Flag::text("migrationInterval", "N", "Island generations between migrations [seed: 10]"),
    Flag::text("migrationRate", "RATE", "Share of an island that migrates, in [0, 1] [seed: 0.1]"),
    Flag::text(
        "migration",
        "MODE",
        "Migration mode: share (same id on both islands, seed) | copy (new id, provenance)",
    ),
    Flag::text("explorationRatio", "RATIO", "Probability of a uniform parent pick instead of the top ones [seed: 0.3]"),
    Flag::text("exploitationTop", "N", "Exploitation picks among this many best programs [seed: 3]"),
    Flag::text("inspirationTopPool", "N", "Inspirations come from the island's best this many… [seed: 5]"),
    Flag::text("inspirationsFromTop", "N", "…this many drawn from that pool… [seed: 3]"),
    Flag::text("inspirationsFromRest", "N", "…plus this many from the rest of the island [seed: 2]"),
    Flag::text("placement", "RULE", "Where new programs go: roundRobin (seed) | parentIsland | explicit"),
    Flag::text("inspirationScope", "SCOPE", "Where inspirations come from: island (seed) | allIslands"),
    Flag::text("archiveSize", "N", "The elite archive's size [10]"),
    Flag::text("qdOffset", "X", "Subtracted from each cell's best in the QD score [0]"),
    Flag::text("nearDuplicate", "X", "admit: the similarity in [0, 1] from which code is a near-duplicate [0.9]"),
    Flag::text(
        "embeddingThreshold",
        "X",
        "admit --embedding: the cosine similarity in [0, 1] from which code is a near-duplicate [nearDuplicate]",
    ),
    Flag::text(
        "operatorPolicy",
        "POLICY",
        "How the operators are chosen: weights (their weighted draw) | ucb (adapts to their improvement rates)",
    ),
    Flag::text(
        "pending",
        "MODE",
        "Concurrent samples: ignore (seed) | aware (spread over islands and parents still in flight)",
    ),
    Flag::text("leaseSeconds", "SECONDS", "plan: hand items out under leases of this many seconds [no leases]"),
];

pub const FITNESS: Flag =
    Flag::text("fitness", "RULE", "Fitness: mean (seed) | primary:<metric> | weighted:<metric>=<weight>,…");
pub const DIRECTION: Flag = Flag::text(
    "direction",
    "METRIC=min|max",
    "A metric to minimise or maximise, e.g. --direction latency=min (repeatable)",
)
.repeatable();
pub const FEATURES: Flag = Flag::text(
    "features",
    "JSON",
    r#"MAP-Elites feature dimensions as JSON, e.g. '[{"kind":"island"},{"kind":"codeLines","thresholds":[40,100]}]'"#,
);
pub const OPERATORS: Flag = Flag::text(
    "operators",
    "default|JSON",
    "The AlphaEvolve strategy's four operators: default (0.5/0.3/0.15/0.05) or weights as JSON",
);
pub const SELECTION: Flag = Flag::text(
    "selection",
    "MODE",
    "How programs compare: scalar (the fitness, seed) | pareto | lexicographic, over --objectives | instances (best on some instance, --instanceScores)",
);
pub const OBJECTIVES: Flag = Flag::text(
    "objectives",
    "METRIC,…",
    "The metrics --selection compares, in order, e.g. speed,accuracy (directions from --direction)",
);
pub const DEDUPE: Flag = Flag::switch("dedupe", "Answer repeated code from the fitness cache");

/// The config's `stopping` rules.
pub const STOPPING_RULES: &[Flag] = &[
    Flag::text("maxEvaluations", "N", "Stop after this many evaluations"),
    Flag::text("scoreThreshold", "X", "Stop once the best fitness reaches this"),
    Flag::text("patience", "N", "Stop after this many evaluations without a new best"),
    Flag::text("maxRounds", "N", "Stop after this many plan batches"),
    Flag::text(
        "noiseMargin",
        "X",
        "For --patience: a new best resets the count only when it beats the old by more than X (default 0)",
    ),
    Flag::text("maxCostUsd", "USD", "Stop once the adds' --costUsd add up to this"),
];

/// Every flag of `init`, in help order.
pub const INIT_FLAGS: &[Flag] = &concat_flags::<34>(&[
    &[RNG_SEED, CONFIG],
    CONFIG_SCALARS,
    &[FITNESS, DIRECTION, SELECTION, OBJECTIVES, FEATURES, OPERATORS, DEDUPE],
    STOPPING_RULES,
]);
