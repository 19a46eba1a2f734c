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
mod session;
mod skill;
mod strategy;
mod trial;
mod view;

use std::io::Write;
use std::process::ExitCode;

use crate::args::Command;
use crate::session::Runtime;

fn main() -> ExitCode {
    let cli = match args::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(err) => {
            // --help and --version print to stdout and succeed; anything else is a usage error.
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        // The commands that need no component.
        Command::Trial(args) => trial::run(args),
        Command::View(args) => view::run(args, &cli.store, &cli.sandbox),
        Command::Skill(args) => skill::run(args),
        command => Runtime::start(&cli.sandbox, cli.store).and_then(|runtime| commands::run(&runtime, command)),
    };
    match result {
        Ok(printed) => {
            for warning in &printed.warnings {
                eprintln!("warning: {warning}");
            }
            if !printed.stdout.is_empty() {
                let mut stdout = std::io::stdout().lock();
                // A closed pipe (`evodb history db | head`) is not an error worth reporting.
                let _ = writeln!(stdout, "{}", printed.stdout);
            }
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("{failure}");
            ExitCode::from(failure.exit_code() as u8)
        }
    }
}
