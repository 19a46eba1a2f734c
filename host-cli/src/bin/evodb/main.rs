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

use std::ffi::OsString;

use evodb_host::postgres::{redact_passwords, shown_location};

use crate::args::Command;
use crate::serve::Reply;
use crate::session::Runtime;

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let cli = match args::parse(argv.clone()) {
        Ok(cli) => cli,
        Err(err) => {
            // --help and --version print to stdout and succeed; anything else is a usage error,
            // which may quote an argument: a URL's password is hidden.
            if !err.use_stderr() {
                let _ = err.print();
                return ExitCode::from(0);
            }
            eprint!("{}", scrub(&err.render().to_string(), &argv));
            return ExitCode::from(2);
        }
    };
    if let Some(reply) = serve::forward(&cli, &argv) {
        return print(&reply, &argv);
    }
    let result = match cli.command {
        // The commands that need no component.
        Command::Trial(args) => trial::run(args),
        Command::View(args) => view::run(args, &cli.store, &cli.sandbox),
        Command::Skill(args) => skill::run(args),
        Command::Serve(args) => serve::run(&cli.sandbox, cli.store, args),
        command => Runtime::start(&cli.sandbox, cli.store).and_then(|runtime| commands::run(&runtime, command)),
    };
    print(&Reply::of(result), &argv)
}

fn print(reply: &Reply, argv: &[OsString]) -> ExitCode {
    eprint!("{}", scrub(&reply.stderr, argv));
    // A closed pipe (`evodb history db | head`) is not an error worth reporting.
    let _ = std::io::stdout().lock().write_all(reply.stdout.as_bytes());
    ExitCode::from(reply.exit)
}

/// A message as it may be printed: no message should hold a password, and this is the last line
/// of defence if one does. Each argument (and `EVODB_STORE`) that could hold one is replaced
/// where it appears whole by its shown form, then any URL or `user:password@` left is hidden.
fn scrub(text: &str, argv: &[OsString]) -> String {
    let store = std::env::var_os("EVODB_STORE");
    let mut text = text.to_string();
    for arg in argv.iter().chain(store.as_ref()).filter_map(|arg| arg.to_str()) {
        if arg.contains(['@', ':']) && text.contains(arg) {
            text = text.replace(arg, &shown_location(arg));
        }
    }
    redact_passwords(&text)
}
