//! The shapes of the table: a command line as plain static data. Built with `const fn`s so the
//! table reads as a list of flags; serialized (camelCase, like the CLI's JSON) for the Node drop-in.

use serde::Serialize;

/// The whole command line of one program.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cli {
    pub name: &'static str,
    pub about: &'static str,
    pub long_about: &'static str,
    /// Flags every command takes (clap's `global`).
    pub global_flags: &'static [Flag],
    pub commands: &'static [Command],
    pub exit_codes: &'static [ExitClass],
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Command {
    pub name: &'static str,
    /// One line, no final period (clap's style).
    pub about: &'static str,
    /// `<command> --help`'s text when it says more than `about`.
    pub long_about: Option<&'static str>,
    /// Shown after the flags in `<command> --help` (the command's own exit codes).
    pub after_help: Option<&'static str>,
    /// Whether the Node drop-in (`node db-cli.mjs`) offers the command too.
    pub node: bool,
    pub positionals: &'static [Positional],
    pub flags: &'static [Flag],
    /// A command made of commands (`skill install`); one of them is required.
    pub subcommands: &'static [Command],
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Positional {
    /// Also its placeholder in usage lines: `<dbPath>`.
    pub name: &'static str,
    pub help: &'static str,
    pub value: Value,
    pub required: bool,
}

/// `--name <VALUE_NAME>`: a long flag (this CLI has no short ones).
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Flag {
    pub name: &'static str,
    /// Other names that mean the same flag, shown in help: `--islands` for `--numIslands`.
    pub aliases: &'static [&'static str],
    pub help: &'static str,
    pub value: Value,
    /// The placeholder in help and errors: `--status <STATUS>`; empty for a switch.
    pub value_name: &'static str,
    /// The value when the flag is absent, as it would be typed.
    pub default: Option<&'static str>,
    /// The only values accepted, each with its own help (empty: any value of the type).
    pub possible_values: &'static [PossibleValue],
    /// May be given more than once; each value is kept, in order.
    pub repeatable: bool,
    /// One occurrence may hold several values split on this: `--frozen 1,2`.
    pub delimiter: Option<char>,
    /// Flags (of the same command) that cannot be given together with this one.
    pub conflicts_with: &'static [&'static str],
    pub required: bool,
    /// Whether a value may start with `-` (`--changes "-- fixed"`).
    pub hyphen_values: HyphenValues,
}

/// What a value is; the parsers check the integer and number types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Value {
    /// A flag that takes no value: present or not.
    Switch,
    Text,
    /// A path used as given (a directory, a file written or served).
    Path,
    /// A file whose contents are read; `-` is standard input.
    InputFile,
    U16,
    U32,
    U64,
    Usize,
    F64,
}

impl Value {
    /// The largest value of an integer type (`usize` is taken as 64 bits).
    pub const fn integer_max(self) -> Option<u64> {
        match self {
            Value::U16 => Some(u16::MAX as u64),
            Value::U32 => Some(u32::MAX as u64),
            Value::U64 | Value::Usize => Some(u64::MAX),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum HyphenValues {
    /// `-x` after the flag is taken as another flag (clap's default).
    No,
    /// Any value, `-1` or `--fixed`, is the flag's value.
    Any,
    /// Only negative numbers are taken as the value.
    NegativeNumbers,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PossibleValue {
    pub name: &'static str,
    pub help: &'static str,
}

/// One exit code and what it means.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExitClass {
    pub code: u8,
    /// The class's name in code (`EXIT.badInput` in the drop-in).
    pub name: &'static str,
    /// Its line in `--help`; a `\n` continues it on an indented line.
    pub text: &'static str,
    /// The only commands that exit with it; empty: any command.
    pub commands: &'static [&'static str],
}

impl Flag {
    const fn new(name: &'static str, value: Value, value_name: &'static str, help: &'static str) -> Flag {
        Flag {
            name,
            aliases: &[],
            help,
            value,
            value_name,
            default: None,
            possible_values: &[],
            repeatable: false,
            delimiter: None,
            conflicts_with: &[],
            required: false,
            hyphen_values: HyphenValues::No,
        }
    }

    pub const fn switch(name: &'static str, help: &'static str) -> Flag {
        Flag::new(name, Value::Switch, "", help)
    }

    pub const fn text(name: &'static str, value_name: &'static str, help: &'static str) -> Flag {
        Flag::new(name, Value::Text, value_name, help)
    }

    pub const fn of(name: &'static str, value: Value, value_name: &'static str, help: &'static str) -> Flag {
        Flag::new(name, value, value_name, help)
    }

    pub const fn aliases(mut self, aliases: &'static [&'static str]) -> Flag {
        self.aliases = aliases;
        self
    }

    pub const fn default(mut self, value: &'static str) -> Flag {
        self.default = Some(value);
        self
    }

    pub const fn possible_values(mut self, values: &'static [PossibleValue]) -> Flag {
        self.possible_values = values;
        self
    }

    pub const fn repeatable(mut self) -> Flag {
        self.repeatable = true;
        self
    }

    pub const fn delimiter(mut self, delimiter: char) -> Flag {
        self.delimiter = Some(delimiter);
        self
    }

    pub const fn conflicts_with(mut self, flags: &'static [&'static str]) -> Flag {
        self.conflicts_with = flags;
        self
    }

