//! The table as a Markdown page: `docs/cli.md`, the command-line reference. Generated, never
//! written by hand: `cli-spec/tests/docs.rs` fails when the committed page differs from
//! `to_markdown`'s text, and `UPDATE_DOCS=1 cargo test -p evodb-cli-spec` rewrites it.

use crate::model::{Cli, Command, Flag, Positional, Value};
use std::fmt::Write;

/// The whole reference: the commands in `--help` order, the flags every command takes, the exit
/// codes.
pub(crate) fn render(cli: &Cli) -> String {
    let mut out = String::new();
    let name = cli.name;
    let _ = writeln!(out, "# The `{name}` command line\n");
    let _ = writeln!(
        out,
        "<!-- Generated from the table in cli-spec/ (evodb_cli_spec::CLI); do not edit. \
         After changing the table: UPDATE_DOCS=1 cargo test -p evodb-cli-spec -->\n"
    );
    let _ = writeln!(out, "{}\n", inline(cli.long_about));
    let _ = writeln!(
        out,
        "Every command, flag, default and exit code below is read from the one table both CLIs are \
         built from: `{name}` and, for the commands marked *Node*, the skill's drop-in \
         `node skill/scripts/db-cli.mjs`. `{name} <command> --help` prints the same text.\n"
    );
    out.push_str("| command | what | Node |\n|---|---|---|\n");
    for (path, command) in walk(cli.commands) {
        let node = if command.node { "✓" } else { "" };
        let _ = writeln!(
            out,
            "| [`{name} {path}`](#{}) | {} | {node} |",
            slug(&format!("{name} {path}")),
            cell(command.about)
        );
    }
    let _ = writeln!(out, "\n[Flags every command takes](#flags-every-command-takes) · [Exit codes](#exit-codes)");

    for (path, command) in walk(cli.commands) {
        let _ = writeln!(out, "\n## `{name} {path}`\n");
        let _ = writeln!(out, "{}.\n", inline(command.about));
        if command.node {
            let _ = writeln!(out, "Also in the Node drop-in.\n");
        }
        let _ = writeln!(out, "```text\n{}\n```\n", usage(name, &path, command));
        if let Some(text) = command.long_about {
            let _ = writeln!(out, "```text\n{}\n```\n", text.trim_end());
        }
        if !command.subcommands.is_empty() {
            let subs: Vec<String> = command
                .subcommands
                .iter()
                .map(|sub| {
                    let full = format!("{name} {path} {}", sub.name);
                    format!("[`{full}`](#{})", slug(&full))
                })
                .collect();
            let _ = writeln!(out, "Subcommands: {}.\n", subs.join(", "));
        }
        if !command.positionals.is_empty() {
            out.push_str("| argument | what |\n|---|---|\n");
            for p in command.positionals {
                let _ = writeln!(out, "| `{}` | {} |", positional(p), cell(p.help));
            }
            out.push('\n');
        }
        if !command.flags.is_empty() {
            flag_table(&mut out, command.flags);
            out.push('\n');
        }
        if let Some(text) = command.after_help {
            let _ = writeln!(out, "```text\n{}\n```\n", text.trim_end());
        }
    }

    out.push_str("\n## Flags every command takes\n\n");
    out.push_str(
        "The sandbox's limits and the PostgreSQL store; the Node drop-in keeps the limits as far as Node can.\n\n",
    );
    flag_table(&mut out, cli.global_flags);

    out.push_str("\n## Exit codes\n\n| code | name | meaning | only for |\n|---|---|---|---|\n");
    for class in cli.exit_codes {
        let only: Vec<String> = class.commands.iter().map(|c| format!("`{c}`")).collect();
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} |",
            class.code,
            class.name,
            cell(&class.text.replace('\n', " ")),
            only.join(", ")
        );
    }
    while out.contains("\n\n\n") {
        out = out.replace("\n\n\n", "\n\n");
    }
    out
}

