//! Where a command's database lives: a directory, or a run in PostgreSQL. `<dbPath>` may be a
//! `postgres://` URL; `--store URL` (or `EVODB_STORE`) stands in for a `<dbPath>` left out, and
//! `--run NAME` (or `EVODB_RUN`) names the run. Any other `scheme://` is refused before anything
//! is created (`evodb_host::postgres::form`), so a mistyped URL never becomes a directory.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use evodb_cli_spec::{CLI, Value};
use evodb_host::postgres::{Deadline, Form, PgFiles, PgRun, PgUrl, closest_name, form, shown_location};
use evodb_host::{Access, DirectoryFiles, Files};

use crate::failure::Failure;

/// Where a database lives: the one place that knows every kind of store. Each kind implements
/// [`Files`] (the component's `files` import); everything past [`Location::open`] works on that.
#[derive(Clone, Debug)]
pub enum Location {
    Directory(PathBuf),
    Postgres(Box<PgRun>),
}

/// A location opened for one operation.
pub struct Opened {
    pub files: Box<dyn Files>,
    /// The location as the user named it (a run without its password), for messages.
    pub shown: String,
    /// When the operation's time budget ends, when it began before the component's call (a
    /// PostgreSQL operation waits for its run's lock first).
    pub deadline: Option<Deadline>,
}

impl Location {
    /// The location opened for one operation. A directory is resolved, and created and locked for
    /// writers; a reader of a missing directory reads nothing (the same answer as an empty
    /// database). A PostgreSQL run is opened in a transaction, locked for writers, within
    /// `budget` (or by `deadline`); a run that does not exist is refused (exit 3), unless a
    /// writer `creates` it.
    pub fn open(
        &self,
        access: Access,
        creates: bool,
        budget: Duration,
        deadline: Option<Deadline>,
    ) -> Result<Opened, Failure> {
        match self {
            Location::Directory(path) => {
                let files = DirectoryFiles::open(path, access)?;
                if let Some(repair) = files.repaired() {
                    eprintln!("warning: {repair}");
                }
                Ok(Opened { files: Box::new(files), shown: format!("`{}`", path.display()), deadline: None })
            }
            Location::Postgres(run) => {
                let writable = access == Access::Write;
                let mut files = match deadline {
                    Some(deadline) => PgFiles::open_until(run, writable, deadline)?,
                    None => PgFiles::open_within(run, writable, budget)?,
                };
                if !files.holds_database() && (access == Access::Read || !creates) {
                    return Err(no_run(run, &mut files, access));
                }
                let deadline = files.deadline();
                Ok(Opened { files: Box::new(files), shown: run.shown(), deadline })
            }
        }
    }

    /// The files of a location resolved before (`evodb view` reads them on every request): a
    /// directory as it is now, without a lock; a run that is gone is refused (exit 3).
    pub fn open_reader(&self) -> Result<Box<dyn Files>, Failure> {
        match self {
            Location::Directory(dir) => Ok(Box::new(DirectoryFiles::read_only(Some(dir), dir))),
            Location::Postgres(run) => {
                let mut files = PgFiles::open(run, false)?;
                match files.holds_database() {
                    true => Ok(Box::new(files)),
                    false => Err(no_run(run, &mut files, Access::Read)),
                }
            }
        }
    }

    /// `text` without the location's password in it (a server's message may quote it).
    pub fn redact(&self, text: &str) -> String {
        match self {
            Location::Directory(_) => text.to_string(),
            Location::Postgres(run) => run.url.redact(text),
        }
    }

    /// The location as messages show it (a run without its password).
    pub fn shown(&self) -> String {
        match self {
            Location::Directory(dir) => dir.display().to_string(),
            Location::Postgres(run) => run.shown(),
        }
    }
}