    pub const fn required(mut self) -> Flag {
        self.required = true;
        self
    }

    pub const fn hyphen_values(mut self, hyphen_values: HyphenValues) -> Flag {
        self.hyphen_values = hyphen_values;
        self
    }
}

/// `parts` one after the other, for a command whose flags are made of shared groups.
pub const fn concat_flags<const N: usize>(parts: &[&[Flag]]) -> [Flag; N] {
    let mut flags = [Flag::switch("", ""); N];
    let (mut part, mut n) = (0, 0);
    while part < parts.len() {
        let mut i = 0;
        while i < parts[part].len() {
            flags[n] = parts[part][i];
            (i, n) = (i + 1, n + 1);
        }
        part += 1;
    }
    assert!(n == N, "concat_flags: N is not the number of flags");
    flags
}

impl Positional {
    pub const fn required(name: &'static str, value: Value, help: &'static str) -> Positional {
        Positional { name, help, value, required: true }
    }

    pub const fn optional(name: &'static str, value: Value, help: &'static str) -> Positional {
        Positional { name, help, value, required: false }
    }
}

impl Command {
    /// A command with nothing but its name and about line; the table fills in the rest.
    pub const fn new(name: &'static str, about: &'static str) -> Command {
        Command {
            name,
            about,
            long_about: None,
            after_help: None,
            node: false,
            positionals: &[],
            flags: &[],
            subcommands: &[],
        }
    }

    /// Offered by the Node drop-in too.
    pub const fn in_node(mut self) -> Command {
        self.node = true;
        self
    }

    pub const fn long_about(mut self, text: &'static str) -> Command {
        self.long_about = Some(text);
        self
    }

    pub const fn after_help(mut self, text: &'static str) -> Command {
        self.after_help = Some(text);
        self
    }

    pub const fn positionals(mut self, positionals: &'static [Positional]) -> Command {
        self.positionals = positionals;
        self
    }

    pub const fn flags(mut self, flags: &'static [Flag]) -> Command {
        self.flags = flags;
        self
    }

    pub const fn subcommands(mut self, subcommands: &'static [Command]) -> Command {
        self.subcommands = subcommands;
        self
    }

    pub fn flag(&self, name: &str) -> Option<&'static Flag> {
        self.flags.iter().find(|f| f.name == name)
    }
}

impl Cli {
    pub fn command(&self, name: &str) -> Option<&'static Command> {
        self.commands.iter().find(|c| c.name == name)
    }

    /// `Exit codes:` and one line per class: the block `evodb --help` prints after the commands.
    pub fn exit_codes_help(&self) -> String {
        let mut text = String::from("Exit codes:");
        for class in self.exit_codes {
            let text_lines = class.text.replace('\n', "\n     ");
            text.push_str(&format!("\n{:>3}  {text_lines}", class.code));
        }
        text
    }
}
