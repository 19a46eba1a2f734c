//! The typed arguments each command runs with, read from the matches of the parser that
//! `parser.rs` builds from the command-line table. Flags are camelCase like the seed's
//! `db-cli.mjs` (`--codePath`), and `init`'s flags are the config's JSON keys.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::ArgMatches;
use evodb_cli_spec::{CONFIG_SCALARS, STOPPING_RULES};

use crate::apply::ApplyArgs;
use crate::git_mode::{GitArgs, GitTidyArgs};
use crate::location::{StoreArgs, with_store_as_db_path};
use crate::notes::{NoteArgs, NotesArgs};
use crate::skill::{InstallArgs, SkillAction, SkillArgs};
use crate::strategy::StrategyArgs;
use crate::trial::TrialArgs;

#[derive(Debug)]
pub struct Cli {
    pub command: Command,
    pub sandbox: SandboxArgs,
    pub store: StoreArgs,
}

#[derive(Clone, Debug)]
pub struct SandboxArgs {
    /// Wall-time budget of each database operation, in milliseconds.
    pub time_budget_ms: u64,
    /// Memory cap of the component, in MiB.
    pub memory_limit_mb: u64,
}

#[derive(Debug)]
pub enum Command {
    Create(DbArg),
    Info(DbArg),
    Seed(SeedArgs),
    Add(Box<AddArgs>),
    Sample(TargetedArgs),
    Best(TargetedArgs),
    Init(Box<InitArgs>),
    Stats(DbArg),
    Validate(DbArg),
    Export(ExportArgs),
    Lineage(LineageArgs),
    History(HistoryArgs),
    Demo(DemoArgs),
    View(ViewArgs),
    Plan(PlanArgs),
    ShouldStop(TargetedArgs),
    Note(NoteArgs),
    Notes(NotesArgs),
    Skill(SkillArgs),
    Strategy(StrategyArgs),
    Trial(TrialArgs),
    Apply(ApplyArgs),
    GitTidy(GitTidyArgs),
    Copy(CopyArgs),
    Import(ImportArgs),
    Serve(DbArg),
}

/// `evodb import <tool> <source> <dbPath>`.
#[derive(Debug)]
pub struct ImportArgs {
    pub source: ImportSource,
    pub from: PathBuf,
    pub db: PathBuf,
}

#[derive(Debug, Clone, Copy)]
pub enum ImportSource {
    OpenEvolve,
    Shinka,
}

#[derive(Debug)]
pub struct CopyArgs {
    pub src: PathBuf,
    pub dst: PathBuf,
}

#[derive(Debug)]
pub struct PlanArgs {
    pub db: DbArg,
    pub n: u32,
    pub frozen: Vec<u32>,
    pub boosted: Vec<u32>,
}

#[derive(Debug)]
pub struct DbArg {
    pub db: PathBuf,
}

#[derive(Debug)]
pub struct CandidateArgs {
    pub code_path: Option<String>,
    pub target_code: Option<String>,
    pub target_code_file: Option<PathBuf>,
    pub metrics: Option<String>,
    pub changes: Option<String>,
    pub changes_file: Option<PathBuf>,
}

#[derive(Debug)]
pub struct SeedArgs {
    pub db: DbArg,
    pub candidate: CandidateArgs,
    pub target_id: Option<String>,
}

/// `sample`, `best`, `should-stop`: the database and, in a several-target run, the target.
#[derive(Debug)]
pub struct TargetedArgs {
    pub db: DbArg,
    pub target: Option<String>,
}

#[derive(Debug)]
pub struct AddArgs {
    pub db: DbArg,
    pub candidate: CandidateArgs,
    pub parent_id: Option<String>,
    pub id: Option<String>,
    pub island: Option<u32>,
    pub status: Option<String>,
    pub reason: Option<String>,
    pub operator: Option<String>,
    pub plan_item: Option<String>,
    pub target_id: Option<String>,
    pub git: GitArgs,
}

