//! The command line, parsed once into typed state (ripgrep's low args → high args): the parser
//! built from the command-line table (`parser.rs`) reads argv; each command's module reads its
//! own `Args` from the matches; and [`Command::run`] is the one place that dispatches. Flags are
//! camelCase like the seed's `db-cli.mjs` (`--codePath`), and `init`'s flags are the config's
//! JSON keys.

use std::ffi::OsString;

use clap::ArgMatches;

use crate::commands::{
    add, add_idea, admit, apply, best, copy, create, demo, export, git_tidy, heartbeat, history, ideas, import, info,
    init, leases, lineage, mcp, note, notes, plan, profile, prompt, remeasure, runs, sample, seed, serve, setup,
    should_stop, show, skill, stats, strategy, trial, validate, view,
};
use crate::context::Context;
use crate::failure::Failure;
use crate::location::{Environment, StoreArgs, with_store_as_db_path};
use crate::matches::{optional, required};
use crate::reply::Reply;
use crate::session::SandboxArgs;

#[derive(Debug)]
pub struct Cli {
    /// The command's name as the table spells it (`add`, `should-stop`).
    pub name: String,
    pub command: Command,
    pub sandbox: SandboxArgs,
    pub store: StoreArgs,
    /// `EVODB_SERVE=off`: run here, never in `evodb serve`.
    pub serve_off: bool,
}

/// Every command, with its arguments; the names are the table's.
#[derive(Debug)]
pub enum Command {
    Create(create::Args),
    Info(info::Args),
    Seed(seed::Args),
    Add(Box<add::Args>),
    Sample(sample::Args),
    Best(best::Args),
    Init(Box<init::Args>),
    Stats(stats::Args),
    Validate(validate::Args),
    Export(export::Args),
    Lineage(lineage::Args),
    History(history::Args),
    Demo(demo::Args),
    View(view::Args),
    Plan(plan::Args),
    Heartbeat(heartbeat::Args),
    Leases(leases::Args),
    ShouldStop(should_stop::Args),
    Note(note::Args),
    Notes(notes::Args),
    Prompt(prompt::Args),
    Remeasure(remeasure::Args),
    Admit(admit::Args),
    Skill(skill::Args),
    Strategy(strategy::Args),
    Trial(trial::Args),
    Apply(apply::Args),
    GitTidy(git_tidy::Args),
    Copy(copy::Args),
    Import(import::Args),
    Serve(serve::Args),
    Mcp(mcp::Args),
    Setup(setup::Args),
    Ideas(Box<ideas::Args>),
    AddIdea(Box<add_idea::Args>),
    Runs(runs::Args),
    Show(show::Args),
    Profile(profile::Args),
}

impl Command {
    /// Runs the command: the one dispatch of the binary.
    pub fn run(self, ctx: &Context) -> Result<Reply, Failure> {
        match self {
            Command::Create(args) => args.run(ctx),
            Command::Info(args) => args.run(ctx),
            Command::Seed(args) => args.run(ctx),
            Command::Add(args) => args.run(ctx),
            Command::Sample(args) => args.run(ctx),
            Command::Best(args) => args.run(ctx),
            Command::Init(args) => args.run(ctx),
            Command::Stats(args) => args.run(ctx),
            Command::Validate(args) => args.run(ctx),
            Command::Export(args) => args.run(ctx),
            Command::Lineage(args) => args.run(ctx),
            Command::History(args) => args.run(ctx),
            Command::Demo(args) => args.run(ctx),
            Command::View(args) => args.run(ctx),
            Command::Plan(args) => args.run(ctx),
            Command::Heartbeat(args) => args.run(ctx),
            Command::Leases(args) => args.run(ctx),
            Command::ShouldStop(args) => args.run(ctx),
            Command::Note(args) => args.run(ctx),
            Command::Notes(args) => args.run(ctx),
            Command::Prompt(args) => args.run(ctx),
            Command::Remeasure(args) => args.run(ctx),
            Command::Admit(args) => args.run(ctx),
            Command::Skill(args) => args.run(ctx),
            Command::Strategy(args) => args.run(ctx),
            Command::Trial(args) => args.run(ctx),
            Command::Apply(args) => args.run(ctx),
            Command::GitTidy(args) => args.run(ctx),
            Command::Copy(args) => args.run(ctx),
            Command::Import(args) => args.run(ctx),
            Command::Serve(args) => args.run(ctx),
            Command::Mcp(args) => args.run(ctx),
            Command::Setup(args) => args.run(ctx),
            Command::Ideas(args) => args.run(ctx),
            Command::AddIdea(args) => args.run(ctx),
            Command::Runs(args) => args.run(ctx),
            Command::Show(args) => args.run(ctx),
            Command::Profile(args) => args.run(ctx),
        }
    }
}

