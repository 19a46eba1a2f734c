//! The command line. Flags are camelCase like the seed's `db-cli.mjs` (`--codePath`), and
//! `init`'s flags are the config's JSON keys, so a flag and the field it sets share one name.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  bad input: invalid metrics, code or config, a corrupt database file, an id in use
  2  usage: unknown command or flag, missing or conflicting flags
  3  not found: a file named by a flag, a program id
  4  sandbox limit: the call exceeded its time budget or memory cap
  5  IO: the database directory cannot be created, read, written or locked
  6  retry (trial): --judge holds no valid judge score; ask the judge again
 70  internal: the component failed (a bug in evodb)
130  interrupted (trial): Ctrl-C or SIGTERM; the target file was restored";

/// `evodb --version`: evodb, the wasmtime that runs the component, and the component's SHA-256
/// (written by build.rs).
const VERSION: &str = env!("EVODB_LONG_VERSION");

#[derive(Debug, Parser)]
#[command(
    name = "evodb",
    version = VERSION,
    about = "The population database of LLM-driven evolutionary code search, run as a sandboxed WebAssembly component.",
    long_about = "The population database of LLM-driven evolutionary code search, run as a sandboxed WebAssembly \
component. A drop-in for the AlphaEvolve skill's `node db-cli.mjs <command> <dbPath>`: same commands, flags and JSON \
output, safe under parallel workers.\n\nEvery command prints one JSON value on stdout; errors go to stderr.",
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// Wall-time budget of each database operation, in milliseconds.
    #[arg(long = "timeBudgetMs", global = true, default_value_t = 10_000, value_name = "MS")]
    pub time_budget_ms: u64,
    /// Memory cap of the component, in MiB.
    #[arg(long = "memoryLimitMb", global = true, default_value_t = 1024, value_name = "MIB")]
    pub memory_limit_mb: u64,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create the database if missing and print its summary (seed CLI).
    Create(DbArg),
    /// Print the database summary; a missing database is empty (seed CLI).
    Info(DbArg),
    /// Add the initial program: parent "0", changes "initial implementation" (seed CLI).
    Seed(SeedArgs),
    /// Add a scored candidate (seed CLI).
    Add(AddArgs),
    /// Sample a parent and inspirations for the next mutation (seed CLI).
    Sample(DbArg),
    /// Print the best program, or null (seed CLI).
    Best(DbArg),
    /// Create a database with a config and a seed; refuses an existing one.
    Init(Box<InitArgs>),
    /// Population statistics: per island size/best/mean, improvement over the baseline.
    Stats(DbArg),
    /// Check that the database loads and holds together; exit 1 with the problem when not.
    Validate(DbArg),
    /// Print the whole database (json) or its family tree (mermaid).
    Export(ExportArgs),
    /// Ancestors and descendants of a live program.
    Lineage(LineageArgs),
    /// Print the operation history (history.ndjson), one JSON object per line.
    History(HistoryArgs),
    /// Run a self-contained evolution of a synthetic problem through the component (no LLM).
    Demo(DemoArgs),
    /// Serve the playground on 127.0.0.1 (prints the URL); with a database, the page replays that run.
    View(ViewArgs),
    /// Plan a batch of work items for parallel workers (seed 003): operator, parents, island, name
    Plan(PlanArgs),
    /// Whether the budget or a stopping rule says the run is over (evoidea / evo-anything rules)
    #[command(name = "should-stop")]
    ShouldStop(DbArg),
    /// Install the evodb-evolve skill: `evodb skill install .claude/skills/evodb-evolve`
    Skill(crate::skill::SkillArgs),
    #[command(about = crate::trial::ABOUT, long_about = crate::trial::LONG_ABOUT, after_help = crate::trial::EXIT_CODES)]
    Trial(crate::trial::TrialArgs),
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// How many items (workers) to plan
    #[arg(value_name = "n")]
    pub n: u32,
    /// Islands that get no items, e.g. --frozen 1,2
    #[arg(long = "frozen", value_delimiter = ',', value_name = "ISLANDS")]
    pub frozen: Vec<u32>,
    /// Islands that get twice the share, e.g. --boosted 0
    #[arg(long = "boosted", value_delimiter = ',', value_name = "ISLANDS")]
    pub boosted: Vec<u32>,
}

