//! The parser is the table's: every clap argument has its entry (name, aliases, default, possible
//! values, conflicts, required, repeatable) and every entry reaches the typed arguments.

use clap::{Arg, ArgAction};
use evodb_cli_spec::{CLI, Flag, Positional, Value};

use super::command;

/// Walks the table and the clap command side by side; returns how many arguments it compared.
fn compare(path: &str, table: &'static evodb_cli_spec::Command, clap: &clap::Command) -> usize {
    let names: Vec<&str> = table.subcommands.iter().map(|c| c.name).collect();
    let clap_names: Vec<&str> = clap.get_subcommands().map(clap::Command::get_name).collect();
    assert_eq!(clap_names, names, "{path}: the subcommands");
    let mut compared = 0;
    for arg in clap.get_arguments() {
        let id = arg.get_id().as_str();
        if let Some(flag) = table.flag(id) {
            compare_flag(path, flag, arg, clap);
        } else if let Some(positional) = table.positionals.iter().find(|p| p.name == id) {
            compare_positional(path, positional, arg);
        } else {
            panic!("{path}: the clap argument `{id}` is not in the table");
        }
        compared += 1;
    }
    assert_eq!(compared, table.flags.len() + table.positionals.len(), "{path}: a table entry has no clap argument");
    for sub in table.subcommands {
        let clap_sub = clap.find_subcommand(sub.name).expect("compared above");
        compared += compare(&format!("{path} {}", sub.name), sub, clap_sub);
    }
    compared
}

fn compare_flag(path: &str, flag: &Flag, arg: &Arg, clap: &clap::Command) {
    let what = format!("{path} --{}", flag.name);
    assert_eq!(arg.get_long(), Some(flag.name), "{what}: long name");
    assert_eq!(arg.get_short(), None, "{what}: the table has no short flags");
    let aliases: Vec<&str> = arg.get_visible_aliases().unwrap_or_default();
    assert_eq!(aliases, flag.aliases, "{what}: aliases");
    assert_eq!(arg.get_all_aliases().map_or(0, |a| a.len()), flag.aliases.len(), "{what}: a hidden alias");
    assert_eq!(arg.get_help().map(std::string::ToString::to_string).as_deref(), Some(flag.help), "{what}: help");
    assert_eq!(arg.is_required_set(), flag.required, "{what}: required");
    let defaults: Vec<&str> = arg.get_default_values().iter().filter_map(|v| v.to_str()).collect();
    assert_eq!(defaults, flag.default.into_iter().collect::<Vec<_>>(), "{what}: default");
    let possible: Vec<String> = arg.get_possible_values().iter().map(|v| v.get_name().to_string()).collect();
    let table_possible: Vec<&str> = flag.possible_values.iter().map(|v| v.name).collect();
    if flag.value != Value::Switch {
        assert_eq!(possible, table_possible, "{what}: possible values");
    }
    let action = match (flag.value, flag.repeatable) {
        (Value::Switch, _) => ArgAction::SetTrue,
        (_, true) => ArgAction::Append,
        (_, false) => ArgAction::Set,
    };
    assert_eq!(format!("{:?}", arg.get_action()), format!("{action:?}"), "{what}: action");
    assert_eq!(arg.get_value_delimiter(), flag.delimiter, "{what}: delimiter");
    let conflicts: Vec<&str> = clap.get_arg_conflicts_with(arg).iter().map(|a| a.get_id().as_str()).collect();
    assert_eq!(conflicts, flag.conflicts_with, "{what}: conflicts");
}

fn compare_positional(path: &str, positional: &Positional, arg: &Arg) {
    let what = format!("{path} <{}>", positional.name);
    assert!(arg.is_positional(), "{what}: not positional");
    assert_eq!(arg.is_required_set(), positional.required, "{what}: required");
    assert_eq!(arg.get_help().map(std::string::ToString::to_string).as_deref(), Some(positional.help), "{what}: help");
}

#[test]
fn every_clap_argument_comes_from_the_table() {
    let evodb = command();
    let globals = evodb.get_arguments().count();
    assert_eq!(globals, CLI.global_flags.len(), "the root takes only the global flags");
    for (arg, flag) in evodb.get_arguments().zip(CLI.global_flags) {
        compare_flag("evodb", flag, arg, &evodb);
        assert!(arg.is_global_set(), "--{} is global", flag.name);
    }
    let names: Vec<&str> = evodb.get_subcommands().map(clap::Command::get_name).collect();
    let table_names: Vec<&str> = CLI.commands.iter().map(|c| c.name).collect();
    assert_eq!(names, table_names, "the commands");
    let mut compared = globals;
    for table in CLI.commands {
        compared += compare(table.name, table, evodb.find_subcommand(table.name).expect("compared above"));
    }
    // init alone has 25 flags; a table that lost its commands would pass the loops above.
    assert!(compared > 80, "compared {compared} arguments");
    println!("parser: {compared} clap arguments, each from the table");
}