/// Exit 3 for a run that is not there: never made, or deleted. A reader of a missing directory
/// answers as the seed's CLI does, with an empty database, and a writer makes it; a run has no
/// such contract, and an empty answer (or a new run with the default config) would hide a typo
/// in --run or a deleted run. Names the closest run there, and the runs most recently changed.
pub fn no_run(run: &PgRun, files: &mut PgFiles, access: Access) -> Failure {
    let names = files.run_names(10_000);
    let close = match closest_name(&run.name, names.iter().map(String::as_str)) {
        Some(close) => format!(" (did you mean `{}`?)", close.escape_debug()),
        None => String::new(),
    };
    let others = match names.as_slice() {
        [] => "; that database holds no run yet".to_string(),
        names => format!(
            "; the runs there, most recently changed first: {}{}",
            names.iter().take(10).map(|name| format!("`{}`", name.escape_debug())).collect::<Vec<_>>().join(", "),
            if names.len() > 10 { ", … (evodb runs --store URL lists them all)" } else { "" }
        ),
    };
    let nothing = match access {
        Access::Write => "; nothing was created",
        Access::Read => "",
    };
    Failure::NotFound(format!(
        "no run named `{}` at {}{close}: it was never made, or it was deleted{nothing}; check --run (or EVODB_RUN){others}. \
         To make it, run `evodb init` (or `seed`, `create`, `ideas`, `import`, `copy`) with this --run",
        run.name.escape_debug(),
        run.url.shown()
    ))
}

/// The environment variables evodb reads, read once (by `main`): no command reads the
/// environment itself.
#[derive(Clone, Debug, Default)]
pub struct Environment {
    /// `EVODB_STORE`, when set and not empty: the store standing in for a `<dbPath>` left out.
    pub store: Option<OsString>,
    /// `EVODB_RUN`, when set and not empty: the run, when `--run` is not given.
    pub run: Option<String>,
    /// `EVODB_SERVE=off`: never hand a command to `evodb serve`.
    pub serve_off: bool,
    /// `HOME`: where `evodb setup` finds a host's user configuration.
    pub home: Option<std::path::PathBuf>,
}

impl Environment {
    pub fn read() -> Environment {
        Environment {
            store: std::env::var_os("EVODB_STORE").filter(|value| !value.is_empty()),
            run: std::env::var("EVODB_RUN").ok().filter(|run| !run.is_empty()),
            serve_off: std::env::var_os("EVODB_SERVE").is_some_and(|value| value == "off"),
            home: std::env::var_os("HOME").filter(|value| !value.is_empty()).map(Into::into),
        }
    }
}

/// The PostgreSQL flags, as every command receives them.
#[derive(Clone, Debug, Default)]
pub struct StoreArgs {
    /// `--store` as given on the command line (not from the environment).
    pub store: Option<String>,
    pub run: Option<String>,
    pub connect_timeout_secs: u64,
    /// `EVODB_STORE` when it stood in for a `<dbPath>` left out (no `--store`): a location with
    /// this text came from the environment, and must be a PostgreSQL URL.
    pub env_store: Option<OsString>,
    /// `EVODB_RUN`, standing in for `--run` left out.
    pub env_run: Option<String>,
}

impl StoreArgs {
    /// The location `<dbPath>` (or the store standing in for it) names. A `scheme://` that is not
    /// PostgreSQL's is a usage error, as is `--store` or `EVODB_STORE` naming anything but a
    /// PostgreSQL URL; no message shows a password.
    pub fn locate(&self, db: &Path) -> Result<Location, Failure> {
        if let Some(store) = &self.store {
            store_form(store.as_bytes(), "--store")?;
        }
        let from_env = self.store.is_none() && self.env_store.as_deref() == Some(db.as_os_str());
        let what = if from_env { "EVODB_STORE" } else { "<dbPath>" };
        let is_postgres = form(db.as_os_str().as_bytes(), what).map_err(Failure::Usage)? == Form::Postgres;
        if from_env && !is_postgres {
            store_form(db.as_os_str().as_bytes(), "EVODB_STORE")?;
        }
        let text = db.to_str().filter(|_| is_postgres);
        if let Some(store) = &self.store
            && text != Some(store.as_str())
        {
            return Err(Failure::Usage(format!(
                "both <dbPath> `{}` and --store were given; pass one of them",
                shown(db)
            )));
        }
        let Some(text) = text else {
            if self.run.is_some() {
                return Err(Failure::Usage(format!(
                    "--run names a run in PostgreSQL, but `{}` is a directory; leave --run out, or pass --store",
                    shown(db)
                )));
            }
            return Ok(Location::Directory(db.to_path_buf()));
        };
        let url = PgUrl::parse(text, Duration::from_secs(self.connect_timeout_secs)).map_err(Failure::Usage)?;
        let run = self.run.clone().or_else(|| self.env_run.clone());
        let run = run.ok_or_else(|| {
            Failure::Usage(format!("{} holds many runs: pass --run NAME (or set EVODB_RUN) to say which", url.shown()))
        })?;
        Ok(Location::Postgres(Box::new(PgRun::new(url, &run).map_err(Failure::Usage)?)))
    }
}