#[derive(Debug, Args)]
pub struct DbArg {
    /// The database directory (holds database.json and history.ndjson).
    #[arg(value_name = "dbPath")]
    pub db: PathBuf,
}

#[derive(Debug, Args)]
pub struct CandidateArgs {
    /// Where the candidate's code lives (stored as given; evodb never opens it).
    #[arg(long = "codePath", allow_hyphen_values = true)]
    pub code_path: Option<String>,
    /// The candidate's code.
    #[arg(long = "targetCode", allow_hyphen_values = true, conflicts_with = "target_code_file")]
    pub target_code: Option<String>,
    /// Read the candidate's code from this file (no shell quoting needed).
    #[arg(long = "targetCodeFile", value_name = "PATH")]
    pub target_code_file: Option<PathBuf>,
    /// Metrics as a JSON object of finite numbers, e.g. '{"score": 0.8}'.
    #[arg(long = "metrics", allow_hyphen_values = true)]
    pub metrics: Option<String>,
    /// What the mutation changed.
    #[arg(long = "changes", allow_hyphen_values = true, conflicts_with = "changes_file")]
    pub changes: Option<String>,
    /// Read the changes description from this file.
    #[arg(long = "changesFile", value_name = "PATH")]
    pub changes_file: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SeedArgs {
    #[command(flatten)]
    pub db: DbArg,
    #[command(flatten)]
    pub candidate: CandidateArgs,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    #[command(flatten)]
    pub db: DbArg,
    #[command(flatten)]
    pub candidate: CandidateArgs,
    /// The parent's id (an unknown id is accepted with generation 0 and a warning, as the seed does).
    #[arg(long = "parentId", allow_hyphen_values = true)]
    pub parent_id: Option<String>,
    /// Use this id instead of a generated one.
    #[arg(long = "id")]
    pub id: Option<String>,
    /// Put the program on this island (required with `--placement explicit`).
    #[arg(long = "island")]
    pub island: Option<u32>,
    /// accepted (default), rejected (kept as memory) or error (needs --reason; joins no island)
    #[arg(long = "status", value_name = "STATUS", value_parser = ["accepted", "rejected", "error"])]
    pub status: Option<String>,
    /// Why the candidate was rejected or failed
    #[arg(long = "reason", allow_hyphen_values = true)]
    pub reason: Option<String>,
    /// The operator that produced it: exploitation, exploration, crossover or migration
    #[arg(long = "operator", value_parser = ["exploitation", "exploration", "crossover", "migration"])]
    pub operator: Option<String>,
    /// The `plan` item this candidate answers; it lands on that item's island
    #[arg(long = "planItem", value_name = "NAME")]
    pub plan_item: Option<String>,
}

/// `init`: every option of the database config. Values are passed to the engine as JSON (a
/// number stays a number, anything else is a string), so its validation names the field.
#[derive(Debug, Args)]
pub struct InitArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Seed of the database's PRNG (0 to 2^53-1).
    #[arg(long = "seed", default_value_t = 0)]
    pub seed: u64,
    /// Start from a config JSON file; flags override its fields.
    #[arg(long = "config", value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Number of islands [seed: 3].
    #[arg(long = "numIslands", alias = "islands", value_name = "N")]
    pub num_islands: Option<String>,
    /// Programs kept per island [seed: 40].
    #[arg(long = "maxIslandSize", alias = "capacity", value_name = "N")]
    pub max_island_size: Option<String>,
    /// Island generations between migrations [seed: 10].
    #[arg(long = "migrationInterval", value_name = "N")]
    pub migration_interval: Option<String>,
    /// Share of an island that migrates, in [0, 1] [seed: 0.1].
    #[arg(long = "migrationRate", value_name = "RATE")]
    pub migration_rate: Option<String>,
    /// Migration mode: share (same id on both islands, seed) | copy (new id, provenance).
    #[arg(long = "migration", value_name = "MODE")]
    pub migration: Option<String>,
    /// Probability of a uniform parent pick instead of the top ones [seed: 0.3].
    #[arg(long = "explorationRatio", value_name = "RATIO")]
    pub exploration_ratio: Option<String>,
    /// Exploitation picks among this many best programs [seed: 3].
    #[arg(long = "exploitationTop", value_name = "N")]
    pub exploitation_top: Option<String>,
    /// Inspirations come from the island's best this many… [seed: 5]
    #[arg(long = "inspirationTopPool", value_name = "N")]
    pub inspiration_top_pool: Option<String>,
    /// …this many drawn from that pool… [seed: 3]
    #[arg(long = "inspirationsFromTop", value_name = "N")]
    pub inspirations_from_top: Option<String>,
    /// …plus this many from the rest of the island [seed: 2].
    #[arg(long = "inspirationsFromRest", value_name = "N")]
    pub inspirations_from_rest: Option<String>,
    /// Where new programs go: roundRobin (seed) | parentIsland | explicit.
    #[arg(long = "placement", value_name = "RULE")]
    pub placement: Option<String>,
    /// Where inspirations come from: island (seed) | allIslands.
    #[arg(long = "inspirationScope", value_name = "SCOPE")]
    pub inspiration_scope: Option<String>,
    /// Fitness: mean (seed) | primary:<metric> | weighted:<metric>=<weight>,…
    #[arg(long = "fitness", value_name = "RULE")]
    pub fitness: Option<String>,
    /// A metric to minimise or maximise, e.g. --direction latency=min (repeatable).
    #[arg(long = "direction", value_name = "METRIC=min|max")]
    pub directions: Vec<String>,
    /// MAP-Elites feature dimensions as JSON, e.g. '[{"kind":"island"},{"kind":"codeLines","thresholds":[40,100]}]'
    #[arg(long = "features", value_name = "JSON")]
    pub features: Option<String>,
    /// The elite archive's size (default 10)
    #[arg(long = "archiveSize", value_name = "N")]
    pub archive_size: Option<String>,
    /// Subtracted from each cell's best in the QD score (default 0)
    #[arg(long = "qdOffset", value_name = "X")]
    pub qd_offset: Option<String>,
    /// Seed 004's four operators: `default` (0.5/0.3/0.15/0.05) or weights as JSON
    #[arg(long = "operators", value_name = "default|JSON")]
    pub operators: Option<String>,
    /// Answer repeated code from the fitness cache
    #[arg(long = "dedupe")]
    pub dedupe: bool,
    /// Stop after this many evaluations
    #[arg(long = "maxEvaluations", value_name = "N")]
    pub max_evaluations: Option<String>,
    /// Stop once the best fitness reaches this
    #[arg(long = "scoreThreshold", value_name = "X")]
    pub score_threshold: Option<String>,
    /// Stop after this many evaluations without a new best
    #[arg(long = "patience", value_name = "N")]
    pub patience: Option<String>,
    /// Stop after this many plan batches
    #[arg(long = "maxRounds", value_name = "N")]
    pub max_rounds: Option<String>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    /// database.json as stored.
    Json,
    /// The live population's family tree as a Mermaid flowchart.
    Mermaid,
    /// The family tree as indented ASCII
    Tree,
    /// Seed 004's `## 🧬 Population` section
    Markdown,
}

