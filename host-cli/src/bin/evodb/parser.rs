//! The clap parser, built from the command-line table (`evodb_cli_spec::CLI`) that the Node
//! drop-in reads too: every command, flag, alias, default, possible value and help line is there.

use clap::builder::{PossibleValuesParser, ValueParser};
use clap::{Arg, ArgAction, Command};
use evodb_cli_spec::{CLI, Flag, HyphenValues, Positional, Value};

/// `evodb --version`: evodb, the wasmtime that runs the component, and the component's SHA-256
/// (written by build.rs).
const VERSION: &str = env!("EVODB_LONG_VERSION");

/// `evodb` with every command of the table.
pub fn command() -> Command {
    with_subcommands(CLI.commands)
}

/// The parser for `argv`: when its first argument names a command of the table, `evodb` with
/// that command alone — building all 35 commands' flags costs more than the call itself spends
/// in many one-shot commands, and clap only reads the one named. Anything else (`--help`, a
/// mistyped command that clap suggests a fix for) gets every command.
pub fn command_for(argv: &[std::ffi::OsString]) -> Command {
    let named = argv.get(1).and_then(|arg| arg.to_str());
    match CLI.commands.iter().position(|spec| Some(spec.name) == named) {
        Some(at) => with_subcommands(&CLI.commands[at..=at]),
        None => command(),
    }
}

fn with_subcommands(commands: &'static [evodb_cli_spec::Command]) -> Command {
    // Listed after each command's own flags.
    let globals = CLI.global_flags.iter().map(|flag| flag_arg(flag).global(true).display_order(1000));
    Command::new(CLI.name)
        .version(VERSION)
        .about(CLI.about)
        .long_about(CLI.long_about)
        .after_help(CLI.exit_codes_help())
        .subcommand_required(true)
        .arg_required_else_help(true)
        .args(globals)
        .subcommands(commands.iter().map(subcommand))
}

fn subcommand(spec: &'static evodb_cli_spec::Command) -> Command {
    // A command's own exit codes (trial's), else the table's.
    let after_help = spec.after_help.map_or_else(|| CLI.exit_codes_help(), String::from);
    let mut command = Command::new(spec.name).about(spec.about).after_help(after_help);
    if let Some(long_about) = spec.long_about {
        command = command.long_about(long_about);
    }
    if !spec.subcommands.is_empty() {
        command = command
            .subcommand_required(true)
            .arg_required_else_help(true)
            .subcommands(spec.subcommands.iter().map(subcommand));
    }
    command.args(spec.positionals.iter().map(positional_arg)).args(spec.flags.iter().map(flag_arg))
}

fn positional_arg(spec: &'static Positional) -> Arg {
    Arg::new(spec.name).value_name(spec.name).help(spec.help).required(spec.required).value_parser(parser(spec.value))
}

fn flag_arg(spec: &'static Flag) -> Arg {
    let arg = Arg::new(spec.name).long(spec.name).help(spec.help).required(spec.required);
    let arg = spec.aliases.iter().fold(arg, |arg, alias| arg.visible_alias(*alias));
    if spec.value == Value::Switch {
        return arg.action(ArgAction::SetTrue).conflicts_with_all(spec.conflicts_with);
    }
    let mut arg = arg
        .value_name(spec.value_name)
        .action(if spec.repeatable { ArgAction::Append } else { ArgAction::Set })
        .conflicts_with_all(spec.conflicts_with);
    arg = match spec.possible_values {
        [] => arg.value_parser(parser(spec.value)),
        values => {
            let values = values.iter().map(|v| clap::builder::PossibleValue::new(v.name).help(v.help));
            arg.value_parser(PossibleValuesParser::new(values))
        }
    };
    if let Some(default) = spec.default {
        arg = arg.default_value(default);
    }
    if let Some(delimiter) = spec.delimiter {
        arg = arg.value_delimiter(delimiter);
    }
    match spec.hyphen_values {
        HyphenValues::No => arg,
        HyphenValues::Any => arg.allow_hyphen_values(true),
        HyphenValues::NegativeNumbers => arg.allow_negative_numbers(true),
    }
}

/// The typed value clap hands to the command modules (which reads it back with the same type).
fn parser(value: Value) -> ValueParser {
    match value {
        Value::Switch => ValueParser::bool(),
        Value::Text => ValueParser::string(),
        Value::Path | Value::InputFile => ValueParser::path_buf(),
        Value::U16 => clap::value_parser!(u16).into(),
        Value::U32 => clap::value_parser!(u32).into(),
        Value::U64 => clap::value_parser!(u64).into(),
        Value::Usize => clap::value_parser!(usize).into(),
        Value::F64 => clap::value_parser!(f64).into(),
    }
}

#[cfg(test)]
mod tests;