/// Runs a command line on a context already open (`evodb mcp`'s tools): parsed as `main` parses
/// one, with no environment, and run on `ctx`'s engine, sandbox and store (`argv`'s global flags
/// play no part).
pub fn dispatch(ctx: &Context, argv: &[String]) -> Result<Reply, Failure> {
    let cli = parse(argv, &Environment::default()).map_err(|e| Failure::Usage(e.render().to_string()))?;
    cli.command.run(ctx)
}

/// Parses the command line, with the environment's stand-ins for flags left out; the error is
/// clap's (usage, or the text of --help/--version).
pub fn parse(
    argv: impl IntoIterator<Item = impl Into<OsString> + Clone>,
    env: &Environment,
) -> Result<Cli, clap::Error> {
    let argv = with_store_as_db_path(argv.into_iter().map(Into::into).collect(), env.store.as_ref());
    let matches = crate::parser::command_for(&argv).try_get_matches_from(argv)?;
    Ok(from_matches(&matches, env))
}

fn from_matches(m: &ArgMatches, env: &Environment) -> Cli {
    let sandbox =
        SandboxArgs { time_budget_ms: required(m, "timeBudgetMs"), memory_limit_mb: required(m, "memoryLimitMb") };
    // A `--store` given wins over EVODB_STORE.
    let store: Option<String> = optional(m, "store");
    let env_store = if store.is_none() { env.store.clone() } else { None };
    let store = StoreArgs {
        store,
        run: optional(m, "run"),
        connect_timeout_secs: required(m, "connectTimeout"),
        env_store,
        env_run: env.run.clone(),
    };
    let (name, m) = m.subcommand().expect("the parser requires a command");
    let command = match name {
        "create" => Command::Create(create::Args::from_matches(m)),
        "info" => Command::Info(info::Args::from_matches(m)),
        "seed" => Command::Seed(seed::Args::from_matches(m)),
        "add" => Command::Add(Box::new(add::Args::from_matches(m))),
        "sample" => Command::Sample(sample::Args::from_matches(m)),
        "best" => Command::Best(best::Args::from_matches(m)),
        "init" => Command::Init(Box::new(init::Args::from_matches(m))),
        "stats" => Command::Stats(stats::Args::from_matches(m)),
        "validate" => Command::Validate(validate::Args::from_matches(m)),
        "export" => Command::Export(export::Args::from_matches(m)),
        "lineage" => Command::Lineage(lineage::Args::from_matches(m)),
        "history" => Command::History(history::Args::from_matches(m)),
        "demo" => Command::Demo(demo::Args::from_matches(m)),
        "view" => Command::View(view::Args::from_matches(m)),
        "plan" => Command::Plan(plan::Args::from_matches(m)),
        "heartbeat" => Command::Heartbeat(heartbeat::Args::from_matches(m)),
        "leases" => Command::Leases(leases::Args::from_matches(m)),
        "should-stop" => Command::ShouldStop(should_stop::Args::from_matches(m)),
        "note" => Command::Note(note::Args::from_matches(m)),
        "notes" => Command::Notes(notes::Args::from_matches(m)),
        "prompt" => Command::Prompt(prompt::Args::from_matches(m)),
        "remeasure" => Command::Remeasure(remeasure::Args::from_matches(m)),
        "admit" => Command::Admit(admit::Args::from_matches(m)),
        "serve" => Command::Serve(serve::Args::from_matches(m)),
        "mcp" => Command::Mcp(mcp::Args::from_matches(m)),
        "setup" => Command::Setup(setup::Args::from_matches(m, env.home.clone())),
        "copy" => Command::Copy(copy::Args::from_matches(m)),
        "import" => Command::Import(import::Args::from_matches(m)),
        "skill" => Command::Skill(skill::Args::from_matches(m)),
        "strategy" => Command::Strategy(strategy::Args::from_matches(m)),
        "trial" => Command::Trial(trial::Args::from_matches(m)),
        "git-tidy" => Command::GitTidy(git_tidy::Args::from_matches(m)),
        "apply" => Command::Apply(apply::Args::from_matches(m)),
        "ideas" => Command::Ideas(Box::new(ideas::Args::from_matches(m))),
        "add-idea" => Command::AddIdea(Box::new(add_idea::Args::from_matches(m))),
        "runs" => Command::Runs(runs::Args::from_matches(m)),
        "show" => Command::Show(show::Args::from_matches(m)),
        "profile" => Command::Profile(profile::Args::from_matches(m)),
        other => unreachable!("the table's command `{other}` has no arguments here"),
    };
    Cli { name: name.to_string(), command, sandbox, store, serve_off: env.serve_off }
}