/// `--store` and `EVODB_STORE` name a PostgreSQL URL, nothing else (a directory is a `<dbPath>`).
fn store_form(text: &[u8], what: &str) -> Result<(), Failure> {
    match form(text, what).map_err(Failure::Usage)? {
        Form::Postgres => Ok(()),
        Form::Directory => Err(Failure::Usage(format!(
            "{what} `{}` is not a PostgreSQL URL; {what} takes postgres://user@host:port/dbname (or \
             postgresql://); for a directory, pass it as <dbPath> and leave {what} out",
            shown_location(&String::from_utf8_lossy(text))
        ))),
    }
}

/// A `<dbPath>` as messages show it: never with a password.
pub fn shown(db: &Path) -> String {
    shown_location(&db.to_string_lossy())
}

/// With `--store URL` or `EVODB_STORE` (`env_store`) and a command's `<dbPath>` left out, the
/// URL is put in its place, so the parser and every command see one location. A `<dbPath>` that
/// is given always wins over `EVODB_STORE`.
pub fn with_store_as_db_path(mut argv: Vec<OsString>, env_store: Option<&OsString>) -> Vec<OsString> {
    let flag_store = argv.iter().enumerate().find_map(|(i, arg)| {
        let arg = arg.to_str()?;
        match arg.strip_prefix("--store") {
            Some("") => argv.get(i + 1).cloned(),
            Some(rest) => rest.strip_prefix('=').map(OsString::from),
            None => None,
        }
    });
    let Some(store) = flag_store.or_else(|| env_store.cloned()) else {
        return argv;
    };
    let takes_value = |flags: &[evodb_cli_spec::Flag], name: &str| {
        flags.iter().any(|f| (f.name == name || f.aliases.contains(&name)) && f.value != Value::Switch)
    };
    // The command: the first argument that is not a global flag or its value.
    let mut i = 1;
    while i < argv.len() {
        let Some(arg) = argv[i].to_str() else { return argv };
        match arg.strip_prefix("--") {
            Some(name) if !name.contains('=') && takes_value(CLI.global_flags, name) => i += 2,
            Some(_) => i += 1,
            None => break,
        }
    }
    let Some(spec) = argv.get(i).and_then(|a| a.to_str()).and_then(|name| CLI.commands.iter().find(|c| c.name == name))
    else {
        return argv;
    };
    if spec.positionals.first().is_none_or(|p| p.name != "dbPath") {
        return argv;
    }
    let mut given = 0;
    let mut j = i + 1;
    while j < argv.len() {
        match argv[j].to_str().and_then(|a| a.strip_prefix("--")) {
            Some("") => {
                given += argv.len() - j - 1;
                break;
            }
            Some(name)
                if !name.contains('=') && (takes_value(spec.flags, name) || takes_value(CLI.global_flags, name)) =>
            {
                j += 2;
            }
            Some(_) => j += 1,
            None => {
                given += 1;
                j += 1;
            }
        }
    }
    if given < spec.positionals.len() {
        argv.insert(i + 1, store);
    }
    argv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_store_flag_takes_the_place_of_a_missing_db_path() {
        let url = "postgres://u@h/d";
        let cases: [(&[&str], &[&str]); 5] = [
            (&["evodb", "info", "--store", url], &["evodb", "info", url, "--store", url]),
            (&["evodb", "--store", url, "lineage", "abc"], &["evodb", "--store", url, "lineage", url, "abc"]),
            (&["evodb", "add", "--store=x", "--changes", "c"], &["evodb", "add", "x", "--store=x", "--changes", "c"]),
            // Both given: left for the command to refuse.
            (&["evodb", "info", "dir", "--store", url], &["evodb", "info", "dir", "--store", url]),
            (
                &["evodb", "plan", "--store", url, "--frozen", "1", "4"],
                &["evodb", "plan", url, "--store", url, "--frozen", "1", "4"],
            ),
        ];
        for (given, expected) in cases {
            assert_eq!(with_store_as_db_path(args(given), None), args(expected), "{given:?}");
        }
    }
}
