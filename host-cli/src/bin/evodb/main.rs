//! `evodb`: the population database of LLM-driven evolutionary code search, as a CLI that runs
//! the evodb component under wasmtime. `evodb --help` lists the commands; see the README.

mod apply;
mod args;
mod commands;
mod config_flags;
mod copy;
mod demo;
mod failure;
mod git_mode;
mod import;
mod location;
mod notes;
mod parser;
mod serve;
mod session;
mod skill;
mod strategy;
mod trial;
mod view;

use std::io::Write;
use std::process::ExitCode;

use crate::args::Command;
use crate::serve::Reply;
use crate::session::Runtime;

fn main() -> ExitCode {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match args::parse(argv.clone()) {
        Ok(cli) => cli,
        Err(err) => {
            // --help and --version print to stdout and succeed; anything else is a usage error.
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() { 2 } else { 0 });
        }
    };
    if let Some(reply) = serve::forward(&cli, &argv) {
        return print(&reply);
    }
    let result = match cli.command {
        // The commands that need no component.
        Command::Trial(args) => trial::run(args),
        Command::View(args) => view::run(args, &cli.store, &cli.sandbox),
        Command::Skill(args) => skill::run(args),
        Command::Serve(args) => serve::run(&cli.sandbox, cli.store, args),
        command => Runtime::start(&cli.sandbox, cli.store).and_then(|runtime| commands::run(&runtime, command)),
    };
    print(&Reply::of(result))
}

fn print(reply: &Reply) -> ExitCode {
    eprint!("{}", reply.stderr);
    // A closed pipe (`evodb history db | head`) is not an error worth reporting.
    let _ = std::io::stdout().lock().write_all(reply.stdout.as_bytes());
    ExitCode::from(reply.exit)
}
