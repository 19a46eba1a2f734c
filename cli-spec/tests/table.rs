//! The table holds together, and the copy the Node drop-in reads is this table.

use evodb_cli_spec::{CLI, Command, Flag, HyphenValues, Value};

/// Every command, subcommands included, with its path (`skill install`).
fn commands() -> Vec<(String, &'static Command)> {
    fn walk(prefix: &str, commands: &'static [Command], out: &mut Vec<(String, &'static Command)>) {
        for command in commands {
            let path = format!("{prefix}{}", command.name);
            out.push((path.clone(), command));
            walk(&format!("{path} "), command.subcommands, out);
        }
    }
    let mut out = Vec::new();
    walk("", CLI.commands, &mut out);
    out
}

#[test]
fn the_skills_cli_json_is_the_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../skill/scripts/evodb-wasm/cli.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == evodb_cli_spec::to_json(),
        "{path} is not the table's JSON: run wasm/build.sh (or \
         `cargo run -p evodb-cli-spec --bin dump-cli-spec > skill/scripts/evodb-wasm/cli.json`) and commit it"
    );
}

#[test]
fn names_are_unique_and_conflicts_and_aliases_name_real_flags() {
    let mut every_name: Vec<&str> = Vec::new();
    for (path, command) in commands() {
        let flags: Vec<&Flag> = command.flags.iter().chain(CLI.global_flags).collect();
        let mut names: Vec<&str> =
            flags.iter().flat_map(|f| std::iter::once(f.name).chain(f.aliases.iter().copied())).collect();
        names.extend(command.positionals.iter().map(|p| p.name));
        every_name.extend(&names);
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "{path}: a flag, alias or positional name is used twice");
        for flag in command.flags {
            for other in flag.conflicts_with {
                assert!(command.flag(other).is_some(), "{path} --{}: conflicts with an unknown --{other}", flag.name);
            }
        }
    }
    assert!(every_name.len() > 80, "the table lost its flags: {every_name:?}");
}

#[test]
fn flags_are_consistent_with_their_value_type() {
    for (path, command) in commands() {
        for flag in command.flags.iter().chain(CLI.global_flags) {
            let what = format!("{path} --{}", flag.name);
            assert!(!flag.help.is_empty() && !flag.help.ends_with('.'), "{what}: help is one line without a period");
            if flag.value == Value::Switch {
                assert!(flag.value_name.is_empty() && flag.default.is_none() && !flag.repeatable, "{what}: a switch");
                continue;
            }
            assert!(!flag.value_name.is_empty(), "{what}: no value name");
            if flag.value == Value::InputFile {
                assert!(flag.help.contains("- for standard input"), "{what}: help does not say - is standard input");
            }
            if flag.delimiter.is_some() {
                assert!(flag.repeatable, "{what}: a delimited flag is repeatable");
            }
            if flag.hyphen_values == HyphenValues::NegativeNumbers {
                assert_eq!(flag.value, Value::F64, "{what}: negative numbers of an unsigned type");
            }
            if let Some(default) = flag.default {
                let names: Vec<&str> = flag.possible_values.iter().map(|v| v.name).collect();
                assert!(names.is_empty() || names.contains(&default), "{what}: default not among {names:?}");
            }
        }
    }
}

#[test]
fn the_node_drop_in_offers_the_seed_clis_commands() {
    let node: Vec<String> = commands().into_iter().filter(|(_, c)| c.node).map(|(path, _)| path).collect();
    let expected = [
        "create",
        "info",
        "seed",
        "add",
        "sample",
        "best",
        "init",
        "stats",
        "validate",
        "export",
        "lineage",
        "history",
        "plan",
        "heartbeat",
        "leases",
        "should-stop",
        "note",
        "notes",
        "remeasure",
        "admit",
    ];
    assert_eq!(node, expected);
}

#[test]
fn exit_codes_are_unique_and_name_real_commands() {
    let codes: Vec<u8> = CLI.exit_codes.iter().map(|c| c.code).collect();
    assert_eq!(codes, [0, 1, 2, 3, 4, 5, 6, 70, 130]);
    for class in CLI.exit_codes {
        for command in class.commands {
            assert!(CLI.command(command).is_some(), "exit {}: unknown command {command}", class.code);
        }
    }
}
