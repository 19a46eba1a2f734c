//! `evodb`: the population database of LLM-driven evolutionary code search, as a CLI that runs
//! the evodb component under wasmtime. `evodb --help` lists the commands; see the README.

// The floor plan, top down: `main` parses, forwards to `evodb serve` or runs, and prints;
// `forward` (a command answered by `evodb serve`) stands on `cli` (the typed command line and
// its one dispatch), which stands on `commands` (one module per command); the modules below
// them are shared by the commands and know none of them. `floor_plan.rs` checks it.
mod cli;
mod commands;
mod forward;

mod candidate;
mod config_flags;
mod context;
mod git_mode;
mod idea_runs;
mod install;
mod operations;
mod serve_protocol;
mod session;

mod failure;
mod input;
mod location;
mod matches;
mod parser;
mod reply;

#[cfg(test)]
mod floor_plan;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use evodb_host::postgres::{redact_passwords, shown_location};

use crate::context::Context;
use crate::location::Environment;
use crate::reply::Output;

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let env = Environment::read();
    let cli = match cli::parse(argv.clone(), &env) {
        Ok(cli) => cli,
        Err(err) => {
            // --help and --version print to stdout and succeed; anything else is a usage error,
            // which may quote an argument: a URL's password is hidden.
            if !err.use_stderr() {
                let _ = err.print();
                return ExitCode::from(0);
            }
            eprint!("{}", scrub(&err.render().to_string(), &argv, &env));
            return ExitCode::from(2);
        }
    };
    evodb_host::postgres::name_sessions_after(&cli.name);
    if let Some(output) = forward::forward(&cli) {
        return print(&output, &argv, &env);
    }
    let ctx = Context::new(cli.sandbox, cli.store, forward::answer, cli::dispatch);
    print(&Output::of(cli.command.run(&ctx)), &argv, &env)
}

fn print(output: &Output, argv: &[OsString], env: &Environment) -> ExitCode {
    eprint!("{}", scrub(&output.stderr, argv, env));
    // A closed pipe (`evodb history db | head`) is not an error worth reporting.
    let _ = std::io::stdout().lock().write_all(output.stdout.as_bytes());
    ExitCode::from(output.exit)
}

/// A message as it may be printed: no message should hold a password, and this is the last line
/// of defence if one does. Each argument (and `EVODB_STORE`) that could hold one is replaced
/// where it appears whole by its shown form, then any URL or `user:password@` left is hidden.
fn scrub(text: &str, argv: &[OsString], env: &Environment) -> String {
    let mut text = text.to_string();
    for arg in argv.iter().chain(env.store.as_ref()).filter_map(|arg| arg.to_str()) {
        if arg.contains(['@', ':']) && text.contains(arg) {
            text = text.replace(arg, &shown_location(arg));
        }
    }
    redact_passwords(&text)
}