/// Every command and subcommand with its path (`skill install`), parents first.
fn walk(commands: &'static [Command]) -> Vec<(String, &'static Command)> {
    fn go(prefix: &str, commands: &'static [Command], out: &mut Vec<(String, &'static Command)>) {
        for command in commands {
            let path = format!("{prefix}{}", command.name);
            out.push((path.clone(), command));
            go(&format!("{path} "), command.subcommands, out);
        }
    }
    let mut out = Vec::new();
    go("", commands, &mut out);
    out
}

fn usage(name: &str, path: &str, command: &Command) -> String {
    let mut line = format!("{name} {path}");
    if !command.subcommands.is_empty() {
        line.push_str(" <command>");
    }
    for p in command.positionals {
        line.push(' ');
        line.push_str(&positional(p));
    }
    for flag in command.flags.iter().filter(|f| f.required) {
        let _ = write!(line, " --{} <{}>", flag.name, flag.value_name);
    }
    if command.flags.iter().any(|f| !f.required) || command.subcommands.is_empty() {
        line.push_str(" [flags]");
    }
    line
}

fn positional(p: &Positional) -> String {
    if p.required { format!("<{}>", p.name) } else { format!("[{}]", p.name) }
}

fn flag_table(out: &mut String, flags: &[Flag]) {
    out.push_str("| flag | value | default | what |\n|---|---|---|---|\n");
    for flag in flags {
        let mut names = format!("`--{}`", flag.name);
        for alias in flag.aliases {
            let _ = write!(names, ", `--{alias}`");
        }
        let value = match flag.value {
            Value::Switch => String::new(),
            _ => format!("`{}`", code(flag.value_name)),
        };
        let default = flag.default.map(|d| format!("`{}`", code(d))).unwrap_or_default();
        let mut what = cell(flag.help);
        if flag.required {
            what.push_str(". Required");
        }
        if flag.repeatable {
            what.push_str(match flag.delimiter {
                Some(',') => ". Repeatable, or comma-separated",
                _ => ". Repeatable",
            });
        }
        if !flag.conflicts_with.is_empty() {
            let others: Vec<String> = flag.conflicts_with.iter().map(|o| format!("`--{o}`")).collect();
            let _ = write!(what, ". Not with {}", others.join(", "));
        }
        if !flag.possible_values.is_empty() {
            let values: Vec<String> =
                flag.possible_values.iter().map(|v| format!("`{}`: {}", code(v.name), cell(v.help))).collect();
            let _ = write!(what, ". One of: {}", values.join("; "));
        }
        let _ = writeln!(out, "| {names} | {value} | {default} | {what} |");
    }
}

/// A heading's anchor as GitHub makes it (lower case; letters, digits, `-` and `_` kept; spaces
/// become `-`).
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Text for a table cell: one line, `|` escaped, and outside `code spans` the characters Markdown
/// would read as markup (`<tag>`, `*emphasis*`) escaped.
fn cell(text: &str) -> String {
    inline(&text.replace('\n', " "))
}

/// Markdown for plain help text: outside `code spans`, `<`, `>` and `*` escaped; `|` escaped
/// everywhere (a table cell ends at a bare one, even inside code).
fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(&part.replace('|', "\\|"));
            continue;
        }
        for c in part.chars() {
            match c {
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '*' => out.push_str("\\*"),
                '|' => out.push_str("\\|"),
                c => out.push(c),
            }
        }
    }
    out
}

/// A value inside a `code span` in a table cell.
fn code(text: &str) -> String {
    text.replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::{inline, slug};

    #[test]
    fn slugs_are_githubs() {
        assert_eq!(slug("evodb skill install"), "evodb-skill-install");
        assert_eq!(slug("evodb should-stop"), "evodb-should-stop");
    }

    #[test]
    fn markup_is_escaped_outside_code_only() {
        assert_eq!(
            inline("a <CUSTOMIZE: …> marker, `x | y` and *.sh"),
            "a &lt;CUSTOMIZE: …&gt; marker, `x \\| y` and \\*.sh"
        );
    }
}