/// A value of the flag's type, unlike its default; `variant` picks another one.
fn sample(value: Value, default: Option<&str>, possible: &[&'static str], variant: usize) -> String {
    if !possible.is_empty() {
        let mut others = possible.iter().filter(|v| Some(**v) != default);
        return others.nth(variant).or(possible.first()).expect("a possible value").to_string();
    }
    match value {
        Value::Switch => String::new(),
        Value::Text | Value::Path | Value::InputFile => format!("sample-{variant}"),
        Value::U16 | Value::U32 | Value::U64 | Value::Usize => format!("{}", 4000 + variant),
        Value::F64 => format!("{}.5", 40 + variant),
    }
}

/// `evodb <path…>` with every required positional and flag given.
fn base_argv(path: &[&'static str], table: &'static evodb_cli_spec::Command) -> Vec<String> {
    let mut argv: Vec<String> = std::iter::once("evodb").chain(path.iter().copied()).map(String::from).collect();
    argv.extend(table.positionals.iter().filter(|p| p.required).map(|p| sample(p.value, None, &[], 0)));
    for flag in table.flags.iter().filter(|f| f.required) {
        let possible: Vec<&str> = flag.possible_values.iter().map(|v| v.name).collect();
        argv.extend([format!("--{}", flag.name), sample(flag.value, flag.default, &possible, 0)]);
    }
    argv
}

fn parsed(argv: &[String]) -> String {
    match crate::cli::parse(argv, &crate::location::Environment::default()) {
        Ok(cli) => format!("{cli:?}"),
        Err(err) => panic!("{argv:?} does not parse: {err}"),
    }
}

/// Each flag and positional, given or changed, changes what the command receives: so `cli.rs` and the command modules
/// reads every one of them with the table's type (a wrong type or name would panic or be lost).
fn check_reaches(path: &[&'static str], table: &'static evodb_cli_spec::Command) -> usize {
    if !table.subcommands.is_empty() {
        return table.subcommands.iter().map(|sub| check_reaches(&[path, &[sub.name]].concat(), sub)).sum();
    }
    let base = base_argv(path, table);
    let before = parsed(&base);
    let mut checked = 0;
    for flag in table.flags.iter().chain(CLI.global_flags) {
        let possible: Vec<&str> = flag.possible_values.iter().map(|v| v.name).collect();
        let name = format!("--{}", flag.name);
        let mut argv = base.clone();
        if let Some(at) = argv.iter().position(|a| *a == name) {
            argv.drain(at..at + 2); // a required flag: given again below with another value
        }
        argv.push(name.clone());
        if flag.value != Value::Switch {
            argv.push(sample(flag.value, flag.default, &possible, usize::from(flag.required)));
        }
        assert_ne!(parsed(&argv), before, "{path:?} {name} does not reach the command's arguments");
        for alias in flag.aliases {
            let aliased: Vec<String> =
                argv.iter().map(|a| if *a == name { format!("--{alias}") } else { a.clone() }).collect();
            assert_eq!(parsed(&aliased), parsed(&argv), "--{alias} is {name}");
        }
        checked += 1;
    }
    for (i, positional) in table.positionals.iter().enumerate() {
        let mut argv = base.clone();
        let slot = 1 + path.len() + i;
        let changed = sample(positional.value, None, &[], 1);
        if slot < argv.len() && positional.required {
            argv[slot] = changed;
        } else {
            argv.insert(slot, changed);
        }
        assert_ne!(parsed(&argv), before, "{path:?} <{}> does not reach the command's arguments", positional.name);
        checked += 1;
    }
    checked
}

#[test]
fn every_flag_of_the_table_reaches_the_typed_arguments() {
    let checked: usize = CLI.commands.iter().map(|table| check_reaches(&[table.name], table)).sum();
    assert!(checked > 100, "checked {checked}");
    println!("parser: {checked} flags and positionals, each reaching its command");
}

#[test]
fn help_ends_with_the_tables_exit_codes() {
    let help = command().render_long_help().to_string();
    assert!(help.trim_end().ends_with(CLI.exit_codes_help().trim_end()), "{help}");
    for class in CLI.exit_codes {
        assert!(help.contains(&format!("{:>3}  ", class.code)), "exit {} is not in --help", class.code);
    }
}