#[derive(Debug, Args)]
pub struct LineageArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// The program's id.
    #[arg(value_name = "id")]
    pub id: String,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub db: DbArg,
    #[arg(long = "format", value_enum, default_value_t = ExportFormat::Json)]
    pub format: ExportFormat,
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Only the last N operations.
    #[arg(long = "tail", value_name = "N")]
    pub tail: Option<usize>,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Iterations of sample → mutate → evaluate → add.
    #[arg(long = "iterations", default_value_t = 60)]
    pub iterations: u64,
    /// Seed of the database and of the built-in mutator.
    #[arg(long = "seed", default_value_t = 7)]
    pub seed: u64,
    /// Output directory: the database goes to <out>/database, candidates to <out>/candidates.
    #[arg(long = "out", default_value = "evolve-output")]
    pub out: PathBuf,
    /// The database config as JSON (as `init --config`), used when the database is created.
    #[arg(long = "config", default_value = "{}", value_name = "JSON")]
    pub config: String,
    /// The synthetic fitness landscape: polynomial terms (2–8) and ruggedness (0–1).
    #[arg(long = "landscape", default_value = r#"{"terms":4,"ruggedness":0}"#, value_name = "JSON")]
    pub landscape: String,
}

#[derive(Debug, Args)]
pub struct ViewArgs {
    /// A database directory (or its database.json) to open in the playground.
    #[arg(value_name = "dbPath")]
    pub db: Option<PathBuf>,
    /// Port on 127.0.0.1; 0 picks a free one.
    #[arg(long = "port", default_value_t = 8787)]
    pub port: u16,
}