/// `init`: the PRNG seed and every option of the database config. Values are passed to the
/// engine as JSON (a number stays a number, anything else is a string), so its validation names
/// the field.
#[derive(Debug)]
pub struct InitArgs {
    pub db: DbArg,
    /// `--rngSeed`: the seed of the database's PRNG.
    pub seed: u64,
    pub config: Option<PathBuf>,
    /// The top-level scalar options given, as (JSON key, flag value), in the table's order.
    pub scalars: Vec<(&'static str, String)>,
    pub fitness: Option<String>,
    pub directions: Vec<String>,
    pub features: Option<String>,
    pub operators: Option<String>,
    pub dedupe: bool,
    /// The `stopping` rules given, as (JSON key, flag value).
    pub stopping: Vec<(&'static str, String)>,
}

#[derive(Debug, Clone, Copy)]
pub enum ExportFormat {
    Json,
    Mermaid,
    Tree,
    Markdown,
}

#[derive(Debug)]
pub struct LineageArgs {
    pub db: DbArg,
    pub id: String,
}

#[derive(Debug)]
pub struct ExportArgs {
    pub db: DbArg,
    pub format: ExportFormat,
}

#[derive(Debug)]
pub struct HistoryArgs {
    pub db: DbArg,
    pub tail: Option<usize>,
}

#[derive(Debug)]
pub struct DemoArgs {
    pub iterations: u64,
    /// `--rngSeed`: the seed of the database and of the built-in mutator.
    pub seed: u64,
    pub out: PathBuf,
    pub config: String,
    pub landscape: String,
}

#[derive(Debug)]
pub struct ViewArgs {
    pub db: Option<PathBuf>,
    pub port: u16,
    pub open: bool,
}

/// Parses the command line; the error is clap's (usage, or the text of --help/--version).
pub fn parse(argv: impl IntoIterator<Item = impl Into<OsString> + Clone>) -> Result<Cli, clap::Error> {
    let argv = with_store_as_db_path(argv.into_iter().map(Into::into).collect());
    let matches = crate::parser::command().try_get_matches_from(argv)?;
    Ok(from_matches(&matches))
}

fn from_matches(m: &ArgMatches) -> Cli {
    let sandbox =
        SandboxArgs { time_budget_ms: required(m, "timeBudgetMs"), memory_limit_mb: required(m, "memoryLimitMb") };
    let store: Option<String> = optional(m, "store");
    let env_store = match store {
        None => std::env::var_os("EVODB_STORE").filter(|value| !value.is_empty()),
        Some(_) => None,
    };
    let store =
        StoreArgs { store, run: optional(m, "run"), connect_timeout_secs: required(m, "connectTimeout"), env_store };
    let (name, m) = m.subcommand().expect("the parser requires a command");
    let db = || DbArg { db: required(m, "dbPath") };
    let command = match name {
        "create" => Command::Create(db()),
        "info" => Command::Info(db()),
        "seed" => Command::Seed(SeedArgs { db: db(), candidate: candidate(m), target_id: optional(m, "targetId") }),
        "add" => Command::Add(Box::new(AddArgs {
            db: db(),
            candidate: candidate(m),
            parent_id: optional(m, "parentId"),
            id: optional(m, "id"),
            island: optional(m, "island"),
            status: optional(m, "status"),
            reason: optional(m, "reason"),
            operator: optional(m, "operator"),
            plan_item: optional(m, "planItem"),
            target_id: optional(m, "targetId"),
            git: GitArgs {
                branch: optional(m, "branch"),
                commit: optional(m, "commit"),
                target: optional(m, "target"),
                protected: optional(m, "protected"),
            },
        })),
        "sample" => Command::Sample(TargetedArgs { db: db(), target: optional(m, "target") }),
        "best" => Command::Best(TargetedArgs { db: db(), target: optional(m, "target") }),
        "init" => Command::Init(Box::new(init(m))),
        "stats" => Command::Stats(db()),
        "validate" => Command::Validate(db()),
        "export" => Command::Export(ExportArgs { db: db(), format: export_format(&required::<String>(m, "format")) }),
        "lineage" => Command::Lineage(LineageArgs { db: db(), id: required(m, "id") }),
        "history" => Command::History(HistoryArgs { db: db(), tail: optional(m, "tail") }),
        "demo" => Command::Demo(DemoArgs {
            iterations: required(m, "iterations"),
            seed: required(m, "rngSeed"),
            out: required(m, "out"),
            config: required(m, "config"),
            landscape: required(m, "landscape"),
        }),
        "view" => {
            Command::View(ViewArgs { db: optional(m, "dbPath"), port: required(m, "port"), open: m.get_flag("open") })
        }
        "plan" => Command::Plan(PlanArgs {
            db: db(),
            n: required(m, "n"),
            frozen: list(m, "frozen"),
            boosted: list(m, "boosted"),
        }),
        "should-stop" => Command::ShouldStop(TargetedArgs { db: db(), target: optional(m, "target") }),
        "note" => Command::Note(NoteArgs {
            db: db().db,
            kind: required(m, "kind"),
            text: optional(m, "text"),
            text_file: optional(m, "textFile"),
            target: optional(m, "target"),
            program_id: optional(m, "programId"),
        }),
        "notes" => Command::Notes(NotesArgs {
            db: db().db,
            target: optional(m, "target"),
            kind: optional(m, "kind"),
            limit: optional(m, "limit"),
        }),
        "serve" => Command::Serve(db()),
        "copy" => Command::Copy(CopyArgs { src: required(m, "src"), dst: required(m, "dst") }),
        "import" => Command::Import(import(m)),
        "skill" => Command::Skill(skill(m)),
        "strategy" => Command::Strategy(strategy(m)),
        "trial" => Command::Trial(TrialArgs {
            target: required(m, "target"),
            candidate: required(m, "candidate"),
            test: optional(m, "test"),
            bench: optional(m, "bench"),
            score_key: required(m, "scoreKey"),
            timeout_sec: required(m, "timeoutSec"),
            judge: optional(m, "judge"),
            cwd: optional(m, "cwd"),
            setup: optional(m, "setup"),
            worktree: m.get_flag("worktree"),
            in_place: m.get_flag("inPlace"),
        }),
        "git-tidy" => {
            Command::GitTidy(GitTidyArgs { db: db(), prefix: required(m, "prefix"), dry_run: m.get_flag("dryRun") })
        }
        "apply" => Command::Apply(ApplyArgs {
            db: db(),
            id: optional(m, "id"),
            target: required(m, "target"),
            test: required(m, "test"),
            setup: optional(m, "setup"),
            timeout_sec: required(m, "timeoutSec"),
            message: optional(m, "message"),
        }),
        other => unreachable!("the table's command `{other}` has no arguments here"),
    };
    Cli { command, sandbox, store }
}

fn candidate(m: &ArgMatches) -> CandidateArgs {
    CandidateArgs {
        code_path: optional(m, "codePath"),
        target_code: optional(m, "targetCode"),
        target_code_file: optional(m, "targetCodeFile"),
        metrics: optional(m, "metrics"),
        changes: optional(m, "changes"),
        changes_file: optional(m, "changesFile"),
    }
}

fn init(m: &ArgMatches) -> InitArgs {
    let given = |flags: &'static [evodb_cli_spec::Flag]| {
        flags.iter().filter_map(|flag| optional::<String>(m, flag.name).map(|value| (flag.name, value))).collect()
    };
    InitArgs {
        db: DbArg { db: required(m, "dbPath") },
        seed: required(m, "rngSeed"),
        config: optional(m, "config"),
        scalars: given(CONFIG_SCALARS),
        fitness: optional(m, "fitness"),
        directions: list(m, "direction"),
        features: optional(m, "features"),
        operators: optional(m, "operators"),
        dedupe: m.get_flag("dedupe"),
        stopping: given(STOPPING_RULES),
    }
}

fn import(m: &ArgMatches) -> ImportArgs {
    let (name, m) = m.subcommand().expect("the parser requires an import source");
    let source = match name {
        "openevolve" => ImportSource::OpenEvolve,
        "shinka" => ImportSource::Shinka,
        other => unreachable!("the table's command `import {other}` has no arguments here"),
    };
    ImportArgs { source, from: required(m, "source"), db: required(m, "dbPath") }
}

fn skill(m: &ArgMatches) -> SkillArgs {
    let (name, m) = m.subcommand().expect("the parser requires a skill command");
    match name {
        "install" => SkillArgs {
            action: SkillAction::Install(InstallArgs { dir: required(m, "dir"), force: m.get_flag("force") }),
        },
        other => unreachable!("the table's command `skill {other}` has no arguments here"),
    }
}

fn strategy(m: &ArgMatches) -> StrategyArgs {
    let (name, m) = m.subcommand().expect("the parser requires a strategy command");
    match name {
        "init" => StrategyArgs::Init {
            dir: required(m, "dir"),
            strategy: optional(m, "strategy"),
            force: m.get_flag("force"),
        },
        "check" => StrategyArgs::Check { dir: required(m, "dir") },
        other => unreachable!("the table's command `strategy {other}` has no arguments here"),
    }
}

/// The parser allows only the table's possible values.
fn export_format(name: &str) -> ExportFormat {
    match name {
        "json" => ExportFormat::Json,
        "mermaid" => ExportFormat::Mermaid,
        "tree" => ExportFormat::Tree,
        "markdown" => ExportFormat::Markdown,
        other => unreachable!("--format `{other}` is not among the table's possible values"),
    }
}

fn optional<T: Clone + Send + Sync + 'static>(m: &ArgMatches, name: &str) -> Option<T> {
    m.get_one::<T>(name).cloned()
}

/// A required argument, or one with a default.
fn required<T: Clone + Send + Sync + 'static>(m: &ArgMatches, name: &str) -> T {
    optional(m, name).unwrap_or_else(|| panic!("`{name}` is required or has a default in the table"))
}

fn list<T: Clone + Send + Sync + 'static>(m: &ArgMatches, name: &str) -> Vec<T> {
    m.get_many::<T>(name).map(|values| values.cloned().collect()).unwrap_or_default()
}
