//! Typed values out of the parser's matches. The parser (`parser.rs`) is built from the
//! command-line table, so a required argument, or one with a default, is always there.

use clap::ArgMatches;

pub fn optional<T: Clone + Send + Sync + 'static>(m: &ArgMatches, name: &str) -> Option<T> {
    m.get_one::<T>(name).cloned()
}

/// A required argument, or one with a default.
pub fn required<T: Clone + Send + Sync + 'static>(m: &ArgMatches, name: &str) -> T {
    optional(m, name).unwrap_or_else(|| panic!("`{name}` is required or has a default in the table"))
}

pub fn list<T: Clone + Send + Sync + 'static>(m: &ArgMatches, name: &str) -> Vec<T> {
    m.get_many::<T>(name).map(|values| values.cloned().collect()).unwrap_or_default()
}

/// A subcommand's name and matches (`import openevolve`, `skill install`).
pub fn subcommand(m: &ArgMatches) -> (&str, &ArgMatches) {
    m.subcommand().expect("the parser requires a subcommand")
}
